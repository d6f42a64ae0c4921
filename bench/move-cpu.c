/*
 * move-cpu — the in-process work of one carcd move, part by part, without HTTP or PostgreSQL: plays random
 * games through the engine and times, at every state, what the daemon computes for a move and the reads
 * around it (moves_post.c, move_commit.c, legal_moves.c, games.c). Prints one `name: value` line per part, in
 * microseconds per move, so that a change to one part shows in its own figure rather than in the noise of an
 * HTTP run (bench/run-http-bench.sh).
 *
 *   move-cpu [--games N] [--seed S] [--expansions a,b,...] [--no-arena]
 *
 * Parts: apply (the engine), legal_moves (generation and its JSON written as text without a tree:
 * cd_legal_moves_json_text, what GET legal-moves and the move's answer send), legal_moves_tree (the same JSON
 * through a jansson tree and its dump, as before the text writer; checked to be the same bytes), events (both
 * renderings, dumped), snapshot_tree (cd_snapshot_for_store), snapshot_dump (its text), snapshot_text (the
 * same text without the tree: cd_snapshot_text_for_store, what a move stores), snapshot_parse (a cache miss:
 * the text parsed and decoded back into a state), state_copy (a cache hit: one state copied in and one out),
 * token_hash (SHA-256 of a bearer token). per_move_us is the sum of the parts a move of a game in the state
 * cache costs the daemon: apply, legal_moves, events, snapshot_text, state_copy and token_hash (the tree
 * parts are the other ways to the same bytes, and a cache miss is not every move's). Each move's work runs in a
 * jansson arena scope, as the handlers do (json_arena.h); --no-arena uses malloc, as before there was one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "game/catalog.h"
#include "game/games.h"
#include "game/views.h"
#include "base/json_arena.h"
#include "base/json_out.h"
#include "bench_clock.h"

enum { P_APPLY, P_LEGAL, P_LEGAL_TREE, P_EVENTS, P_TREE, P_DUMP, P_TEXT, P_PARSE, P_COPY, P_HASH, NPARTS };
static const char *const part_names[NPARTS] = {"apply",         "legal_moves",   "legal_moves_tree", "events",
                                               "snapshot_tree", "snapshot_dump", "snapshot_text",    "snapshot_parse",
                                               "state_copy",    "token_hash"};
/* the parts a move of a held game costs the daemon (per_move_us): the others are alternatives or a miss's */
static const bool part_per_move[NPARTS] = {[P_APPLY] = true, [P_LEGAL] = true, [P_EVENTS] = true,
                                           [P_TEXT] = true,  [P_COPY] = true,  [P_HASH] = true};
static double spent[NPARTS];

