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

#define WX(name) __attribute__((export_name(#name)))

__attribute__((import_module("env"), import_name("now_ms")))
uint32_t js_now_ms(void);

static tg_tt_entry tt[TG_SEARCH_TT_ENTRIES];
static tg_game game;
static int input[TG_PITS + 5];
static tg_search_result last;

tg_game *w_tg_game(void);
int *w_tg_input(void);
void w_tg_start(void);
int w_tg_from_input(void);
int w_tg_play(int pit);
int w_tg_search(int level, uint32_t seed, uint32_t time_ms, int depth, double nodes);
void w_tg_clear(void);
int w_tg_score(void);
int w_tg_depth(void);
double w_tg_nodes(void);
int w_tg_npv(void);
int w_tg_pv(int i);
double w_tg_perft(int depth);

static uint32_t clock_ms(void *ctx)
{
	(void)ctx;
	return js_now_ms();
}

WX(w_tg_game) tg_game *w_tg_game(void) { return &game; }
WX(w_tg_input) int *w_tg_input(void) { return input; }
WX(w_tg_start) void w_tg_start(void) { tg_game_start(&game); }

WX(w_tg_from_input) int w_tg_from_input(void)
{
	tg_pos p;
	int rc = tg_pos_set(&p, input, input + TG_PITS, input + TG_PITS + 2, input[TG_PITS + 4], 0);

	if (!rc)
		tg_game_from(&game, &p);
	return rc;
}

WX(w_tg_play) int w_tg_play(int pit) { return tg_game_play(&game, pit, 0); }

WX(w_tg_search) int w_tg_search(int level, uint32_t seed, uint32_t time_ms, int depth, double nodes)
{
	tg_search_limits lim;
	int rc;

	if (depth > 0) {
		tg_search_limits plain = {0};

		plain.depth = depth > TG_SEARCH_MAX_DEPTH ? TG_SEARCH_MAX_DEPTH : depth;
		plain.seed = seed;
		lim = plain;
	} else if (tg_search_level(&lim, level, seed, time_ms ? clock_ms : 0, 0, time_ms)) {
		return -9;
	}
	if (nodes >= 1) {
		lim.nodes = (uint64_t)nodes;
		lim.time_ms = 0;
	}
	rc = tg_search(&game, &lim, tt, TG_SEARCH_TT_ENTRIES, &last);
	return rc ? rc : last.move;
}

WX(w_tg_clear) void w_tg_clear(void) { tg_tt_clear(tt, TG_SEARCH_TT_ENTRIES); }
WX(w_tg_score) int w_tg_score(void) { return last.score; }
WX(w_tg_depth) int w_tg_depth(void) { return last.depth; }
WX(w_tg_nodes) double w_tg_nodes(void) { return (double)last.nodes; }
WX(w_tg_npv) int w_tg_npv(void) { return last.npv; }
/* pv[i] of the last search (a pit 0..17), or -1 past its end. */
WX(w_tg_pv) int w_tg_pv(int i) { return i >= 0 && i < last.npv ? last.pv[i] : -1; }
WX(w_tg_perft) double w_tg_perft(int depth) { return (double)tg_perft(&game, depth); }
