/*
 * expansions.h — the hooks through which the turn machine (game.c), legal moves (legal.c) and scoring
 * (score.c) reach the four expansions. Each expansion lives in its own file and answers for itself
 * whether it is in play (carc_has), so the base game's code never asks which expansion is on.
 *
 *   exp_hills.c      Hills & Sheep: hidden tile under hills, hill tie-break, vineyards, shepherd and flock
 *   exp_crop.c       Crop Circles: the add/remove action every player answers in turn
 *   exp_fruit.c      Fruit Trees: stocked trees, harvest and sell, fruit at the end
 *   exp_halflings.c  Halb so wild II: hands of triangles, draw-or-triangle, the draft
 *   marks.c          the tile marks the expansions read (hill, vineyard, crop circle, tree): carc_mark_active
 *
 * Conventions: a `*_begin` hook is called when the turn machine reaches its phase; it either sets
 * st->pending to a decision and returns true (the machine stops and waits), or does nothing / does the
 * forced work (appending events) and returns false (the machine goes on). A `*_moves` hook appends the
 * legal moves for its pending kind. A `*_apply` hook is called with a move already known to be in its
 * legal list; it changes the state, appends events, sets st->tn.phase to where the machine resumes and
 * returns; game.c then runs carc_advance.
 */
#ifndef CARC_EXPANSIONS_H
#define CARC_EXPANSIONS_H

#include "rules.h"

/* ---- tile marks (exp/marks.c): whether a tile type shows `mark` and that mark's expansion is in play (a
 * triangle's hill without Hills & Sheep is scenery) ---- */
bool carc_mark_active(const carc_state *st, int type, int mark);

/* ---- set-up (game.c: carc_game_new, after the stack is built, before the start tile) ---- */
int carc_hills_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen);
int carc_fruit_setup(carc_state *st, const carc_setup *s, char *err, size_t errlen);
int carc_halflings_setup(carc_state *st, const carc_setup *s, carc_events *ev, char *err, size_t errlen);

/* ---- a piece was placed (before the figure step) ---- */
void carc_hills_on_placed(carc_state *st, int piece, carc_events *ev);   /* tile under a hill */
void carc_fruit_on_placed(carc_state *st, int piece, carc_events *ev);   /* stock a tree */

/* ---- turn start: halflings (CARC_PH_START): true = waiting for draw-or-triangle ---- */
bool carc_halflings_begin(carc_state *st, carc_events *ev);
void carc_halflings_start_moves(const carc_state *st, carc_moves *out);
void carc_halflings_apply_start(carc_state *st, const carc_move *mv, carc_events *ev);
/* draft before the first turn (CARC_PH_DRAFT) */
bool carc_halflings_draft_begin(carc_state *st, carc_events *ev);
void carc_halflings_draft_moves(const carc_state *st, carc_moves *out);
void carc_halflings_apply_draft(carc_state *st, const carc_move *mv, carc_events *ev);
/* Hills & Sheep: whether a piece stands on a hill (it, or the other triangle of its space, shows an active
 * hill mark); the hill tie-break counts followers on such pieces */
bool carc_hills_on_hill(const carc_state *st, int piece);

/* ---- figure step ---- */
void carc_hills_figure_moves(const carc_state *st, int seat, carc_moves *out);   /* the shepherd */
void carc_hills_after_figure(carc_state *st, const carc_move *mv, carc_events *ev); /* its token draw */

/* ---- fruit (CARC_PH_FRUIT) ---- */
bool carc_fruit_begin(carc_state *st, carc_events *ev);
void carc_fruit_moves(const carc_state *st, carc_moves *out);
void carc_fruit_apply(carc_state *st, const carc_move *mv, carc_events *ev);

/* ---- flock (CARC_PH_FLOCK) ---- */
bool carc_hills_flock_begin(carc_state *st, carc_events *ev);
void carc_hills_flock_moves(const carc_state *st, carc_moves *out);
void carc_hills_flock_apply(carc_state *st, const carc_move *mv, carc_events *ev);

/* ---- scoring (CARC_PH_SCORE and final) ---- */
/* Narrows tied majority seats by the hill tie-break (returns `seats` unchanged when it does not apply). */
unsigned carc_hills_tiebreak(const carc_state *st, const carc_feature *f, unsigned seats);
/* Bonus for a cloister completed during play: 3 per vineyard round it. */
int carc_hills_vineyard_bonus(const carc_state *st, int cloister_piece);
/* Closed fields holding shepherds are stabled (after completed features are scored). */
void carc_hills_score_closed_fields(carc_state *st, carc_events *ev);
/* Fruit still held at the end: what final scoring pays the seat for it (0 without Fruit Trees). */
int carc_fruit_final_points(const carc_state *st, int seat);
void carc_fruit_score_final(carc_state *st, carc_events *ev);

/* ---- crop circles (CARC_PH_CROP) ---- */
bool carc_crop_begin(carc_state *st, carc_events *ev);
void carc_crop_moves(const carc_state *st, carc_moves *out);
/* returns true when it set the next crop decision (the machine keeps waiting) */
bool carc_crop_apply(carc_state *st, const carc_move *mv, carc_events *ev);

/* ---- turn machine (game.c) ---- */
/* Runs the turn from st->tn.phase until a decision is pending or the game is over. */
void carc_advance(carc_state *st, carc_events *ev);
/* The seat after `seat` that has not left the game. */
int carc_next_seat(const carc_state *st, int seat);

/* ---- a turn's shared steps (steps.c): game.c and Halb so wild II's triangles take them ---- */
/* Places a piece of `type` for the active player (validated by the caller) and starts the figure step. */
void carc_place_piece(carc_state *st, const carc_move *mv, carc_events *ev);
/* Draws for the active player until a tile fits (pending PLACE), or ends the game. */
void carc_draw_tile(carc_state *st, carc_events *ev);
/* Final scoring; the game is over. */
void carc_finish_game(carc_state *st, carc_events *ev);

#endif
