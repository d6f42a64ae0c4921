/*
 * ids.h — the identifiers and names that come in from outside, checked at the edge: game and endpoint ids
 * (UUIDs) and players' names.
 */
#ifndef CD_IDS_H
#define CD_IDS_H

#include <stdbool.h>
#include <stddef.h>

/* A UUID in its 36-character text form (any case). */
bool cd_uuid_valid(const char *s);

#define CD_NAME_MAX 64   /* characters (code points) */
#define CD_NAME_BYTES (4 * CD_NAME_MAX)   /* the most a name's UTF-8 takes */
/* A player's name: 1 to CD_NAME_MAX characters of UTF-8 on one line, not only white space, no control,
 * bidirectional control or noncharacter (base/utf8.h). Otherwise false with why, which names field. */
bool cd_name_ok(const char *s, const char *field, char *why, size_t whylen);

#endif
