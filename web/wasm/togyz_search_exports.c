/* togyz_search_exports.c: the Togyz Kumalak computer player
 * (engine/togyz_search.h) for JavaScript: web/togyz-ai.wasm, which
 * web/togyz-worker.js runs. Built only for wasm32 (web/part.mk) with
 * engine/togyz.c and engine/togyz_search.c.
 *
 * The module IMPORTS env.now_ms: () => a monotonic clock in ms as an
 * unsigned 32-bit int (e.g. () => Math.floor(performance.now()) >>> 0).
 * The table (16 MB, as `oware best --game togyz`) is static and kept
 * between searches; w_tg_clear empties it (a new game, or a reproducible
 * search).
 *
 *   w_tg_start()                    // the game: the standard start, or
 *   // 23 ints at w_tg_input(): pits 0..17, South's and North's scores,
 *   // South's and North's tuzdyks (hole number on the opponent's row, 0
 *   // none), turn (0 south, 1 north); then
 *   w_tg_from_input()               // 0 or a TG_E_* code (< 0)
 *   w_tg_play(pit)                  // 0 or a TG_E_* code; pit 0..17
 *   const pit = w_tg_search(level, seed, timeMs, depth, nodes);
 *   // pit 0..17, or < 0: TG_E_OVER (-5), or -9 for an unknown level
 *   w_tg_score(), w_tg_depth(), w_tg_nodes(), w_tg_npv(), w_tg_pv(i)
 *   w_tg_perft(depth)               // of the game, for the agreement tests
 * Levels 0 easy, 1 medium, 2 hard (timeMs > 0: that long, else a node
 * budget), or 10 + n for step n (1..11) of the ladder (TG_LEVEL_LADDER:
 * 12, 17 and 21 are easy, medium and hard); depth > 0 overrides the level with a plain search of exactly
 * that depth (the same move as native code after w_tg_clear); nodes >= 1
 * a node budget instead of the level's. */
#include <stddef.h>

#include "engine/togyz_search.h"
#include "web/wasm/togyz_kind.h"

#define SHIM_LIMITS tg_search_limits
#define SHIM_RESULT tg_search_result
#define SHIM_TT tg_tt_entry
#define SHIM_TT_ENTRIES TG_SEARCH_TT_ENTRIES
#define SHIM_TT_CLEAR tg_tt_clear
#define SHIM_LEVEL tg_search_level
#define SHIM_MAX_DEPTH TG_SEARCH_MAX_DEPTH
#define SHIM_RESULT_PREFIX w_tg_
#define SHIM_GAME_PREFIX w_tg_
#include "web/wasm/search_shim.h"

/* Entry points for JavaScript (prototypes for -Wmissing-prototypes). */
int w_tg_search(int level, uint32_t seed, uint32_t time_ms, int depth, double nodes);
double w_tg_perft(int depth);

/* Searches the module's game (see above): the pit to play, or < 0. */
WX(w_tg_search) int w_tg_search(int level, uint32_t seed, uint32_t time_ms, int depth, double nodes)
{
	tg_search_limits lim;
	int rc;

	if (shim_limits(&lim, level, seed, time_ms, depth, nodes))
		return -9;
	rc = tg_search(&ai_game, &lim, tt, SHIM_TT_ENTRIES, &last);
	return rc ? rc : last.move;
}

/* perft of the module's game, for the agreement tests. */
WX(w_tg_perft) double w_tg_perft(int depth) { return (double)kind.perft(&ai_game, depth); }
