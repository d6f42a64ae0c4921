/*
 * routes.c — the route table: every endpoint carcd serves. api-docs/openapi.json documents exactly these
 * (tests/http checks both ways).
 */
#include "handlers.h"

#include "base/metrics.h"

const cd_route cd_routes[] = {
    {"GET", "/healthz", h_healthz, "healthz"},
    {"GET", "/readyz", h_readyz, "readyz"},
    {"GET", "/metrics", h_metrics, "metrics"},
    {"GET", "/v1/openapi.json", h_openapi, "openapi"},
    {"GET", "/v1/tiles", h_tiles, "tiles"},
    {"GET", "/problems/{name}", h_problem_page, "problems.page"},
    {"POST", "/v1/games", h_games_create, "games.create"},
    {"GET", "/v1/games/{id}", h_game_get, "games.get"},
    {"GET", "/v1/games/{id}/legal-moves", h_legal_moves, "games.legal_moves"},
    {"POST", "/v1/games/{id}/moves", h_moves_post, "games.moves"},
    {"GET", "/v1/games/{id}/events", h_events, "games.events"},
    {"GET", "/v1/admin/games", h_admin_games_list, "admin.games.list"},
    {"GET", "/v1/admin/games/{id}", h_admin_game_get, "admin.games.get"},
    {"POST", "/v1/admin/games/{id}/verify", h_admin_verify, "admin.games.verify"},
    {"POST", "/v1/admin/games/{id}/cancel", h_admin_cancel, "admin.games.cancel"},
    /* admin inspection: pictures, the game page, export, the audit log */
    {"GET", "/v1/games/{id}/board.svg", h_board_svg, "games.board.svg"},
    {"GET", "/v1/games/{id}/board.png", h_board_png, "games.board.png"},
    {"GET", "/games/{id}", h_game_page, "games.page"},
    {"GET", "/games/assets/{name}", h_game_assets, "games.assets"},
    {"GET", "/lobby", h_lobby_page, "lobby.page"},
    {"GET", "/v1/admin/games/{id}/export", h_admin_export, "admin.games.export"},
    {"GET", "/v1/admin/audit", h_admin_audit, "admin.audit.list"},
    {"POST", "/v1/games/{id}/webhooks", h_webhooks_create, "webhooks.create"},
    {"GET", "/v1/games/{id}/webhooks", h_webhooks_list, "webhooks.list"},
    {"GET", "/v1/games/{id}/webhooks/{wid}", h_webhook_get, "webhooks.get"},
    {"DELETE", "/v1/games/{id}/webhooks/{wid}", h_webhook_delete, "webhooks.delete"},
    {"GET", "/v1/games/{id}/webhooks/{wid}/deliveries", h_webhook_deliveries, "webhooks.deliveries"},
    {"POST", "/v1/games/{id}/webhooks/{wid}/deliveries/{did}/redeliver", h_webhook_redeliver, "webhooks.redeliver"},
    /* play over days (clock.h) */
    {"POST", "/v1/games/{id}/pause", h_game_pause, "games.pause"},
    {"POST", "/v1/games/{id}/resume", h_game_resume, "games.resume"},
    {"POST", "/v1/games/{id}/vacation", h_game_vacation, "games.vacation"},
    {"POST", "/v1/games/{id}/resign", h_game_resign, "games.resign"},
    {"POST", "/v1/games/{id}/link", h_game_link, "games.link"},
    {"POST", "/v1/players", h_players_create, "players.create"},
    {"GET", "/v1/me/games", h_me_games, "me.games"},
    {"GET", "/v1/me/events", h_me_events, "me.events"},
    /* players, invitations, the lobby, rematches (lobby.h) */
    {"POST", "/v1/games/{id}/join", h_game_join, "games.join"},
    {"POST", "/v1/games/{id}/start", h_game_start, "games.start"},
    {"POST", "/v1/games/{id}/cancel", h_game_cancel, "games.cancel"},
    {"POST", "/v1/games/{id}/keep-open", h_game_keep_open, "games.keep_open"},
    {"POST", "/v1/games/{id}/leave", h_game_leave, "games.leave"},
    {"POST", "/v1/games/{id}/invites/mail", h_game_invite_mail, "games.invite_mail"},
    {"GET", "/v1/games/{id}/invites", h_game_invites, "games.invites"},
    {"POST", "/v1/games/{id}/invites/lookup", h_invite_lookup, "games.invites.lookup"},
    {"POST", "/v1/games/{id}/seats/{seat}/token", h_seat_token, "games.seat_token"},
    {"POST", "/v1/games/{id}/seats/{seat}/remove", h_seat_remove, "games.seat_remove"},
    {"POST", "/v1/games/{id}/rematch", h_game_rematch, "games.rematch"},
    {"POST", "/v1/games/{id}/rematch/accept", h_game_rematch_accept, "games.rematch_accept"},
    {"GET", "/v1/lobby", h_lobby_list, "lobby.list"},
    /* play by e-mail (mail/) */
    {"PUT", "/v1/games/{id}/email", h_email_put, "games.email.put"},
    {"GET", "/v1/games/{id}/email", h_email_get, "games.email.get"},
    {"GET", "/v1/mail/unsubscribe/{tag}", h_mail_unsubscribe_page, "mail.unsubscribe_page"},
    {"POST", "/v1/mail/unsubscribe/{tag}", h_mail_unsubscribe, "mail.unsubscribe"},
    {"GET", "/v1/mail/invitations/stop/{token}", h_invite_stop_page, "mail.invitation_stop_page"},
    {"POST", "/v1/mail/invitations/stop/{token}", h_invite_stop, "mail.invitation_stop"},
    /* table talk (game/messages.h) */
    {"POST", "/v1/games/{id}/messages", h_messages_post, "games.messages.post"},
    {"GET", "/v1/games/{id}/messages", h_messages_get, "games.messages.list"},
    {"PUT", "/v1/games/{id}/mutes/{seat}", h_mute_put, "games.mutes.put"},
    {"DELETE", "/v1/games/{id}/mutes/{seat}", h_mute_delete, "games.mutes.delete"},
    {"POST", "/v1/admin/games/{id}/messages/{mid}/hide", h_admin_message_hide, "admin.games.messages.hide"},
    {NULL, NULL, NULL, NULL},
};

/* every route its own series in /metrics: a row past the counters' room would be counted as route="none" */
_Static_assert(sizeof cd_routes / sizeof cd_routes[0] - 1 <= CD_METRICS_ROUTES, "raise CD_METRICS_ROUTES (metrics.h)");
