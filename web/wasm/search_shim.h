/* search_shim.h: what the computer-player modules (web/ai.wasm,
 * web/togyz-ai.wasm) share, written once: the clock JavaScript gives,
 * the table, the limits a level or a depth asks for, the last result and
 * the game of the module's own. A module includes its kind's header
 * (oware_kind.h, togyz_kind.h), defines the macros below, then includes
 * this file exactly once; its search export and anything of its own
 * follow.
 *   SHIM_LIMITS, SHIM_RESULT, SHIM_TT   the search's structs
 *   SHIM_TT_ENTRIES, SHIM_TT_CLEAR      the table's size and its clear
 *   SHIM_LEVEL, SHIM_MAX_DEPTH          the levels' limits, the deepest
 *   SHIM_RESULT_PREFIX                  the result's export names (w_search_)
 *   SHIM_GAME_PREFIX                    the game's export names (w_ai_)
 * The export names are the prefix and clear, score, depth, nodes, npv,
 * pv (the result), game, input, start, from_input, play (the game).
 *
 * The module IMPORTS env.now_ms: () => a monotonic clock in ms as an
 * unsigned 32-bit int, e.g. () => Math.floor(performance.now()) >>> 0. */
#ifndef WEB_WASM_SEARCH_SHIM_H
#define WEB_WASM_SEARCH_SHIM_H

#include "web/wasm/shim.h"

#define SHIM_R(name) SHIM_CAT(SHIM_RESULT_PREFIX, name)
#define SHIM_G(name) SHIM_CAT(SHIM_GAME_PREFIX, name)

__attribute__((import_module("env"), import_name("now_ms")))
uint32_t js_now_ms(void);

static SHIM_TT tt[SHIM_TT_ENTRIES];
static SHIM_RESULT last;
static SHIM_GAME ai_game;
static int ai_input[SHIM_INPUT];

/* Entry points for JavaScript (prototypes for -Wmissing-prototypes). */
void SHIM_R(clear)(void);
int SHIM_R(score)(void);
int SHIM_R(depth)(void);
double SHIM_R(nodes)(void);
int SHIM_R(npv)(void);
int SHIM_R(pv)(int i);
SHIM_GAME *SHIM_G(game)(void);
int *SHIM_G(input)(void);
void SHIM_G(start)(void);
int SHIM_G(from_input)(void);
int SHIM_G(play)(int pit);

static uint32_t clock_ms(void *ctx)
{
	(void)ctx;
	return js_now_ms();
}

/* The limits of a search export's arguments: depth > 0 a plain search of
 * exactly that depth (the same move as native code after a clear), else
 * the level (time_ms > 0: hard searches that long); nodes >= 1 a node
 * budget instead of the level's. 0, or -9 for an unknown level. */
static int shim_limits(SHIM_LIMITS *lim, int level, uint32_t seed, uint32_t time_ms,
                       int depth, double nodes)
{
	if (depth > 0) {
		SHIM_LIMITS plain = {0};

		plain.depth = depth > SHIM_MAX_DEPTH ? SHIM_MAX_DEPTH : depth;
		plain.seed = seed;
		*lim = plain;
	} else if (SHIM_LEVEL(lim, level, seed, time_ms ? clock_ms : 0, 0, time_ms)) {
		return -9;
	}
	if (nodes >= 1) {
		lim->nodes = (uint64_t)nodes;
		lim->time_ms = 0;
	}
	return 0;
}

/* Empties the table: before a new game, or for a reproducible search. */
SHIM_WXN(SHIM_R(clear)) void SHIM_R(clear)(void) { SHIM_TT_CLEAR(tt, SHIM_TT_ENTRIES); }

/* The last search's details (see the engine's header for the units). */
SHIM_WXN(SHIM_R(score)) int SHIM_R(score)(void) { return last.score; }
SHIM_WXN(SHIM_R(depth)) int SHIM_R(depth)(void) { return last.depth; }
SHIM_WXN(SHIM_R(nodes)) double SHIM_R(nodes)(void) { return (double)last.nodes; }
SHIM_WXN(SHIM_R(npv)) int SHIM_R(npv)(void) { return last.npv; }
/* pv[i] of the last search (a pit), or -1 past its end. */
SHIM_WXN(SHIM_R(pv)) int SHIM_R(pv)(int i) { return i >= 0 && i < last.npv ? last.pv[i] : -1; }

/* The module's game: the standard start, or the SHIM_INPUT ints at
 * input() (as w_input of the engine modules), then moves played on. */
SHIM_WXN(SHIM_G(game)) SHIM_GAME *SHIM_G(game)(void) { return &ai_game; }
SHIM_WXN(SHIM_G(input)) int *SHIM_G(input)(void) { return ai_input; }
SHIM_WXN(SHIM_G(start)) void SHIM_G(start)(void) { kind.start(&ai_game); }
/* 0, or the engine's code of its pos_set (the game untouched). */
SHIM_WXN(SHIM_G(from_input)) int SHIM_G(from_input)(void)
{
	return kind.from_input(&ai_game, ai_input, 0);
}
/* 0, or the engine's code (the game untouched). */
SHIM_WXN(SHIM_G(play)) int SHIM_G(play)(int pit) { return kind.play(&ai_game, pit, 0); }

#endif