static void usage(void)
{
    fputs("usage: move-cpu [--games N] [--seed S] [--expansions a,b,...] [--no-arena]\n", stderr);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("move-cpu: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    long games = 20;
    unsigned long long seed = 1;
    unsigned expansions = 0;
    bool arena = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--games") && v)
            games = atol(v), i++;
        else if (!strcmp(a, "--seed") && v)
            seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--expansions") && v) {
            char tmp[256];
            snprintf(tmp, sizeof tmp, "%s", v);
            for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
                int set = 0;
                while (set < CARC_NSETS && strcmp(carc_set_names[set], t) != 0)
                    set++;
                if (set == CARC_NSETS) {
                    fprintf(stderr, "move-cpu: unknown expansion %s\n", t);
                    return 2;
                }
                expansions |= 1u << set;
            }
            i++;
        } else if (!strcmp(a, "--no-arena"))
            arena = false;
        else
            usage();
    }
    if (games < 1)
        usage();
    const carc_catalog *cat = cd_catalog();
    carc_state *st = xmalloc(sizeof *st), *other = xmalloc(sizeof *other), *cache = xmalloc(sizeof *cache);
    carc_events ev = {0};
    carc_moves moves = {0};
    char err[200];
    long total = 0;
    uint64_t pick = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t snapshot_bytes = 0;
    static const char zeros[] = "0000000000000000000000000000000000000000000000000000000000000000";
    for (long g = 0; g < games; g++) {
        carc_setup setup;
        carc_setup_defaults(&setup);
        setup.expansions |= expansions;
        for (int k = 0; k < 32; k++)
            setup.seed[k] = (uint8_t)(seed >> (k % 8 * 8) ^ (unsigned long long)g * 131 ^ (unsigned)k);
        carc_events_clear(&ev);
        if (carc_game_new(st, cat, &setup, &ev, err, sizeof err) != 0) {
            fprintf(stderr, "move-cpu: %s\n", err);
            return 1;
        }
        while (st->status == CARC_ACTIVE) {
            int seat = st->pending.seat;
            if (arena)
                cd_json_arena_begin();
            double t0 = bench_now_s();
            char *text = cd_legal_moves_json_text(st, 1, seat);
            double t1 = bench_now_s();
            spent[P_LEGAL] += t1 - t0;
            json_t *lm = cd_legal_moves_json(st, 1, seat);
            char *tree_text = cd_json_dumps(lm, JSON_COMPACT);
            json_decref(lm);
            double t1b = bench_now_s();
            spent[P_LEGAL_TREE] += t1b - t1;
            if (!text || !tree_text || strcmp(text, tree_text) != 0) {
                fprintf(stderr, "move-cpu: game %ld: the legal moves' text differs from their tree's\n", g);
                return 1;
            }
            free(text);
            free(tree_text);
            carc_legal_moves(st, seat, &moves);   /* the move to play is picked from these (not timed) */
            if (moves.n == 0) {
                fprintf(stderr, "move-cpu: game %ld: no legal move\n", g);
                return 1;
            }
            pick ^= pick << 13, pick ^= pick >> 7, pick ^= pick << 17;
            carc_move m = moves.v[pick % moves.n];
            carc_events_clear(&ev);
            t0 = bench_now_s();
            if (carc_apply(st, seat, &m, &ev, err, sizeof err) != 0) {
                fprintf(stderr, "move-cpu: game %ld: a legal move was refused: %s\n", g, err);
                return 1;
            }
            t1 = bench_now_s();
            spent[P_APPLY] += t1 - t0;
            json_t *mine = carc_events_to_json(st, &ev, seat), *all = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
            char *a = cd_json_dumps(mine, JSON_COMPACT), *b = cd_json_dumps(all, JSON_COMPACT);
            json_decref(mine);
            json_decref(all);
            free(a);
            free(b);
            double t2 = bench_now_s();
            spent[P_EVENTS] += t2 - t1;
            json_t *snap = cd_snapshot_for_store(st);
            double t3 = bench_now_s();
            char *snapshot = cd_json_dumps(snap, JSON_COMPACT);
            double t4 = bench_now_s();
            json_decref(snap);
            spent[P_TREE] += t3 - t2;
            spent[P_DUMP] += t4 - t3;
            char *snap_text = cd_snapshot_text_for_store(st);
            double t4b = bench_now_s();
            spent[P_TEXT] += t4b - t4;
            if (!snap_text || strcmp(snap_text, snapshot) != 0) {
                fprintf(stderr, "move-cpu: game %ld: the snapshot's text differs from its tree's\n", g);
                return 1;
            }
            free(snap_text);
            t4 = t4b;   /* the parse below is timed from here */
            snapshot_bytes += strlen(snapshot);
            json_t *back = json_loads(snapshot, 0, NULL);   /* the seed joined back in, as games.c does */
            json_object_set_new(json_object_get(back, "rng"), "seed", json_string(zeros));
            int rc = back ? carc_state_from_json(other, cat, back, err, sizeof err) : -1;
            json_decref(back);
            double t5 = bench_now_s();
            spent[P_PARSE] += t5 - t4;
            free(snapshot);
            if (rc != 0) {
                fprintf(stderr, "move-cpu: game %ld: the snapshot does not decode: %s\n", g, err);
                return 1;
            }
            memcpy(cache, st, sizeof *st);
            memcpy(other, cache, sizeof *st);
            double t6 = bench_now_s();
            spent[P_COPY] += t6 - t5;
            char hash[CD_HEX256_LEN];
            cd_sha256_hex("a-bearer-token-of-the-length-carcd-hands-out-0123456789", hash);
            spent[P_HASH] += bench_now_s() - t6;
            if (arena)
                cd_json_arena_end();
            total++;
        }
    }
    printf("games: %ld\n", games);
    printf("moves: %ld\n", total);
    printf("json_arena: %s\n", arena ? "yes" : "no");
    printf("snapshot_avg_bytes: %.0f\n", (double)snapshot_bytes / (double)total);
    double sum = 0;
    for (int p = 0; p < NPARTS; p++) {
        printf("%s_us_per_move: %.2f\n", part_names[p], 1e6 * spent[p] / (double)total);
        if (part_per_move[p])
            sum += spent[p];
    }
    printf("per_move_us: %.2f\n", 1e6 * sum / (double)total);
    carc_moves_free(&moves);
    carc_events_free(&ev);
    free(st);
    free(other);
    free(cache);
    return 0;
}
