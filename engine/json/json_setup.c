/*
 * json_setup.c — a game's set-up from JSON: the admin's script (stack, sheep, fruit, hands) and the stored
 * set-up {"nplayers", "expansions", "options", "script"?} that carcd keeps with every game and puts in its
 * export; and the moves of a game's log, where a seat leaving is {"kind": "leave"} (or
 * {"kind": "leave_to_bot"} when a bot plays it on). Game creation, replay
 * and carcctl's local replay decode through here, so they cannot drift apart.
 */
#include <stdio.h>
#include <string.h>

#include "json_priv.h"

int carc_script_from_json(const carc_catalog *cat, const json_t *script, carc_setup *s, char *err, size_t errlen)
{
    static const carc_jpath root = {NULL, "script", 0};
    static const char *const keys[] = {"stack", "sheep", "hands", "fruit", NULL};
    const json_t *o;
    CARC_TRY(carc_jr_object(script, &root, NULL, keys, &o, err, errlen));
    const json_t *sheep = json_object_get(script, "sheep");   /* hills & sheep: the bag draws, [2, 3, "wolf", 1] */
    if (sheep)
        CARC_TRY(carc_script_sheep_from_json(sheep, s, err, errlen));
    const json_t *fruit = json_object_get(script, "fruit");   /* fruit trees: each fruit's stack, {"apple": [5, 2, 4, 3]} */
    if (fruit)
        CARC_TRY(carc_script_fruit_from_json(fruit, s, err, errlen));
    const json_t *hands = json_object_get(script, "hands");   /* halflings: each seat's triangles, [["HW01"], ...] */
    if (hands)
        CARC_TRY(carc_script_hands_from_json(cat, hands, s, err, errlen));
    const json_t *stack = json_object_get(script, "stack");
    if (!stack)
        return 0;
    if (!json_is_array(stack) || json_array_size(stack) == 0 || json_array_size(stack) > CARC_MAX_TILES) {
        snprintf(err, errlen, "script.stack: expected an array of 1 to %d tile ids", CARC_MAX_TILES);
        return CARC_E_INVALID;
    }
    size_t i;
    const json_t *id;
    json_array_foreach(stack, i, id) {
        int t = json_is_string(id) ? carc_catalog_find(cat, json_string_value(id)) : -1;
        if (t < 0) {
            snprintf(err, errlen, "script.stack[%zu]: unknown tile id", i);
            return CARC_E_INVALID;
        }
        s->stack[i] = (uint8_t)t;
    }
    s->nstack = (int)json_array_size(stack);
    return 0;
}

int carc_setup_from_json(const carc_catalog *cat, const json_t *setup, carc_setup *s, char *err, size_t errlen)
{
    carc_setup_defaults(s);
    const json_t *n = json_object_get(setup, "nplayers");
    if (!json_is_integer(n)) {
        snprintf(err, errlen, "nplayers: expected an integer");
        return CARC_E_INVALID;
    }
    s->nplayers = (int)json_integer_value(n);
    CARC_TRY(carc_expansions_from_json(&s->expansions, json_object_get(setup, "expansions"), err, errlen));
    CARC_TRY(carc_options_from_json(s->opt, json_object_get(setup, "options"), false, err, errlen));
    const json_t *script = json_object_get(setup, "script");
    return script ? carc_script_from_json(cat, script, s, err, errlen) : 0;
}

bool carc_move_is_leave(const json_t *move)
{
    const char *k = json_string_value(json_object_get(move, "kind"));
    return k && strcmp(k, "leave") == 0 && json_object_size(move) == 1;
}

bool carc_move_is_leave_to_bot(const json_t *move)
{
    const char *k = json_string_value(json_object_get(move, "kind"));
    return k && strcmp(k, "leave_to_bot") == 0 && json_object_size(move) == 1;
}

int carc_logged_move_apply(carc_state *st, int seat, const json_t *move, carc_events *ev, char *err, size_t errlen)
{
    if (carc_move_is_leave(move))   /* a resignation or a forfeit */
        return carc_leave(st, seat, ev, err, errlen);
    if (carc_move_is_leave_to_bot(move))   /* the same under the server's "bot_after_leave" */
        return carc_leave_to_bot(st, seat, ev, err, errlen);
    carc_move m;
    CARC_TRY(carc_move_from_json(st, move, &m, err, errlen));
    return carc_apply(st, seat, &m, ev, err, errlen);
}
