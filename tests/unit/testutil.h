/*
 * testutil.h — helpers shared by the Check unit tests.
 */
#ifndef CARC_TESTUTIL_H
#define CARC_TESTUTIL_H

#include <check.h>

#include "carc.h"

/* Every expansion's bit of carc_setup.expansions: the four together. */
#define TU_ALL_EXPANSIONS                                                                                     \
    (1u << CARC_SET_HILLS_SHEEP | 1u << CARC_SET_CROP_CIRCLES | 1u << CARC_SET_FRUIT_TREES |                   \
     1u << CARC_SET_HALFLINGS)

/* The built-in catalog, loaded once per test process (aborts the test on a load error). */
const carc_catalog *tu_catalog(void);
/* Applies mv to a copy of st and returns carc_apply's code; a refused move must leave the copy unchanged,
 * make no events and name its reason (the engine's contract, carc.h). st itself never changes. */
int tu_apply_copy(const carc_state *st, int seat, const carc_move *mv);
/* Runs a suite in fork mode and returns the process exit status for main(). */
int tu_run(Suite *s);

#endif
