/*
 * cmd_export.c — `carcctl export`: a game's export (set-up, seed, stack, players, moves) as JSON.
 */
#include "carcctl.h"

int cmd_export(const command *c, int argc, char **argv)
{
    const char *file = NULL;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'}, COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":ho:", opts)) != -1;) {
        switch (o) {
        case 'o': file = optarg; break;
        OPT_JSON;   /* the export is JSON anyway */
        }
    }
    const char *id = positional(c, argc, argv, 1)[0];
    json_t *ex = fetch_export(id);
    FILE *f = file ? fopen(file, "w") : stdout;
    if (!f) {
        perror(file);
        json_decref(ex);
        return EXIT_USAGE;
    }
    /* the export is for machines (import reads it back), to a file or a pipe: byte-exact, not put_text's */
    json_dumpf(ex, f, JSON_INDENT(2));
    fputc('\n', f);
    if (f != stdout)
        fclose(f);
    json_decref(ex);
    return 0;
}
