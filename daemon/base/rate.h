/*
 * rate.h — token buckets for rate limits, in a fixed-size table: pure (no clock, no I/O: the caller gives
 * the time), shared by threads (one mutex per table).
 *
 * A bucket holds up to `burst` tokens and gains `per_minute` / 60 tokens a second; an action takes one, and
 * is refused when the bucket has less than one, with the seconds until it will have one. Buckets are found
 * by a 64-bit key (the caller's keyed hash of an address or token: rate.c never sees the text).
 *
 * Bounded memory: a table has a fixed number of slots (CD_RATE_WAYS per set, 24 bytes each), allocated once,
 * never grown. A key that is not in its set takes the slot whose bucket would be fullest now — a full bucket
 * carries no information, so evicting it loses nothing; only when every slot of the set is in debt does a
 * debtor (the least indebted) lose its record, and its next action starts from a full bucket. So a spray of
 * new addresses costs nothing but evictions of idle buckets, and cannot grow memory; what it can do, when it
 * fills whole sets with debtors, is let an evicted debtor start afresh. Cost: one set of 8 slots (192 bytes,
 * three cache lines) scanned under the table's mutex per action, a few tens of nanoseconds.
 */
#ifndef CD_RATE_H
#define CD_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_RATE_WAYS 8

/* A limit: `burst` tokens at most, `per_minute` added a minute. burst 0: no limit. */
typedef struct {
    double burst;
    double per_minute;
} cd_rate_spec;

/* Parses "BURST/PER_MINUTE" (whole numbers, e.g. "20/120") or "0" (no limit) into out; false with err. */
bool cd_rate_spec_parse(const char *s, size_t n, cd_rate_spec *out, char *err, size_t errlen);

/* A CARCD_RATE_* value: "SPEC" for both the per-address and the per-key bucket, or "SPEC,SPEC" (the address's,
 * then the key's), each SPEC as cd_rate_spec_parse takes it. */
bool cd_rate_pair_parse(const char *s, cd_rate_spec *addr, cd_rate_spec *key, char *err, size_t errlen);

typedef struct cd_rate_table cd_rate_table;

/* A table of at least `slots` buckets (rounded up to a power of two times CD_RATE_WAYS) under `spec`; NULL
 * when the spec is no limit (a NULL table allows everything). Aborts when out of memory. */
cd_rate_table *cd_rate_table_new(cd_rate_spec spec, size_t slots);
void cd_rate_table_free(cd_rate_table *t);
/* Bytes the table holds (for the cost comment's figure and tests). */
size_t cd_rate_table_bytes(const cd_rate_table *t);

/* Takes one token from key's bucket at time `now` (seconds, any monotonic origin). True when it had one
 * (or t is NULL); false, with *retry_after the seconds until it will have one, when it had not. A refused
 * action takes nothing. key 0 is used as 1 (0 marks an empty slot). */
bool cd_rate_take(cd_rate_table *t, uint64_t key, double now, double *retry_after);

#endif
