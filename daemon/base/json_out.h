/*
 * json_out.h — json_dumps without its per-container costs, byte for byte the same text.
 *
 * jansson 2.14's json_dumps puts every object and array it enters into a hash table of "%p" strings (its
 * loop check: an snprintf and an allocation each) and writes every integer through snprintf; on the hot
 * paths (the snapshot of every move, every JSON answer) that was a fifth of carcd's CPU. cd_json_dumps
 * writes the same bytes for the flags carcd uses (JSON_COMPACT, JSON_ENCODE_ANY, JSON_ESCAPE_SLASH,
 * JSON_SORT_KEYS, JSON_REAL_PRECISION): the same escapes, keys in the same order (insertion order, or jansson's
 * sort), integers in decimal; reals, and
 * strings holding any non-ASCII byte (jansson checks their UTF-8), are written by jansson itself. Any other
 * flag: jansson's text (json_dumpb). The trees carcd encodes have no loops (the check only makes jansson fail
 * on one).
 * Returns a malloc'd string (free() it), or NULL where json_dumps gives NULL. The daemon writes JSON text
 * only through this: json_dumps's string comes from jansson's allocator, which inside a request is the
 * request's arena (json_arena.h), so free() must never see it. Built with
 * -DCD_JSON_OUT_CHECK, every call also runs json_dumps and aborts on any difference (the e2e tests and
 * bench/run-http-bench.sh passed that way).
 */
#ifndef CARCD_JSON_OUT_H
#define CARCD_JSON_OUT_H

#include <jansson.h>

char *cd_json_dumps(const json_t *json, size_t flags);
/* The flags of carcd's JSON replies (cd_reply_json), for a body encoded ahead of its reply. */
#define CD_REPLY_JSON_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15))

#endif
