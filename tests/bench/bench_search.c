/* bench_search.c: the search from the start position: depth reached and
 * nodes per second within a time budget (hard's budget: 1000 ms), then the
 * depth reached within a node budget (independent of the machine's load).
 * usage: bench_search [MS [NODES]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/search.h"

#define TT_ENTRIES (1u << 20) /* 16 MB */

static uint32_t now_ms(void *ctx)
{
	struct timespec t;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)((uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint32_t ms = argc > 1 ? (uint32_t)atoi(argv[1]) : 1000;
	uint64_t nodes = argc > 2 ? (uint64_t)atoll(argv[2]) : 0;
	ow_tt_entry *tt = malloc(TT_ENTRIES * sizeof *tt);
	ow_search_limits lim = {0};
	ow_search_result r;
	ow_game g;
	double t0, t1;

	if (!tt) {
		fprintf(stderr, "bench_search: out of memory\n");
		return 1;
	}
	ow_game_start(&g);
	ow_tt_clear(tt, TT_ENTRIES);
	lim.time_ms = ms;
	lim.clock = now_ms;
	t0 = now_s();
	ow_search(&g, &lim, tt, TT_ENTRIES, &r);
	t1 = now_s();
	printf("search from the start, %u ms budget: depth %d, %llu nodes in %.3f s, "
	       "%.2f M nodes/s, move %c score %d\n", ms, r.depth,
	       (unsigned long long)r.nodes, t1 - t0, (double)r.nodes / (t1 - t0) / 1e6,
	       ow_pit_letter(r.move), r.score);
	if (nodes) {
		ow_search_limits nl = {0};

		nl.nodes = nodes;
		ow_tt_clear(tt, TT_ENTRIES);
		t0 = now_s();
		ow_search(&g, &nl, tt, TT_ENTRIES, &r);
		t1 = now_s();
		printf("search from the start, %llu node budget: depth %d, %llu nodes in %.3f s, "
		       "%.2f M nodes/s, move %c score %d\n", (unsigned long long)nodes, r.depth,
		       (unsigned long long)r.nodes, t1 - t0, (double)r.nodes / (t1 - t0) / 1e6,
		       ow_pit_letter(r.move), r.score);
	}
	free(tt);
	return 0;
}
