/*
 * carcctl.h — what the files of carcctl, the admins' command-line client (main.c says what it does), share: the
 * settings of the global flags, the requests to carcd, the parsing of a command's flags, the ASCII board and the
 * local replay of an export. Each command is a cmd_*.c file whose one entry is in main.c's table.
 */
#ifndef CARCCTL_H
#define CARCCTL_H

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "json.h"

/* exit statuses */
#define EXIT_CHECK 1   /* a check failed: verify, replay, import */
#define EXIT_USAGE 2
#define EXIT_HTTP 3    /* an HTTP or network error */

/* Set once by main from the global flags (else CARCCTL_SERVER, CARCD_ADMIN_TOKEN, $USER), read by the commands;
 * defined in args.c. */
extern const char *ctl_server;   /* carcd's base URL, without a trailing slash */
extern const char *ctl_token;    /* the admin token; NULL: none */
extern const char *ctl_actor;    /* X-Carcd-Actor, for the audit log; NULL: none */
extern bool ctl_json;            /* --json: every command prints one JSON document on stdout instead of text */
extern carc_catalog ctl_catalog; /* the tile data, loaded before a command runs */

/* A command: its name, its entry (given its own entry, for its help), its arguments after the name, what it does
 * (main.c's table). */
typedef struct command command;
struct command {
    const char *name;
    int (*run)(const command *c, int argc, char **argv);
    const char *args;
    const char *what;
};
/* How command c is used: its arguments and what it does. */
void print_command_help(FILE *f, const command *c);

/* ---- http.c ---- */
/* The most of an answer carcctl reads. The biggest answers carcd gives, a finished game's export or a page of 200
 * listed games, are some KB; 64 MiB is thousands of times that, so no true answer nears it, while a broken or
 * hostile server that sends without end can no longer have carcctl take all the memory there is. */
#define MAX_ANSWER ((size_t)64 << 20)
#define MAX_ANSWER_SAID "64 MiB"   /* MAX_ANSWER as the messages and the help say it */
/* One request to `base` with bearer `tok` (may be NULL); *status gets the HTTP status (0: no answer, said on
 * stderr). The body parsed as JSON, or NULL (then *raw, when given, gets the text). */
json_t *http(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
             long *status, char **raw);
/* A request that must answer `want`; otherwise prints why and exits 3. */
json_t *must(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
             long want);

/* ---- args.c ---- */
/* Every command takes --json and --help besides its own options. */
#define COMMON_OPTS {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}
#define OPT_JSON case 'j': ctl_json = true; break
/* What was wrong, then how the command is used (c NULL: the global usage); exit 2. */
void usage_error(const command *c, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* getopt_long over a command's arguments: each option's value, 'h' handled (help, exit 0), -1 at the end. */
int next_opt(const command *c, int argc, char **argv, const char *shortopts, const struct option *longopts);
/* The positional arguments after the flags: exactly `want` of them, else a usage error. */
char **positional(const command *c, int argc, char **argv, int want);
/* The game id of a command that takes one and only the common options. */
const char *only_game_arg(const command *c, int argc, char **argv);
/* A flag's whole number, at least `min`; else a usage error naming the flag. */
long int_arg(const command *c, const char *s, const char *what, long min);
/* `s` escaped for a query string; free with curl_free. */
char *query_escape(const char *s);
/* Prints j on stdout as the --json answer, and frees it. */
void print_json(json_t *j);
/* Exits 2 unless there is an admin token. */
void need_token(void);
/* j's string, or dflt. */
const char *str_or(const json_t *j, const char *dflt);

/* ---- text.c ---- */
/* Writes the n bytes of server text at s on f (NULL: nowhere, to measure them) as a terminal may show them:
 * printable text and valid UTF-8 as they are, C0 and C1 controls, DEL and bytes that are not UTF-8 escaped
 * (\x1b, \u009b, \xff). Returns the columns written. Every text of the server's a command prints for a person
 * goes through it. */
size_t put_text(FILE *f, const char *s, size_t n);
/* put_text of s (NULL: ""), padded to |width| columns as printf pads %*s: on the left, or on the right when
 * width is negative (%-*s). */
void put_field(FILE *f, const char *s, int width);

/* ---- board.c ---- */
void print_board(const json_t *view);
void print_scores(const json_t *view);

/* ---- replay.c ---- */
/* A copy of o (a set-up or a snapshot) whose options are complete, as the engine reads them. */
json_t *with_full_options(const json_t *o);
/* An export's set-up and seed as a carc_setup; exits 1 when carcd's export does not decode. */
void setup_of(const json_t *ex, carc_setup *s);
/* The admin's view of a local state, with the export's names and seq. */
json_t *local_view(const carc_state *st, const json_t *ex, int seq);
/* METHOD /v1/admin/games/{id}{suffix} with the admin token: the answer, or the program ends with the problem. */
json_t *admin_game(const char *method, const char *id, const char *suffix);
json_t *fetch_export(const char *id);
/* Replays export ex into *st up to move `to` (-1: all; each: printing every board); the seq reached. */
int replay_local(const json_t *ex, int to, bool each, carc_state *st);

/* ---- the commands ---- */
int cmd_list(const command *c, int argc, char **argv);
int cmd_show(const command *c, int argc, char **argv);
int cmd_hidden(const command *c, int argc, char **argv);
int cmd_verify(const command *c, int argc, char **argv);
int cmd_replay(const command *c, int argc, char **argv);
int cmd_export(const command *c, int argc, char **argv);
int cmd_import(const command *c, int argc, char **argv);
int cmd_audit(const command *c, int argc, char **argv);

#endif
