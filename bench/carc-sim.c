/*
 * carc-sim — plays N complete random games through the engine (uniform over carc_legal_moves) and prints
 * one `name: value` line per figure. Same seed, same games, same digest; only the timings vary.
 *
 *   carc-sim --games N --seed S [--players P] [--expansions a,b,...|all] [--river] [--verbose] [--each-expansion]
 *
 * --river: every game with the option river (the River of the base box) on.
 *
 * --each-expansion: then N games more of each expansion alone and of all of them together (with the
 * --expansions given added to each), printed as `games_per_s.SET`, `moves_per_s.SET` and `digest.SET` lines
 * (`all` for all together), so that a change to one expansion's hooks shows in its own figure.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_args.h"
#include "carc.h"
#include "bench_clock.h"

static const char *const fig_names[] = {"meeple", "abbot", "shepherd"};
static const char *const part_names[CARC_NFEATURES] = {"city", "road", "field", "cloister", "garden", "river", "fruit"};

static void usage(void)
{
    fputs("usage: carc-sim --games N --seed S [--players P] [--expansions a,b,...|all] [--river] [--verbose] "
          "[--each-expansion]\n",
          stderr);
    exit(2);
}

static void print_event(const carc_state *st, const carc_events *ev, size_t i)
{
    const carc_event *x = &ev->v[i];
    const char *tile = x->tile < st->cat->ntypes ? st->cat->types[x->tile].id : "-";
    switch (x->kind) {
    case CARC_EV_GAME_STARTED: printf("  start tile %s at (0,0)\n", tile); break;
    case CARC_EV_TURN: printf("turn: seat %d\n", x->seat); break;
    case CARC_EV_TILE_DRAWN: printf("  draws %s\n", tile); break;
    case CARC_EV_TILE_DISCARDED: printf("  %s fits nowhere: discarded\n", tile); break;
    case CARC_EV_PIECE_PLACED: printf("  places %s at (%d,%d) rot %d\n", tile, x->x, x->y, x->rot); break;
    case CARC_EV_FIGURE_PLACED:
    case CARC_EV_FIGURE_RETURNED:
        printf("  %s %s %s on %s at (%d,%d)\n", x->kind == CARC_EV_FIGURE_PLACED ? "puts" : "gets back",
               fig_names[x->fig], st->cat->types[x->tile].parts[x->part].name, tile, x->x, x->y);
        break;
    case CARC_EV_SCORE:
        printf("  score: %s %s, %d points to seats", part_names[x->feature],
               x->reason == 0 ? "completed" : x->reason == 1 ? "final" : "abbot", x->points);
        for (int s = 0; s < CARC_MAX_PLAYERS; s++)
            if (x->seats >> s & 1)
                printf(" %d", s);
        printf(" (%d spaces)\n", x->nspaces);
        break;
    case CARC_EV_PASSED: printf("  no figure%s\n", x->forced ? " (no choice)" : ""); break;
    case CARC_EV_GAME_OVER:
        printf("game over:");
        for (int s = 0; s < st->nplayers; s++)
            printf(" seat %d: %d", s, st->players[s].score);
        printf("\n");
        break;
    default: break;
    }
}

/* Game i's seed and the move chooser's key: the run seed and i, tagged apart. */
static void derive_key(uint8_t key[32], unsigned long long seed, long i, uint8_t tag)
{
    memset(key, 0, 32);
    memcpy(key, &seed, sizeof seed);
    memcpy(key + 8, &i, sizeof i);
    key[31] = tag;
}

/* What one run of games gives. */
typedef struct {
    double seconds, total_score;
    long moves;
    unsigned char digest[32];
} run_result;

