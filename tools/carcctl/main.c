/*
 * main.c — carcctl, the admins' command-line client of carcd (libcurl, jansson; libcarc for the tile data and
 * for replaying a game locally): its global flags, its commands' table and help, and main. Each command is a
 * file of its own (cmd_*.c); what they share is carcctl.h.
 *
 *   carcctl [--server URL] [--token TOKEN] [--as NAME] COMMAND [ARGS]
 *
 *   list [--status waiting|active|finished|cancelled] [--players N] [--waiting-for SEAT] [--limit N]
 *                        games, oldest first, every page of GET /v1/admin/games, filtered
 *   show ID [--seq N] [--public]
 *                        an ASCII board and the scores (the admin's view; --public: what anyone sees)
 *   hidden ID            the hidden state: seed, the stack still to draw in order, tiles under hills
 *   verify ID            POST verify; exit status 0 when the replay matches, 1 when it does not
 *   replay ID [--to N] [--each]
 *                        exports the game and replays it here with libcarc, printing the board after move
 *                        N (default: the last) or after --each move; checks the end against the snapshot
 *   export ID [-o FILE]  the game's export (setup, seed, stack, players, moves) as JSON
 *   import FILE [--stack-script]
 *                        creates the game on --server with the admin token (the seed and the original's script,
 *                        or with --stack-script the export's whole stack as the script, so the same tiles come
 *                        in the same order even where the shuffle changed; other draws, such as Hills & Sheep's
 *                        bag, then come from another point of the random stream and may not follow), posts every
 *                        move with the new seats' tokens (and cancels the copy of a game the admin cancelled),
 *                        prints the new id and the tokens, and compares the final state and status with the
 *                        export's (exit 1 when they differ)
 *   audit [--game ID] [--action NAME] [--limit N]
 *                        the audit log of admin actions, newest first
 *
 * `carcctl --help`, `carcctl help [COMMAND]` and `carcctl COMMAND --help` print what each command does; with
 * --json (before or after the command) every command prints one JSON document instead of text.
 * The server and token come from --server / --token, else CARCCTL_SERVER (default http://127.0.0.1:8080)
 * and CARCD_ADMIN_TOKEN. Every request carries X-Carcd-Actor: --as, else $USER, for the audit log.
 * Exit status: 0 success, 1 a check failed (verify, replay), 2 usage, 3 an HTTP or network error.
 * What a command prints for a person writes the server's texts (names, ids, reasons, a problem's detail) with
 * their control characters escaped (\x1b, \u009b: text.c), so that a player's name cannot drive the terminal;
 * --json, export and import's answer, for machines, give them byte-exact. An answer is read up to 64 MiB
 * (MAX_ANSWER); a larger one is refused, exit 3.
 */
#include <curl/curl.h>

#include "carcctl.h"

static int cmd_help(const command *c, int argc, char **argv);

static const command commands[] = {
    {"list", cmd_list, "[--status waiting|active|finished|cancelled] [--players N] [--waiting-for SEAT] [--limit N]",
     "lists games, oldest first (every page of GET /v1/admin/games), filtered"},
    {"show", cmd_show, "ID [--seq N] [--public]",
     "prints an ASCII board and the scores: the admin's view, --public what anyone sees, --seq N after move N"},
    {"hidden", cmd_hidden, "ID",
     "prints the hidden state: the seed, the stack still to draw in order, tiles under hills"},
    {"verify", cmd_verify, "ID", "asks the server to replay the game's log; exit 1 when it does not match"},
    {"replay", cmd_replay, "ID [--to N] [--each]",
     "replays the game here with libcarc (after move N, or printing every board); exit 1 when the end differs"},
    {"export", cmd_export, "ID [-o FILE]", "writes the game's export (set-up, seed, stack, players, moves) as JSON"},
    {"import", cmd_import, "FILE [--stack-script]",
     "creates the exported game here with its seed (--stack-script: every draw scripted, for another tile set) and "
     "posts its moves (a cancelled game's copy is cancelled too); prints the new id and tokens, exit 1 when the final "
     "state differs; nothing is created when a move would be refused"},
    {"audit", cmd_audit, "[--game ID] [--action NAME] [--limit N]",
     "prints the audit log of admin actions, newest first"},
    {"help", cmd_help, "[COMMAND]", "prints this help, or a command's"},
    {NULL, NULL, NULL, NULL},
};

