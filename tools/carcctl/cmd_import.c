/*
 * cmd_import.c — `carcctl import`: an export made a game on --server again, with its seed (or its whole stack as
 * a script), its moves posted with the new seats' tokens, and the final state compared with the export's.
 */
#include "carcctl.h"

/* One logged move of an export applied to a local state, as carcd's replay applies it (a move, or a seat
 * leaving: {"kind":"leave"}); the events into ev (may be NULL). */
static int apply_logged(carc_state *st, const json_t *m, carc_events *ev, char *err, size_t errlen)
{
    return carc_logged_move_apply(st, (int)json_integer_value(json_object_get(m, "seat")), json_object_get(m, "move"),
                                  ev, err, errlen);
}

/* --stack-script: a script for every random draw the original game made, not only its stack. The seed also
 * dealt the triangles (halflings), stacked the fruit (fruit trees) and drew from the bag (hills & sheep) after
 * the shuffle; with the stack scripted there is no shuffle, so the same seed would deal and draw otherwise,
 * and the original's moves stop fitting (a triangle the seat does not hold). So the export is replayed here
 * with libcarc and what each draw gave is scripted too: the new game uses no randomness at all. NULL (and a
 * message) when the game cannot be scripted. */
static json_t *script_of_draws(const json_t *ex)
{
    carc_setup s;
    setup_of(ex, &s);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    char err[256];
    carc_events ev = {0};
    json_t *script = NULL;
    if (carc_game_new(st, &ctl_catalog, &s, NULL, err, sizeof err)) {
        fputs("carcctl: the export's set-up does not start a game here: ", stderr);
        put_field(stderr, err, 0);   /* libcarc's errors may quote the export's text */
        fputc('\n', stderr);
        goto out;
    }
    script = json_pack("{s:O}", "stack", json_object_get(ex, "stack"));
    if (carc_has(st, CARC_SET_HALFLINGS) && st->half.pool_n == 0) {   /* dealt at random (a draft is not) */
        json_t *hands = json_array();
        for (int seat = 0; seat < st->nplayers; seat++) {
            json_t *h = json_array();
            for (int i = 0; i < st->half.hand_n[seat]; i++)
                json_array_append_new(h, json_string(ctl_catalog.types[st->half.hand[seat][i]].id));
            json_array_append_new(hands, h);
        }
        json_object_set_new(script, "hands", hands);
    }
    if (carc_has(st, CARC_SET_FRUIT_TREES)) {
        json_t *fruit = json_object();
        for (int t = 0; t < CARC_FRUIT_TYPES; t++) {
            json_t *a = json_array();
            for (int k = CARC_FRUIT_STACK - 1; k >= 0; k--)   /* the script is top first */
                json_array_append_new(a, json_integer(st->fruit.stack[t][k]));
            json_object_set_new(fruit, carc_fruit_names[t], a);
        }
        json_object_set_new(script, "fruit", fruit);
    }
    json_t *sheep = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        carc_events_clear(&ev);
        if (apply_logged(st, m, &ev, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %lld of the export does not replay here: ",
                    (long long)json_integer_value(json_object_get(m, "seq")));
            put_field(stderr, err, 0);
            fputc('\n', stderr);
            json_decref(sheep);
            json_decref(script);
            script = NULL;
            goto out;
        }
        for (size_t k = 0; k < ev.n; k++)
            if (ev.v[k].kind == CARC_EV_TOKEN_DRAWN)
                json_array_append_new(sheep, ev.v[k].value == CARC_WOLF ? json_string("wolf")
                                                                        : json_integer(ev.v[k].value));
    }
    if (json_array_size(sheep) > CARC_MAX_SCRIPT) {
        fprintf(stderr, "carcctl: the game drew %zu times from the sheep bag; a script holds %d: import it "
                        "without --stack-script\n", json_array_size(sheep), CARC_MAX_SCRIPT);
        json_decref(sheep);
        json_decref(script);
        script = NULL;
        goto out;
    }
    if (json_array_size(sheep) > 0)
        json_object_set_new(script, "sheep", sheep);
    else
        json_decref(sheep);
