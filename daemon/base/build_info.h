/*
 * build_info.h — what this carcd binary is: its version and the git commit it was configured from
 * (CMakeLists.txt; "unknown" when it was built outside a git checkout). GET /metrics says both in
 * carcd_build_info.
 */
#ifndef CD_BUILD_INFO_H
#define CD_BUILD_INFO_H

const char *cd_build_version(void);
const char *cd_build_commit(void);

#endif
