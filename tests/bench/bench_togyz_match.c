/* bench_togyz_match.c: the Togyz Kumalak levels (engine/togyz_search.h)
 * against each other and against a random and a greedy player (the move
 * that wins the most seeds now, ties at random): GAMES games a pairing
 * (default 40, argv[1]), from random 2-ply openings each played with
 * both sides; hard at 100k nodes a move (argv[2]). Prints the first player's
 * score in each pairing. `make bench-togyz-match`.
 * With five more numbers (argv[3..7]: held tz_base tz_board exposed
 * threat): hard with those evaluation weights against hard with the
 * default ones instead, at the same node budget (tuning). */
#include <stdio.h>
#include <stdlib.h>

#include "engine/togyz_search.h"

#define TT_N (1u << 18)
static tg_tt_entry tt[TT_N];
static uint64_t rs = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (unsigned)(rs % n);
}

enum { P_RANDOM = -2, P_GREEDY = -1 }; /* else a TG_LEVEL_* */

static const tg_eval_weights *eval_of[2]; /* for the players a and b; NULL: default */
static int cur_player;

static int pick(const tg_game *g, int who, uint32_t seed, uint64_t hard_nodes)
{
	uint32_t mask = tg_legal_mask(&g->pos);
	int moves[TG_ROW], n = 0, best = -1000, nb = 0, bests[TG_ROW];
	tg_search_limits lim;
	tg_search_result r;

	while (mask) {
		moves[n++] = __builtin_ctz(mask);
		mask &= mask - 1;
	}
	if (who == P_RANDOM)
		return moves[rnd((unsigned)n)];
	if (who == P_GREEDY) {
		for (int i = 0; i < n; i++) {
			tg_pos p = g->pos;
			int me = p.turn, v;

			tg_pos_sow(&p, moves[i], 0);
			v = p.captured[me] - g->pos.captured[me];
			if (v > best)
				best = v, nb = 0;
			if (v == best)
				bests[nb++] = moves[i];
		}
		return bests[rnd((unsigned)nb)];
	}
	tg_search_level(&lim, who, seed, 0, 0, 0);
	lim.eval = eval_of[cur_player];
	if (who == TG_LEVEL_HARD)
		lim.nodes = hard_nodes;
	tg_search(g, &lim, tt, TT_N, &r);
	return r.move;
}

/* a's score (win 1, draw 0.5) over games games against b. */
static double match(int a, int b, int games, uint64_t hard_nodes)
{
	double score = 0;

	int o1 = 0, o2 = 0;

	for (int k = 0; k < games; k++) {
		int a_side = k % 2;
		tg_game g;

		if (k % 2 == 0) { /* each opening once with each side */
			o1 = (int)rnd(9);
			o2 = (int)rnd(9);
		}
		tg_game_start(&g);
		tg_game_play(&g, o1, 0);
		tg_game_play(&g, TG_ROW + o2, 0);
		tg_tt_clear(tt, TT_N);
		while (g.end == OW_END_NONE) {
			int who = g.pos.turn == a_side ? a : b;

			cur_player = g.pos.turn == a_side ? 0 : 1;
			tg_game_play(&g, pick(&g, who, (uint32_t)(k * 1000 + g.ply), hard_nodes), 0);
		}
		score += g.winner == OW_DRAW ? 0.5 : g.winner == a_side ? 1 : 0;
	}
	return score / games;
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? atoi(argv[1]) : 40;
	uint64_t nodes = argc > 2 ? strtoull(argv[2], 0, 10) : 100000;
	static const struct { int a, b; const char *name; } pairs[] = {
		{TG_LEVEL_EASY, P_RANDOM, "easy vs random"},
		{P_GREEDY, TG_LEVEL_EASY, "greedy vs easy"},
		{TG_LEVEL_MEDIUM, TG_LEVEL_EASY, "medium vs easy"},
		{TG_LEVEL_MEDIUM, P_GREEDY, "medium vs greedy"},
		{TG_LEVEL_HARD, TG_LEVEL_MEDIUM, "hard vs medium"},
	};

	if (argc > 7) {
		static tg_eval_weights w;

		w.held = atoi(argv[3]);
		w.tz_base = atoi(argv[4]);
		w.tz_board = atoi(argv[5]);
		w.exposed = atoi(argv[6]);
		w.threat = atoi(argv[7]);
		eval_of[0] = &w;
		printf("hard %d/%d/%d/%d/%d vs hard default: %5.1f%% of %d games\n", w.held,
		       w.tz_base, w.tz_board, w.exposed, w.threat,
		       100 * match(TG_LEVEL_HARD, TG_LEVEL_HARD, games, nodes), games);
		return 0;
	}
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		printf("%-18s %5.1f%% of %d games\n", pairs[i].name,
		       100 * match(pairs[i].a, pairs[i].b, games, nodes), games);
	return 0;
}
