/*
 * game_get.c — GET /v1/games/{id}: the view the bearer may see (admin, seat or public). The ETag is the
 * game's seq (with the clock's version in a game with a turn clock), so a client polling with If-None-Match gets
 * 304 until someone moves (or the clock is paused, resumed, or a seat takes vacation).
 */
#include <stdio.h>
#include <string.h>

#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "handlers/lobby.h"
#include "mail/mail.h"

/* Whether an If-None-Match header names this seq ("*", "\"7\"", W/"7", or a list of them). */
static bool etag_matches(const char *header, const char *etag)
{
    if (!header)
        return false;
    if (strcmp(header, "*") == 0)
        return true;
    return strstr(header, etag) != NULL;
}

/* Play by e-mail: a seat's own address, and whether its mail was stopped, as "mail" in its view
 * (cd_seat_mail_view). Read only where carcd sends mail (CARCD_SMTP_URL): elsewhere no mail is sent, so none is
 * stopped, and *mail stays NULL. */
static bool seat_mail(cd_req *r, cd_db *db, const char *game_id, int seat, json_t **mail, bool *stopped)
{
    *mail = NULL;
    *stopped = false;
    const cd_mail_settings *ms = cd_mail_settings_get();
    if (!ms || !ms->enabled || seat < 0)
        return true;
    int got = cd_seat_mail_view(r, db, game_id, seat, mail, stopped);
    if (got < 0)   /* the view was read for a number a leave has given to another seat since: asked again */
        cd_reply_seat_moved(r);
    return got > 0;
}

/* A game that has not started: the lobby's view, and for a seat its own part of it, which seat it is and,
 * where carcd sends mail, its address (kept for the start: mail/waiting.h). */
static enum MHD_Result waiting_view(cd_req *r, cd_db *db, const char *id, int viewer)
{
    json_t *own = NULL, *mail = NULL;
    bool stopped;
    if (viewer >= 0) {
        if (!seat_mail(r, db, id, viewer, &mail, &stopped))
            return MHD_YES;
        own = json_pack("{s:{s:i}}", "you", "seat", viewer);
        if (mail)
            json_object_set_new(own, "mail", mail);
    }
    return cd_lobby_reply_view(r, db, id, own);
}

static enum MHD_Result game_get(cd_req *r)
{
    cd_db *db;
    cd_game g;
    int viewer;
    bool waiting, bot;
    if (!cd_game_open_view(r, &db, &viewer, &bot, &g, &waiting))   /* not started: the lobby's view (lobby.h) */
        return waiting ? waiting_view(r, db, r->params[0], viewer) : MHD_YES;
    if (viewer == CARC_VIEW_ADMIN && !cd_audit(r, db, NULL, g.id, NULL)) {
        cd_game_free(&g);
        return MHD_YES;
    }
    /* a clock changes without a move (pause, vacation): its version joins the seq, "7.3"; POST .../moves
     * takes such a tag in If-Match by its seq */
    char etag[40];
    if (g.clocked)
        snprintf(etag, sizeof etag, "\"%d.%d\"", g.seq, g.clock.version);
    else
        snprintf(etag, sizeof etag, "\"%d\"", g.seq);
    /* the tag names the game's state, and each bearer sees that state its own way: a cache keeps a view, and
     * revalidates it, per Authorization */
    const char *headers[] = {"ETag", etag, "Cache-Control", "private, no-cache", "Vary", "Authorization", NULL};
    json_t *mail;
    bool mail_stopped;
    if (!seat_mail(r, db, g.id, viewer, &mail, &mail_stopped)) {
        cd_game_free(&g);
        return MHD_YES;
    }
    enum MHD_Result ret;
    /* the tag is the seq (and the clock's version), which a mail stop does not change: a seat whose mail
     * stopped always gets the whole view, so a client polling with If-None-Match sees the stop */
    if (!mail_stopped && etag_matches(cd_req_header(r, "If-None-Match"), etag)) {
        json_decref(mail);
        ret = cd_reply_empty(r, 304, headers);
    } else {
        json_t *v = bot ? cd_game_view_bot_seat(&g, viewer) : cd_game_view(&g, viewer);
        if (mail)
            json_object_set_new(v, "mail", mail);
        ret = cd_reply_json(r, 200, v, headers);
    }
    cd_game_free(&g);
    return ret;
}

/* A view is read, built and answered: the JSON of it all lives in this request's arena (json_arena.h) */
enum MHD_Result h_game_get(cd_req *r)
{
    return cd_in_json_arena(r, game_get);
}
