/*
 * move_log.c — see move_log.h.
 */
#include "move_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/crypto.h"
#include "base/int_text.h"
#include "base/json_out.h"
#include "base/log.h"
#include "catalog.h"
#include "event_cache.h"
#include "json.h"
#include "views.h"

bool cd_log_moves_of(const cd_stored_log *l, cd_log_moves *out, char *why, size_t whylen)
{
    *out = (cd_log_moves){0};
    if (!l->compact) {
        out->v = calloc((size_t)l->n + 1, sizeof *out->v);
        if (!out->v)
            abort();   /* out of memory (docs/STYLE.md) */
        for (int i = 0; i < l->n; i++)
            if (l->v[i].seq > 0)
                out->v[out->n++] = (cd_log_move){.seq = l->v[i].seq, .seat = l->v[i].seat,
                                                 .has_seat = l->v[i].has_seat, .clock = l->v[i].clock,
                                                 .bot = l->v[i].bot,
                                                 .json = l->v[i].move};
        return true;
    }
    size_t lines = 0;
    for (const char *p = l->compact; *p; p++)
        lines += *p == '\n';
    out->v = calloc(lines + 1, sizeof *out->v);
    if (!out->v)
        abort();
    for (const char *p = l->compact; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol) {
            snprintf(why, whylen, "the compact log's last line has no end");
            return false;
        }
        cd_log_move *m = &out->v[out->n];
        char *end;
        long seat = strtol(p, &end, 10);
        if (end == p || seat < 0 || seat >= CARC_MAX_PLAYERS) {
            snprintf(why, whylen, "the compact log's line %d names no seat", out->n + 1);
            return false;
        }
        m->clock = *end == 'c';
        m->bot = *end == 'b';
        end += m->clock || m->bot;
        if (*end != ' ' || end + 1 >= eol) {
            snprintf(why, whylen, "the compact log's line %d has no move", out->n + 1);
            return false;
        }
        m->seq = ++out->n;
        m->seat = (int)seat;
        m->has_seat = true;
        m->text = end + 1;
        m->text_len = (size_t)(eol - m->text);
        p = eol + 1;
    }
    return true;
}

void cd_log_moves_free(cd_log_moves *m)
{
    free(m->v);
    *m = (cd_log_moves){0};
}

bool cd_log_begin(const json_t *setup, const char *seed_hex, carc_state *st, carc_events *ev, char *why,
                  size_t whylen)
{
    carc_setup s;
    why[0] = 0;
    if (carc_setup_from_json(cd_catalog(), setup, &s, why, whylen) != 0 || !cd_unhex(seed_hex, s.seed, sizeof s.seed)) {
        if (!why[0])
            snprintf(why, whylen, "stored seed is not 64 hex digits");
        return false;
    }
    return carc_game_new(st, cd_catalog(), &s, ev, why, whylen) == 0;
}

/* ---- pages of entries --------------------------------------------------------------------------------- */

void cd_log_page_free(cd_log_page *p)
{
    for (int i = 0; i < p->n; i++) {
        json_decref(p->v[i].move);
        json_decref(p->v[i].events);
    }
    free(p->v);
    *p = (cd_log_page){0};
}

static cd_load_result of_q(cd_q q)
{
    return q == CD_Q_DOWN ? CD_LOAD_UNAVAILABLE : CD_LOAD_DB_ERROR;
}

/* The entries from the rows read, using the events they stored (rows before 010) or the event cache; false
 * as soon as one has neither (the caller derives the page by replay). */
static bool page_from_rows(const char *id, const cd_stored_log *l, cd_log_page *out)
{
    for (int i = 0; i < l->n; i++) {
        const cd_stored_move *r = &l->v[i];
        cd_log_entry *e = &out->v[out->n];
        *e = (cd_log_entry){.seq = r->seq, .has_seat = r->has_seat, .seat = r->seat, .clock = r->clock, .bot = r->bot};
        e->move = r->move ? json_loads(r->move, 0, NULL) : NULL;
        if (r->move && !e->move)
            return false;
        e->cancel = r->seq > 0 && !r->has_seat && cd_log_json_is_cancel(e->move);
        if (r->events) {
            e->events = json_loads(r->events, 0, NULL);
        } else {
            char *key = cd_event_cache_move_key(e->move);
            e->events = cd_event_cache_get(id, r->seq, r->has_seat ? r->seat : -1, key);
            free(key);
        }
        if (!json_is_array(e->events)) {
            json_decref(e->move);
            json_decref(e->events);
            *e = (cd_log_entry){0};
            return false;
        }
        out->n++;
    }
    return true;
}

