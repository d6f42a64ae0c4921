/*
 * bot_seats.c — see bot_seats.h.
 */
#include "bot_seats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_out.h"
#include "db/bots.h"

bool cd_bot_spec_parse(const json_t *player, const char *where, cd_bot_spec *out, char *field, size_t fieldlen,
                       char *detail, size_t detlen)
{
    const json_t *bot = json_object_get(player, "bot"), *think = json_object_get(player, "think_ms");
    const char *name = json_string_value(bot);
    int kind = name ? carc_bot_find(name) : -1;
    if (kind != CARC_BOT_GREEDY && kind != CARC_BOT_MCTS) {
        snprintf(field, fieldlen, "%sbot", where);
        snprintf(detail, detlen, "%s: expected \"greedy\" or \"mcts\"", field);
        return false;
    }
    out->kind = (carc_bot_kind)kind;
    out->think_ms = kind == CARC_BOT_MCTS ? CARC_BOT_THINK_DEFAULT_MS : 0;
    if (think) {
        json_int_t ms = json_is_integer(think) ? json_integer_value(think) : -1;
        snprintf(field, fieldlen, "%sthink_ms", where);
        if (kind != CARC_BOT_MCTS) {
            snprintf(detail, detlen, "%s: only an mcts bot has a think time", field);
            return false;
        }
        if (ms < 1 || ms > CARC_BOT_THINK_MAX_MS) {
            snprintf(detail, detlen, "%s: expected milliseconds, 1 to %d", field, CARC_BOT_THINK_MAX_MS);
            return false;
        }
        out->think_ms = (int)ms;
    }
    return true;
}

bool cd_bot_spec_parse_text(const char *text, cd_bot_spec *out)
{
    json_t *j = json_loads(text, 0, NULL);
    char field[64], detail[128];
    bool ok = json_is_object(j) && cd_bot_spec_parse(j, "", out, field, sizeof field, detail, sizeof detail);
    json_decref(j);
    return ok;
}

json_t *cd_bot_spec_json(const cd_bot_spec *s)
{
    json_t *o = json_pack("{s:s}", "bot", carc_bot_names[s->kind]);
    if (s->kind == CARC_BOT_MCTS)
        json_object_set_new(o, "think_ms", json_integer(s->think_ms));
    return o;
}

const char *cd_bot_default_name(carc_bot_kind kind) { return kind == CARC_BOT_MCTS ? "mcts bot" : "greedy bot"; }

bool cd_bot_seats_store(cd_db *db, const char *game_id, int n, const bool *is_bot, const cd_bot_spec *bots,
                        bool bot_after_leave, bool bot_timeout)
{
    bool any = bot_after_leave || bot_timeout;
    for (int i = 0; i < n; i++) {
        if (!is_bot[i])
            continue;
        any = true;
        json_t *bj = cd_bot_spec_json(&bots[i]);
        char *text = cd_json_dumps(bj, JSON_COMPACT);
        json_decref(bj);
        cd_q q = cd_bot_seat_set(db, game_id, i, text, false);
        free(text);
        if (q != CD_Q_OK)
            return false;
    }
    return !any || cd_bot_game_flags(db, game_id, bot_after_leave) == CD_Q_OK;
}

bool cd_seats_without_person(cd_db *db, const char *game_id, const carc_state *st, unsigned *absent)
{
    unsigned bots = 0;
    bool ok = cd_bot_seat_mask(db, game_id, &bots) == CD_Q_OK;
    *absent = st->left | bots;
    return ok;
}

bool cd_bot_take_seat(cd_db *db, const char *game_id, int seat, bool *taken)
{
    *taken = false;
    bool after_leave = false;
    if (cd_bot_after_leave(db, game_id, &after_leave) != CD_Q_OK)
        return false;
    if (!after_leave)
        return true;
    const cd_bot_spec spec = {.kind = CARC_BOT_GREEDY};
    json_t *j = cd_bot_spec_json(&spec);
    char *text = cd_json_dumps(j, JSON_COMPACT);
    json_decref(j);
    bool ok = cd_bot_seat_set(db, game_id, seat, text, true) == CD_Q_OK;
    free(text);
    *taken = ok;
    return ok;
}
