/*
 * cmd_show.c — `carcctl show` (a board and the scores, now or after move N) and `carcctl hidden` (the seed, the
 * stack still to draw, the tiles under hills).
 */
#include "carcctl.h"

int cmd_show(const command *c, int argc, char **argv)
{
    long seq = -1;
    bool public_view = false;
    static const struct option opts[] = {{"seq", required_argument, NULL, 's'}, {"public", no_argument, NULL, 'p'},
                                         COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': seq = int_arg(c, optarg, "--seq", 0); break;
        case 'p': public_view = true; break;
        OPT_JSON;
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    json_t *v;
    char path[200];
    if (seq >= 0) {
        json_t *ex = fetch_export(id);
        carc_state *st = malloc(sizeof *st);
        if (!st)
            abort();
        int reached = replay_local(ex, (int)seq, false, st);
        v = local_view(st, ex, reached);
        if (public_view) {   /* the public view of the same state */
            json_t *pub = carc_view_to_json(st, CARC_VIEW_PUBLIC);
            json_object_set(pub, "seq", json_object_get(v, "seq"));
            json_object_set(pub, "players", json_object_get(v, "players"));
            json_decref(v);
            v = pub;
        }
        free(st);
        json_decref(ex);
    } else if (public_view) {
        snprintf(path, sizeof path, "/v1/games/%s", id);
        v = must(ctl_server, NULL, "GET", path, NULL, 200);
    } else {
        v = admin_game("GET", id, "");
    }
    if (ctl_json) {
        print_json(v);
        return 0;
    }
    print_board(v);
    print_scores(v);
    json_decref(v);
    return 0;
}

int cmd_hidden(const command *c, int argc, char **argv)
{
    json_t *v = admin_game("GET", only_game_arg(c, argc, argv), "");
    if (ctl_json) {   /* the hidden parts of the admin view */
        json_t *h = json_object();
        static const char *const hidden_keys[] = {"seed", "seed_sha256", "rng", "stack_remaining", NULL};
        for (int k = 0; hidden_keys[k]; k++)
            if (json_object_get(v, hidden_keys[k]))
                json_object_set(h, hidden_keys[k], json_object_get(v, hidden_keys[k]));
        json_t *under = json_array();
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(v, "board"), i, t) if (json_is_string(json_object_get(t, "under")))
            json_array_append_new(under, json_pack("{s:O, s:O, s:O, s:O}", "tile", json_object_get(t, "tile"), "x",
                                                   json_object_get(t, "x"), "y", json_object_get(t, "y"), "under",
                                                   json_object_get(t, "under")));
        json_object_set_new(h, "under_hills", under);
        json_decref(v);
        print_json(h);
        return 0;
    }
    /* every text below is the server's: through put_field */
    fputs("seed         ", stdout);
    put_field(stdout, str_or(json_object_get(v, "seed"), "?"), 0);
    fputs("\nseed_sha256  ", stdout);
    put_field(stdout, str_or(json_object_get(v, "seed_sha256"), "?"), 0);
    fputc('\n', stdout);
    json_t *rng = json_object_get(v, "rng");
    printf("rng position %lld\n", (long long)json_integer_value(json_object_get(rng, "pos")));
    printf("stack, in draw order (%zu):", json_array_size(json_object_get(v, "stack_remaining")));
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(v, "stack_remaining"), i, t) {
        fputc(' ', stdout);
        put_field(stdout, str_or(t, "?"), 0);
    }
    printf("\n");
    json_t *pieces = json_object_get(v, "board");
    int under = 0;
    json_array_foreach(pieces, i, t) {
        const char *u = json_string_value(json_object_get(t, "under"));
        if (u) {
            fputs("under the hill ", stdout);
            put_field(stdout, str_or(json_object_get(t, "tile"), "?"), 0);
            printf(" at (%lld, %lld): ", (long long)json_integer_value(json_object_get(t, "x")),
                   (long long)json_integer_value(json_object_get(t, "y")));
            put_field(stdout, u, 0);
            fputc('\n', stdout);
            under++;
        }
    }
    if (!under)
        printf("no tile under a hill\n");
    /* anything else the admin view holds that the public one does not (expansion state) */
    static const char *const shown_keys[] = {"seed", "seed_sha256", "rng", "stack", "stack_remaining", "stack_pos",
                                             "board", "players", "figures", "pending", "setup", "options",
                                             "expansions", "id", "seq", "status", "turn", "active", "nplayers",
                                             "version", "discarded", "stack_left", "created_at", "updated_at",
                                             "finished_at", "winners", NULL};
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
        bool known = false;
        for (int k = 0; shown_keys[k] && !known; k++)
            known = strcmp(key, shown_keys[k]) == 0;
        if (!known) {
            /* jansson writes C0 controls as \u00NN but leaves DEL and C1 raw: put_field escapes those */
            char *txt = json_dumps(val, JSON_COMPACT | JSON_ENCODE_ANY);
            put_field(stdout, key, 0);
            fputs(": ", stdout);
            put_field(stdout, txt ? txt : "?", 0);
            fputc('\n', stdout);
            free(txt);
        }
    }
    json_decref(v);
    return 0;
}
