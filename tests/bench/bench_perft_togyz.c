/* bench_perft_togyz.c: Togyz Kumalak perft speed from the start, in leaf
 * nodes per second; also checks the count against tests/data/togyz-perft.txt
 * (the deep depths make test leaves out). Usage: bench_perft_togyz [DEPTH
 * [RUNS [PERFT_FILE]]]; exit status 1 if the count is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/togyz.h"

/* The known count of depth from file, or 0 if it has none. */
static unsigned long long known(const char *file, int depth)
{
	FILE *f = fopen(file, "r");
	char line[128];
	unsigned long long n = 0, want = 0;
	int d;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (line[0] != '#' && sscanf(line, "%d %llu", &d, &n) == 2 && d == depth)
			want = n;
	fclose(f);
	return want;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 9;
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	unsigned long long want = known(argc > 3 ? argv[3] : "tests/data/togyz-perft.txt", depth);
	double best = 0;
	uint64_t n = 0;
	tg_game g;

	tg_game_start(&g);
	for (int r = 0; r < runs; r++) {
		struct timespec a, b;
		double s;

		clock_gettime(CLOCK_MONOTONIC, &a);
		n = tg_perft(&g, depth);
		clock_gettime(CLOCK_MONOTONIC, &b);
		s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (best == 0 || s < best)
			best = s;
	}
	printf("togyz perft %d: %llu leaves%s, best of %d: %.3f s, %.1f M leaves/s\n", depth,
	       (unsigned long long)n, !want ? " (no known count)" : n == want ? " (as known)" : " WRONG",
	       runs, best, (double)n / best / 1e6);
	return want && n != want ? 1 : 0;
}
