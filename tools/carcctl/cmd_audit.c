/*
 * cmd_audit.c — `carcctl audit`: the audit log of admin actions, newest first.
 */
#include <curl/curl.h>

#include "carcctl.h"

int cmd_audit(const command *c, int argc, char **argv)
{
    const char *game = NULL, *action = NULL;
    long limit = 50;
    static const struct option opts[] = {{"game", required_argument, NULL, 'g'},
                                         {"action", required_argument, NULL, 'a'},
                                         {"limit", required_argument, NULL, 'l'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 'g': game = optarg; break;
        case 'a': action = optarg; break;
        case 'l': limit = int_arg(c, optarg, "--limit", 1); break;
        OPT_JSON;
        }
    }
    positional(c, argc, argv, 0);
    if (limit > 500)   /* GET /v1/admin/audit's most */
        usage_error(c, "audit: --limit is at most 500, not %ld", limit);
    need_token();
    char path[400], *qg = query_escape(game ? game : ""), *qa = query_escape(action ? action : "");
    snprintf(path, sizeof path, "/v1/admin/audit?limit=%ld%s%s%s%s", limit, game ? "&game=" : "", qg,
             action ? "&action=" : "", qa);
    curl_free(qg);
    curl_free(qa);
    json_t *v = must(ctl_server, ctl_token, "GET", path, NULL, 200);
    if (ctl_json) {   /* for machines: as the server sent it (print_json) */
        print_json(json_incref(json_object_get(v, "entries")));
        json_decref(v);
        return 0;
    }
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(v, "entries"), i, e) {
        /* "%6s  %s  %-20s %-36s %s[ %s] %s": every field the server's text, so each through put_field */
        const json_t *a = json_object_get(e, "actor");
        put_field(stdout, str_or(json_object_get(e, "id"), ""), 6);
        fputs("  ", stdout);
        put_field(stdout, str_or(json_object_get(e, "at"), ""), 0);
        fputs("  ", stdout);
        put_field(stdout, str_or(json_object_get(e, "action"), ""), -20);
        fputc(' ', stdout);
        put_field(stdout, str_or(json_object_get(e, "game_id"), "-"), -36);
        fputc(' ', stdout);
        put_field(stdout, str_or(json_object_get(a, "id"), ""), 0);
        if (json_is_string(json_object_get(a, "name"))) {
            fputc(' ', stdout);
            put_field(stdout, json_string_value(json_object_get(a, "name")), 0);
        }
        fputc(' ', stdout);
        put_field(stdout, str_or(json_object_get(a, "address"), ""), 0);
        fputc('\n', stdout);
    }
    json_decref(v);
    return 0;
}