static void print_usage(FILE *f)
{
    fputs("usage: carcctl [--server URL] [--token TOKEN] [--as NAME] [--json] COMMAND [ARGS]\n"
          "       carcctl help [COMMAND] | COMMAND --help\n\n"
          "  --server URL    carcd's address (default $CARCCTL_SERVER, else http://127.0.0.1:8080)\n"
          "  --token TOKEN   the admin token (default $CARCD_ADMIN_TOKEN)\n"
          "  --as NAME       the name the audit log records (default $USER)\n"
          "  --json          print JSON instead of text (every command)\n"
          "  -h, --help      this help\n\ncommands:\n",
          f);
    for (const command *c = commands; c->name; c++)
        fprintf(f, "  %s %s\n      %s\n", c->name, c->args, c->what);
    fputs("\nthe server's texts (names, ids, reasons) are printed with control characters escaped (\\x1b, "
          "\\u009b);\n--json and export print them as the server sent them. An answer over " MAX_ANSWER_SAID
          " is refused (exit 3).\n"
          "\nexit status: 0 success, 1 a check failed (verify, replay, import), 2 usage, 3 an HTTP or network "
          "error\n",
          f);
}

static const command *find_command(const char *name)
{
    for (const command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static int cmd_help(const command *self, int argc, char **argv)
{
    (void)self;
    const command *c = argc > 1 ? find_command(argv[1]) : NULL;
    if (argc > 1 && !c)
        usage_error(NULL, "help: no command %s", argv[1]);
    if (c)
        print_command_help(stdout, c);
    else
        print_usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *env = getenv("CARCCTL_SERVER");
    if (env && *env)
        ctl_server = env;
    ctl_token = getenv("CARCD_ADMIN_TOKEN");
    ctl_actor = getenv("USER");
    /* the global flags, up to the command ("+": stop at the first argument that is not a flag) */
    static const struct option opts[] = {{"server", required_argument, NULL, 's'},
                                         {"token", required_argument, NULL, 't'},
                                         {"as", required_argument, NULL, 'a'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'}, {0}};
    opterr = 0;
    for (int o; (o = getopt_long(argc, argv, "+:h", opts, NULL)) != -1;) {
        switch (o) {
        case 's': ctl_server = optarg; break;
        case 't': ctl_token = optarg; break;
        case 'a': ctl_actor = optarg; break;
        case 'j': ctl_json = true; break;
        case 'h': print_usage(stdout); return 0;
        case ':': usage_error(NULL, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt)
                usage_error(NULL, "unknown flag -%c", optopt);
            usage_error(NULL, "unknown flag %s", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const command *c = find_command(argv[optind]);
    if (!c)
        usage_error(NULL, "unknown command %s", argv[optind]);
    if (strncmp(ctl_server, "http://", 7) != 0 && strncmp(ctl_server, "https://", 8) != 0)
        usage_error(NULL, "--server (or CARCCTL_SERVER) is an http:// or https:// URL, not %s", ctl_server);
    char base[1024];   /* paths are added to it: "http://h:8080/" would make "//v1/..." */
    snprintf(base, sizeof base, "%s", ctl_server);
    for (size_t n = strlen(base); n > 8 && base[n - 1] == '/'; n--)
        base[n - 1] = 0;
    ctl_server = base;
    char **rest = argv + optind;
    int n = argc - optind;
    if (c->run == cmd_help)
        return cmd_help(c, n, rest);
    char err[256];
    if (carc_catalog_load(&ctl_catalog, err, sizeof err)) {
        fprintf(stderr, "carcctl: tile data: %s\n", err);
        return EXIT_CHECK;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    optind = 0;   /* glibc: start getopt afresh for the command's own flags */
    int rc = c->run(c, n, rest);
    curl_global_cleanup();
    return rc;
}
