/*
 * build_info.c — see build_info.h. CARCD_VERSION and CARCD_COMMIT come from CMakeLists.txt.
 */
#include "build_info.h"

#ifndef CARCD_VERSION
#define CARCD_VERSION "unknown"
#endif
#ifndef CARCD_COMMIT
#define CARCD_COMMIT "unknown"
#endif

const char *cd_build_version(void)
{
    return CARCD_VERSION;
}

const char *cd_build_commit(void)
{
    return CARCD_COMMIT;
}
