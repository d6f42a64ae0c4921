/*
 * rate.c — token buckets in a fixed-size set-associative table (see rate.h).
 */
#include "rate.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t key;     /* 0: empty */
    double tokens;    /* at time t */
    double t;
} slot;

struct cd_rate_table {
    pthread_mutex_t mu;
    cd_rate_spec spec;
    double per_s;
    size_t nsets;     /* a power of two */
    slot *slots;      /* nsets * CD_RATE_WAYS */
};

static bool parse_whole(const char *s, size_t n, double *out)
{
    if (n == 0 || n > 12)
        return false;
    double v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

bool cd_rate_spec_parse(const char *s, size_t n, cd_rate_spec *out, char *err, size_t errlen)
{
    *out = (cd_rate_spec){0, 0};
    if (n == 1 && s[0] == '0')
        return true;
    const char *slash = memchr(s, '/', n);
    double burst, per_min;
    if (!slash || !parse_whole(s, (size_t)(slash - s), &burst) ||
        !parse_whole(slash + 1, n - (size_t)(slash - s) - 1, &per_min)) {
        snprintf(err, errlen, "expected BURST/PER_MINUTE (whole numbers, e.g. 20/120) or 0 for no limit, got \"%.*s\"",
                 (int)n, s);
        return false;
    }
    if (burst < 1 || per_min < 1) {
        snprintf(err, errlen, "\"%.*s\": burst and per-minute must be at least 1 (0 alone: no limit)", (int)n, s);
        return false;
    }
    *out = (cd_rate_spec){burst, per_min};
    return true;
}

bool cd_rate_pair_parse(const char *s, cd_rate_spec *addr, cd_rate_spec *key, char *err, size_t errlen)
{
    const char *comma = strchr(s, ',');
    size_t n1 = comma ? (size_t)(comma - s) : strlen(s);
    if (!cd_rate_spec_parse(s, n1, addr, err, errlen))
        return false;
    if (!comma) {
        *key = *addr;
        return true;
    }
    return cd_rate_spec_parse(comma + 1, strlen(comma + 1), key, err, errlen);
}

cd_rate_table *cd_rate_table_new(cd_rate_spec spec, size_t slots)
{
    if (spec.burst <= 0)
        return NULL;
    cd_rate_table *t = calloc(1, sizeof *t);
    size_t nsets = 1;
    while (nsets * CD_RATE_WAYS < slots)
        nsets *= 2;
    if (!t || !(t->slots = calloc(nsets * CD_RATE_WAYS, sizeof *t->slots)))
        abort();   /* out of memory: carcd's policy (docs/STYLE.md) */
    pthread_mutex_init(&t->mu, NULL);
    t->spec = spec;
    t->per_s = spec.per_minute / 60.0;
    t->nsets = nsets;
    return t;
}

void cd_rate_table_free(cd_rate_table *t)
{
    if (!t)
        return;
    pthread_mutex_destroy(&t->mu);
    free(t->slots);
    free(t);
}

size_t cd_rate_table_bytes(const cd_rate_table *t)
{
    return t ? sizeof *t + t->nsets * CD_RATE_WAYS * sizeof(slot) : 0;
}

/* The bucket's tokens at `now` (time going backwards counts as none passing). */
static double level(const cd_rate_table *t, const slot *s, double now)
{
    double dt = now > s->t ? now - s->t : 0;
    double v = s->tokens + dt * t->per_s;
    return v < t->spec.burst ? v : t->spec.burst;
}

bool cd_rate_take(cd_rate_table *t, uint64_t key, double now, double *retry_after)
{
    *retry_after = 0;
    if (!t)
        return true;
    if (key == 0)
        key = 1;
    /* the set from the key's high bits (the caller's hash mixes them all) */
    size_t set = (size_t)((key >> 32) ^ key) & (t->nsets - 1);
    pthread_mutex_lock(&t->mu);
    slot *ways = t->slots + set * CD_RATE_WAYS, *s = NULL, *victim = NULL;
    double victim_level = -1;
    for (int i = 0; i < CD_RATE_WAYS && !s; i++) {
        if (ways[i].key == key) {
            s = &ways[i];
            break;
        }
        double lv = ways[i].key == 0 ? t->spec.burst + 1 : level(t, &ways[i], now);
        if (lv > victim_level || (lv == victim_level && ways[i].t < victim->t)) {
            victim = &ways[i];
            victim_level = lv;
        }
    }
    if (s) {
        s->tokens = level(t, s, now);
    } else {
        s = victim;
        s->key = key;
        s->tokens = t->spec.burst;
    }
    s->t = now;
    bool ok = s->tokens >= 1.0;
    if (ok)
        s->tokens -= 1.0;
    else
        *retry_after = (1.0 - s->tokens) / t->per_s;
    pthread_mutex_unlock(&t->mu);
    return ok;
}
