/* search_exports.c: the computer player (engine/search.h) for JavaScript.
 *
 * Built only for wasm32, next to web/wasm/exports.c (add this file to the
 * module's sources). The module then IMPORTS one function, which the
 * instantiating JavaScript must supply:
 *   env.now_ms: () => a monotonic clock in ms as an unsigned 32-bit int,
 *               e.g. () => Math.floor(performance.now()) >>> 0
 * The transposition table (16 MB, as in `oware best`) lives in static storage; searches keep it
 * between moves of a game (faster); w_search_clear empties it (a new game,
 * or a reproducible search).
 *
 * JavaScript use, with g the address of an ow_game in the module's memory
 * (e.g. w_game() of exports.c):
 *   const pit = w_search(g, level, seed, timeMs, depth, nodes);
 *   // pit 0..11 ('abcdefABCDEF'[pit]), or < 0: OW_E_OVER (-5) or -9 (bad level)
 *   w_search_score(), w_search_depth(), w_search_nodes(), w_search_npv(),
 *   w_search_pv(i)   // details of the last search (see search.h for units)
 * A module of its own (web/ai.wasm, used by web/ai-worker.js) also needs
 * a game: w_ai_game() is one in static storage, set by w_ai_start or
 * w_ai_from_input (15 ints at w_ai_input(): pits a..F, south's and north's
 * scores, turn 0 south / 1 north; returns 0 or an OW_E_* code) and moved
 * on by w_ai_play(pit) (0 or an OW_E_* code).
 * Levels: 0 easy, 1 medium, 2 hard (timeMs > 0: hard searches that long;
 * timeMs 0: hard uses a node budget). depth > 0 overrides the level: a
 * plain search of exactly that depth (the same move as native code, for
 * the wasm-vs-native test, after w_search_clear). nodes > 0 overrides the
 * level's budget with a node budget. */
#include "engine/search.h"

#define WX(name) __attribute__((export_name(#name)))
#define TT_ENTRIES OW_SEARCH_TT_ENTRIES

__attribute__((import_module("env"), import_name("now_ms")))
uint32_t js_now_ms(void);

static ow_tt_entry tt[TT_ENTRIES];
static ow_search_result last;
static ow_game ai_game;
static int ai_input[OW_PITS + 3];

/* Entry points for JavaScript (prototypes for -Wmissing-prototypes). */
int w_search(const ow_game *g, int level, uint32_t seed, uint32_t time_ms,
             int depth, double nodes);
void w_search_clear(void);
int w_search_score(void);
int w_search_depth(void);
double w_search_nodes(void);
int w_search_npv(void);
int w_search_pv(int i);
ow_game *w_ai_game(void);
int *w_ai_input(void);
void w_ai_start(void);
int w_ai_from_input(void);
int w_ai_play(int pit);

static uint32_t clock_ms(void *ctx)
{
	(void)ctx;
	return js_now_ms();
}

/* Searches g (see above); returns the pit to play or a negative code. */
WX(w_search) int w_search(const ow_game *g, int level, uint32_t seed,
                          uint32_t time_ms, int depth, double nodes)
{
	ow_search_limits lim;
	int rc;

	if (depth > 0) {
		ow_search_limits plain = {0};

		plain.depth = depth > OW_SEARCH_MAX_DEPTH ? OW_SEARCH_MAX_DEPTH : depth;
		plain.seed = seed;
		lim = plain;
	} else if (ow_search_level(&lim, level, seed, time_ms ? clock_ms : 0, 0, time_ms)) {
		return -9;
	}
	if (nodes >= 1) {
		lim.nodes = (uint64_t)nodes;
		lim.time_ms = 0;
	}
	rc = ow_search(g, &lim, tt, TT_ENTRIES, &last);
	return rc ? rc : last.move;
}

/* Empties the table: before a new game, or for a reproducible search. */
WX(w_search_clear) void w_search_clear(void)
{
	ow_tt_clear(tt, TT_ENTRIES);
}

WX(w_search_score) int w_search_score(void) { return last.score; }
WX(w_search_depth) int w_search_depth(void) { return last.depth; }
WX(w_search_nodes) double w_search_nodes(void) { return (double)last.nodes; }
WX(w_search_npv) int w_search_npv(void) { return last.npv; }
/* pv[i] of the last search, or -1 past its end. */
WX(w_search_pv) int w_search_pv(int i) { return i >= 0 && i < last.npv ? last.pv[i] : -1; }

/* The game of web/ai.wasm (see above). */
WX(w_ai_game) ow_game *w_ai_game(void) { return &ai_game; }
WX(w_ai_input) int *w_ai_input(void) { return ai_input; }
WX(w_ai_start) void w_ai_start(void) { ow_game_start(&ai_game); }

WX(w_ai_from_input) int w_ai_from_input(void)
{
	ow_pos p;
	int rc = ow_pos_set(&p, ai_input, ai_input + OW_PITS, ai_input[OW_PITS + 2], 0);

	if (!rc)
		ow_game_from(&ai_game, &p);
	return rc;
}

WX(w_ai_play) int w_ai_play(int pit) { return ow_game_play(&ai_game, pit, 0); }
