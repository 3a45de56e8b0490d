/* togyz_search.h: the computer player of Togyz Kumalak (engine/togyz.h):
 * iterative-deepening alpha-beta (PVS) with a transposition table, move
 * ordering (table move, captures and tuzdyks, killers, history) and an
 * evaluation made for 162 seeds and tuzdyks, with the three levels of
 * engine/search.h and the same meaning (easy: one ply, random spread and
 * slips; medium: four plies and a small spread; hard: as deep as the
 * budget allows, also the hint).
 *
 * Kept apart from engine/search.h (Oware's): the two interfaces share only
 * the engine's sides, end reasons and winners (engine/mancala.h); their
 * implementations share the game-independent driver (iterative deepening,
 * budgets, levels: engine/search_common.h). Same rules of writing: pure
 * C11, no allocation, no I/O, no libc (builds for wasm32); the table lives
 * in memory the caller passes; a time budget needs a clock the caller
 * passes. About 6 KB of C stack plus about 600 bytes a ply.
 *
 * Scores are from the side to move's point of view, in eval units:
 * TG_SEARCH_SEED units per seed ahead (plus the tuzdyk and positional
 * terms of tg_search_eval); a forced win is TG_SEARCH_WIN minus the plies to
 * the end of the game, a forced loss its negative, a forced draw 0. */
#ifndef TG_TOGYZ_SEARCH_H
#define TG_TOGYZ_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "engine/togyz.h"

#define TG_SEARCH_MAX_DEPTH 64  /* plies; the deepest iteration */
#define TG_SEARCH_WIN 30000     /* a won end of the game, at ply 0 */
#define TG_SEARCH_SEED 16       /* eval units per seed */
#define TG_SEARCH_WON (TG_SEARCH_WIN - 1000) /* beyond: forced results */
/* The table size (entries of 16 bytes: 16 MB) of `oware best --game togyz`
 * and of the browser's module: the same size gives the same search. */
#define TG_SEARCH_TT_ENTRIES (1u << 20)

/* The levels: the numbers and meaning of ow_level (engine/search.h). */
enum { TG_LEVEL_EASY = 0, TG_LEVEL_MEDIUM = 1, TG_LEVEL_HARD = 2 };
/* The ladder: level TG_LEVEL_LADDER + n (n = 1..TG_LADDER_LEVELS), weakest
 * first; steps TG_LADDER_EASY, _MEDIUM and _HARD are the three levels
 * exactly. Its eleven steps are not Oware's thirteen: medium to hard is a
 * shorter climb here (docs/computer.md, "The ladder of levels"). */
#define TG_LEVEL_LADDER 10
#define TG_LADDER_LEVELS 11
#define TG_LADDER_EASY 2
#define TG_LADDER_MEDIUM 7
#define TG_LADDER_HARD 11

/* One table slot: 16 bytes. Clear the table (all zero bytes, or
 * tg_tt_clear) before its first use; it may be kept between the searches of
 * one game. The same table contents give the same results. */
typedef struct tg_tt_entry {
	uint64_t key;  /* position hash; 0 = empty */
	int16_t score; /* bound on the score */
	uint8_t depth; /* plies searched below */
	uint8_t info;  /* best move (hole 0..8, 4 bits) and bound kind (2 bits) */
	uint32_t pad_;
} tg_tt_entry;

/* The weights of the static evaluation (tg_search_eval), in eval units,
 * besides TG_SEARCH_SEED per seed ahead; each term is the side to move's
 * minus the opponent's. */
typedef struct tg_eval_weights {
	int held;     /* per seed in the side's own row */
	int tz_base;  /* per tuzdyk owned ... */
	int tz_board; /* ... plus this times the share of the 162 seeds on the board */
	int exposed;  /* per seed an opponent's capture could take now: an own
	               * hole of odd count n counts n + 1 (a seed landing there
	               * makes it even) */
	int threat;   /* per own hole of 2 seeds (a seed landing there makes 3)
	               * while the opponent may still make a tuzdyk on it */
} tg_eval_weights;

/* The weights the levels use (chosen by matches: bench-togyz-match). */
extern const tg_eval_weights tg_eval_default;

/* A monotonic clock in milliseconds (wrapping is fine); ctx passed through. */
typedef uint32_t (*tg_clock_fn)(void *ctx);

/* What bounds a search, and how it picks; zero fields mean "no bound".
 * Depth 1 is always completed, so there is always a move. */
typedef struct tg_search_limits {
	int depth;          /* deepest iteration, 1..TG_SEARCH_MAX_DEPTH; 0 = max */
	uint64_t nodes;     /* node budget; 0 = none */
	uint32_t time_ms;   /* time budget of clock; 0 = none */
	tg_clock_fn clock;
	void *clock_ctx;
	int noise;          /* > 0: every root move scored exactly, plus a random
	                     * 0..noise each, then the best picked (easy, medium) */
	int blunder;        /* per mille: the runner-up instead (noise > 0 only) */
	uint32_t seed;      /* the random choices: same seed, same move */
	const tg_eval_weights *eval; /* NULL: tg_eval_default */
	int slip_margin;    /* > 0: a slip plays a move, at random, within this
	                     * much of the best's exact score (ow_search_limits) */
} tg_search_limits;

typedef struct tg_search_result {
	int move;          /* pit 0..17 to play (of the side to move) */
	int score;         /* of the deepest completed iteration */
	int depth;         /* deepest completed iteration */
	uint64_t nodes;    /* positions visited */
	int npv;           /* entries of pv[] */
	uint8_t pv[TG_SEARCH_MAX_DEPTH]; /* expected line (pits), pv[0] == move */
} tg_search_result;

/* Clears a table of n entries. */
void tg_tt_clear(tg_tt_entry *tt, size_t n);

/* Fills *lim for a level (TG_LEVEL_*, or TG_LEVEL_LADDER + 1..11) with seed: easy 1 ply with a spread
 * of 3 seeds and 15% slips, medium 4 plies with a spread of half a seed,
 * hard time_ms of clock (when clock is given and time_ms > 0), else a
 * budget of 2,000,000 nodes. Returns 0, or -1 for an unknown level. */
int tg_search_level(tg_search_limits *lim, int level, uint32_t seed,
                    tg_clock_fn clock, void *clock_ctx, uint32_t time_ms);

/* Searches the best move of the side to move in g within *lim, with the
 * table tt of n entries (a power of two, or 0 for none). Fills *out and
 * returns 0, or TG_E_OVER when the game is over. The move is always legal.
 * Deterministic unless a time budget stops it. */
int tg_search(const tg_game *g, const tg_search_limits *lim, tg_tt_entry *tt,
              size_t n, tg_search_result *out);

/* The static evaluation of p for the side to move, with weights w (NULL:
 * tg_eval_default); exposed for tests and tuning. */
int tg_search_eval(const tg_pos *p, const tg_eval_weights *w);

#endif
