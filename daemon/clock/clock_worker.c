/*
 * clock_worker.c — see clock_worker.h.
 */
#include "clock_worker.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game/compact.h"
#include "game/bot_seats.h"
#include "game/forced_moves.h"
#include "game/lobby_expire.h"
#include "clock_tx.h"
#include "base/log.h"
#include "base/metrics.h"
#include "base/periodic.h"
#include "mail/outbox.h"
#include "webhooks/outbox.h"
#include "db/bots.h"
#include "db/clocks.h"
#include "db/deliveries_forget.h"
#include "base/timesrc.h"

#define MAX_PER_TICK 100   /* then sleep: a backlog is worked off over several ticks, never all at once */
#define CLOCK_RETRY_S 60   /* a due clock whose step failed is looked at again this much later */

static struct {
    const cd_config *cfg;
    cd_periodic thread;   /* base/periodic.h: runs run_once every interval */
    double forget_at;     /* monotonic time of the next look for old deliveries (forget_deliveries) */
} W = {.thread = CD_PERIODIC_INIT};

typedef struct {
    double now;
    bool none;            /* out: nothing was due */
    char game[37];        /* out: the game handled */
    const char *did;      /* out: "timeout skip", "timeout forfeit", "reminder", "nothing" */
    int seat;
    double lag;           /* out: seconds between when the action was due and now */
    char err[200];
} step_tx;

static cd_tx_result act(cd_db *db, step_tx *t, cd_game *g)
{
    cd_clock *c = &g->clock;
    double deadline = cd_clock_deadline(c), remind = cd_clock_reminder_at(c);
    t->seat = c->seat;
    if ((c->timeout == CD_TIMEOUT_SKIP || c->timeout == CD_TIMEOUT_FORFEIT) && deadline >= 0 && t->now >= deadline) {
        bool skip = c->timeout == CD_TIMEOUT_SKIP, taken = false;
        /* "bot_after_leave": a bot takes a forfeited seat, logged as a leave to it (the turn still the seat's,
         * so the entry passes no turn); then this turn is skipped, and the bot plays the next ones. A seat a bot
         * plays already (its resignation committed just before) cannot leave again: its turn is skipped */
        unsigned bots = 0;
        if (!skip && cd_bot_seat_mask(db, g->id, &bots) != CD_Q_OK)
            return CD_TX_ERROR;
        skip |= (bots >> c->seat & 1) != 0;
        if (!skip && !cd_bot_take_seat(db, g->id, c->seat, &taken))
            return CD_TX_ERROR;
        int seat = c->seat;
        if (taken) {
            cd_tx_result out = cd_forced_moves_commit(db, g, seat, CD_FORCED_TO_BOT, "clock", t->now, NULL, t->err,
                                                      sizeof t->err);
            if (out != CD_TX_COMMIT)
                return out;
        }
        skip |= taken;
        t->did = skip ? (taken ? "timeout forfeit to a bot" : "timeout skip") : "timeout forfeit";
        t->lag = t->now - deadline;
        return cd_forced_moves_commit(db, g, seat, skip ? CD_FORCED_SKIP : CD_FORCED_LEAVE, "clock", t->now, NULL,
                                      t->err, sizeof t->err);
    }
    if (remind >= 0 && t->now >= remind) {
        t->did = "reminder";
        t->lag = t->now - remind;
        c->reminded = true;
        char iso[32];
        cd_iso_time(deadline, iso);
        const cd_outbox_game og = {.id = g->id, .seq = g->seq, .st = g->st, .seed = g->seed, .deadline = g->deadline};
        cd_tx_result out = cd_outbox_enqueue_reminder(db, &og, iso, cd_clock_time_left(c, c->seat, t->now));
        if (out == CD_TX_COMMIT)   /* the seat's reminder mail, when it has mail (mail/outbox.h) */
            out = cd_mail_enqueue_reminder(db, g->id, g->seq, g->st, iso);
        if (out != CD_TX_COMMIT)
            return out;
    } else {
        t->did = "nothing";   /* clock_due was behind the clock (it is recomputed below) */
    }
    return cd_clock_save(db, g->id, c) ? CD_TX_COMMIT : CD_TX_ERROR;
}

