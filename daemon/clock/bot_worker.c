/*
 * bot_worker.c — see bot_worker.h.
 */
#include "bot_worker.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/crypto.h"
#include "base/log.h"
#include "base/metrics.h"
#include "base/periodic.h"
#include "base/timesrc.h"
#include "bot/bot.h"
#include "db/bots.h"
#include "game/bot_seats.h"
#include "game/move_commit.h"
#include "game/state_cache.h"

#define MAX_PER_TICK 50   /* then sleep: other games' bots are found on the next tick */

/* One per thread: each thinks for one game at a time, on its own database connection (cd_db_thread). Two
 * threads of a process never take the same game: the claim's lease (ST_BOT_CLAIM) is committed before the
 * thread thinks, and a claim skips a leased game, as it does another process's. */
typedef struct {
    cd_periodic thread;   /* base/periodic.h: runs run_once every interval */
    int index;            /* 0..n-1, in the log lines */
} worker;

static struct {
    const cd_config *cfg;
    int n;
    worker w[CD_BOT_WORKERS_MAX];
} W;

typedef struct {
    double now;
    bool found;
    cd_bot_claim_row row;
    int seq;
    uint8_t seed[32];
    carc_state *st;   /* owned: the state at seq */
    bool clocked;     /* for the "bot" timeout: whether the game still calls for it at commit */
} claim_tx;

static cd_tx_result run_claim(cd_db *db, void *arg)
{
    claim_tx *c = arg;
    c->found = false;
    free(c->st);   /* a retried transaction reads again */
    c->st = NULL;
    if (cd_bot_claim(db, c->now, CD_BOT_LEASE_S, &c->found, &c->row) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!c->found)
        return CD_TX_ROLLBACK;
    cd_game g;
    if (cd_game_lock(db, c->row.game_id, &g) != CD_LOAD_OK)
        return CD_TX_ERROR;
    cd_tx_result out = CD_TX_COMMIT;
    if (g.finished || !cd_unhex(g.seed, c->seed, sizeof c->seed)) {
        c->found = false;   /* nothing to think: the lease runs out by itself */
    } else {
        c->seq = g.seq;
        c->st = g.st;
        g.st = NULL;
    }
    cd_game_free(&g);
    return out;
}

typedef struct {
    const claim_tx *c;
    carc_move mv;
    double now;
    const char *did;   /* out: "move", "stale" */
    int seq;           /* out: the move's seq */
    carc_state *after; /* out (owned): the state after the move, for the cache */
    char err[200];
} commit_tx;

/* Whether the game, locked at the seq the bot thought at, is still the bot's to play. */
static bool still_bots(const commit_tx *t, const cd_game *g)
{
    const claim_tx *c = t->c;
    if (g->finished || g->seq != c->seq || g->st->pending.seat != c->row.seat)
        return false;
    if (c->row.bot[0])
        return true;
    double d = g->clocked ? cd_clock_deadline(&g->clock) : -1;
    return g->clocked && g->clock.timeout == CD_TIMEOUT_BOT && d >= 0 && t->now >= d;
}

static cd_tx_result run_commit(cd_db *db, void *arg)
{
    commit_tx *t = arg;
    t->did = NULL;
    cd_game g;
    if (cd_game_lock(db, t->c->row.game_id, &g) != CD_LOAD_OK)
        return CD_TX_ERROR;
    cd_tx_result out;
    if (!still_bots(t, &g)) {
        t->did = "stale";
        out = cd_bot_release(db, g.id) == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
        cd_game_free(&g);
        return out;
    }
    carc_events ev = {0};
    json_t *mv = carc_move_to_json_described(g.st, &t->mv);
    if (!mv || carc_apply(g.st, t->c->row.seat, &t->mv, &ev, t->err, sizeof t->err) != 0) {
        if (!mv)
            snprintf(t->err, sizeof t->err, "the bot's move cannot be written");
        out = CD_TX_ERROR;
    } else {
        const cd_move_commit_args a = {.seat = t->c->row.seat, .move = mv, .ev = &ev, .origin = "bot", .now = t->now};
        json_t *resp = NULL;
        out = cd_move_commit(db, &g, &a, &resp);
        json_decref(resp);
        if (out == CD_TX_COMMIT)
            out = cd_bot_release(db, g.id) == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
        if (out == CD_TX_COMMIT) {
            t->did = "move";
            t->seq = g.seq;
            free(t->after);
            t->after = g.st;
            g.st = NULL;
        }
    }
    json_decref(mv);
    carc_events_free(&ev);
    cd_game_free(&g);
    return out;
}

