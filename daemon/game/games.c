/*
 * games.c — a game loaded into a cd_game: read (db/game_reads.c), its stored snapshot decoded with the seed
 * joined back in and the moves after that checkpoint applied (sql/017), or the state this process holds
 * (state_cache.h) taken instead. The seed never enters a stored snapshot; it is joined back in only where the
 * query may read it (a move's transaction, an admin, a finished game), and for the draws of the moves after
 * the checkpoint, after which a reader that may not know it gets a state without it.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "catalog.h"
#include "log_move.h"
#include "state_cache.h"
#include "base/int_text.h"
#include "base/metrics.h"
#include "db/game_reads.h"

void cd_game_free(cd_game *g)
{
    json_decref(g->setup);
    json_decref(g->snapshot);
    json_decref(g->names);
    json_decref(g->bots);
    free(g->st);
    memset(g, 0, sizeof *g);
}

/* text into dst, cut to cap - 1 bytes as snprintf would cut it: a read copies five of these and the id, and
 * snprintf's format parsing cost more than the bytes (bench/move-instructions.sh) */
static void copy_field(char *dst, size_t cap, const char *text)
{
    size_t n = strnlen(text, cap - 1);
    memcpy(dst, text, n);
    dst[n] = '\0';
}

/* Applies the moves after the checkpoint (row->tail: [[seq, seat, move text], ...]; who made a move, the
 * seat, the clock or a bot, changes nothing in how it applies) to g->st, the snapshot decoded with their
 * seed: they must run from snapshot_seq + 1 to the row's seq without a gap. */
static bool apply_tail(cd_game *g, const cd_game_read *row, char *why, size_t whylen)
{
    json_t *tail = json_loads(row->tail, 0, NULL);
    bool ok = json_is_array(tail);
    int expect = row->snapshot_seq + 1;
    size_t i;
    json_t *e;
    json_array_foreach(tail, i, e) {
        if (!ok)
            break;
        json_t *seat = json_array_get(e, 1);   /* null: the admin's cancel */
        const cd_log_move m = {.seq = (int)json_integer_value(json_array_get(e, 0)),
                               .seat = (int)json_integer_value(seat), .has_seat = json_is_integer(seat),
                               .json = json_string_value(json_array_get(e, 2))};
        if (m.seq != expect++) {
            snprintf(why, whylen, "the moves after the snapshot at seq %d skip to seq %d", row->snapshot_seq, m.seq);
            ok = false;
        } else if (cd_log_move_apply(g->st, &m, NULL, NULL, NULL, why, whylen) != 0) {
            ok = false;
        }
    }
    if (ok && expect != row->seq + 1) {
        snprintf(why, whylen, "the moves after the snapshot at seq %d end at seq %d, the game is at %d",
                 row->snapshot_seq, expect - 1, row->seq);
        ok = false;
    } else if (!json_is_array(tail)) {
        snprintf(why, whylen, "the moves after the snapshot are not a JSON array");
    }
    json_decref(tail);
    return ok;
}

/* Decodes the stored snapshot with `seed_hex` joined back in (zeros when the reader may not know it) and
 * applies the moves after it, whose draws need the seed itself (row->tail_seed): the state then forgets it
 * again unless the reader may know it. The seed goes into g->snapshot only for the decode and is taken out
 * again: g->snapshot stays as stored. */
static cd_load_result decode_state(cd_game *g, const char *seed_hex, const cd_game_read *row)
{
    json_t *rng = json_object_get(g->snapshot, "rng");
    if (!json_is_object(rng))
        return CD_LOAD_CORRUPT;
    static const char zeros[] = "0000000000000000000000000000000000000000000000000000000000000000";
    const char *key = row->tail ? row->tail_seed : seed_hex;
    json_object_set_new(rng, "seed", json_string(key[0] ? key : zeros));
    g->st = malloc(sizeof *g->st);
    char err[256];
    int rc = g->st ? carc_state_from_json(g->st, cd_catalog(), g->snapshot, err, sizeof err) : -1;
    json_object_del(rng, "seed");
    if (rc != 0) {
        fprintf(stderr, "carcd: game %s: stored snapshot does not decode: %s\n", g->id, g->st ? err : "no memory");
        return CD_LOAD_CORRUPT;
    }
    if (!row->tail)
        return CD_LOAD_OK;
    if (!key[0] || !apply_tail(g, row, err, sizeof err)) {
        fprintf(stderr, "carcd: game %s: the moves after its snapshot do not apply: %s\n", g->id,
                key[0] ? err : "no seed");
        return CD_LOAD_CORRUPT;
    }
    if (!seed_hex[0]) {   /* as a reader without the seed decodes any snapshot: key and keystream zero */
        memset(g->st->rng.key, 0, sizeof g->st->rng.key);
        g->st->rng.cached = 0;
        memset(g->st->rng.block, 0, sizeof g->st->rng.block);
    }
    return CD_LOAD_OK;
}