static cd_tx_result run_step(cd_db *db, void *arg)
{
    step_tx *t = arg;
    t->none = false;
    t->did = NULL;
    t->err[0] = 0;
    bool found = false;
    if (cd_clock_claim(db, t->now, &found, t->game) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!found) {
        t->none = true;
        return CD_TX_ROLLBACK;
    }
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->game, &g);
    cd_tx_result out;
    if (lr != CD_LOAD_OK || !g.clocked) {
        snprintf(t->err, sizeof t->err, "the game or its clock cannot be read");
        out = CD_TX_ERROR;
    } else if (g.finished || g.clock.seat < 0) {
        t->did = "nothing";
        g.clock.seat = -1;
        out = cd_clock_save(db, t->game, &g.clock) ? CD_TX_COMMIT : CD_TX_ERROR;
    } else {
        out = act(db, t, &g);
    }
    cd_game_free(&g);
    return out;
}

/* The due game's id when the claim itself failed (a read-only database refuses its FOR UPDATE): a plain read. */
static void peek_due_game(cd_db *db, step_tx *t)
{
    bool found = false;
    if (cd_clock_due_peek(db, t->now, &found, t->game) != CD_Q_OK || !found)
        t->game[0] = 0;
}

/* A failed step, named by its game, with the SQLSTATE and the server's message. The same failure of the same
 * game again (every tick while the database is read-only) is logged once a minute. */
static void log_failure(cd_db *db, step_tx *t, bool down)
{
    static char last_game[37], last_state[6];
    static double last_at;
    cd_db_error e;
    bool known = cd_db_last_error(&e);
    if (!t->game[0] && !down)
        peek_due_game(db, t);
    double now = cd_now();
    if (strcmp(last_game, t->game) == 0 && strcmp(last_state, known ? e.sqlstate : "") == 0 && now - last_at < 60)
        return;
    snprintf(last_game, sizeof last_game, "%s", t->game);
    snprintf(last_state, sizeof last_state, "%s", known ? e.sqlstate : "");
    last_at = now;
    cd_log(known && e.wait_out ? "warn" : "error", "clock: game %s: %s%s (SQLSTATE %s: %s)",
           t->game[0] ? t->game : "(none found due)", t->err[0] ? t->err : down ? "database unavailable" : "failed",
           t->game[0] && !t->did && !t->err[0] ? " to claim its due clock" : "", known && e.sqlstate[0] ? e.sqlstate : "none",
           known ? e.message : "unknown");
}

/* Works off what is due now; false when the database failed (try again next tick). */
static bool tick(void)
{
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    if (!db)
        return false;
    for (int i = 0; i < MAX_PER_TICK; i++) {
        step_tx t = {.now = cd_wall_now()};
        bool down = false;
        cd_tx_result r = cd_db_tx(db, run_step, &t, &down);
        if (t.none)
            return true;
        if (r != CD_TX_COMMIT) {
            log_failure(db, &t, down);
            /* The claim takes the game due first, so a game whose step fails every time (its clock or state
             * cannot be read, its default move refused) would be taken first at every tick, and no other clock
             * would run again: it goes behind them for a while. A database that is down or refuses writes
             * refuses this too, and the tick ends as before. */
            if (down || !t.game[0] || cd_clock_defer(db, t.game, t.now + CLOCK_RETRY_S) != CD_Q_OK)
                return false;
            continue;
        }
        if (t.did && t.did[0] != 'n') {
            cd_log("info", "clock: game %s seat %d: %s", t.game, t.seat, t.did);
            cd_metrics_clock_action(t.did[0] == 't', t.lag);   /* committed: counted */
        }
    }
    return true;
}

/* A job of the upkeep failed in the database: said, with the SQLSTATE, so that a statement that keeps failing
 * (a migration not applied, a privilege missing) is not silent. A database that is away (down, read-only, full)
 * is not said by every job every tick: the requests and the clocks' tick say it. */
static void upkeep_failed(const char *job)
{
    cd_db_error e = {0};
    if (cd_db_last_error(&e) && e.wait_out)
        return;
    cd_log("warn", "upkeep: %s failed in the database (SQLSTATE %s: %s); tried again next tick", job,
           e.sqlstate[0] ? e.sqlstate : "none", e.message);
}

/* Sent mails, ended webhook messages, gone endpoints, handled replies and players' events whose time is up,
 * FORGET_PER_TICK of each a tick. A look that found less than a batch of each waits a sixtieth of the TTL (at
 * most a minute, at least a tick) before the next: the mail statements pass over the rows a running game keeps
 * at every look, and a week's TTL does not need a look a second. */
