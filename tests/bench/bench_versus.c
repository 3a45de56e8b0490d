/* bench_versus.c: today's hard level against the hard level of an earlier
 * commit (tests/bench/prev_hard.c), over games from balanced openings, each
 * opening played once with each colour. Prints the score of today's hard
 * with a 95% error bar (from the spread of the pairs' scores) and the Elo
 * difference it means.
 *
 * usage: bench_versus GAMES (NODES | MSms) [JOBS]
 *   NODES: both sides get that many nodes a move; MSms: that many ms of the
 *   clock a move (both sides). JOBS processes share the pairs (default 1).
 * Openings: 6 random plies from a fixed seed, kept when a depth-12 search
 * of today's engine scores the position within 1.5 seeds of even. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/search.h"
#include "tests/bench/egdb_load.h"

#define TT_ENTRIES (1u << 20) /* 16 MB each, as the browser's */
#define OPENING_PLIES 6
#define BALANCED (3 * OW_SEARCH_SEED / 2)

size_t prev_tt_entry_size(void);
void prev_tt_clear(void *tt, size_t n);
int prev_hard_move(const uint8_t *moves, int nmoves, uint64_t nodes, uint32_t time_ms,
                   uint32_t (*clock)(void *), void *tt, size_t n, int *depth,
                   uint64_t *nodes_out);

/* A game and its moves from the standard start (the earlier commit's
 * engine replays them: its ow_game is not today's). */
typedef struct line {
	ow_game g;
	int n;
	uint8_t moves[4096];
} game_line;

static uint64_t nodes_a_move;
static uint32_t ms_a_move;
static const ow_egdb *egdb;

