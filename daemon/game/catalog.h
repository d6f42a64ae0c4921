/*
 * catalog.h — the tile catalog of the process: every tile set of engine/tiles/, compiled in, loaded once.
 */
#ifndef CD_CATALOG_H
#define CD_CATALOG_H

#include "carc.h"

/* The catalog, loaded once per process (read-only afterwards). Aborts if the built-in data is broken. */
const carc_catalog *cd_catalog(void);

#endif
