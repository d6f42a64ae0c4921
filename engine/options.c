/*
 * options.c — the table of game options: their JSON names, allowed values and defaults.
 * Every ambiguity docs/RULES.md leaves to the players is one row here; codecs and validation read the table.
 * ask_forced is no ambiguity but a group's taste: whether a decision with one legal move is still asked.
 * river is a set of tiles the base box holds, chosen like an option (its tiles say `when river`).
 */
#include <string.h>

#include "carc.h"

const char *const carc_set_names[CARC_NSETS_ALL] = {
    "base", "hills_sheep", "crop_circles", "fruit_trees", "halflings", "river",
};

#define ABSENT_AS(v) ((v) + 1)   /* carc_opt_info.absent */

const carc_opt_info carc_opt_table[CARC_NOPTS] = {
    [CARC_OPT_ABBOT] = {"abbot", CARC_OPTK_BOOL, 2, 0, {0}, {0}, 0},
    [CARC_OPT_HILL_TAKES_TILE] = {"hill_takes_tile", CARC_OPTK_BOOL, 2, 1, {0}, {0}, 0},
    [CARC_OPT_HILL_TIEBREAK] = {"hill_tiebreak", CARC_OPTK_ENUM, 2, 0, {"at_least_one", "count"}, {0}, 0},
    [CARC_OPT_CC_ADD_WHERE] = {"crop_circle_add_where", CARC_OPTK_ENUM, 2, 0, {"same_tile", "same_feature"}, {0}, 0},
    [CARC_OPT_CC_ADD] = {"crop_circle_add", CARC_OPTK_ENUM, 2, 0, {"optional", "mandatory"}, {0}, 0},
    [CARC_OPT_FRUIT_ACTIONS] = {"fruit_actions", CARC_OPTK_ENUM, 2, 0, {"one", "per_tree"}, {0}, 0},
    [CARC_OPT_FRUIT_MAX_SET] = {"fruit_max_set", CARC_OPTK_INT, 2, 0, {0}, {4, 6}, 0},
    [CARC_OPT_HALFLINGS_DEAL] = {"halflings_deal", CARC_OPTK_ENUM, 2, 0, {"random", "draft"}, {0}, 0},
    /* games stored before this option asked for every decision: they read as true and replay as played */
    [CARC_OPT_ASK_FORCED] = {"ask_forced", CARC_OPTK_BOOL, 2, 0, {0}, {0}, ABSENT_AS(1)},
    /* games stored before the river existed were played without it */
    [CARC_OPT_RIVER] = {"river", CARC_OPTK_BOOL, 2, 0, {0}, {0}, ABSENT_AS(0)},
};

int carc_opt_find(const char *name)
{
    for (int i = 0; i < CARC_NOPTS; i++)
        if (strcmp(carc_opt_table[i].name, name) == 0)
            return i;
    return -1;
}

void carc_setup_defaults(carc_setup *s)
{
    memset(s, 0, sizeof *s);
    s->nplayers = 2;
    s->expansions = 1u << CARC_SET_BASE;
    for (int i = 0; i < CARC_NOPTS; i++)
        s->opt[i] = carc_opt_table[i].dflt;
}
