/*
 * rules.h — what the rule modules share (internal to libcarc): event helpers, the turn flow and scoring.
 *
 *   game.c   set-up, the turn state machine, carc_apply
 *   legal.c  carc_legal_moves: every move for the pending decision
 *   score.c  features, majorities, scoring during play and at the end
 *   check.c  carc_check_state: the state's invariants, asserted (builds without NDEBUG)
 */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include "board.h"
#include "carc.h"

/* ---- events.c (the lists grow through alloc.c) ---- */
/* Appends a zeroed event of `kind` (NULL when e is NULL: callers that want no events pass NULL). */
carc_event *carc_ev_push(carc_events *e, int kind);
void carc_ev_add_space(carc_events *e, carc_event *x, int px, int py);
void carc_moves_push(carc_moves *m, const carc_move *mv);

/* ---- features (score.c) ---- */
typedef struct {
    int root, kind;              /* union-find root and carc_part_kind */
    int first;                   /* the smallest node: the feature's first part on the board */
    int nspaces, pennants;
    int followers[CARC_MAX_PLAYERS];   /* meeples and abbots per seat; shepherds never count */
    int nfigs;
    uint8_t figs[CARC_MAX_FIGURES];    /* indexes into st->figures of the followers on it (the first nfigs) */
} carc_feature;

/* Gathers the feature whose union-find root is `root`. */
void carc_feature_collect(const carc_state *st, int root, carc_feature *f);
/* Whether the feature at `root` holds any meeple or abbot. */
bool carc_feature_occupied(const carc_state *st, int root);
/* Scores what the piece placed this turn completed, returning the followers. */
void carc_score_completed(carc_state *st, int piece, carc_events *ev);
/* Takes the seat's abbot back and scores its cloister or garden as at the end. */
void carc_score_abbot_return(carc_state *st, int seat, carc_events *ev);
/* Final scoring of every feature that still holds followers. */
void carc_score_final(carc_state *st, carc_events *ev);
/* One feature final scoring pays: the feature (as carc_feature_collect gathers it, but nspaces counted only
 * for roads and cities, which score by it), the seats it pays (the majority, after the hill tie-break) and
 * the points each of them gets (0 for a farm without a completed city). */
typedef struct {
    carc_feature f;
    unsigned seats;
    int points;
} carc_final_feature;
/* Told of each city (its root) that the held field out[feature] touches, open or completed. */
typedef void carc_field_city_fn(void *ctx, int feature, int city);
/* The features holding a meeple or abbot, in the order of the first figure on each in st->figures, as
 * final scoring pays them; returns how many. Reads st only: carc_score_final awards these, and the bots
 * read them to know what the board would pay if the game ended now without playing the end on a copy.
 * cb (NULL: none) hears of each city a held field touches, each once per field, fields in the order of
 * out and a field's cities in the order its walk meets them: the walk that counts the farm's completed
 * cities, so that a bot valuing the open ones too needs no walk of its own. */
int carc_final_features(const carc_state *st, carc_final_feature out[CARC_MAX_FIGURES], carc_field_city_fn *cb,
                        void *ctx);
/* What final scoring adds to each seat's score: the features ff[0..n) of carc_final_features, and fruit
 * still held (carc_fruit_final_points). Writes st->nplayers values. */
void carc_final_points(const carc_state *st, const carc_final_feature *ff, int n,
                       int32_t points[CARC_MAX_PLAYERS]);

/* ---- figures (figures.c) ---- */
/* Index in st->figures of the seat's figure of `kind`, or -1. */
int carc_figure_find(const carc_state *st, int seat, int kind);
void carc_figure_remove(carc_state *st, int fi, carc_events *ev);

/* ---- legal.c ---- */
/* Figure moves (and pass) for the piece just placed (st->tn.piece), shepherd included; pass first. */
void carc_legal_figure_moves(const carc_state *st, int seat, carc_moves *out);
/* Whether carc_legal_figure_moves would give more than the pass (counted, without a list). */
bool carc_figure_choice(const carc_state *st, int seat);
bool carc_move_equal(const carc_move *a, const carc_move *b);
/* Whether the pending decision has exactly one legal move, and then that move (a drawn tile is counted
 * without building its list). */
bool carc_only_move(const carc_state *st, carc_move *out);

/* ---- check.c ---- */
/* Asserts the invariants of a state the engine has just made (check.c lists them); nothing under NDEBUG. */
#ifdef NDEBUG
static inline void carc_check_state(const carc_state *st) { (void)st; }
#else
void carc_check_state(const carc_state *st);
#endif

#endif