out:
    carc_events_free(&ev);
    free(st);
    return script;
}

/* Replays the export's moves here from the set-up the import will send (its seed and `script`): whether every
 * one applies, so that a game the server would refuse half-way is never created. */
static bool import_replays(const json_t *ex, const json_t *script)
{
    json_t *copy = json_deep_copy(ex);
    json_t *setup = json_object_get(copy, "setup");
    if (script)
        json_object_set(setup, "script", (json_t *)script);
    else
        json_object_del(setup, "script");
    carc_setup s;
    setup_of(copy, &s);
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    char err[256];
    bool ok = carc_game_new(st, &ctl_catalog, &s, NULL, err, sizeof err) == 0;
    if (!ok) {
        fputs("carcctl: the set-up would not start a game: ", stderr);
        put_field(stderr, err, 0);
        fputc('\n', stderr);
    }
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(copy, "moves"), i, m) {
        if (!ok)
            break;
        if (apply_logged(st, m, NULL, err, sizeof err)) {
            fprintf(stderr, "carcctl: move %lld (seat %lld) would be refused: ",
                    (long long)json_integer_value(json_object_get(m, "seq")),
                    (long long)json_integer_value(json_object_get(m, "seat")));
            put_field(stderr, err, 0);
            fputs("; nothing was imported\n", stderr);
            ok = false;
        }
    }
    free(st);
    json_decref(copy);
    return ok;
}