#define FORGET_PER_TICK 200
static void forget_deliveries(cd_db *db, double before)
{
    double now = cd_now();
    if (now < W.forget_at)
        return;
    int mails = 0, messages = 0, endpoints = 0, replies = 0, events = 0;
    if (cd_mail_forget(db, before, FORGET_PER_TICK, &mails) != CD_Q_OK)
        upkeep_failed("forgetting old mails");
    if (cd_mail_in_forget(db, before, FORGET_PER_TICK, &replies) != CD_Q_OK)
        upkeep_failed("forgetting old replies handled");
    if (cd_player_events_forget(db, before, FORGET_PER_TICK, &events) != CD_Q_OK)
        upkeep_failed("forgetting old player events");
    if (cd_webhook_forget(db, before, FORGET_PER_TICK, &messages) != CD_Q_OK)
        upkeep_failed("forgetting old webhook messages");
    else if (cd_gone_endpoints_forget(db, before, FORGET_PER_TICK, &endpoints) != CD_Q_OK)
        upkeep_failed("forgetting gone webhook endpoints");
    if (mails + messages + endpoints + replies + events > 0)
        cd_log("info", "deliveries: %d mails, %d webhook messages, %d gone endpoints, %d replies handled and %d "
               "player events older than %d s forgotten", mails, messages, endpoints, replies, events,
               W.cfg->delivery_ttl_s);
    bool more = mails == FORGET_PER_TICK || messages == FORGET_PER_TICK || endpoints == FORGET_PER_TICK ||
                replies == FORGET_PER_TICK || events == FORGET_PER_TICK;
    double pause = W.cfg->delivery_ttl_s / 60.0;
    W.forget_at = more ? 0 : now + (pause > 60 ? 60 : pause);
}

/* The upkeep, after the clocks: waiting games nobody joined cancelled, and their seats told first
 * (game/lobby_expire.h), finished games compacted and expired idempotency answers forgotten (game/compact.h),
 * old deliveries forgotten (db/deliveries_forget.h); a few games and a few thousand rows a tick at most (a
 * mail with its board picture is tens of kilobytes: a few hundred of them). A failure is logged and waits for
 * the next tick; the other jobs go on, so that one that keeps failing holds up none of them. */
#define COMPACT_PER_TICK 8
#define EXPIRE_PER_TICK 5000
#define WAITING_EXPIRE_PER_TICK 16
static void upkeep(void)
{
    char err[256];
    cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
    if (!db)
        return;
    int n = 0;
    int ttl = W.cfg->waiting_ttl_s;
    if (ttl > 0 && !cd_lobby_expire(db, cd_wall_now(), ttl, WAITING_EXPIRE_PER_TICK, &n))
        upkeep_failed("cancelling the waiting games nobody joined");
    if (ttl > 0 && !cd_lobby_warn(db, cd_wall_now(), ttl, WAITING_EXPIRE_PER_TICK, &n))
        upkeep_failed("telling the seats of waiting games that their expiry comes");
    if (!cd_idempotency_expire(db, cd_wall_now(), W.cfg->idempotency_ttl_s, EXPIRE_PER_TICK, &n))
        upkeep_failed("forgetting expired idempotency answers");
    else if (n > 0)
        cd_log("info", "idempotency: %d answers older than %d s forgotten", n, W.cfg->idempotency_ttl_s);
    if (!cd_compact_games(db, cd_wall_now(), W.cfg->idempotency_ttl_s, COMPACT_PER_TICK, &n))
        upkeep_failed("compacting finished games");
    if (W.cfg->delivery_ttl_s > 0)
        forget_deliveries(db, cd_wall_now() - W.cfg->delivery_ttl_s);
}

static void run_once(void *arg)
{
    (void)arg;
    tick();
    upkeep();
}

static void close_db(void *arg)
{
    (void)arg;
    cd_db_thread_close();
}

int cd_clock_worker_start(const cd_config *cfg, char *err, size_t errlen)
{
    if (cfg->clock_interval_ms <= 0 || W.thread.started)
        return 0;
    W.cfg = cfg;
    W.thread.name = "clock";
    W.thread.interval_ms = cfg->clock_interval_ms;
    W.thread.run = run_once;
    W.thread.done = close_db;
    return cd_periodic_start(&W.thread, err, errlen);
}

void cd_clock_worker_stop(void)
{
    cd_periodic_stop(&W.thread);
}
