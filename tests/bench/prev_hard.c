/* prev_hard.c: the hard level of an earlier commit (PREV_COMMIT in
 * tests/search/part.mk), for bench_versus. Compiled against that commit's
 * engine headers (build/prev/engine/, from `git show`), linked with its
 * oware.c and search.c into one relocatable object whose only global
 * symbols are the prev_ functions below: the old engine's ow_ names stay
 * private to it, so it links beside today's engine. */
#include "engine/search.h"

size_t prev_tt_entry_size(void);
void prev_tt_clear(void *tt, size_t n);
int prev_hard_move(const uint8_t *moves, int nmoves, uint64_t nodes, uint32_t time_ms,
                   uint32_t (*clock)(void *), void *tt, size_t n, int *depth,
                   uint64_t *nodes_out);

size_t prev_tt_entry_size(void) { return sizeof(ow_tt_entry); }
void prev_tt_clear(void *tt, size_t n) { ow_tt_clear(tt, n); }

/* Hard's move in the game of the nmoves moves (pits) from the standard
 * start, replayed by that commit's engine (its ow_game need not be
 * today's), within nodes (time_ms 0) or time_ms of clock; -1 if a move is
 * refused or the search fails. */
int prev_hard_move(const uint8_t *moves, int nmoves, uint64_t nodes, uint32_t time_ms,
                   uint32_t (*clock)(void *), void *tt, size_t n, int *depth,
                   uint64_t *nodes_out)
{
	ow_search_limits lim;
	ow_search_result r;
	ow_game game;

	ow_game_start(&game);
	for (int i = 0; i < nmoves; i++)
		if (ow_game_play(&game, moves[i], 0))
			return -1;

	ow_search_level(&lim, OW_LEVEL_HARD, 1, time_ms ? clock : 0, 0, time_ms);
	if (!time_ms)
		lim.nodes = nodes;
	if (ow_search(&game, &lim, tt, n, &r))
		return -1;
	*depth = r.depth;
	*nodes_out = r.nodes;
	return r.move;
}
