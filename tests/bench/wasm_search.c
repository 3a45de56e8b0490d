/* wasm_search.c: a game for bench_search.mjs to search in a bench-only
 * wasm module (engine + web/wasm/search_exports.c + this file). */
#include "engine/oware.h"

ow_game *bench_start(void);

static ow_game game;

/* The standard start in static storage; returns its address. */
__attribute__((export_name("bench_start"))) ow_game *bench_start(void)
{
	ow_game_start(&game);
	return &game;
}
