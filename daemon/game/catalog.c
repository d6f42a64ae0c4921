/*
 * catalog.c — see catalog.h.
 */
#include "catalog.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static carc_catalog *catalog;   /* read-only once loaded */
static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;

static void catalog_load(void)
{
    char err[256];
    catalog = malloc(sizeof *catalog);
    if (!catalog || carc_catalog_load(catalog, err, sizeof err) != 0) {
        fprintf(stderr, "carcd: tile data: %s\n", catalog ? err : "out of memory");
        abort();
    }
}

const carc_catalog *cd_catalog(void)
{
    pthread_once(&catalog_once, catalog_load);
    return catalog;
}
