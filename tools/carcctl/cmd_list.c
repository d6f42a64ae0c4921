/*
 * cmd_list.c — `carcctl list`: every page of GET /v1/admin/games, filtered, as a table or JSON.
 */
#include "carcctl.h"

/* A listed game's seat count: its players, or a waiting game's seats asked for (its nplayers is 0 until the
 * start). */
static long long players_of(const json_t *g)
{
    const json_t *asked = json_object_get(g, "seats_asked");
    return json_is_integer(asked) ? json_integer_value(asked) : json_integer_value(json_object_get(g, "nplayers"));
}

int cmd_list(const command *c, int argc, char **argv)
{
    const char *status = NULL;
    long players = -1, waiting = -1, limit = -1;
    static const struct option opts[] = {{"status", required_argument, NULL, 's'},
                                         {"players", required_argument, NULL, 'p'},
                                         {"waiting-for", required_argument, NULL, 'w'},
                                         {"limit", required_argument, NULL, 'l'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;) {
        switch (o) {
        case 's': status = optarg; break;
        case 'p': players = int_arg(c, optarg, "--players", 2); break;
        case 'w': waiting = int_arg(c, optarg, "--waiting-for", 0); break;
        case 'l': limit = int_arg(c, optarg, "--limit", 1); break;
        OPT_JSON;
        }
    }
    positional(c, argc, argv, 0);
    static const char *const statuses[] = {"waiting", "active", "finished", "cancelled", NULL};
    bool known = !status;
    for (int i = 0; status && statuses[i]; i++)
        known = known || strcmp(status, statuses[i]) == 0;
    if (!known)
        usage_error(c, "list: --status is waiting, active, finished or cancelled, not %s", status);
    need_token();
    char cursor[80] = "";
    long shown = 0;
    json_t *all = json_array();
    for (int page = 0; page < 100000; page++) {
        char path[300];
        snprintf(path, sizeof path, "/v1/admin/games?limit=200%s%s%s%s", status ? "&status=" : "", status ? status : "",
                 cursor[0] ? "&cursor=" : "", cursor);
        json_t *pg = must(ctl_server, ctl_token, "GET", path, NULL, 200);
        size_t i;
        json_t *g;
        json_array_foreach(json_object_get(pg, "games"), i, g) {
            json_t *pend = json_object_get(g, "pending_seat");
            if (players >= 0 && players_of(g) != players)
                continue;
            if (waiting >= 0 && (!json_is_integer(pend) || json_integer_value(pend) != waiting))
                continue;
            if (limit >= 0 && shown >= limit)
                break;
            shown++;
            json_array_append(all, g);
        }
        const char *next = json_string_value(json_object_get(pg, "next_cursor"));
        snprintf(cursor, sizeof cursor, "%s", next ? next : "");
        json_decref(pg);
        if (!cursor[0] || (limit >= 0 && shown >= limit))
            break;
    }
    /* every page read before anything is printed: an HTTP error leaves no half table */
    if (ctl_json) {   /* for machines: as the server sent it (print_json) */
        print_json(all);
        return 0;
    }
    printf("%-36s  %-8s %5s %7s %7s  %s\n", "id", "status", "seq", "players", "waiting", "created");
    size_t i;
    json_t *g;
    json_array_foreach(all, i, g) {
        json_t *pend = json_object_get(g, "pending_seat");
        {
            char wait[16] = "-", seats[24];
            if (json_is_integer(pend))
                snprintf(wait, sizeof wait, "%lld", (long long)json_integer_value(pend));
            const json_t *taken = json_object_get(g, "seats_taken");
            if (json_is_integer(taken))   /* a waiting game: "2/4", two of its four seats taken */
                snprintf(seats, sizeof seats, "%lld/%lld", (long long)json_integer_value(taken), players_of(g));
            else
                snprintf(seats, sizeof seats, "%lld", players_of(g));
            /* "%-36s  %-8s %5lld %7s %7s  %s": the id, status and time are the server's text */
            put_field(stdout, str_or(json_object_get(g, "id"), ""), -36);
            fputs("  ", stdout);
            put_field(stdout, str_or(json_object_get(g, "status"), ""), -8);
            printf(" %5lld %7s %7s  ", (long long)json_integer_value(json_object_get(g, "seq")), seats, wait);
            put_field(stdout, str_or(json_object_get(g, "created_at"), ""), 0);
            fputc('\n', stdout);
        }
    }
    json_decref(all);
    return 0;
}
