/*
 * lobby_expire.c — see lobby_expire.h.
 */
#include "lobby_expire.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "clock.h"
#include "db/lobby.h"
#include "db/player_events.h"
#include "lobby_cancel.h"
#include "mail/waiting.h"
#include "webhooks/outbox.h"

#define BATCH 32   /* ids read at a time; each is then its own transaction */

/* One due game's transaction: its row locked (cd_waiting_lock), then its step looks again and acts on a game
 * that still waits. */
typedef struct due_tx due_tx;
typedef cd_tx_result (*due_step_fn)(cd_db *db, due_tx *t, const cd_waiting_lock_row *w);
struct due_tx {
    const char *id;
    double before;     /* its creation or latest join came before this (epoch s) */
    int ttl_s;
    const char *words; /* how long nobody joined it: the TTL when it expires, less a warning's time before */
    double late_before, late_to;   /* a warning: counted from before late_before, it counts anew from late_to */
    due_step_fn step;
    bool acted;        /* out: cancelled, or its seats told */
};

static cd_tx_result run_due(cd_db *db, void *arg)
{
    due_tx *t = arg;
    t->acted = false;
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = CD_TX_ROLLBACK;
    if (w.found && strcmp(w.status, "waiting") == 0)
        t->acted = (out = t->step(db, t, &w)) == CD_TX_COMMIT;
    else if (w.found)   /* no longer waiting, its row still counting: stop it, or it would come first again */
        out = cd_waiting_ended(db, t->id) == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
    cd_waiting_lock_row_free(&w);
    return out;
}

typedef cd_q (*due_ids_fn)(cd_db *db, double before, int max, char (*ids)[37], int *n);

/* Runs t0's step on each game ids_of lists for t0's before (at most max, oldest first); *done: how many it
 * acted on. Stops when a batch acts on none (all of them joined or ended meanwhile, or failed), so that one game
 * that keeps its row counting cannot hold the worker in a loop. A game whose transaction fails is said, with its
 * SQLSTATE, and passed over for the next: one that keeps failing, oldest and so first every tick, must not hold
 * up the warnings of all the others, and with them their expiry. False (for the caller to say, or not) only
 * when the database is away, which every game would meet alike. */
static bool each_due(cd_db *db, due_ids_fn ids_of, const due_tx *t0, const char *what, int max, int *done)
{
    *done = 0;
    while (*done < max) {
        char ids[BATCH][37];
        int n = 0, acted = 0;
        int want = max - *done < BATCH ? max - *done : BATCH;
        if (ids_of(db, t0->before, want, ids, &n) != CD_Q_OK)
            return false;
        for (int i = 0; i < n; i++) {
            due_tx t = *t0;
            t.id = ids[i];
            bool down = false;
            if (cd_db_tx(db, run_due, &t, &down) == CD_TX_ERROR) {
                cd_db_error e = {0};
                bool said = cd_db_last_error(&e);
                if (down || (said && e.wait_out))
                    return false;
                cd_log("warn", "lobby: game %s could not be %s (SQLSTATE %s: %s); tried again next tick", ids[i],
                       what, e.sqlstate[0] ? e.sqlstate : "none", e.message);
                continue;
            }
            if (t.acted) {
                acted++;
                cd_log("info", "lobby: game %s %s: nobody joined it for %s", ids[i], what, t.words);
            }
        }
        *done += acted;
        if (n < want || acted == 0)
            return true;
    }
    return true;
}

/* "2026-12-20 09:30 UTC": the date a mail names. */
static void date_words(double at_s, char *out, size_t n)
{
    time_t at = (time_t)at_s;
    struct tm tm;
    gmtime_r(&at, &tm);
    strftime(out, n, "%Y-%m-%d %H:%M UTC", &tm);
}

/* The date `at` (epoch s) the waiting game is now cancelled at, told to its seats' players (player event `kind`)
 * and to its endpoints (webhook `ev`; since and by_admin as cd_outbox_enqueue_expiry takes them); when gets the
 * date in a mail's words, for the mail the caller sends. False when the database failed. */
