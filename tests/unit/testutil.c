/*
 * testutil.c — helpers shared by the Check unit tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

const carc_catalog *tu_catalog(void)
{
    static carc_catalog *cat;   /* test-process cache; the engine itself keeps no globals */
    if (!cat) {
        char err[256];
        cat = malloc(sizeof *cat);
        if (!cat || carc_catalog_load(cat, err, sizeof err) != 0) {
            fprintf(stderr, "catalog: %s\n", cat ? err : "out of memory");
            abort();
        }
    }
    return cat;
}

int tu_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int tu_apply_copy(const carc_state *st, int seat, const carc_move *mv)
{
    carc_state *c = malloc(sizeof *c);
    ck_assert_ptr_nonnull(c);
    memcpy(c, st, sizeof *c);
    char err[256] = "";
    carc_events ev = {0};
    int rc = carc_apply(c, seat, mv, &ev, err, sizeof err);
    if (rc != 0) {
        if (memcmp(c, st, sizeof *c) != 0)
            ck_abort_msg("a refused move changed the state");
        if (ev.n != 0)
            ck_abort_msg("a refused move made events");
        if (!err[0])
            ck_abort_msg("a refusal names its reason");
    }
    carc_events_free(&ev);
    free(c);
    return rc;
}