static cd_load_result query_error(cd_q q)
{
    return q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
}

cd_held cd_held_take(const char *id)
{
    cd_held h = {.st = malloc(sizeof(carc_state)), .seq = -1};
    if (h.st)
        h.seq = cd_cache_copy(id, h.st, &h.aux);
    if (h.seq < 0) {
        free(h.st);
        h.st = NULL;
    }
    cd_int_text(h.seq, h.seq_text);
    return h;
}

void cd_game_from_held(cd_game *g, const char *id, cd_held *held)
{
    assert(held->st && held->aux.known && held->aux.unclocked && held->aux.no_hooks);
    memset(g, 0, sizeof *g);
    copy_field(g->id, sizeof g->id, id);
    g->seq = held->seq;
    g->setup = json_object();
    g->snapshot = json_object();   /* as for any state that came from the cache */
    g->st = held->st;
    held->st = NULL;
    g->hooks_known = true;
    g->hooks = 0;
    g->linked_known = held->aux.no_linked;
    g->linked = 0;
    cd_metrics_state_cache_read(true);
}

/* g->st becomes held's state when that is g's seq; else it is freed. Whether it was. */
static bool use_held(cd_game *g, cd_held *h)
{
    bool hit = h && h->st && h->seq == g->seq;
    if (hit)
        g->st = h->st;
    else if (h)
        free(h->st);
    if (h)
        h->st = NULL;
    cd_metrics_state_cache_read(hit);   /* a held copy (hit) or the stored snapshot decoded (miss) */
    return hit;
}

/* Fills g from a game read for viewing (cd_game_read_get, cd_game_read_seat) and decodes the state: for
 * players' reads, held's copy when it is this seq. */
static cd_load_result decode_get_row(cd_game *g, const cd_game_read *row, bool admin, cd_held *held)
{
    if (row->unstarted) {   /* no state to decode before the game starts */
        if (held) {
            free(held->st);
            held->st = NULL;
        }
        return CD_LOAD_WAITING;
    }
    g->seq = row->seq;
    g->snapshot_seq = row->snapshot_seq;
    g->finished = row->finished;
    g->cancelled = row->cancelled;
    /* only admin readers (replays, export) use the set-up; players' reads skip parsing it, and take the
     * decoded state from the cache when this seq is there (admins read the stored snapshot itself) */
    g->setup = admin ? json_loads(row->setup, 0, NULL) : json_object();
    bool cached = !admin && use_held(g, held);
    g->snapshot = cached ? json_object() : json_loads(row->snapshot, 0, NULL);
    copy_field(g->seed_sha256, sizeof g->seed_sha256, row->seed_sha256);
    copy_field(g->created_at, sizeof g->created_at, row->created_at);
    copy_field(g->updated_at, sizeof g->updated_at, row->updated_at);
    copy_field(g->finished_at, sizeof g->finished_at, row->finished_at);
    copy_field(g->seed, sizeof g->seed, row->seed);
    g->names = row->names ? json_loads(row->names, 0, NULL) : json_array();
    g->bots = row->bots ? json_loads(row->bots, 0, NULL) : NULL;
    if (!g->setup || !g->snapshot || !json_is_array(g->names) || (row->bots && !json_is_array(g->bots)))
        return CD_LOAD_CORRUPT;
    if (row->clock) {
        json_t *cj = json_loads(row->clock, 0, NULL);
        g->clocked = cj && cd_clock_from_json(cj, &g->clock);
        json_decref(cj);
        if (!g->clocked)
            return CD_LOAD_CORRUPT;
    }
    if (cached)
        return CD_LOAD_OK;
    return decode_state(g, g->seed, row);
}

