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
 * timeMs 0: hard uses a node budget), or 10 + n for step n (1..12) of the
 * ladder (OW_LEVEL_LADDER; 12, 16 and 22 are easy, medium and hard). depth > 0 overrides the level: a
 * plain search of exactly that depth (the same move as native code, for
 * the wasm-vs-native test, after w_search_clear). nodes > 0 overrides the
 * level's budget with a node budget.
 *
 * The endgame database (engine/egdb.h, the file web/oware.egdb): the
 * caller copies the file's bytes to w_egdb_buffer(len) (0 when len is over
 * the module's room for it, EGDB_ROOM) and calls w_egdb_open(len): 0, or
 * an OW_EGDB_E_* code (< 0; no database then). Every later w_search and
 * w_analyse probes it; until then they run without one (web/ai-worker.js
 * waits for the file before it analyses, so that the page's judgement is
 * `oware analyse --egdb web/oware.egdb`'s).
 *
 * Analysis (engine/analysis.h), one ply at a time, sharing the table:
 *   w_search_clear();                 // once before a game's first ply
 *   const rc = w_analyse(g, pit, nodes, timeMs);  // 0 or OW_E_* (< 0)
 *   // then read the report at w_analysis() (layout pinned below):
 *   //   Int32 at +0 side, +4 move, +8 best, +12 before, +16 after,
 *   //   +20 loss, +24 class (0 best .. 4 blunder), +28 depth,
 *   //   nodes as two Uint32 at +32 (low) and +36 (high),
 *   //   Int32 at +40 npv, Uint8 at +44.. the pv (npv pits)
 *   // and play the move in g before the next ply.
 * nodes >= 1 is a node budget (the same analysis as `oware analyse
 * --nodes N` on the same game, after w_search_clear); else timeMs > 0 ms
 * of env.now_ms. before/after are search scores from the mover's view:
 * w_analysis_south(score, side) gives South's evaluation in eval units
 * (16 a seed, clamped to +-384), w_analysis_proven(score) the plies to a
 * proven end (> 0 the mover wins, < 0 loses, 0 none), counted from the
 * position before the move for both (one less from the position after). */
#include <stddef.h>

#include "engine/analysis.h"
#include "web/wasm/oware_kind.h"

#define SHIM_LIMITS ow_search_limits
#define SHIM_RESULT ow_search_result
#define SHIM_TT ow_tt_entry
#define SHIM_TT_ENTRIES OW_SEARCH_TT_ENTRIES
#define SHIM_TT_CLEAR ow_tt_clear
#define SHIM_LEVEL ow_search_level
#define SHIM_MAX_DEPTH OW_SEARCH_MAX_DEPTH
#define SHIM_RESULT_PREFIX w_search_
#define SHIM_GAME_PREFIX w_ai_
#include "web/wasm/search_shim.h"

/* Room for the database file: 12 seeds take 1,352,255 bytes. */
#define EGDB_ROOM (2u << 20)
static uint8_t egdb_file[EGDB_ROOM];
static ow_egdb egdb;
static const ow_egdb *egdb_on; /* &egdb once opened */
static ow_ply_analysis report;

_Static_assert(offsetof(ow_ply_analysis, side) == 0, "side at 0");
_Static_assert(offsetof(ow_ply_analysis, move) == 4, "move at 4");
_Static_assert(offsetof(ow_ply_analysis, best) == 8, "best at 8");
_Static_assert(offsetof(ow_ply_analysis, before) == 12, "before at 12");
_Static_assert(offsetof(ow_ply_analysis, after) == 16, "after at 16");
_Static_assert(offsetof(ow_ply_analysis, loss) == 20, "loss at 20");
_Static_assert(offsetof(ow_ply_analysis, cls) == 24, "cls at 24");
_Static_assert(offsetof(ow_ply_analysis, depth) == 28, "depth at 28");
_Static_assert(offsetof(ow_ply_analysis, nodes) == 32, "nodes at 32");
_Static_assert(offsetof(ow_ply_analysis, npv) == 40, "npv at 40");
_Static_assert(offsetof(ow_ply_analysis, pv) == 44, "pv at 44");

/* Entry points for JavaScript (prototypes for -Wmissing-prototypes). */
int w_search(const ow_game *g, int level, uint32_t seed, uint32_t time_ms,
             int depth, double nodes);
int w_analyse(const ow_game *g, int pit, double nodes, uint32_t time_ms);
ow_ply_analysis *w_analysis(void);
uint8_t *w_egdb_buffer(uint32_t len);
int w_egdb_open(uint32_t len);
int w_analysis_south(int score, int side);
int w_analysis_proven(int score);

/* Searches g (see above); returns the pit to play or a negative code. */
WX(w_search) int w_search(const ow_game *g, int level, uint32_t seed,
                          uint32_t time_ms, int depth, double nodes)
{
	ow_search_limits lim;
	int rc;

	if (shim_limits(&lim, level, seed, time_ms, depth, nodes))
		return -9;
	lim.egdb = egdb_on;
	rc = ow_search(g, &lim, tt, SHIM_TT_ENTRIES, &last);
	return rc ? rc : last.move;
}

/* Analyses pit played in g (see above); 0 or an OW_E_* code (the report
 * is then unchanged). */
WX(w_analyse) int w_analyse(const ow_game *g, int pit, double nodes, uint32_t time_ms)
{
	ow_search_limits lim = {0};

	if (nodes >= 1) {
		lim.nodes = (uint64_t)nodes;
	} else {
		lim.time_ms = time_ms ? time_ms : 1000;
		lim.clock = clock_ms;
	}
	lim.egdb = egdb_on;
	return ow_analyse_ply(g, pit, &lim, tt, SHIM_TT_ENTRIES, &report);
}

/* Address of the report of the last w_analyse. */
WX(w_analysis) ow_ply_analysis *w_analysis(void) { return &report; }
WX(w_analysis_south) int w_analysis_south(int score, int side)
{
	return ow_analysis_south(score, side);
}
WX(w_analysis_proven) int w_analysis_proven(int score) { return ow_analysis_proven(score); }

/* Where to copy the database file of len bytes (see above), or 0. */
WX(w_egdb_buffer) uint8_t *w_egdb_buffer(uint32_t len)
{
	egdb_on = 0;
	return len <= EGDB_ROOM ? egdb_file : 0;
}

/* Opens the len bytes copied to w_egdb_buffer: 0 or an OW_EGDB_E_* code. */
WX(w_egdb_open) int w_egdb_open(uint32_t len)
{
	int rc;

	egdb_on = 0;
	if (len > EGDB_ROOM)
		return OW_EGDB_E_FORMAT;
	rc = ow_egdb_open(&egdb, egdb_file, len);
	if (!rc)
		egdb_on = &egdb;
	return rc;
}
