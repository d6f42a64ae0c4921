/*
 * cmd_verify.c — `carcctl verify` (carcd replays its own log) and `carcctl replay` (the export replayed here and
 * compared with what carcd serves).
 */
#include "carcctl.h"

int cmd_verify(const command *c, int argc, char **argv)
{
    json_t *v = admin_game("POST", only_game_arg(c, argc, argv), "/verify");
    bool ok = json_is_true(json_object_get(v, "ok"));
    if (ctl_json) {
        print_json(v);
        return ok ? 0 : EXIT_CHECK;
    }
    if (ok)
        printf("ok: the log replays to the stored state (seq %lld)\n",
               (long long)json_integer_value(json_object_get(v, "seq")));
    else {
        printf("MISMATCH at seq %lld: ", (long long)json_integer_value(json_object_get(v, "failed_at_seq")));
        put_field(stdout, str_or(json_object_get(v, "reason"), "?"), 0);
        fputc('\n', stdout);
    }
    json_decref(v);
    return ok ? 0 : EXIT_CHECK;
}

/* The first member of the replay's view (the engine's view, as the admin sees it) that the server's own view of
 * the game, served from its stored state, has otherwise (a member it does not show is not compared); NULL when
 * none. The export's snapshot is no witness of the stored state: the server makes it by replaying the log. */
static const char *served_differs(const json_t *local, const json_t *served)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)local, k, v) {
        if (strcmp(k, "players") == 0) {   /* the server's seats say more (a bot, a mail): their scores and supplies */
            size_t i;
            json_t *p;
            json_array_foreach(v, i, p) {
                json_t *q = json_array_get(json_object_get(served, "players"), i);
                if (!json_equal(json_object_get(p, "score"), json_object_get(q, "score")) ||
                    !json_equal(json_object_get(p, "supply"), json_object_get(q, "supply")))
                    return "players";
            }
        } else if (json_object_get(served, k) && !json_equal(v, json_object_get(served, k))) {
            return k;
        }
    }
    return NULL;
}

int cmd_replay(const command *c, int argc, char **argv)
{
    long to = -1;
    bool each = false;
    static const struct option opts[] = {{"to", required_argument, NULL, 't'}, {"each", no_argument, NULL, 'e'},
                                         COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 't': to = int_arg(c, optarg, "--to", 0); break;
        case 'e': each = true; break;
        OPT_JSON;
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    if (ctl_json && each)
        usage_error(c, "replay: --each prints boards; with --json the state after the last move is printed");
    json_t *ex = fetch_export(id);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    int seq = replay_local(ex, (int)to, each, st);
    int rc = 0;
    if (!each && !ctl_json) {
        json_t *v = local_view(st, ex, seq);
        print_board(v);
        print_scores(v);
        json_decref(v);
    }
    if (to < 0 || to >= json_integer_value(json_object_get(ex, "seq"))) {
        json_t *snap = carc_state_to_json(st);
        json_object_del(json_object_get(snap, "rng"), "seed");
        json_t *stored = with_full_options(json_object_get(ex, "snapshot"));
        json_t *local = local_view(st, ex, seq), *served = admin_game("GET", id, "");
        const char *member = served_differs(local, served);
        rc = json_equal(snap, stored) && !member ? 0 : EXIT_CHECK;
        json_decref(stored);
        if (!ctl_json && member)
            printf("MISMATCH: the server's game (its stored state) differs from the replay of its log in \"%s\"\n",
                   member);
        else if (!ctl_json)
            printf(rc ? "MISMATCH: the local replay differs from the server's state\n"
                      : "ok: the local replay reaches the server's state\n");
        json_decref(local);
        json_decref(served);
        json_decref(snap);
    }
    if (ctl_json) {   /* the state reached, as the admin sees it, and whether it is the server's */
        json_t *out = json_pack("{s:i, s:o}", "seq", seq, "view", local_view(st, ex, seq));
        if (to < 0 || to >= json_integer_value(json_object_get(ex, "seq")))
            json_object_set_new(out, "same_state", json_boolean(rc == 0));
        print_json(out);
    }
    free(st);
    json_decref(ex);
    return rc;
}
