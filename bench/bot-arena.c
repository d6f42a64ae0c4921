/*
 * bot-arena — round-robins between the engine's bots (engine/bot/bot.h): N games of bot A against bot B,
 * the seats swapped every other game, and A's win rate with its 95 % Wilson interval (a tie counts half a
 * win). Also the playouts per CPU second mcts reached (CPU time: the machine may be shared), which is what
 * CARC_BOT_PLAYOUTS_PER_S is measured from.
 *
 *   bot-arena --a mcts --b greedy --games N --seed S [--think-ms 1000] [--expansions a,b,...|all]
 *
 * Prints one `game:` line per game as it ends (so a run cut short still tells what it played), then
 * `name: value` figures. Same seed, same games, whatever the machine: the bots draw from carc_bot_rng.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot.h"
#include "bench_args.h"
#include "carc.h"
#include "bench_clock.h"

static void usage(void)
{
    fputs("usage: bot-arena --a BOT --b BOT --games N --seed S [--think-ms MS] [--expansions a,b,...|all]\n",
          stderr);
    exit(2);
}

static int bot_arg(const char *s)
{
    int k = carc_bot_find(s);
    if (k < 0) {
        fprintf(stderr, "bot-arena: unknown bot %s\n", s);
        exit(2);
    }
    return k;
}

/* Wilson score interval, 95 %. */
static void wilson(double wins, double n, double *lo, double *hi)
{
    const double z = 1.959964;
    double p = wins / n, d = 1 + z * z / n;
    double c = (p + z * z / (2 * n)) / d;
    double h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = c - h;
    *hi = c + h;
}

int main(int argc, char **argv)
{
    long games = -1;
    unsigned long long seed = 0;
    int have_seed = 0, a = -1, b = -1;
    uint32_t think_ms = CARC_BOT_THINK_DEFAULT_MS;
    uint8_t expansions = 0;
    const char *exp_name = "base";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10), have_seed = 1;
        else if (!strcmp(argv[i], "--a") && i + 1 < argc)
            a = bot_arg(argv[++i]);
        else if (!strcmp(argv[i], "--b") && i + 1 < argc)
            b = bot_arg(argv[++i]);
        else if (!strcmp(argv[i], "--think-ms") && i + 1 < argc)
            think_ms = (uint32_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--expansions") && i + 1 < argc)
            exp_name = argv[i + 1], expansions = bench_parse_expansions("bot-arena", argv[++i]);
        else
            usage();
    }
    if (games < 1 || !have_seed || a < 0 || b < 0)
        usage();
    uint32_t playouts = carc_bot_playouts(think_ms);

    char err[256];
    carc_catalog *cat = malloc(sizeof *cat);
    carc_state *st = malloc(sizeof *st);
    if (!cat || !st || carc_catalog_load(cat, err, sizeof err) != 0) {
        fprintf(stderr, "bot-arena: %s\n", cat && st ? err : "out of memory");
        return 1;
    }
    double wins = 0, margin = 0, mcts_time = 0;
    long ties = 0, mcts_moves = 0, moves = 0;
    double t0 = bench_now_s();
    for (long g = 0; g < games; g++) {
        carc_setup setup;
        carc_setup_defaults(&setup);
        setup.nplayers = 2;
        setup.expansions |= expansions;
        memset(setup.seed, 0, 32);
        memcpy(setup.seed, &seed, sizeof seed);
        memcpy(setup.seed + 8, &g, sizeof g);
        if (carc_game_new(st, cat, &setup, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "bot-arena: %s\n", err);
            return 1;
        }
        int a_seat = (int)(g & 1);   /* A moves first in even games */
        uint64_t seq = 0;
        while (st->status == CARC_ACTIVE) {
            int seat = st->pending.seat;
            int kind = seat == a_seat ? a : b;
            carc_rng r;
            carc_bot_rng(&r, setup.seed, ++seq);
            carc_move mv;
            double t = bench_cpu_s();
            if (carc_bot_move(st, seat, (carc_bot_kind)kind, playouts, &r, &mv) != 0 ||
                carc_apply(st, seat, &mv, NULL, err, sizeof err) != 0) {
                fprintf(stderr, "bot-arena: game %ld: the bot's move was refused: %s\n", g, err);
                return 1;
            }
            if (kind == CARC_BOT_MCTS) {
                mcts_time += bench_cpu_s() - t;
                mcts_moves++;
            }
            moves++;
        }
        int sa = st->players[a_seat].score, sb = st->players[1 - a_seat].score;
        if (sa > sb)
            wins += 1;
        else if (sa == sb)
            wins += 0.5, ties++;
        margin += sa - sb;
        printf("game: %ld a_seat %d score %d-%d\n", g, a_seat, sa, sb);
        fflush(stdout);
    }
    double lo, hi;
    wilson(wins, (double)games, &lo, &hi);
    printf("a: %s\nb: %s\nexpansions: %s\nthink_ms: %u\nplayouts: %u\n", carc_bot_names[a], carc_bot_names[b],
           exp_name, think_ms, playouts);
    printf("games: %ld\nties: %ld\n", games, ties);
    printf("a_win_rate: %.3f\nwilson95: [%.3f, %.3f]\n", wins / (double)games, lo, hi);
    printf("mean_margin: %.2f\n", margin / (double)games);
    printf("moves: %ld\nseconds: %.1f\n", moves, bench_now_s() - t0);
    if (mcts_moves)
        printf("mcts_cpu_s_per_move: %.3f\nmcts_playouts_per_cpu_s: %.0f\n", mcts_time / (double)mcts_moves,
               (double)mcts_moves * playouts / mcts_time);
    free(st);
    free(cat);
    return 0;
}
