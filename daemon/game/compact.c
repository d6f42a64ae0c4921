/*
 * compact.c — see compact.h.
 */
#include "compact.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "db/move_log.h"
#include "games.h"
#include "move_log.h"

#define MAX_SKIPPED 32        /* games this process found not to replay; more are retried */
#define SWEEP_BATCH 500       /* rows per statement of the idempotency sweep */

static pthread_mutex_t skip_mu = PTHREAD_MUTEX_INITIALIZER;
static char skipped[MAX_SKIPPED][37];
static int nskipped;

typedef struct {
    char skip[MAX_SKIPPED * 38 + 3];   /* the skipped ids as a Postgres array literal */
    double finished_before;    /* epoch s: games finished since keep their rows (cd_compact_games) */
    bool none;                 /* out: no game to compact */
    bool bad;                  /* out: the claimed game does not replay */
    char game[37];
    int moves;
    char why[280];
} compact_tx;

/* Replays `l` from the seed into *st; with text, appends each move's compact line. -1 when every move
 * applied, else the seq that failed (why says how). */
static int replay_into(const json_t *setup, const char *seed, const cd_stored_log *l, carc_state *st, cd_buf *text,
                       char *why, size_t whylen)
{
    cd_log_moves moves;
    int bad = 0;
    if (cd_log_moves_of(l, &moves, why, whylen) && cd_log_begin(setup, seed, st, NULL, why, whylen)) {
        bad = -1;
        for (int i = 0; i < moves.n && bad < 0; i++) {
            const cd_log_move *m = &moves.v[i];
            char notation[CARC_NOTATION_MAX], head[16];
            if (m->seq != i + 1) {
                snprintf(why, whylen, "the log has a gap before seq %d", m->seq);
                bad = m->seq;
            } else if (cd_log_move_apply(st, m, NULL, NULL, text ? notation : NULL, why, whylen) != 0) {
                bad = m->seq;
            } else if (text) {
                snprintf(head, sizeof head, "%d%s ", m->seat, m->clock ? "c" : m->bot ? "b" : "");
                cd_buf_str(text, head);
                cd_buf_str(text, notation);
                cd_buf_str(text, "\n");
            }
        }
    }
    cd_log_moves_free(&moves);
    return bad;
}

static cd_tx_result compact_step(cd_db *db, void *arg)
{
    compact_tx *t = arg;
    t->none = t->bad = false;
    t->why[0] = 0;
    bool found;
    if (cd_compact_claim(db, t->skip, t->finished_before, &found, t->game) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!found) {
        t->none = true;
        return CD_TX_ROLLBACK;
    }
    char *setup_text, seed[65];
    cd_stored_log l;
    if (cd_game_replay_read(db, t->game, &found, &setup_text, seed) != CD_Q_OK)
        return CD_TX_ERROR;
    if (cd_stored_log_all(db, t->game, &l) != CD_Q_OK) {
        free(setup_text);
        return CD_TX_ERROR;
    }
    json_t *setup = found ? json_loads(setup_text, 0, NULL) : NULL;
    free(setup_text);
    carc_state *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b)
        abort();   /* out of memory (docs/STYLE.md) */
    cd_buf text = {0};
    cd_buf_str(&text, "");   /* a game may end with no move after the opening: its log is "" */
    cd_tx_result out = CD_TX_ROLLBACK;
    int bad = setup && !l.compact ? replay_into(setup, seed, &l, a, &text, t->why, sizeof t->why) : 0;
    t->moves = l.n;
    if (bad < 0) {   /* the text must give the same game again before the rows go */
        cd_stored_log c = {.compact = text.p};
        bad = replay_into(setup, seed, &c, b, NULL, t->why, sizeof t->why);
        json_t *sa = cd_snapshot_for_store(a), *sb = bad < 0 ? cd_snapshot_for_store(b) : NULL;
        if (bad < 0 && !json_equal(sa, sb)) {
            snprintf(t->why, sizeof t->why, "the compact log replays to another state");
            bad = 0;
        }
        json_decref(sa);
        json_decref(sb);
    }
    if (bad >= 0) {
        t->bad = true;
        if (!t->why[0])
            snprintf(t->why, sizeof t->why, "%s", setup ? "already compacted" : "no set-up");
    } else {
        out = cd_compact_store(db, t->game, text.p) == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
    }
    free(text.p);
    free(a);
    free(b);
    json_decref(setup);
    cd_stored_log_free(&l);
    return out;
}

bool cd_compact_games(cd_db *db, double now, int ttl_s, int max, int *done)
{
    *done = 0;
    for (int i = 0; i < max; i++) {
        compact_tx t = {.finished_before = now - ttl_s};
        pthread_mutex_lock(&skip_mu);
        size_t off = (size_t)snprintf(t.skip, sizeof t.skip, "{");
        for (int k = 0; k < nskipped; k++)
            off += (size_t)snprintf(t.skip + off, sizeof t.skip - off, "%s%s", k ? "," : "", skipped[k]);
        snprintf(t.skip + off, sizeof t.skip - off, "}");
        pthread_mutex_unlock(&skip_mu);
        bool down = false;
        cd_tx_result r = cd_db_tx(db, compact_step, &t, &down);
        if (t.none)
            return true;
        if (t.bad) {
            cd_log("error", "compact: game %s is left in rows: %s", t.game, t.why);
            pthread_mutex_lock(&skip_mu);
            if (nskipped < MAX_SKIPPED)
                snprintf(skipped[nskipped++], sizeof skipped[0], "%s", t.game);
            pthread_mutex_unlock(&skip_mu);
            continue;
        }
        if (r != CD_TX_COMMIT)
            return false;
        (*done)++;
        cd_log("info", "compact: game %s: %d moves into its games row", t.game, t.moves);
    }
    return true;
}

bool cd_idempotency_expire(cd_db *db, double now, int ttl_s, int max, int *n)
{
    *n = 0;
    while (*n < max) {
        int k = 0;
        int batch = max - *n < SWEEP_BATCH ? max - *n : SWEEP_BATCH;
        if (cd_idempotency_sweep(db, now - ttl_s, batch, &k) != CD_Q_OK)
            return false;
        *n += k;
        if (k < batch)
            break;
    }
    return true;
}
