/* search_common.h: what the two searches (engine/search.c for Oware,
 * engine/togyz_search.c for Togyz Kumalak) share and neither game's rules
 * touch: the state of the budgets and of the principal variation, the
 * budget test of every node, the table's scores of forced results, the
 * three levels and the ladder's steps, the random picks of easy and medium, and the iterative
 * deepening with its time management (search_common.c). Internal to the
 * engine, not part of its API (engine/search.h and engine/togyz_search.h
 * stay the contracts). Pure C11 like the rest of the engine.
 *
 * The per-node helpers are static inline, so that each game's negamax
 * compiles as if it had them written out; the driver (ow__deepen) calls
 * back into its game once an iteration, never once a node. */
#ifndef OW_SEARCH_COMMON_H
#define OW_SEARCH_COMMON_H

#include <stdint.h>

/* The values both games' headers give their own names to (the deepest
 * iteration, the won and forced scores, eval units per seed, the levels):
 * search.c and togyz_search.c check that they agree (_Static_assert). */
#define OW__MAX_PLY 64
#define OW__SEARCH_WIN 30000
#define OW__SEARCH_WON (OW__SEARCH_WIN - 1000)
#define OW__SEARCH_SEED 16
#define OW__LEVEL_EASY 0
#define OW__LEVEL_MEDIUM 1
#define OW__LEVEL_HARD 2
/* The ladders (issue 33): level codes OW__LEVEL_LADDER + 1 .. + the
 * game's count of steps, weakest first (each game places easy, medium and
 * hard on its own ladder). */
#define OW__LEVEL_LADDER 10
/* The most legal moves of a position: a row (Oware 6, Togyz Kumalak 9). */
#define OW__MAX_MOVES 9

typedef uint32_t (*ow__clock_fn)(void *ctx);

/* The fields that ow_search_limits and tg_search_limits both have, with
 * the same names and meaning. */
struct ow__limits {
	int depth;
	uint64_t nodes;
	uint32_t time_ms;
	ow__clock_fn clock;
	void *clock_ctx;
	int noise;
	int blunder;
	uint32_t seed;
	int slip_margin;
};

/* Copies those fields from one limits struct to another (either game's,
 * or struct ow__limits), by name. */
#define OW__LIMITS_COPY(dst, src) do {           \
		(dst).depth = (src).depth;           \
		(dst).nodes = (src).nodes;           \
		(dst).time_ms = (src).time_ms;       \
		(dst).clock = (src).clock;           \
		(dst).clock_ctx = (src).clock_ctx;   \
		(dst).noise = (src).noise;           \
		(dst).blunder = (src).blunder;       \
		(dst).seed = (src).seed;             \
		(dst).slip_margin = (src).slip_margin; \
	} while (0)

/* The outcome of a search: the fields of ow_search_result and
 * tg_search_result. */
struct ow__result {
	int move;
	int score;
	int depth;
	uint64_t nodes;
	int npv;
	uint8_t pv[OW__MAX_PLY];
};

/* Copies a result into either game's (its first npv moves of the line). */
#define OW__RESULT_COPY(dst, src) do {                       \
		(dst).move = (src).move;                         \
		(dst).score = (src).score;                       \
		(dst).depth = (src).depth;                       \
		(dst).nodes = (src).nodes;                       \
		(dst).npv = (src).npv;                           \
		for (int j_ = 0; j_ < (src).npv; j_++)           \
			(dst).pv[j_] = (src).pv[j_];             \
	} while (0)

/* The game-independent state of one search: a member of each game's own
 * (struct srch), on the stack of ow_search or tg_search. */
struct ow__search {
	struct ow__limits lim; /* the caller's, copied */
	uint64_t nodes;
	uint64_t next_clock; /* nodes at which ow__out_of_budget reads the clock */
	uint32_t t0;         /* the clock at the start */
	uint32_t hard_ms;    /* with a time budget: the search stops here */
	int stopped;         /* a budget ran out: unwind and discard the iteration */
	int budgeted;        /* budgets apply (after depth 1 is complete) */
	int root_move;       /* best root move of the running iteration, or -1 */
	int root_score;
	uint64_t rng;
	uint8_t killers[OW__MAX_PLY + 1][2];
	uint8_t pv[OW__MAX_PLY + 1][OW__MAX_PLY + 1];
	uint8_t pvlen[OW__MAX_PLY + 1];
};

/* Every root move's value and line, searched with a full window, for the
 * random pick of easy and medium (ow__root_add fills it). */
struct ow__root_moves {
	int n;
	int move[OW__MAX_MOVES];
	int score[OW__MAX_MOVES];
	int pvlen[OW__MAX_MOVES];
	uint8_t pv[OW__MAX_MOVES][OW__MAX_PLY + 1];
};

/* A game's part of ow__deepen, called once an iteration with its ctx. */
struct ow__game {
	/* The negamax value of the root at depth, with a full window;
	 * fills c->pv[0] and c->root_move/root_score; c->stopped when a
	 * budget ran out. */
	int (*root)(void *ctx, int depth);
	/* Every root move searched at depth into *out (ow__root_add);
	 * 0, or -1 when a budget ran out. */
	int (*root_moves)(void *ctx, int depth, struct ow__root_moves *out);
};

