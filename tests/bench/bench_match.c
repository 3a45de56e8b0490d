/* bench_match.c: the levels play each other and a random player; prints a
 * win/draw/loss table. Every pairing plays games in pairs from the same
 * random opening, each side once, so neither side profits from the draw.
 *
 * usage: bench_match [GAMES [HARD_NODES|MSms [OPENING_PLIES]]]
 *        bench_match --pair A B [GAMES [HARD_NODES [OPENING_PLIES]]]
 *        (A, B: greedy random easy medium hard; greedy takes the biggest
 *        capture there is, like a beginner)
 *        bench_match --eval HELD,TARGET,KROO,EMPTY [GAMES [HARD_NODES [...]]]
 *        (hard with these four evaluation weights, and no table, against
 *        hard with the defaults: 2,6,0,-16 is the evaluation of before
 *        issue 18, ow_eval_classic) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/search.h"

#define TT_ENTRIES (1u << 18)

/* Players besides the levels: random moves, and a beginner's greed (the
 * biggest capture now, else a random move). */
enum { P_GREEDY = -2, P_RANDOM = -1 };

static const char *const names[] = {"greedy", "random", "easy", "medium", "hard"};
#define NAME(p) names[(p) + 2]

struct player {
	int level; /* P_RANDOM or OW_LEVEL_* */
	ow_tt_entry *tt;
	const ow_eval_weights *eval; /* NULL: the level's own */
};

static const char *name_a, *name_b; /* overrides of names[] in the table */

static uint64_t hard_nodes = 100000;
static uint32_t hard_ms; /* > 0: hard by time (HARD_NODES given as "NNNms") */

static uint32_t now_ms(void *ctx)
{
	struct timespec t;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)((uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u);
}
static int opening_plies = 4;

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int random_move(const ow_game *g, uint64_t *rng)
{
	unsigned mask = ow_legal_mask(&g->pos);
	int k = (int)(rnd(rng) % (uint64_t)__builtin_popcount(mask));

	while (k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

static int greedy_move(const ow_game *g, uint64_t *rng)
{
	unsigned mask = ow_legal_mask(&g->pos), best = 0;
	int most = -1;

	for (unsigned m = mask; m; m &= m - 1) {
		ow_pos p = g->pos;
		int pit = __builtin_ctz(m), got;

		ow_pos_sow(&p, pit, NULL);
		got = p.captured[g->pos.turn] - g->pos.captured[g->pos.turn];
		if (got > most) {
			most = got;
			best = 0;
		}
		if (got == most)
			best |= 1u << pit;
	}
	{
		int k = (int)(rnd(rng) % (uint64_t)__builtin_popcount(best));

		while (k--)
			best &= best - 1;
	}
	return __builtin_ctz(best);
}

static int choose(struct player *pl, const ow_game *g, uint64_t *rng)
{
	ow_search_limits lim;
	ow_search_result r;

	if (pl->level == P_RANDOM)
		return random_move(g, rng);
	if (pl->level == P_GREEDY)
		return greedy_move(g, rng);
	ow_search_level(&lim, pl->level, (uint32_t)rnd(rng), NULL, NULL, 0);
	if (pl->level == OW_LEVEL_HARD && hard_ms)
		ow_search_level(&lim, pl->level, (uint32_t)rnd(rng), now_ms, NULL, hard_ms);
	else if (pl->level == OW_LEVEL_HARD)
		lim.nodes = hard_nodes;
	if (pl->eval)
		lim.eval = pl->eval;
	if (ow_search(g, &lim, pl->tt, TT_ENTRIES, &r)) {
		fprintf(stderr, "bench_match: search failed\n");
		exit(1);
	}
	return r.move;
}

/* Plays one game, south = players[0]; returns the ow_winner. */
static int play(struct player *south, struct player *north, uint64_t opening_seed,
                uint64_t *rng, int *plies)
{
	ow_game g;
	uint64_t orng = opening_seed;

	ow_game_start(&g);
	ow_tt_clear(south->tt, TT_ENTRIES);
	ow_tt_clear(north->tt, TT_ENTRIES);
	for (int i = 0; i < opening_plies && g.end == OW_END_NONE; i++)
		ow_game_play(&g, random_move(&g, &orng), NULL);
	while (g.end == OW_END_NONE) {
		struct player *pl = g.pos.turn == OW_SOUTH ? south : north;
		int m = choose(pl, &g, rng);

		if (ow_game_play(&g, m, NULL)) {
			fprintf(stderr, "bench_match: illegal move %c\n", ow_pit_letter(m));
			exit(1);
		}
	}
	*plies += g.ply;
	return g.winner;
}

static int level_of(const char *s)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i]))
			return i - 2;
	fprintf(stderr, "bench_match: unknown player %s\n", s);
	exit(2);
}

