/*
 * handlers.h — one handler per endpoint, one file per endpoint under daemon/handlers/ (the route table is
 * routes.c), and what every endpoint file uses: how a request begins and answers a failure (request.h), the
 * game service (game/), ids and tokens (base/).
 */
#ifndef CD_HANDLERS_H
#define CD_HANDLERS_H

#include "base/crypto.h"
#include "base/ids.h"
#include "game/catalog.h"
#include "game/games.h"
#include "game/views.h"
#include "http/http.h"
#include "http/limits.h"
#include "request.h"

enum MHD_Result h_healthz(cd_req *r);          /* health.c */
enum MHD_Result h_readyz(cd_req *r);           /* health.c */
enum MHD_Result h_metrics(cd_req *r);          /* metrics.c */
enum MHD_Result h_openapi(cd_req *r);          /* openapi.c */
enum MHD_Result h_tiles(cd_req *r);            /* tiles.c */
enum MHD_Result h_problem_page(cd_req *r);     /* problem_page.c */
enum MHD_Result h_games_create(cd_req *r);     /* games_create.c */
enum MHD_Result h_game_get(cd_req *r);         /* game_get.c */
enum MHD_Result h_legal_moves(cd_req *r);      /* legal_moves.c */
enum MHD_Result h_moves_post(cd_req *r);       /* moves_post.c */
enum MHD_Result h_events(cd_req *r);           /* events.c */
enum MHD_Result h_admin_games_list(cd_req *r); /* admin_games.c */
enum MHD_Result h_admin_game_get(cd_req *r);   /* admin_games.c */
enum MHD_Result h_admin_verify(cd_req *r);     /* admin_verify.c */
enum MHD_Result h_admin_cancel(cd_req *r);     /* admin_cancel.c */
enum MHD_Result h_board_svg(cd_req *r);        /* board.c */
enum MHD_Result h_board_png(cd_req *r);        /* board.c */
enum MHD_Result h_game_page(cd_req *r);        /* game_page.c */
enum MHD_Result h_lobby_page(cd_req *r);       /* lobby_page.c */
/* The pages' Content-Security-Policy (game_page.c): scripts and styles from carcd's own files only. */
extern const char cd_page_csp[];
enum MHD_Result h_game_assets(cd_req *r);      /* game_assets.c */
enum MHD_Result h_admin_export(cd_req *r);     /* admin_export.c */
enum MHD_Result h_admin_audit(cd_req *r);      /* admin_audit.c */
enum MHD_Result h_webhooks_create(cd_req *r);  /* webhooks.c */
enum MHD_Result h_webhooks_list(cd_req *r);    /* webhooks.c */
enum MHD_Result h_webhook_get(cd_req *r);      /* webhooks.c */
enum MHD_Result h_webhook_delete(cd_req *r);   /* webhooks.c */
enum MHD_Result h_webhook_deliveries(cd_req *r);   /* webhook_deliveries.c */
enum MHD_Result h_webhook_redeliver(cd_req *r);    /* webhook_deliveries.c */
/* play over days: turn clocks, resigning, players across games */
enum MHD_Result h_game_pause(cd_req *r);       /* pause.c */
enum MHD_Result h_game_resume(cd_req *r);      /* resume.c */
enum MHD_Result h_game_vacation(cd_req *r);    /* vacation.c */
enum MHD_Result h_game_resign(cd_req *r);      /* resign.c */
enum MHD_Result h_game_link(cd_req *r);        /* link.c */
enum MHD_Result h_players_create(cd_req *r);   /* players_create.c */
enum MHD_Result h_me_games(cd_req *r);         /* me_games.c */
enum MHD_Result h_me_events(cd_req *r);        /* me_events.c */
/* players, invitations, the lobby, rematches (lobby.h) */
enum MHD_Result h_game_join(cd_req *r);        /* join.c */
enum MHD_Result h_game_start(cd_req *r);       /* game_start.c */
enum MHD_Result h_game_cancel(cd_req *r);      /* game_cancel.c */
enum MHD_Result h_game_keep_open(cd_req *r);   /* game_keep_open.c */
enum MHD_Result h_game_leave(cd_req *r);       /* game_leave.c */
enum MHD_Result h_seat_remove(cd_req *r);      /* seat_remove.c */
enum MHD_Result h_game_invite_mail(cd_req *r); /* invite_mail.c */
enum MHD_Result h_game_invites(cd_req *r);     /* invites_get.c */
enum MHD_Result h_invite_lookup(cd_req *r);    /* invite_lookup.c */
enum MHD_Result h_seat_token(cd_req *r);       /* seat_token.c */
enum MHD_Result h_game_rematch(cd_req *r);     /* rematch.c */
enum MHD_Result h_game_rematch_accept(cd_req *r);  /* rematch.c */
enum MHD_Result h_lobby_list(cd_req *r);       /* lobby_list.c */
enum MHD_Result h_email_put(cd_req *r);        /* email.c */
enum MHD_Result h_email_get(cd_req *r);        /* email.c */
/* A seat's mail state as GET /v1/games/{id}/email answers it ({"email", "stopped_at", "stopped_reason"}, email
 * null: none), for "mail" in the seat's view (game_get.c); read while the seat row is held as the bearer's
 * (cd_seat_tx_hold), as the GET reads it. *stopped: its mail was stopped. 1: *mail set; 0: replied (the read
 * failed); -1, no reply: `seat` is no longer the bearer's (a leave moved it since the view was read). email.c. */
int cd_seat_mail_view(cd_req *r, cd_db *db, const char *game_id, int seat, json_t **mail, bool *stopped);
enum MHD_Result h_mail_unsubscribe(cd_req *r); /* mail_unsubscribe.c */
enum MHD_Result h_mail_unsubscribe_page(cd_req *r); /* mail_unsubscribe.c */
enum MHD_Result h_invite_stop_page(cd_req *r); /* invite_stop.c */
enum MHD_Result h_invite_stop(cd_req *r);      /* invite_stop.c */
/* table talk (game/messages.h) */
enum MHD_Result h_messages_post(cd_req *r);    /* messages_post.c */
enum MHD_Result h_messages_get(cd_req *r);     /* messages_get.c */
enum MHD_Result h_mute_put(cd_req *r);         /* message_mute.c */
enum MHD_Result h_mute_delete(cd_req *r);      /* message_mute.c */
enum MHD_Result h_admin_message_hide(cd_req *r);   /* admin_message_hide.c */

/* shared by board.c and game_page.c (defined in board.c) */
/* The view of game r->params[0] for the request's bearer (admin, seat or public), at ?seq=N when the
 * query names one (replayed, then shown with the bearer's view rules), else now: cd_game_view's shape.
 * An admin's request is written to the audit log first, as `action` (NULL: the route's name). Replies itself
 * and returns NULL on any failure; *viewer (may be NULL) gets the viewer. board.c. */
json_t *cd_board_view(cd_req *r, const char *action, int *viewer);

#endif