static uint32_t now_ms(void *ctx)
{
	struct timespec t;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)((uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u);
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A balanced opening from *rng (see above) into *o. */
static void opening(uint64_t *rng, ow_tt_entry *tt, game_line *o)
{
	for (;;) {
		ow_game *g = &o->g;
		ow_search_limits lim = {0};
		ow_search_result r;

		ow_game_start(g);
		o->n = 0;
		for (int i = 0; i < OPENING_PLIES && g->end == OW_END_NONE; i++) {
			unsigned mask = ow_legal_mask(&g->pos);
			int k = (int)(rnd(rng) % (uint64_t)__builtin_popcount(mask));

			while (k--)
				mask &= mask - 1;
			o->moves[o->n++] = (uint8_t)__builtin_ctz(mask);
			ow_game_play(g, __builtin_ctz(mask), NULL);
		}
		if (g->end != OW_END_NONE)
			continue;
		lim.depth = 12;
		ow_tt_clear(tt, TT_ENTRIES);
		ow_search(g, &lim, tt, TT_ENTRIES, &r);
		if (r.score <= BALANCED && r.score >= -BALANCED)
			return;
	}
}

struct side_stats { uint64_t moves, depth, nodes; };

/* Plays g to its end, today's hard as new_side; returns today's points
 * times 2 (win 2, draw 1, loss 0). */
static int play(const game_line *start, int new_side, ow_tt_entry *tt_new, void *tt_prev,
                struct side_stats st[2])
{
	static game_line l;
	ow_game g;

	l = *start;
	g = l.g;
	ow_tt_clear(tt_new, TT_ENTRIES);
	prev_tt_clear(tt_prev, TT_ENTRIES);
	while (g.end == OW_END_NONE) {
		int m, depth;
		uint64_t n;

		if (g.pos.turn == new_side) {
			ow_search_limits lim;
			ow_search_result r;

			ow_search_level(&lim, OW_LEVEL_HARD, 1, ms_a_move ? now_ms : NULL, NULL,
			                ms_a_move);
			if (!ms_a_move)
				lim.nodes = nodes_a_move;
			lim.egdb = egdb;
			if (ow_search(&g, &lim, tt_new, TT_ENTRIES, &r)) {
				fprintf(stderr, "bench_versus: search failed\n");
				exit(1);
			}
			m = r.move;
			depth = r.depth;
			n = r.nodes;
		} else {
			m = prev_hard_move(l.moves, l.n, nodes_a_move, ms_a_move, now_ms, tt_prev,
			                   TT_ENTRIES, &depth, &n);
		}
		st[g.pos.turn == new_side].moves++;
		st[g.pos.turn == new_side].depth += (uint64_t)depth;
		st[g.pos.turn == new_side].nodes += n;
		if (m < 0 || l.n >= (int)sizeof l.moves || ow_game_play(&g, m, NULL)) {
			fprintf(stderr, "bench_versus: illegal move\n");
			exit(1);
		}
		l.moves[l.n++] = (uint8_t)m;
	}
	return g.winner == OW_DRAW ? 1 : g.winner == new_side ? 2 : 0;
}

/* One job's share: pairs job, job + jobs, ...; writes per pair "points
 * ends" and the depth sums to fd. */
static void run_job(int job, int jobs, int pairs, FILE *out)
{
	ow_tt_entry *tt_new = malloc(TT_ENTRIES * sizeof *tt_new);
	void *tt_prev = malloc(TT_ENTRIES * prev_tt_entry_size());
	uint64_t rng = 0x0bea7e11u;
	struct side_stats st[2] = {{0, 0, 0}, {0, 0, 0}};

	if (!tt_new || !tt_prev)
		exit(1);
	for (int i = 0; i < pairs; i++) {
		static game_line o;
		int pts;

		opening(&rng, tt_new, &o);
		if (i % jobs != job)
			continue;
		pts = play(&o, OW_SOUTH, tt_new, tt_prev, st) + play(&o, OW_NORTH, tt_new, tt_prev, st);
		fprintf(out, "pair %d %d\n", i, pts);
		fflush(out);
	}
	fprintf(out, "stats %llu %llu %llu %llu %llu %llu\n",
	        (unsigned long long)st[0].moves, (unsigned long long)st[0].depth,
	        (unsigned long long)st[0].nodes, (unsigned long long)st[1].moves,
	        (unsigned long long)st[1].depth, (unsigned long long)st[1].nodes);
	free(tt_new);
	free(tt_prev);
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? atoi(argv[1]) : 200, jobs = argc > 3 ? atoi(argv[3]) : 1;
	int pairs, npairs = 0, hist[5] = {0};
	double sum = 0, sum2 = 0, mean, se, pct, elo;
	uint64_t st[6] = {0};
	FILE *pipes[64];
	char line[256];

	if (argc < 3 || games < 2 || jobs < 1 || jobs > 64) {
		fprintf(stderr, "usage: bench_versus GAMES (NODES | MSms) [JOBS]\n");
		return 2;
	}
	if (strstr(argv[2], "ms"))
		ms_a_move = (uint32_t)atoi(argv[2]);
	else
		nodes_a_move = (uint64_t)atoll(argv[2]);
	egdb = bench_egdb_load();
	pairs = (games + 1) / 2;
	printf("versus: today's hard against %s's hard, %d games (%d balanced openings "
	       "of %d plies, each with both colours), %s%s a move, endgame database %s\n",
	       PREV_NAME, pairs * 2, pairs, OPENING_PLIES,
	       ms_a_move ? argv[2] : argv[2], ms_a_move ? "" : " nodes",
	       egdb ? "on" : "off");
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		int fd[2];
		pid_t pid;

		if (pipe(fd) || (pid = fork()) < 0)
			return 1;
		if (!pid) {
			FILE *out = fdopen(fd[1], "w");

			close(fd[0]);
			run_job(j, jobs, pairs, out);
			fclose(out);
			_exit(0);
		}
		close(fd[1]);
		pipes[j] = fdopen(fd[0], "r");
	}
	for (int j = 0; j < jobs; j++) {
		while (fgets(line, sizeof line, pipes[j])) {
			int i, pts;
			unsigned long long v[6];

			if (sscanf(line, "pair %d %d", &i, &pts) == 2) {
				sum += pts / 2.0;
				sum2 += pts / 2.0 * (pts / 2.0);
				hist[pts]++;
				npairs++;
			} else if (sscanf(line, "stats %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			                  &v[2], &v[3], &v[4], &v[5]) == 6) {
				for (int k = 0; k < 6; k++)
					st[k] += v[k];
			}
		}
		fclose(pipes[j]);
	}
	while (wait(NULL) > 0)
		;
	if (npairs < 2)
		return 1;
	mean = sum / npairs; /* points of a pair, 0..2 */
	se = sqrt((sum2 / npairs - mean * mean) / (npairs - 1));
	pct = 50.0 * mean;
	elo = pct <= 0 || pct >= 100 ? (pct <= 0 ? -999 : 999)
	                             : -400.0 * log10(100.0 / pct - 1.0);
	printf("today's hard: %.1f%% +- %.1f%% (95%%), about %+.0f Elo; pairs won 2-0 %d, "
	       "1.5 %d, 1-1 %d, 0.5 %d, 0-2 %d\n", pct, 1.96 * 50.0 * se, elo,
	       hist[4], hist[3], hist[2], hist[1], hist[0]);
	printf("average depth (nodes) a move: today's %.1f (%.0f), %s's %.1f (%.0f)\n",
	       st[3] ? (double)st[4] / (double)st[3] : 0, st[3] ? (double)st[5] / (double)st[3] : 0,
	       PREV_NAME, st[0] ? (double)st[1] / (double)st[0] : 0,
	       st[0] ? (double)st[2] / (double)st[0] : 0);
	return 0;
}