int cmd_import(const command *c, int argc, char **argv)
{
    bool stack_script = false;
    static const struct option opts[] = {{"stack-script", no_argument, NULL, 's'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': stack_script = true; break;
        OPT_JSON;   /* the answer is JSON anyway */
        }
    }
    const char *file = positional(c, argc, argv, 1)[0];
    need_token();
    json_error_t e;
    json_t *ex = json_load_file(file, 0, &e);
    if (!ex || strcmp(str_or(json_object_get(ex, "format"), ""), "carcd-export/1") != 0) {
        fprintf(stderr, "carcctl: %s: not a carcd export (", file);
        put_field(stderr, ex ? "format" : e.text, 0);   /* jansson's error quotes the file's text */
        fputs(")\n", stderr);
        json_decref(ex);
        return EXIT_USAGE;
    }
    size_t i;
    json_t *p;
    /* a seat left to a bot (bot_after_leave) plays on with no token to post its moves: not importable */
    json_array_foreach(json_object_get(ex, "moves"), i, p) {
        if (carc_move_is_leave_to_bot(json_object_get(p, "move"))) {
            fprintf(stderr, "carcctl: %s: move %lld left seat %lld to a bot; an import posts every move with its "
                            "seat's token, which a bot's seat does not take: not imported\n",
                    file, (long long)json_integer_value(json_object_get(p, "seq")),
                    (long long)json_integer_value(json_object_get(p, "seat")));
            json_decref(ex);
            return EXIT_CHECK;
        }
    }
    const json_t *setup = json_object_get(ex, "setup");
    json_t *req = json_object();
    json_t *players = json_array();
    json_array_foreach(json_object_get(ex, "players"), i, p)
        json_array_append_new(players, json_pack("{s:O}", "name", json_object_get(p, "name")));
    json_object_set_new(req, "players", players);
    json_object_set(req, "expansions", json_object_get(setup, "expansions"));
    json_t *full = with_full_options(setup);
    json_object_set(req, "options", json_object_get(full, "options"));
    json_decref(full);
    json_object_set(req, "seed", json_object_get(ex, "seed"));
    if (json_is_object(json_object_get(ex, "clock")))   /* its settings; the copy's clock starts now */
        json_object_set(req, "clock", json_object_get(ex, "clock"));
    /* the original's script (or none: the seed alone deals the same stack); --stack-script: every draw */
    json_t *script = stack_script ? script_of_draws(ex) : json_deep_copy(json_object_get(setup, "script"));
    if (stack_script && !script) {
        json_decref(req);
        json_decref(ex);
        return EXIT_CHECK;
    }
    if (!import_replays(ex, script)) {
        json_decref(script);
        json_decref(req);
        json_decref(ex);
        return EXIT_CHECK;
    }
    if (script)
        json_object_set_new(req, "script", script);
    json_t *created = must(ctl_server, ctl_token, "POST", "/v1/games", req, 201);
    json_decref(req);
    const char *id = str_or(json_object_get(created, "id"), "");
    json_t *toks = json_object_get(created, "players");
    json_t *m;
    json_array_foreach(json_object_get(ex, "moves"), i, m) {
        int seq = (int)json_integer_value(json_object_get(m, "seq"));
        int seat = (int)json_integer_value(json_object_get(m, "seat"));
        const char *tok = json_string_value(json_object_get(json_array_get(toks, (size_t)seat), "token"));
        /* a seat that left (resigned, or forfeited on time) is logged as {"kind":"leave"}: it resigns here */
        bool leave = carc_move_is_leave(json_object_get(m, "move"));
        json_t *body = leave ? json_object()
                             : json_pack("{s:i, s:O}", "expected_seq", seq - 1, "move", json_object_get(m, "move"));
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/%s", id, leave ? "resign" : "moves");
        long st;
        json_t *ans = http(ctl_server, tok, "POST", path, body, &st, NULL);
        json_decref(body);
        if (st != 200) {
            /* it replayed here, so the server changed under us or failed: say which game is left half-way */
            fprintf(stderr, "carcctl: move %d of the export was refused (HTTP %ld): ", seq, st);
            put_field(stderr, str_or(json_object_get(ans, "detail"), "?"), 0);
            fputs("; game ", stderr);
            put_field(stderr, id, 0);
            fprintf(stderr, " is left at seq %d\n", seq - 1);
            json_decref(ans);
            json_decref(created);
            json_decref(ex);
            return EXIT_CHECK;
        }
        json_decref(ans);
    }
    /* the admin's cancel is the log's last entry, which an export's moves (the seats') leave out: without it
     * the copy of a cancelled game would be a game under way */
    if (strcmp(str_or(json_object_get(ex, "status"), ""), "cancelled") == 0) {
        char path[200], reason[200];
        snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", id);
        snprintf(reason, sizeof reason, "imported from game %.36s, which was cancelled",
                 str_or(json_object_get(ex, "id"), "?"));
        json_t *body = json_pack("{s:s}", "reason", reason);
        json_decref(must(ctl_server, ctl_token, "POST", path, body, 200));
        json_decref(body);
    }
    /* the same final state? (with a stack script the random stream stands elsewhere: rng not compared) */
    json_t *mine = fetch_export(id);
    json_t *a = with_full_options(json_object_get(mine, "snapshot"));
    json_t *b = with_full_options(json_object_get(ex, "snapshot"));
    if (stack_script) {   /* and the sheep draws were scripted: the bag's script is the import's own */
        json_object_del(a, "rng");
        json_object_del(b, "rng");
        json_object_del(json_object_get(a, "hills_sheep"), "script");
        json_object_del(json_object_get(a, "hills_sheep"), "script_pos");
        json_object_del(json_object_get(b, "hills_sheep"), "script");
        json_object_del(json_object_get(b, "hills_sheep"), "script_pos");
    }
    bool same = json_equal(a, b) && json_equal(json_object_get(mine, "status"), json_object_get(ex, "status"));
    json_decref(a);
    json_decref(b);
    json_decref(mine);
    /* the new game and its tokens are for machines too (a script reads them): JSON, as the server sent them */
    json_t *out = json_pack("{s:s, s:O, s:b}", "id", id, "players", toks, "same_state", same);
    json_dumpf(out, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    fputs("carcctl: imported as ", stderr);
    put_field(stderr, id, 0);
    fprintf(stderr, ", %zu moves, %s\n", json_array_size(json_object_get(ex, "moves")),
            same ? "same final state" : "the final state DIFFERS");
    json_decref(out);
    json_decref(created);
    json_decref(ex);
    return same ? 0 : EXIT_CHECK;
}
