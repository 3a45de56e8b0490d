/* search.h: the computer player: iterative-deepening alpha-beta over the
 * rules of oware.h, with three playing levels (easy, medium, hard) on a
 * ladder of thirteen (OW_LEVEL_LADDER).
 *
 * Same rules as oware.h: pure C11, no allocation, no I/O, no libc, so it
 * builds for wasm32 with clang -nostdlib. The transposition table lives in
 * memory the caller passes; a time budget needs a clock the caller passes
 * (a plain C function; in the browser a one-line C shim around an imported
 * JavaScript function, see ow_clock_fn). The search plays by exactly the
 * rules of ow_game_play: feeding, grand slam, and the four end conditions
 * (score, third repetition, 160 quiet plies, no legal move).
 *
 * Stack: ow_search keeps about 12 KB of state on the C stack plus about
 * 200 bytes per ply of recursion (at most OW_SEARCH_MAX_DEPTH plies, the
 * quiescence search's included): give a wasm module at least 64 KB of
 * stack (wasm-ld's -z stack-size).
 *
 * Scores are from the point of view of the side to move, in eval units:
 * OW_SEARCH_SEED units per captured seed (plus small positional terms);
 * a forced win is OW_SEARCH_WIN minus the plies to the end of the game,
 * a forced loss the negative of that, a forced draw 0. With an endgame
 * database (engine/egdb.h, ow_search_limits.egdb), a leaf of the tree with
 * few enough seeds on the board gets the database's value (so does a
 * position inside the tree, where that value is exact and no position of
 * the line has occurred twice, and the line ends there): where it is
 * exact, a won result is OW_SEARCH_EGDB plus the final margin in seeds
 * times OW_SEARCH_SEED minus the plies to that leaf (a lost one the
 * negative, a 24-24 draw 0): above any evaluation, below any forced win
 * (no count of plies to the end is known, so no "forced" score); where it
 * is an estimate (far into the move counter), the final margin it gives
 * in OW_SEARCH_SEED units, like an evaluation. */
#ifndef OW_SEARCH_H
#define OW_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "engine/egdb.h"
#include "engine/oware.h"

#define OW_SEARCH_MAX_DEPTH 64  /* plies; the deepest iteration */
#define OW_SEARCH_WIN 30000     /* a won end of the game, at ply 0 */
#define OW_SEARCH_SEED 16       /* eval units per captured seed */
/* The table size (entries, 16 MB) of `oware best` and of the browser's
 * module: the same size gives the same search, native or wasm. */
#define OW_SEARCH_TT_ENTRIES (1u << 20)
/* Scores beyond this are forced wins (or losses, negated). */
#define OW_SEARCH_WON (OW_SEARCH_WIN - 1000)
/* Scores from OW_SEARCH_EGDB - OW_SEARCH_MAX_DEPTH up to OW_SEARCH_WON are
 * results decided by the endgame database (negated: lost). */
#define OW_SEARCH_EGDB (OW_SEARCH_WIN - 2000)

typedef enum {
	OW_LEVEL_EASY = 0,   /* 1 ply, random spread and slips: a beginner can
	                      * win (a player who always takes the biggest
	                      * capture wins about 6 games in 10) */
	OW_LEVEL_MEDIUM = 1, /* 4 plies, a small random spread (easy and
	                      * medium: ow_eval_classic, no quiescence) */
	OW_LEVEL_HARD = 2    /* as deep as the budget allows; also the hint */
} ow_level;

/* The ladder (issue 33): OW_LADDER_LEVELS levels at measured steps,
 * weakest first, asked for as level OW_LEVEL_LADDER + n (n = 1..13) of
 * ow_search_level. Steps OW_LADDER_EASY, OW_LADDER_MEDIUM and
 * OW_LADDER_HARD are easy, medium and hard exactly (the same limits); the
 * others are shallow searches with a random spread and slips (the lower
 * steps, with easy's evaluation and no quiescence search) or node budgets
 * (docs/computer.md has the ladder and its measured Elo). */
#define OW_LEVEL_LADDER 10
#define OW_LADDER_LEVELS 13
#define OW_LADDER_EASY 2
#define OW_LADDER_MEDIUM 7
#define OW_LADDER_HARD 13

/* One transposition-table slot: 16 bytes. The table is an array of them in
 * memory the caller owns; clear it (all zero bytes, or ow_tt_clear) before
 * its first use. It may be kept between searches of the same game to speed
 * them up; results are reproducible only for the same table contents (a
 * cleared table gives the same result for the same game and limits). */
typedef struct ow_tt_entry {
	uint64_t lo;   /* position key (pits 0..9, side to move) */
	uint32_t hi;   /* position key (pits 10..11, south's score); 0 = empty */
	int16_t score; /* bound on the score */
	uint8_t depth; /* plies searched below this position */
	uint8_t info;  /* best move (4 bits) and bound kind (2 bits) */
} ow_tt_entry;

