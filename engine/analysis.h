/* analysis.h: a finished game, move by move, through the search of
 * search.h: the engine's best move and line, the evaluation before and after
 * each move, proven wins, and a class for the move played.
 *
 * Same rules as oware.h and search.h: pure C11, no allocation, no I/O, no
 * libc; the table is the caller's. One call analyses one ply, so a caller
 * can show progress and stop between plies (the browser's worker does).
 *
 * How a ply is judged. The position before the move is searched within the
 * caller's budget: its score s (mover's view) at depth d, best move b. If
 * the move played is b, its value is s. Otherwise the position after it is
 * searched to depth d - 1 (the same horizon as the first search; the same
 * budget caps it) and its value v is that score from the mover's view. The
 * loss is s - v (never below 0), after both are clamped to +-24 seeds, a
 * proven win counting as 24 seeds for the winner. The classes, by loss in
 * seeds (16 eval units a seed, OW_SEARCH_SEED):
 *   best        the engine's move, or no loss at all
 *   good        less than 1 seed
 *   inaccuracy  1 seed to less than 2
 *   mistake     2 seeds to less than 4
 *   blunder     4 seeds or more (so also throwing a proven win away, or
 *               walking into a proven loss from a fair position)
 * A capture of 2 seeds given away costs about 3 seeds of evaluation (the
 * seeds, plus the emptied pit), so it is never best or good when a safe
 * move exists. */
#ifndef OW_ANALYSIS_H
#define OW_ANALYSIS_H

#include "engine/search.h"

/* Loss thresholds in eval units (see above). */
#define OW_ANALYSIS_GOOD (1 * OW_SEARCH_SEED)       /* below: good */
#define OW_ANALYSIS_INACCURACY (2 * OW_SEARCH_SEED) /* below: inaccuracy */
#define OW_ANALYSIS_MISTAKE (4 * OW_SEARCH_SEED)    /* below: mistake, else blunder */
/* Evaluations are clamped to +-this (24 seeds); a proven win is this. */
#define OW_ANALYSIS_CAP (24 * OW_SEARCH_SEED)

typedef enum {
	OW_CLASS_BEST = 0,
	OW_CLASS_GOOD = 1,
	OW_CLASS_INACCURACY = 2,
	OW_CLASS_MISTAKE = 3,
	OW_CLASS_BLUNDER = 4
} ow_class;

/* What one ply's analysis found. Scores are search scores (search.h):
 * eval units from the MOVER's point of view, beyond +-OW_SEARCH_WON a
 * proven result; ow_analysis_south and ow_analysis_proven convert them. */
typedef struct ow_ply_analysis {
	int side;        /* ow_side of the mover */
	int move;        /* pit played */
	int best;        /* the engine's choice in the position before */
	int before;      /* score of the position before (its search) */
	int after;       /* value of the move played (see above) */
	int loss;        /* eval units, clamped scores, >= 0 */
	int cls;         /* ow_class */
	int depth;       /* depth of the search before */
	uint64_t nodes;  /* nodes of both searches */
	int npv;         /* entries of pv[] */
	uint8_t pv[OW_SEARCH_MAX_DEPTH]; /* the engine's line, pv[0] == best */
} ow_ply_analysis;

/* Analyses the move pit of the side to move in g within *lim (the budget
 * of each of the at most two searches; its noise must be 0), with the
 * table tt of n entries as ow_search takes it (keep it between the plies of
 * one game, cleared before the first, for a reproducible analysis). Fills
 * *out and returns 0, or OW_E_OVER (g is over) or the OW_E_* reason the
 * move is illegal (*out untouched). g itself is not changed: play the move
 * with ow_game_play before the next ply. Deterministic like ow_search: the
 * same game, moves, node budget and table give the same analysis. */
int ow_analyse_ply(const ow_game *g, int pit, const ow_search_limits *lim,
                   ow_tt_entry *tt, size_t n, ow_ply_analysis *out);

/* The class of a move from its clamped loss in eval units and whether it
 * was the engine's choice. */
int ow_analysis_class(int loss, int is_best);

/* A search score of side's view (mover's) as South's evaluation in eval
 * units, clamped to +-OW_ANALYSIS_CAP (a proven win is the cap). */
int ow_analysis_south(int score, int side);

/* Plies to a proven end in a search score: > 0 the side whose view it is
 * wins in that many plies, < 0 it loses in -that many, 0 nothing proven. */
int ow_analysis_proven(int score);

/* Static English name of an ow_class ("best", ..., "blunder"), "" else. */
const char *ow_class_name(int cls);

#endif
