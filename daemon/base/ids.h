/*
 * ids.h — the identifiers and names that come in from outside, checked at the edge: game and endpoint ids
 * (UUIDs) and players' names.
 */
#ifndef CD_IDS_H
#define CD_IDS_H

#include <stdbool.h>

/* A UUID in its 36-character text form (any case). */
bool cd_uuid_valid(const char *s);
#define CD_NAME_MAX 64
/* A player's name: 1 to CD_NAME_MAX bytes, no control characters. */
bool cd_name_ok(const char *s);

#endif