/* Sets up c for a search within *lim (copied); salt varies the random
 * draws between games. */
void ow__search_init(struct ow__search *c, const struct ow__limits *lim, uint64_t salt);

/* The iterative deepening: depth 1, 2, ... within c's limits, each
 * iteration by game (root_moves with noise, else root); root_mask holds
 * the root's legal moves (not 0). Fills *out with the deepest completed
 * iteration (or the move of a cut one that proved better), nodes
 * included. */
void ow__deepen(struct ow__search *c, uint32_t root_mask, const struct ow__game *game,
                void *ctx, struct ow__result *out);

/* The levels' settings (OW__LEVEL_*), shared by the games, into *lim (all
 * other fields 0); 0, or -1 for an unknown level. */
int ow__search_level(struct ow__limits *lim, int level, uint32_t seed,
                     ow__clock_fn clock, void *clock_ctx, uint32_t time_ms);

/* A step of a game's ladder: one of the three levels (legacy >= 0), or
 * its own bounds and random pick (legacy -1; flags: the game's own). */
struct ow__step {
	int legacy;     /* OW__LEVEL_*, or -1 */
	int depth;
	uint32_t nodes;
	int noise;
	int blunder;
	int flags;
	int margin;     /* slip_margin */
};

/* The limits of level (OW__LEVEL_* or a ladder code) from the game's
 * ladder (steps entries, weakest first) into *lim (other fields 0);
 * *legacy is the level it plays exactly (OW__LEVEL_*), or -1 for a step
 * of its own. Returns the step's flags (0 for the three levels), or -1
 * for an unknown level (lim untouched). */
int ow__ladder_level(struct ow__limits *lim, const struct ow__step *ladder, int steps,
                     int level, uint32_t seed, ow__clock_fn clock, void *clock_ctx, uint32_t time_ms,
                     int *legacy);

/* Records root move `move` of value score, whose line below is c's at
 * ply 1. */
static inline void ow__root_add(const struct ow__search *c, struct ow__root_moves *rm,
                                int move, int score)
{
	int n = rm->n++;

	rm->move[n] = move;
	rm->score[n] = score;
	rm->pvlen[n] = c->pvlen[1];
	for (int j = 0; j < rm->pvlen[n]; j++)
		rm->pv[n][j] = c->pv[1][j];
}

/* Nonzero when a budget has run out (tested at every node). The clock is
 * read every 1024 nodes or so (Oware's quiescence search counts nodes
 * between two tests). */
static inline int ow__out_of_budget(struct ow__search *c)
{
	if (!c->budgeted)
		return 0;
	if (c->lim.nodes && c->nodes >= c->lim.nodes)
		return 1;
	if (c->lim.time_ms && c->lim.clock && c->nodes >= c->next_clock) {
		c->next_clock = c->nodes + 1024;
		if ((uint32_t)(c->lim.clock(c->lim.clock_ctx) - c->t0) >= c->hard_ms)
			return 1;
	}
	return 0;
}

/* Win scores beyond decided count plies from the root; the table keeps
 * them relative to the position so that they stay true wherever it
 * recurs. */
static inline int ow__score_to_tt(int v, int ply, int decided)
{
	return v > decided ? v + ply : v < -decided ? v - ply : v;
}

static inline int ow__score_from_tt(int v, int ply, int decided)
{
	return v > decided ? v - ply : v < -decided ? v + ply : v;
}

/* move, of value v, raised alpha at ply: its line is move then the line
 * below; at the root it is the iteration's best so far. */
static inline void ow__pv_update(struct ow__search *c, int ply, int move, int v)
{
	if (!ply) {
		c->root_move = move;
		c->root_score = v;
	}
	c->pv[ply][0] = (uint8_t)move;
	for (int j = 0; j < c->pvlen[ply + 1]; j++)
		c->pv[ply][j + 1] = c->pv[ply + 1][j];
	c->pvlen[ply] = (uint8_t)(c->pvlen[ply + 1] + 1);
}

/* idx[0..n) the indices of order[0..n) by key, highest first (an
 * insertion sort: a row has at most OW__MAX_MOVES moves). */
static inline void ow__order_sort(int *idx, const int *order, int n)
{
	for (int i = 0; i < n; i++) {
		int j = i;

		while (j > 0 && order[idx[j - 1]] < order[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
}

/* move cut at depth: its history (one side's, npits counters) gains
 * depth squared, all halved when one grows past 2^26. */
static inline void ow__history_add(uint32_t *history, int npits, int move, int depth)
{
	history[move] += (uint32_t)(depth * depth);
	if (history[move] > (1u << 26))
		for (int h = 0; h < npits; h++)
			history[h] >>= 1;
}

/* A quiet move that cut at ply becomes its first killer. */
static inline void ow__killer(struct ow__search *c, int ply, int move)
{
	if (c->killers[ply][0] != move) {
		c->killers[ply][1] = c->killers[ply][0];
		c->killers[ply][0] = (uint8_t)move;
	}
}

#endif