/* What a replay starts from: the game's set-up (*setup: NULL when its text does not decode, which the caller
 * reports as a corrupt log), its seed, and its whole stored log (the caller frees it). */
static cd_load_result read_for_replay(cd_db *db, const char *id, json_t **setup, char seed[65], cd_stored_log *l)
{
    bool found;
    char *setup_text;
    *setup = NULL;
    cd_q q = cd_game_replay_read(db, id, &found, &setup_text, seed);
    if (q != CD_Q_OK)
        return of_q(q);
    if (!found)
        return CD_LOAD_NOT_FOUND;
    if ((q = cd_stored_log_all(db, id, l)) != CD_Q_OK) {
        free(setup_text);
        return of_q(q);
    }
    *setup = json_loads(setup_text, 0, NULL);
    free(setup_text);
    return CD_LOAD_OK;
}

/* The entries after `after` (at most limit) derived by replaying the whole log from the seed. */
static cd_load_result page_by_replay(cd_db *db, const char *id, int after, int limit, cd_log_page *out)
{
    char seed[65];
    json_t *setup;
    cd_stored_log l;
    cd_load_result rr = read_for_replay(db, id, &setup, seed, &l);
    if (rr != CD_LOAD_OK)
        return rr;
    char why[280] = "";
    cd_log_moves moves = {0};
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    if (!st)
        abort();
    cd_load_result lr = CD_LOAD_CORRUPT;
    int bad = 0;
    if (!setup || !cd_log_moves_of(&l, &moves, why, sizeof why) || !cd_log_begin(setup, seed, st, &ev, why, sizeof why))
        goto done;
    if (after < 0) {
        out->v[out->n++] = (cd_log_entry){.seq = 0, .events = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN)};
    }
    for (int i = 0; i < moves.n && out->n < limit; i++) {
        const cd_log_move *m = &moves.v[i];
        bad = m->seq;
        if (m->seq != i + 1) {
            snprintf(why, sizeof why, "the log has a gap before seq %d", m->seq);
            goto done;
        }
        carc_events_clear(&ev);
        bool wanted = m->seq > after;
        json_t *described = NULL;
        if (cd_log_move_apply(st, m, wanted ? &ev : NULL, wanted ? &described : NULL, NULL, why, sizeof why) != CARC_OK)
            goto done;
        if (!wanted)
            continue;
        cd_log_entry *e = &out->v[out->n++];
        *e = (cd_log_entry){.seq = m->seq, .has_seat = m->has_seat, .seat = m->seat, .clock = m->clock,
                            .bot = m->bot, .cancel = !m->has_seat, .move = described,
                            .events = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN)};
        if (!l.compact) {   /* a game in play: its next catch-up finds these in the cache */
            char *key = cd_event_cache_move_key(e->move), *text = cd_json_dumps(e->events, JSON_COMPACT);
            if (!text)
                abort();
            cd_event_cache_put(id, e->seq, e->has_seat ? e->seat : -1, key, text);
            free(key);
            free(text);
        }
    }
    lr = CD_LOAD_OK;
done:
    if (lr != CD_LOAD_OK)
        cd_log("error", "game %s: the log does not replay at seq %d: %s", id, bad, why);
    carc_events_free(&ev);
    free(st);
    cd_log_moves_free(&moves);
    cd_stored_log_free(&l);
    json_decref(setup);
    return lr;
}

cd_load_result cd_log_page_read(cd_db *db, const char *id, int after, int limit, cd_log_page *out)
{
    *out = (cd_log_page){0};
    out->v = calloc((size_t)limit + 1, sizeof *out->v);
    if (!out->v)
        abort();
    cd_stored_log l;
    cd_q q = cd_stored_log_after(db, id, after, limit, &l);
    if (q != CD_Q_OK)
        return of_q(q);
    if (l.compact) {   /* nothing after `after` in a compacted game: no replay to find that out */
        int lines = 0;
        for (const char *c = l.compact; *c; c++)
            lines += *c == '\n';
        if (after >= lines) {
            cd_stored_log_free(&l);
            return CD_LOAD_OK;
        }
    }
    bool done = !l.compact && page_from_rows(id, &l, out);
    cd_stored_log_free(&l);
    if (done)
        return CD_LOAD_OK;
    for (int i = 0; i < out->n; i++) {   /* what the rows gave is replaced by the replay's */
        json_decref(out->v[i].move);
        json_decref(out->v[i].events);
    }
    out->n = 0;
    cd_load_result lr = page_by_replay(db, id, after, limit, out);
    if (lr == CD_LOAD_NOT_FOUND) {   /* no game: no entries, as the rows' read says for it */
        out->n = 0;
        lr = CD_LOAD_OK;
    }
    return lr;
}