/* One bot move (or nothing due); false when nothing was due or the database failed. */
static bool step(cd_db *db, int index)
{
    claim_tx c = {.now = cd_wall_now()};
    bool down = false;
    cd_tx_result r = cd_db_tx(db, run_claim, &c, &down);
    if (r != CD_TX_COMMIT || !c.found) {
        free(c.st);
        return false;
    }
    cd_bot_spec spec;
    if (!c.row.bot[0])
        spec = (cd_bot_spec){.kind = CARC_BOT_GREEDY, .think_ms = 0};   /* the clock's "bot" timeout */
    else if (!cd_bot_spec_parse_text(c.row.bot, &spec))
        spec = (cd_bot_spec){.kind = CARC_BOT_GREEDY, .think_ms = 0};
    carc_rng rng;
    carc_bot_rng(&rng, c.seed, (uint64_t)c.seq);
    commit_tx t = {.c = &c};
    double t0 = cd_now();
    int rc = carc_bot_move(c.st, c.row.seat, spec.kind, carc_bot_playouts((uint32_t)spec.think_ms), &rng, &t.mv);
    double think = cd_now() - t0;
    if (rc != 0) {
        cd_log("error", "bot: game %s seat %d: no move to make at seq %d", c.row.game_id, c.row.seat, c.seq);
        free(c.st);
        return false;
    }
    t.now = cd_wall_now();
    r = cd_db_tx(db, run_commit, &t, &down);
    if (r == CD_TX_COMMIT && t.did && strcmp(t.did, "move") == 0) {
        cd_metrics_move_applied();
        cd_cache_put(c.row.game_id, t.seq, t.after);
        cd_log("info", "bot: game %s seat %d: %s moved at seq %d (%.0f ms, pid %ld, worker %d)", c.row.game_id,
               c.row.seat, carc_bot_names[spec.kind], t.seq, think * 1000, (long)getpid(), index);
    } else if (r == CD_TX_COMMIT) {
        cd_log("info", "bot: game %s seat %d: seq %d is stale, thinking again", c.row.game_id, c.row.seat, c.seq);
    } else {
        cd_log("error", "bot: game %s seat %d: the move could not be stored%s%s", c.row.game_id, c.row.seat,
               t.err[0] ? ": " : "", t.err);
    }
    free(t.after);
    free(c.st);
    return r == CD_TX_COMMIT;
}

static void run_once(void *arg)
{
    worker *w = arg;
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    if (!db)
        return;
    for (int i = 0; i < MAX_PER_TICK && step(db, w->index); i++) {
        if (cd_periodic_stopping(&w->thread))
            break;
    }
}

static void close_db(void *arg)
{
    (void)arg;
    cd_db_thread_close();
}

int cd_bot_worker_start(const cd_config *cfg, char *err, size_t errlen)
{
    if (cfg->bot_interval_ms <= 0 || W.n > 0)
        return 0;
    W.cfg = cfg;
    int n = cfg->bot_workers < 1 ? 1 : cfg->bot_workers > CD_BOT_WORKERS_MAX ? CD_BOT_WORKERS_MAX : cfg->bot_workers;
    for (int i = 0; i < n; i++) {
        worker *w = &W.w[i];
        *w = (worker){.thread = CD_PERIODIC_INIT, .index = i};
        w->thread.name = "bot";
        w->thread.interval_ms = cfg->bot_interval_ms;
        w->thread.run = run_once;
        w->thread.done = close_db;
        w->thread.arg = w;
        if (cd_periodic_start(&w->thread, err, errlen) != 0) {
            cd_bot_worker_stop();
            return -1;
        }
        W.n = i + 1;
    }
    return 0;
}

void cd_bot_worker_stop(void)
{
    for (int i = 0; i < W.n; i++)
        cd_periodic_stop(&W.w[i].thread);
    W.n = 0;
}