/* Plays games (rounded up to even) of a against b; prints one row; returns
 * a's percentage of points (a win 1, a draw 1/2). */
static double pairing(int a, int b, int games, ow_tt_entry *tt_a, ow_tt_entry *tt_b,
                      const ow_eval_weights *eval_a)
{
	struct player pa = {a, tt_a, eval_a}, pb = {b, tt_b, NULL};
	int win = 0, draw = 0, loss = 0, plies = 0;
	uint64_t rng = 0x5eed0000u + (uint64_t)(a + 2) * 16 + (uint64_t)(b + 2);
	double pct;

	for (int i = 0; i < games; i += 2) {
		uint64_t open = rnd(&rng);

		for (int side = 0; side < 2; side++) {
			int w = side == 0 ? play(&pa, &pb, open, &rng, &plies)
			                  : play(&pb, &pa, open, &rng, &plies);

			if (w == OW_DRAW)
				draw++;
			else if (w == side) /* a played south in game 0, north in 1 */
				win++;
			else
				loss++;
		}
	}
	pct = 100.0 * (win + draw / 2.0) / (win + draw + loss);
	printf("%-7s vs %-7s %5d games: %4d won %4d drawn %4d lost  %5.1f%%  (%.0f plies a game)\n",
	       name_a ? name_a : NAME(a), name_b ? name_b : NAME(b), win + draw + loss, win, draw, loss, pct,
	       (double)plies / (win + draw + loss));
	fflush(stdout);
	return pct;
}

int main(int argc, char **argv)
{
	int games = 100, pa = -9, pb = -9, i = 1;
	ow_eval_weights w = {0}, *eval = NULL;
	ow_tt_entry *tt_a = malloc(TT_ENTRIES * sizeof *tt_a);
	ow_tt_entry *tt_b = malloc(TT_ENTRIES * sizeof *tt_b);

	if (!tt_a || !tt_b)
		return 1;
	if (argc > 3 && !strcmp(argv[1], "--pair")) {
		pa = level_of(argv[2]);
		pb = level_of(argv[3]);
		i = 4;
	} else if (argc > 2 && !strcmp(argv[1], "--eval")) {
		if (sscanf(argv[2], "%d,%d,%d,%d", &w.held, &w.target, &w.kroo, &w.empty) != 4) {
			fprintf(stderr, "bench_match: --eval HELD,TARGET,KROO,EMPTY\n");
			return 2;
		}
		eval = &w;
		pa = pb = OW_LEVEL_HARD;
		name_a = argv[2];
		name_b = "default";
		i = 3;
	}
	if (argc > i)
		games = atoi(argv[i]);
	if (argc > i + 1 && strstr(argv[i + 1], "ms"))
		hard_ms = (uint32_t)atoi(argv[i + 1]);
	else if (argc > i + 1)
		hard_nodes = (uint64_t)atoll(argv[i + 1]);
	if (argc > i + 2)
		opening_plies = atoi(argv[i + 2]);
	if (hard_ms)
		printf("match: %d games a pairing, openings of %d random plies, each played "
		       "from both sides; hard given %u ms a move\n", games, opening_plies, hard_ms);
	else
		printf("match: %d games a pairing, openings of %d random plies, each played "
		       "from both sides; hard limited to %llu nodes a move\n",
		       games, opening_plies, (unsigned long long)hard_nodes);
	if (pa != -9) {
		pairing(pa, pb, games, tt_a, tt_b, eval);
	} else {
		for (int a = OW_LEVEL_EASY; a <= OW_LEVEL_HARD; a++)
			for (int b = a - 1; b >= P_GREEDY; b--)
				pairing(a, b, games, tt_a, tt_b, NULL);
	}
	free(tt_a);
	free(tt_b);
	return 0;
}
