/*
 * args.c — carcctl's flags: the settings the global flags give (main reads them), and a command's own flags and
 * arguments: getopt over them, the positional arguments, whole numbers, and the usage errors that name what was
 * wrong (exit 2).
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>

#include "carcctl.h"

/* the global flags' settings (carcctl.h), which main sets */
const char *ctl_server = "http://127.0.0.1:8080";
const char *ctl_token;
const char *ctl_actor;
bool ctl_json;
carc_catalog ctl_catalog;

/* How a command is used: its arguments and what it does. */
void print_command_help(FILE *f, const command *c)
{
    fprintf(f, "usage: carcctl [GLOBAL FLAGS] %s %s\n  %s\n(carcctl --help lists the global flags)\n", c->name,
            c->args, c->what);
}

/* A usage error: what was wrong, then how it is used; exit status 2. */
void usage_error(const command *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("carcctl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (c)
        print_command_help(stderr, c);
    else
        fputs("carcctl --help lists the commands\n", stderr);
    exit(EXIT_USAGE);
}

/* getopt_long over a command's arguments (argv[0] is the command's name): each option's value, or 'h' for
 * --help (printed, exit 0), or usage_error naming the flag. Returns -1 at the end; *optind_out the first
 * positional argument (GNU getopt moves them to the end). */
int next_opt(const command *c, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    int o = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (o == 'h') {
        print_command_help(stdout, c);
        exit(0);
    }
    if (o == '?') {
        if (optopt)
            usage_error(c, "%s: unknown flag -%c, or its value is missing", c->name, optopt);
        usage_error(c, "%s: unknown flag %s, or its value is missing", c->name, argv[optind - 1]);
    }
    if (o == ':')
        usage_error(c, "%s: %s needs a value", c->name, argv[optind - 1]);
    return o;
}

/* The positional arguments after option parsing: exactly `want` of them, else a usage error. */
char **positional(const command *c, int argc, char **argv, int want)
{
    int n = argc - optind;
    if (n > want)
        usage_error(c, "%s: unexpected argument %s", c->name, argv[optind + want]);
    if (n < want) {   /* the arguments' names are the words of c->args before its first flag */
        int len = (int)strcspn(c->args, "[");
        while (len > 0 && c->args[len - 1] == ' ')
            len--;
        usage_error(c, "%s: missing %.*s", c->name, len, c->args);
    }
    return argv + optind;
}

/* Prints j on stdout as the --json answer, and frees it. The answer is for machines (jq, scripts): the server's
 * texts byte-exact, not escaped by put_text (jansson writes C0 controls in a string as \u00NN anyway). */
void print_json(json_t *j)
{
    json_dumpf(j, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(j);
}

void need_token(void)
{
    if (!ctl_token || !*ctl_token) {
        fprintf(stderr, "carcctl: this needs the admin token (--token or CARCD_ADMIN_TOKEN)\n");
        exit(EXIT_USAGE);
    }
}

/* A flag's whole number, at least `min`; else a usage error naming the flag (exit 2). */
long int_arg(const command *c, const char *s, const char *what, long min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno)
        usage_error(c, "%s: %s needs a whole number, not %s", c->name, what, s);
    if (v < min)
        usage_error(c, "%s: %s needs a number of %ld or more, not %s", c->name, what, min, s);
    return v;
}

/* `s` escaped for a query string (curl_easy_escape); free with curl_free. */
char *query_escape(const char *s)
{
    char *e = curl_easy_escape(NULL, s, 0);
    if (!e)
        abort();
    return e;
}

const char *str_or(const json_t *j, const char *dflt)
{
    const char *s = json_string_value(j);
    return s ? s : dflt;
}

/* The game id of a command that takes one and only the common options */
const char *only_game_arg(const command *c, int argc, char **argv)
{
    static const struct option opts[] = {COMMON_OPTS, {0}};
    for (int o; (o = next_opt(c, argc, argv, ":h", opts)) != -1;)
        if (o == 'j')
            ctl_json = true;
    return positional(c, argc, argv, 1)[0];
}
