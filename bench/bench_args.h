/*
 * bench_args.h — what the engine's benchmarks (carc-sim, bot-arena) parse alike: the --expansions list.
 * A header of static inline functions, since every C file in bench/ is a program of its own (CMakeLists.txt).
 */
#ifndef CARC_BENCH_ARGS_H
#define CARC_BENCH_ARGS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"

/* "hills_sheep,crop_circles" (carc_set_names) or "all" into set bits; an unknown name ends the program with
 * status 2, naming it after `prog`. */
static inline uint8_t bench_parse_expansions(const char *prog, const char *list)
{
    if (!strcmp(list, "all"))
        return (uint8_t)((1u << CARC_NSETS) - 1);
    uint8_t bits = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = -1;
        for (int i = 0; i < CARC_NSETS; i++)
            if (strcmp(carc_set_names[i], tok) == 0)
                found = i;
        if (found < 0) {
            fprintf(stderr, "%s: unknown expansion %s\n", prog, tok);
            exit(2);
        }
        bits |= (uint8_t)(1u << found);
    }
    return bits;
}

#endif