/* The weights of the static evaluation, besides OW_SEARCH_SEED per
 * captured seed (the side to move's minus the opponent's): four per side
 * (the side to move's terms minus the opponent's), plus a table of values
 * by pit and seeds in it, for either row. */
typedef struct ow_eval_weights {
	int held;   /* per seed in the side's own row */
	int target; /* per own pit holding 1 or 2 seeds (capture targets) */
	int kroo;   /* per own pit of 12 or more seeds (laps the board) */
	int empty;  /* per own empty pit */
	/* table[0][i][n]: added for the side to move's i-th pit (0..5, from
	 * its first pit: a for South, A for North) holding n seeds (15 for
	 * 15 or more); table[1][i][n]: the same for the opponent's i-th pit. */
	int16_t table[2][OW_ROW][16];
} ow_eval_weights;

/* The weights hard uses: the table fitted to deeper searches (make
 * eval-fit, tests/bench/eval_fit.c), the four others 0. */
extern const ow_eval_weights ow_eval_default;
/* The weights of before issue 18 (held 2, target 6, kroo 0, empty -16, no
 * table), which easy and medium keep so that they play as they did. */
extern const ow_eval_weights ow_eval_classic;

/* A monotonic clock in milliseconds (wrapping is fine); ctx is passed
 * through. In the browser: declare an imported JS function, e.g.
 *   __attribute__((import_module("env"), import_name("now_ms")))
 *   uint32_t js_now_ms(void);
 * and pass a static function that returns js_now_ms(). */
typedef uint32_t (*ow_clock_fn)(void *ctx);

/* What bounds a search, and how it picks. Zero fields mean "no bound".
 * Whatever the bounds, depth 1 is always completed, so there is always a
 * move. Filled by ow_search_level, or by hand. */
typedef struct ow_search_limits {
	int depth;          /* deepest iteration, 1..OW_SEARCH_MAX_DEPTH; 0 = max */
	uint64_t nodes;     /* stop after this many nodes; 0 = no node budget */
	uint32_t time_ms;   /* stop after this many ms of clock; 0 = no time budget */
	ow_clock_fn clock;  /* needed by time_ms (ignored when NULL) */
	void *clock_ctx;
	int noise;          /* > 0: score every root move exactly and add a
	                     * random 0..noise to each before picking (easy) */
	int blunder;        /* per mille: chance to play the second-best move
	                     * instead of the best (with noise > 0 only) */
	uint32_t seed;      /* seeds the random choices: same seed, same move */
	const ow_eval_weights *eval; /* NULL: ow_eval_default */
	int no_quiescence;  /* nonzero: leaves are scored as they stand, with
	                     * no quiescence search of captures (easy, medium) */
	const ow_egdb *egdb; /* an opened endgame database, or NULL: none */
	int slip_margin;    /* > 0: a slip (blunder) plays another move, at random,
	                     * of those within this much of the best's exact score
	                     * (the best when there is none), not the runner-up */
} ow_search_limits;

/* The outcome of a search. */
typedef struct ow_search_result {
	int move;          /* pit 0..11 to play */
	int score;         /* of the deepest completed iteration (see above) */
	int depth;         /* deepest completed iteration */
	uint64_t nodes;    /* positions visited */
	int npv;           /* entries of pv[] */
	uint8_t pv[OW_SEARCH_MAX_DEPTH]; /* expected line, pv[0] == move */
} ow_search_result;

/* Clears a table of n entries (tt may be NULL when n is 0). */
void ow_tt_clear(ow_tt_entry *tt, size_t n);

/* Fills *lim for a level (OW_LEVEL_*, or OW_LEVEL_LADDER + 1..12) with
 * seed; hard is bounded by time_ms of the given clock when clock is not
 * NULL and time_ms > 0, else by a node budget. Returns 0, or -1 for an
 * unknown level (lim untouched). */
int ow_search_level(ow_search_limits *lim, int level, uint32_t seed,
                    ow_clock_fn clock, void *clock_ctx, uint32_t time_ms);

/* Searches the best move of the side to move in g within *lim, using the
 * table tt of n entries (n a power of two, or 0 for no table; tt must not be
 * shared by searches running at the same time). Fills *out and returns 0,
 * or OW_E_OVER (the game is over; *out untouched). The move is always
 * legal in g. Deterministic: the same g, limits and table contents give the
 * same result, unless a time budget stops it. */
int ow_search(const ow_game *g, const ow_search_limits *lim, ow_tt_entry *tt,
              size_t n, ow_search_result *out);

/* The static evaluation of p for the side to move, in eval units, with
 * weights w (NULL: ow_eval_default); exposed for tests and tuning. */
int ow_search_eval(const ow_pos *p, const ow_eval_weights *w);

#endif
