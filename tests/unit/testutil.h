/*
 * testutil.h — helpers shared by the Check unit tests.
 */
#ifndef CARC_TESTUTIL_H
#define CARC_TESTUTIL_H

#include <check.h>

#include "carc.h"

/* The built-in catalog, loaded once per test process (aborts the test on a load error). */
const carc_catalog *tu_catalog(void);
/* Runs a suite in fork mode and returns the process exit status for main(). */
int tu_run(Suite *s);

#endif