static bool tell_date(cd_db *db, const char *id, const cd_waiting_lock_row *w, double at, const char *kind,
                      unsigned ev, const char *since, bool by_admin, char when[40])
{
    char iso[32];
    date_words(at, when, 40);
    cd_iso_time(at, iso);
    return cd_player_events_for_seats_deferred(db, id, 0, -1, kind, NULL) &&
           cd_outbox_enqueue_expiry(db, ev, id, iso, since, by_admin, w->taken, w->nseats) == CD_TX_COMMIT;
}

static cd_tx_result expire_one(cd_db *db, due_tx *t, const cd_waiting_lock_row *w)
{
    /* a join came meanwhile (read under the lock), or its seats were never told: its warning comes first */
    if (w->last_join_at < 0 || w->last_join_at >= t->before || !w->expiry_warned)
        return CD_TX_ROLLBACK;
    char reason[80];
    snprintf(reason, sizeof reason, "nobody joined it for %s", t->words);
    return cd_lobby_cancel(db, t->id, w, CD_CANCEL_BY_EXPIRY, reason);
}

static cd_tx_result warn_one(cd_db *db, due_tx *t, const cd_waiting_lock_row *w)
{
    double from = -1;
    if (cd_waiting_warned(db, t->id, t->before, t->late_before, t->late_to, &from) != CD_Q_OK)
        return CD_TX_ERROR;
    if (from < 0)   /* a join, or another carcd, came first */
        return CD_TX_ROLLBACK;
    char when[40];
    if (!tell_date(db, t->id, w, from + t->ttl_s, CD_PEV_GAME_EXPIRING, CD_WH_GAME_EXPIRING, t->words, false,
                   when))
        return CD_TX_ERROR;
    return cd_mail_enqueue_waiting_expiring(db, t->id, w->taken, w->nseats, t->words, when);
}

cd_tx_result cd_lobby_keep_open(cd_db *db, const char *id, const cd_waiting_lock_row *w, double now, int ttl_s,
                                bool by_admin)
{
    double from = -1;   /* as stored: the date said is then the one the view says */
    if (cd_waiting_count_anew(db, id, now, &from) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!w->expiry_warned || ttl_s <= 0 || from < 0)   /* nobody was told a date to take back */
        return CD_TX_COMMIT;
    char when[40];
    if (!tell_date(db, id, w, from + ttl_s, CD_PEV_GAME_KEPT_OPEN, CD_WH_GAME_KEPT_OPEN, NULL, by_admin, when))
        return CD_TX_ERROR;
    return cd_mail_enqueue_waiting_kept_open(db, id, w->taken, w->nseats, when, by_admin);
}

void cd_lobby_ttl_words(int ttl_s, char *out, size_t n)
{
    static const struct {
        int s;
        const char *unit;
    } units[] = {{86400, "day"}, {3600, "hour"}, {60, "minute"}, {1, "second"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (ttl_s % units[i].s == 0) {   /* always, at last, for seconds */
            int k = ttl_s / units[i].s;
            snprintf(out, n, "%d %s%s", k, units[i].unit, k == 1 ? "" : "s");
            return;
        }
}

int cd_lobby_warn_before(int ttl_s)
{
    return ttl_s >= 2 * 86400 ? 86400 : ttl_s / 2;
}

bool cd_lobby_expire(cd_db *db, double now, int ttl_s, int max, int *done)
{
    char words[40];
    cd_lobby_ttl_words(ttl_s, words, sizeof words);
    const due_tx t = {.before = now - ttl_s, .ttl_s = ttl_s, .words = words, .step = expire_one};
    return each_due(db, cd_waiting_expired, &t, "cancelled", max, done);
}

bool cd_lobby_warn(cd_db *db, double now, int ttl_s, int max, int *done)
{
    int notice = cd_lobby_warn_before(ttl_s), since = ttl_s - notice;
    char words[40];
    cd_lobby_ttl_words(since, words, sizeof words);
    /* A warning later than half its notice (carcd was stopped through its time, or it kept failing) would leave
     * the seats too little time, or none: the game is then counted anew so that it expires `notice` from now.
     * An expiry never comes before its warning (expire_one), so no game is cancelled unwarned. */
    const due_tx t = {.before = now - since, .ttl_s = ttl_s, .words = words, .step = warn_one,
                      .late_before = now - ttl_s + notice / 2.0, .late_to = now - since};
    return each_due(db, cd_waiting_to_warn, &t, "told it will be cancelled", max, done);
}
