/*
 * replay.c — an exported game replayed here with libcarc, as carcd replays its log: the set-up and seed of an
 * export, the state after move N, and the view of it.
 */
#include "carcctl.h"

/* A copy of `o` (a set-up or a snapshot) whose options are complete, as the engine reads them: an export of
 * a game from before an option existed lacks it, and the game was played with the value the option table
 * gives such games (ask_forced: true), not with the default a new game would get. */
json_t *with_full_options(const json_t *o)
{
    json_t *c = json_deep_copy(o);
    uint8_t opt[CARC_NOPTS];
    char err[128];
    if (c && carc_options_from_json(opt, json_object_get(c, "options"), false, err, sizeof err) == 0)
        json_object_set_new(c, "options", carc_options_to_json(opt));
    return c;
}

/* An export's set-up and seed as a carc_setup: the set-up decoded as carcd decodes it for a replay
 * (carc_setup_from_json: the script's stack, sheep, fruit and hands). */
void setup_of(const json_t *ex, carc_setup *s)
{
    char err[256];
    if (carc_setup_from_json(&ctl_catalog, json_object_get(ex, "setup"), s, err, sizeof err)) {
        fputs("carcctl: the export's set-up: ", stderr);
        put_field(stderr, err, 0);   /* libcarc's errors may quote the export's text */
        fputc('\n', stderr);
        exit(EXIT_CHECK);
    }
    const char *hex = str_or(json_object_get(ex, "seed"), "");
    for (int k = 0; k < 32; k++) {
        unsigned v;
        if (strlen(hex) != 64 || sscanf(hex + 2 * k, "%2x", &v) != 1) {
            fprintf(stderr, "carcctl: the export's seed is not 64 hex digits\n");
            exit(EXIT_CHECK);
        }
        s->seed[k] = (uint8_t)v;
    }
}

/* The admin view of a local state with the export's names and `seq`, for printing. */
json_t *local_view(const carc_state *st, const json_t *ex, int seq)
{
    json_t *v = carc_view_to_json(st, CARC_VIEW_ADMIN);
    json_object_set_new(v, "seq", json_integer(seq));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(v, "players"), i, p) {
        json_t *name = json_object_get(json_array_get(json_object_get(ex, "players"), i), "name");
        if (name)
            json_object_set(p, "name", name);
    }
    return v;
}

/* METHOD /v1/admin/games/{id}{suffix} with the admin token: the answer, or the program ends with the problem */
json_t *admin_game(const char *method, const char *id, const char *suffix)
{
    need_token();
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/games/%s%s", id, suffix);
    return must(ctl_server, ctl_token, method, path, NULL, 200);
}

json_t *fetch_export(const char *id)
{
    return admin_game("GET", id, "/export");
}

/* Replays the export up to seq `to` (-1: all) into *st; prints the board after every move with `each`.
 * Returns the seq reached. */
int replay_local(const json_t *ex, int to, bool each, carc_state *st)
{
    carc_setup s;
    setup_of(ex, &s);
    char err[256];
    if (carc_game_new(st, &ctl_catalog, &s, NULL, err, sizeof err)) {
        fputs("carcctl: the set-up does not start a game: ", stderr);
        put_field(stderr, err, 0);
        fputc('\n', stderr);
        exit(EXIT_CHECK);
    }
    int seq = 0;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        int mseq = (int)json_integer_value(json_object_get(m, "seq"));
        if (to >= 0 && mseq > to)
            break;
        int seat = (int)json_integer_value(json_object_get(m, "seat"));
        /* a move, or a seat leaving ({"kind":"leave"}: resigned or forfeited), as carcd's replay applies it */
        if (carc_logged_move_apply(st, seat, json_object_get(m, "move"), NULL, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %d (seat %d) does not apply: ", mseq, seat);
            put_field(stderr, err, 0);
            fputc('\n', stderr);
            exit(EXIT_CHECK);
        }
        seq = mseq;
        if (each) {
            json_t *v = local_view(st, ex, seq);
            printf("==== after move %d\n", seq);
            print_board(v);
            json_decref(v);
        }
    }
    return seq;
}
