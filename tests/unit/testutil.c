/*
 * testutil.c — helpers shared by the Check unit tests.
 */
#include <stdio.h>
#include <stdlib.h>

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