/* ---- a move's answer ------------------------------------------------------------------------------------ */

json_t *cd_move_answer(const carc_state *st, int seq, const carc_events *ev, int seat, bool legal_moves)
{
    json_t *ans = json_pack("{s:i, s:o}", "seq", seq, "events", carc_events_to_json(st, ev, seat));
    /* the mover decides again (a figure after its tile, say): its legal moves come along, which saves it a
     * GET; they are the mover's own, like the GET's */
    if (legal_moves && st->status != CARC_FINISHED && st->pending.seat == seat)
        json_object_set_new(ans, "legal_moves", cd_legal_moves_json(st, seq, seat));
    return ans;
}

/* Whether seat sees each of these events (the admin's view) whole: carc_event_for_viewer hands back the event
 * itself, not a copy without hidden members, and drops none. */
static bool seat_sees_all(const json_t *events_admin, int seat)
{
    size_t i;
    json_t *e;
    json_array_foreach(events_admin, i, e) {
        json_t *seen = carc_event_for_viewer(e, seat);
        bool whole = seen == e;
        json_decref(seen);
        if (!whole)
            return false;
    }
    return true;
}

/* {"seq":N,"events":<events_text>}: json_pack's order in cd_move_answer; an event holds no reals, so the
 * compact text is what CD_REPLY_JSON_FLAGS writes too */
static char *answer_from_events_text(int seq, const char *events_text)
{
    char num[CD_INT_TEXT];
    size_t k = cd_int_text(seq, num);
    cd_buf b = {0};
    cd_buf_str(&b, "{\"seq\":");
    cd_buf_add(&b, num, k);
    cd_buf_str(&b, ",\"events\":");
    cd_buf_str(&b, events_text);
    cd_buf_str(&b, "}");
    return b.p;
}

char *cd_move_answer_text(const carc_state *st, int seq, const carc_events *ev, const json_t *events_admin,
                          const char *events_admin_text, int seat, bool legal_moves)
{
    char *text;
    if (seat_sees_all(events_admin, seat)) {
        text = answer_from_events_text(seq, events_admin_text);
    } else {
        json_t *ans = cd_move_answer(st, seq, ev, seat, false);
        text = cd_json_dumps(ans, CD_REPLY_JSON_FLAGS);
        json_decref(ans);
        if (!text)
            abort();   /* out of memory (docs/STYLE.md) */
    }
    if (!(legal_moves && st->status != CARC_FINISHED && st->pending.seat == seat))
        return text;
    /* {"seq":..,"events":[..]} and ,"legal_moves":<text>} in place of its closing brace: the member
     * cd_move_answer adds last */
    char *lm = cd_legal_moves_json_text(st, seq, seat);
    static const char key[] = ",\"legal_moves\":";
    size_t n = strlen(text) - 1, k = sizeof key - 1, m = strlen(lm);
    char *out = realloc(text, n + k + m + 2);
    if (!out)
        abort();
    memcpy(out + n, key, k);
    memcpy(out + n + k, lm, m);
    memcpy(out + n + k + m, "}", 2);
    free(lm);
    return out;
}

cd_load_result cd_log_answer(cd_db *db, const char *id, int seq, int seat, json_t **answer)
{
    *answer = NULL;
    char seed[65];
    json_t *setup;
    cd_stored_log l;
    cd_load_result rr = read_for_replay(db, id, &setup, seed, &l);
    if (rr != CD_LOAD_OK)
        return rr;
    char why[280] = "the log has no such move";
    cd_log_moves moves = {0};
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    if (!st)
        abort();
    if (setup && cd_log_moves_of(&l, &moves, why, sizeof why) && cd_log_begin(setup, seed, st, NULL, why, sizeof why) &&
        seq >= 1 && seq <= moves.n && moves.v[seq - 1].seq == seq && moves.v[seq - 1].has_seat && moves.v[seq - 1].seat == seat) {
        int i = 0;
        for (; i < seq; i++)
            if (moves.v[i].seq != i + 1 ||
                cd_log_move_apply(st, &moves.v[i], i == seq - 1 ? &ev : NULL, NULL, NULL, why, sizeof why) != CARC_OK)
                break;
        if (i == seq)
            *answer = cd_move_answer(st, seq, &ev, seat, true);
    }
    if (!*answer)
        cd_log("error", "game %s: the answer of seq %d cannot be derived: %s", id, seq, why);
    carc_events_free(&ev);
    free(st);
    cd_log_moves_free(&moves);
    cd_stored_log_free(&l);
    json_decref(setup);
    return *answer ? CD_LOAD_OK : CD_LOAD_CORRUPT;
}
