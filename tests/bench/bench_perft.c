/* bench_perft.c: perft speed from the start, in leaf nodes per second. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/oware.h"

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 11;
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	double best = 0;
	uint64_t n = 0;
	ow_game g;

	ow_game_start(&g);
	for (int r = 0; r < runs; r++) {
		struct timespec a, b;
		double s;

		clock_gettime(CLOCK_MONOTONIC, &a);
		n = ow_perft(&g, depth);
		clock_gettime(CLOCK_MONOTONIC, &b);
		s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (best == 0 || s < best)
			best = s;
	}
	printf("perft %d: %llu leaves, best of %d: %.3f s, %.1f M leaves/s\n", depth,
	       (unsigned long long)n, runs, best, (double)n / best / 1e6);
	return 0;
}