/* Plays `games` random games; 0, or 1 after printing why not. */
static int run(const carc_catalog *cat, carc_state *st, long games, unsigned long long seed, int players,
               uint8_t expansions, int river, int verbose, run_result *out)
{
    char err[256];
    carc_events ev = {0};
    carc_moves moves = {0};
    EVP_MD_CTX *digest = EVP_MD_CTX_new();
    EVP_DigestInit_ex(digest, EVP_sha256(), NULL);
    long total_moves = 0;
    double total_score = 0;
    int rc = 1;
    double t0 = bench_now_s();
    for (long g = 0; g < games; g++) {
        carc_setup setup;
        carc_setup_defaults(&setup);
        setup.nplayers = players;
        setup.expansions |= expansions;
        setup.opt[CARC_OPT_RIVER] = (uint8_t)river;
        derive_key(setup.seed, seed, g, 0);
        carc_rng chooser;
        uint8_t ckey[32];
        derive_key(ckey, seed, g, 1);
        carc_rng_seed(&chooser, ckey);
        carc_events_clear(&ev);
        if (carc_game_new(st, cat, &setup, &ev, err, sizeof err) != 0) {
            fprintf(stderr, "carc-sim: %s\n", err);
            goto out;
        }
        if (verbose)
            for (size_t i = 0; i < ev.n; i++)
                print_event(st, &ev, i);
        while (st->status == CARC_ACTIVE) {
            int seat = st->pending.seat;
            carc_legal_moves(st, seat, &moves);
            if (moves.n == 0) {
                fprintf(stderr, "carc-sim: game %ld: no legal move for the pending seat\n", g);
                goto out;
            }
            const carc_move *m = &moves.v[carc_rng_below(&chooser, (uint32_t)moves.n)];
            carc_events_clear(&ev);
            if (carc_apply(st, seat, m, &ev, err, sizeof err) != 0) {
                fprintf(stderr, "carc-sim: game %ld: a legal move was refused: %s\n", g, err);
                goto out;
            }
            if (verbose)
                for (size_t i = 0; i < ev.n; i++)
                    print_event(st, &ev, i);
            total_moves++;
        }
        for (int s = 0; s < st->nplayers; s++) {
            total_score += st->players[s].score;
            int32_t sc = st->players[s].score;
            EVP_DigestUpdate(digest, &sc, sizeof sc);
        }
        EVP_DigestUpdate(digest, st->pieces, st->npieces * sizeof st->pieces[0]);
        EVP_DigestUpdate(digest, st->figures, st->nfigures * sizeof st->figures[0]);
    }
    out->seconds = bench_now_s() - t0;
    out->moves = total_moves;
    out->total_score = total_score;
    EVP_DigestFinal_ex(digest, out->digest, NULL);
    rc = 0;
out:
    EVP_MD_CTX_free(digest);
    carc_moves_free(&moves);
    carc_events_free(&ev);
    return rc;
}

static void print_hex(const unsigned char md[32])
{
    for (int i = 0; i < 32; i++)
        printf("%02x", md[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    long games = -1;
    unsigned long long seed = 0;
    int players = 2, verbose = 0, have_seed = 0, each = 0, river = 0;
    uint8_t expansions = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10), have_seed = 1;
        else if (!strcmp(argv[i], "--players") && i + 1 < argc)
            players = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--expansions") && i + 1 < argc)
            expansions = bench_parse_expansions("carc-sim", argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--river"))
            river = 1;
        else if (!strcmp(argv[i], "--each-expansion"))
            each = 1;
        else
            usage();
    }
    if (games < 1 || !have_seed)
        usage();

    char err[256];
    carc_catalog *cat = malloc(sizeof *cat);
    carc_state *st = malloc(sizeof *st);
    if (!cat || !st || carc_catalog_load(cat, err, sizeof err) != 0) {
        fprintf(stderr, "carc-sim: %s\n", cat && st ? err : "out of memory");
        return 1;
    }
    run_result r;
    if (run(cat, st, games, seed, players, expansions, river, verbose, &r) != 0)
        return 1;
    printf("games: %ld\n", games);
    printf("games_per_s: %.0f\n", (double)games / r.seconds);
    printf("moves_per_s: %.0f\n", (double)r.moves / r.seconds);
    printf("mean_moves: %.2f\n", (double)r.moves / (double)games);
    printf("mean_score: %.2f\n", r.total_score / ((double)games * players));
    printf("digest: ");
    print_hex(r.digest);
    if (each) {
        uint8_t all = 0;
        for (int set = 0; set <= CARC_NSETS; set++) {   /* each expansion alone, then all (set == CARC_NSETS) */
            if (set == CARC_SET_BASE)
                continue;
            uint8_t bits = set < CARC_NSETS ? (uint8_t)(1u << set) : all;
            all |= bits;
            const char *name = set < CARC_NSETS ? carc_set_names[set] : "all";
            if (run(cat, st, games, seed, players, (uint8_t)(expansions | bits), river, 0, &r) != 0)
                return 1;
            printf("games_per_s.%s: %.0f\n", name, (double)games / r.seconds);
            printf("moves_per_s.%s: %.0f\n", name, (double)r.moves / r.seconds);
            printf("mean_moves.%s: %.2f\n", name, (double)r.moves / (double)games);
            printf("digest.%s: ", name);
            print_hex(r.digest);
        }
    }
    free(st);
    free(cat);
    return 0;
}