cd_load_result cd_game_load(cd_db *db, const char *id, bool admin, cd_game *g)
{
    memset(g, 0, sizeof *g);
    copy_field(g->id, sizeof g->id, id);
    cd_held held = admin ? (cd_held){.seq = -1} : cd_held_take(id);
    cd_game_read row;
    cd_q q = cd_game_read_get(db, id, admin, &row);
    if (q != CD_Q_OK || !row.found) {
        free(held.st);
        cd_game_read_free(&row);
        return q != CD_Q_OK ? query_error(q) : CD_LOAD_NOT_FOUND;
    }
    cd_load_result lr = decode_get_row(g, &row, admin, &held);
    cd_game_read_free(&row);
    return lr;
}

cd_load_result cd_game_lock_row(cd_game *g, const char *id, const cd_game_read *row, cd_held *held)
{
    memset(g, 0, sizeof *g);
    copy_field(g->id, sizeof g->id, id);
    if (!row->found) {
        free(held->st);
        held->st = NULL;
        return CD_LOAD_NOT_FOUND;
    }
    if (row->unstarted) {
        free(held->st);
        held->st = NULL;
        return CD_LOAD_WAITING;
    }
    g->seq = row->seq;
    g->snapshot_seq = row->snapshot_seq;
    g->finished = row->finished;
    g->cancelled = row->cancelled;
    g->setup = json_object();   /* a move needs no set-up */
    copy_field(g->seed, sizeof g->seed, row->seed);
    if (row->clock) {   /* the turn clock: a move advances it (clock.h) */
        json_t *cj = json_loads(row->clock, 0, NULL);
        g->clocked = cj && cd_clock_from_json(cj, &g->clock);
        json_decref(cj);
        if (!g->clocked) {
            free(held->st);
            held->st = NULL;
            return CD_LOAD_CORRUPT;
        }
    }
    if (use_held(g, held)) {   /* the state this process stored after the last move */
        g->snapshot = json_object();
        return CD_LOAD_OK;
    }
    g->snapshot = json_loads(row->snapshot, 0, NULL);
    if (!g->setup || !g->snapshot)
        return CD_LOAD_CORRUPT;
    return decode_state(g, g->seed, row);
}

cd_load_result cd_game_lock(cd_db *db, const char *id, cd_game *g)
{
    memset(g, 0, sizeof *g);
    cd_held held = cd_held_take(id);   /* game_lock names no seq: the copy just spares the decode */
    cd_game_read row;
    cd_q q = cd_game_read_lock(db, id, &row);
    if (q != CD_Q_OK) {
        free(held.st);
        return query_error(q);
    }
    cd_load_result lr = cd_game_lock_row(g, id, &row, &held);
    cd_game_read_free(&row);
    return lr;
}

cd_q cd_game_load_seat(cd_db *db, const char *token_hash, const char *id, bool names, cd_token_seat *token,
                       cd_load_result *lr, cd_game *g)
{
    memset(g, 0, sizeof *g);
    copy_field(g->id, sizeof g->id, id);
    cd_held held = cd_held_take(id);
    cd_game_read row;
    cd_q q = cd_game_read_seat(db, token_hash, id, held.seq_text, names, token, &row);
    *lr = CD_LOAD_NOT_FOUND;
    if (q == CD_Q_OK && token->found && token->same_game) {
        /* shown the seat's: its next move may go in one round trip (state_cache.h); written only when the cache
         * holds the game without it, so that a read of a known seat takes the cache's lock once, not twice */
        if (held.st && !token->bot && token->seat >= 0 && token->seat < CARC_MAX_PLAYERS &&
            strcmp(held.aux.seat_token[token->seat], token_hash) != 0)
            cd_cache_seat_token(id, token->seat, token_hash);
        *lr = !row.found ? CD_LOAD_NOT_FOUND : decode_get_row(g, &row, false, &held);
    }
    free(held.st);   /* not taken (another game's seq, or no game) */
    cd_game_read_free(&row);
    return q;
}

json_t *cd_snapshot_for_store(const carc_state *st)
{
    json_t *snap = carc_state_to_json(st);
    json_object_del(json_object_get(snap, "rng"), "seed");
    return snap;
}

char *cd_snapshot_text_for_store(const carc_state *st)
{
    return carc_state_to_json_text(st, false);
}
