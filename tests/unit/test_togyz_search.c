/* test_togyz_search.c: Check unit tests of the Togyz Kumalak computer
 * player (engine/togyz_search.h): legal moves everywhere, the same values
 * as a plain minimax where no pruning heuristic applies, wins and losses
 * seen, determinism, the levels and their order of strength. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/togyz_search.h"

#define TT_N (1u << 16)
static tg_tt_entry tt[TT_N];

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random legal move of g (not over). */
static int random_move(const tg_game *g)
{
	uint32_t mask = tg_legal_mask(&g->pos);
	int k = (int)rnd((unsigned)__builtin_popcount(mask));

	while (k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

/* g after plies random moves from the start (fewer if it ends: then it is
 * started again). */
static tg_game random_game(int plies)
{
	tg_game g;

	tg_game_start(&g);
	for (int i = 0; i < plies; i++) {
		tg_game h = g;

		ck_assert_int_eq(tg_game_play(&h, random_move(&g), 0), 0);
		if (h.end != OW_END_NONE)
			break;
		g = h;
	}
	return g;
}

/* Plain negamax by the game's own rules (tg_game_play), the same leaf
 * values as the search: the reference for small depths. */
static int minimax(const tg_game *g, int depth, int ply)
{
	int best = -TG_SEARCH_WIN - 1;
	uint32_t mask;

	if (g->end != OW_END_NONE) {
		int me = g->pos.turn;

		if (g->winner == OW_DRAW)
			return 0;
		return g->winner == me ? TG_SEARCH_WIN - ply : -(TG_SEARCH_WIN - ply);
	}
	if (!depth)
		return tg_search_eval(&g->pos, 0);
	mask = tg_legal_mask(&g->pos);
	while (mask) {
		tg_game h = *g;
		int v;

		ck_assert_int_eq(tg_game_play(&h, __builtin_ctz(mask), 0), 0);
		mask &= mask - 1;
		/* The end's value is for the side to move after the move. */
		if (h.end != OW_END_NONE)
			v = h.winner == OW_DRAW ? 0 : h.winner == g->pos.turn ? TG_SEARCH_WIN - ply - 1
			                                                   : -(TG_SEARCH_WIN - ply - 1);
		else
			v = -minimax(&h, depth - 1, ply + 1);
		if (v > best)
			best = v;
	}
	return best;
}

START_TEST(test_levels)
{
	tg_search_limits l;

	ck_assert_int_eq(tg_search_level(&l, TG_LEVEL_EASY, 5, 0, 0, 0), 0);
	ck_assert_int_eq(l.depth, 1);
	ck_assert_int_eq(l.noise, 3 * TG_SEARCH_SEED);
	ck_assert_int_eq(l.blunder, 150);
	ck_assert_uint_eq(l.seed, 5);
	ck_assert_int_eq(tg_search_level(&l, TG_LEVEL_MEDIUM, 1, 0, 0, 0), 0);
	ck_assert_int_eq(l.depth, 4);
	ck_assert_int_eq(l.noise, TG_SEARCH_SEED / 2);
	ck_assert_int_eq(tg_search_level(&l, TG_LEVEL_HARD, 1, 0, 0, 0), 0);
	ck_assert_uint_eq(l.nodes, 2000000);
	ck_assert_int_eq(l.depth, 0);
	ck_assert_int_eq(tg_search_level(&l, 3, 1, 0, 0, 0), -1);
	ck_assert_int_eq(l.depth, 0); /* untouched */
}
END_TEST

/* The ladder (issue 33) as docs/computer.md gives it: each step's depth,
 * node budget (0: none), spread and slips per mille; steps 2, 7 and 11 are
 * easy, medium and hard. */
static const struct {
	int depth;
	uint64_t nodes;
	int noise, blunder;
} ladder_want[TG_LADDER_LEVELS + 1] = {
	{0, 0, 0, 0},
	{1, 0, 8 * TG_SEARCH_SEED, 700},
	{1, 0, 3 * TG_SEARCH_SEED, 150},
	{2, 0, 8 * TG_SEARCH_SEED, 380},
	{2, 0, 5 * TG_SEARCH_SEED, 220},
	{2, 0, 5 * TG_SEARCH_SEED / 2, 120},
	{3, 0, 3 * TG_SEARCH_SEED / 2, 60},
	{4, 0, TG_SEARCH_SEED / 2, 0},
	{0, 1600, 0, 0},
	{0, 8000, 0, 0},
	{0, 80000, 0, 0},
	{0, 2000000, 0, 0},
};

static uint32_t fake_clock(void *ctx)
{
	static uint32_t t;

	(void)ctx;
	return t++;
}

static void assert_same_limits(const tg_search_limits *a, const tg_search_limits *b)
{
	ck_assert_int_eq(a->depth, b->depth);
	ck_assert_uint_eq(a->nodes, b->nodes);
	ck_assert_uint_eq(a->time_ms, b->time_ms);
	ck_assert_ptr_eq(a->clock, b->clock);
	ck_assert_int_eq(a->noise, b->noise);
	ck_assert_int_eq(a->blunder, b->blunder);
	ck_assert_uint_eq(a->seed, b->seed);
	ck_assert_ptr_eq(a->eval, b->eval);
}

START_TEST(test_ladder_levels)
{
	static const int legacy[][2] = {
		{TG_LADDER_EASY, TG_LEVEL_EASY},
		{TG_LADDER_MEDIUM, TG_LEVEL_MEDIUM},
		{TG_LADDER_HARD, TG_LEVEL_HARD},
	};
	tg_search_limits lim, old;

	ck_assert_int_eq(TG_LADDER_LEVELS, 11);
	ck_assert_int_eq(TG_LADDER_EASY, 2);
	ck_assert_int_eq(TG_LADDER_MEDIUM, 7);
	ck_assert_int_eq(TG_LADDER_HARD, 11);
	for (int n = 1; n <= TG_LADDER_LEVELS; n++) {
		ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER + n, 77, 0, 0, 0), 0);
		ck_assert_int_eq(lim.depth, ladder_want[n].depth);
		ck_assert_uint_eq(lim.nodes, ladder_want[n].nodes);
		ck_assert_int_eq(lim.noise, ladder_want[n].noise);
		ck_assert_int_eq(lim.blunder, ladder_want[n].blunder);
		ck_assert_uint_eq(lim.seed, 77);
		ck_assert_ptr_null(lim.eval);
		ck_assert(n == TG_LADDER_HARD || lim.depth > 0 || lim.nodes > 0);
	}
	for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++) {
		ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER + legacy[i][0], 5, 0, 0, 0), 0);
		ck_assert_int_eq(tg_search_level(&old, legacy[i][1], 5, 0, 0, 0), 0);
		assert_same_limits(&lim, &old);
		ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER + legacy[i][0], 5, fake_clock,
		                                 0, 1000), 0);
		ck_assert_int_eq(tg_search_level(&old, legacy[i][1], 5, fake_clock, 0, 1000), 0);
		assert_same_limits(&lim, &old);
	}
	ck_assert_uint_eq(lim.time_ms, 1000);
	ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER, 1, 0, 0, 0), -1);
	ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER + TG_LADDER_LEVELS + 1, 1, 0, 0, 0), -1);
}
END_TEST

/* b + b^2 + ... + b^k for every k up to d (b = 9): the most nodes a
 * search of the root's moves to depth d, every iteration from 1, visits. */
static uint64_t full_width(int d)
{
	uint64_t sum = 0, pow = 1, all = 0;

	for (int k = 1; k <= d; k++) {
		pow *= TG_ROW;
		sum += pow;
		all += sum;
	}
	return all;
}

/* Each step from random positions: deterministic for a seed and a cleared
 * table, within its depth and node budget; other seeds change some moves
 * of the steps with a spread. Hard from a few positions only. */
START_TEST(test_ladder_deterministic_and_bounded)
{
	int differ[TG_LADDER_LEVELS + 1] = {0}, tried[TG_LADDER_LEVELS + 1] = {0};

	for (int t = 0; t < 240; t++) {
		tg_game g = random_game((int)rnd(120));
		int n = 1 + t % TG_LADDER_LEVELS;
		tg_search_limits lim;
		tg_search_result a, b;
		uint64_t bound;

		if (g.end != OW_END_NONE || (n == TG_LADDER_HARD && tried[n] >= 2))
			continue;
		tried[n]++;
		ck_assert_int_eq(tg_search_level(&lim, TG_LEVEL_LADDER + n, (uint32_t)t, 0, 0, 0), 0);
		tg_tt_clear(tt, TT_N);
		ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &a), 0);
		tg_tt_clear(tt, TT_N);
		ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &b), 0);
		ck_assert_int_eq(a.move, b.move);
		ck_assert_int_eq(a.score, b.score);
		ck_assert_int_eq(a.depth, b.depth);
		ck_assert_uint_eq(a.nodes, b.nodes);
		ck_assert_int_eq(a.npv, b.npv);
		ck_assert_mem_eq(a.pv, b.pv, (size_t)a.npv);
		ck_assert(tg_legal_mask(&g.pos) >> a.move & 1);
		ck_assert_int_ge(a.depth, 1);
		if (lim.depth)
			ck_assert_int_le(a.depth, lim.depth);
		bound = lim.nodes ? lim.nodes : full_width(lim.depth);
		ck_assert_msg(a.nodes <= bound, "level %d: %llu nodes, budget %llu", n,
		              (unsigned long long)a.nodes, (unsigned long long)bound);
		if (lim.noise) {
			for (uint32_t seed = 1000; seed < 1006; seed++) {
				lim.seed = seed;
				tg_tt_clear(tt, TT_N);
				ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &b), 0);
				differ[n] += b.move != a.move;
			}
		}
	}
	for (int n = 1; n <= TG_LADDER_LEVELS; n++) {
		tg_search_limits lim;

		ck_assert_int_gt(tried[n], 0);
		tg_search_level(&lim, TG_LEVEL_LADDER + n, 1, 0, 0, 0);
		if (lim.noise)
			ck_assert_msg(differ[n] > 0, "level %d: the seed changes nothing", n);
	}
}
END_TEST

/* Depths 1 and 2 (below every reduction), with and without a table:
 * the value of a full minimax, and a move that reaches it. */
START_TEST(test_matches_minimax)
{
	for (int k = 0; k < 300; k++) {
		tg_game g = random_game((int)rnd(120));
		int depth = 1 + k % 2;
		tg_search_limits lim = {0};
		tg_search_result r;
		tg_game h = g;
		int want;

		if (g.end != OW_END_NONE)
			continue;
		lim.depth = depth;
		want = minimax(&g, depth, 0);
		tg_tt_clear(tt, TT_N);
		ck_assert_int_eq(tg_search(&g, &lim, k % 3 ? tt : 0, k % 3 ? TT_N : 0, &r), 0);
		ck_assert_int_eq(r.score, want);
		ck_assert_int_eq(r.depth, depth);
		ck_assert_int_eq(tg_game_play(&h, r.move, 0), 0);
		ck_assert_int_eq(h.end != OW_END_NONE ? want : -minimax(&h, depth - 1, 1), want);
	}
}
END_TEST

/* Deeper searches: always a legal move and a line of legal moves. */
START_TEST(test_legal_lines)
{
	for (int k = 0; k < 60; k++) {
		tg_game g = random_game((int)rnd(150));
		tg_search_limits lim = {0};
		tg_search_result r;
		tg_game h = g;

		if (g.end != OW_END_NONE)
			continue;
		lim.depth = 3 + k % 5;
		ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &r), 0);
		ck_assert_int_eq(r.pv[0], r.move);
		ck_assert_int_ge(r.npv, 1);
		for (int i = 0; i < r.npv && h.end == OW_END_NONE; i++)
			ck_assert_int_eq(tg_game_play(&h, r.pv[i], 0), 0);
		ck_assert_uint_gt(r.nodes, 0);
	}
}
END_TEST

static tg_game game_of(const int pits[TG_PITS], int south, int north, int tzs, int tzn, int turn)
{
	int cap[2] = {south, north}, tz[2] = {tzs, tzn};
	tg_pos p;
	tg_game g;

	ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, turn, 0), TG_OK);
	tg_game_from(&g, &p);
	ck_assert_int_eq(g.end, OW_END_NONE);
	return g;
}

/* White at 80 wins at once with its 9th (one seed onto Black's 1st, which
 * makes 2: captured, 82); every level sees it. */
START_TEST(test_takes_the_win)
{
	int pits[TG_PITS] = {0, 0, 4, 0, 0, 0, 0, 0, 1, 1, 0, 0, 5, 0, 0, 0, 0, 0};
	tg_game g = game_of(pits, 80, 71, 0, 0, OW_SOUTH);

	for (int lv = TG_LEVEL_EASY; lv <= TG_LEVEL_HARD; lv++) {
		tg_search_limits lim;
		tg_search_result r;

		for (uint32_t seed = 1; seed < 20; seed++) {
			ck_assert_int_eq(tg_search_level(&lim, lv, seed, 0, 0, 0), 0);
			lim.nodes = lim.nodes ? 20000 : 0;
			tg_tt_clear(tt, TT_N);
			ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &r), 0);
			ck_assert_int_eq(r.move, 8);
			ck_assert_int_eq(r.score, TG_SEARCH_WIN - 1);
		}
	}
}
END_TEST

START_TEST(test_deterministic_and_over)
{
	tg_game g = random_game(30);
	tg_search_limits lim = {0};
	tg_search_result a, b;
	tg_game over;
	int pits[TG_PITS] = {0};

	lim.nodes = 50000;
	tg_tt_clear(tt, TT_N);
	ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &a), 0);
	tg_tt_clear(tt, TT_N);
	ck_assert_int_eq(tg_search(&g, &lim, tt, TT_N, &b), 0);
	ck_assert_int_eq(a.move, b.move);
	ck_assert_int_eq(a.score, b.score);
	ck_assert_uint_eq(a.nodes, b.nodes);
	ck_assert_int_ge(a.depth, 5);
	pits[0] = 2;
	pits[4] = 30;
	over = game_of(pits, 60, 70, 0, 0, OW_SOUTH);
	ck_assert_int_eq(tg_game_play(&over, 0, 0), 0);
	ck_assert_int_ne(over.end, OW_END_NONE);
	ck_assert_int_eq(tg_search(&over, &lim, tt, TT_N, &a), TG_E_OVER);
}
END_TEST

/* Plays a game between two limits (a for South); returns the winner. */
static int match(const tg_search_limits *a, const tg_search_limits *b, int opening)
{
	tg_game g;

	tg_game_start(&g);
	ck_assert_int_eq(tg_game_play(&g, opening, 0), 0);
	tg_tt_clear(tt, TT_N);
	while (g.end == OW_END_NONE) {
		tg_search_result r;

		ck_assert_int_eq(tg_search(&g, g.pos.turn == OW_SOUTH ? a : b, tt, TT_N, &r), 0);
		ck_assert_int_eq(tg_game_play(&g, r.move, 0), 0);
		ck_assert_int_lt(g.ply, 1000);
	}
	return g.winner;
}

/* Medium beats easy, and hard (at a small node budget) beats medium, in
 * most of 18 games (each side, from each of the 9 first moves). */
START_TEST(test_levels_order)
{
	tg_search_limits easy, medium, hard;
	int won[2] = {0, 0};

	tg_search_level(&easy, TG_LEVEL_EASY, 7, 0, 0, 0);
	tg_search_level(&medium, TG_LEVEL_MEDIUM, 7, 0, 0, 0);
	tg_search_level(&hard, TG_LEVEL_HARD, 7, 0, 0, 0);
	hard.nodes = 20000;
	for (int k = 0; k < 18; k++) {
		int south = k % 2 == 0;

		easy.seed = medium.seed = (uint32_t)k + 1;
		won[0] += match(south ? &medium : &easy, south ? &easy : &medium, k / 2) ==
		          (south ? OW_WINNER_SOUTH : OW_WINNER_NORTH);
		won[1] += match(south ? &hard : &medium, south ? &medium : &hard, k / 2) ==
		          (south ? OW_WINNER_SOUTH : OW_WINNER_NORTH);
	}
	ck_assert_int_ge(won[0], 13);
	ck_assert_int_ge(won[1], 12);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("togyz_search");
	TCase *c = tcase_create("search");
	SRunner *sr;
	int failed;

	tcase_add_test(c, test_levels);
	tcase_add_test(c, test_matches_minimax);
	tcase_add_test(c, test_legal_lines);
	tcase_add_test(c, test_takes_the_win);
	tcase_add_test(c, test_deterministic_and_over);
	tcase_add_test(c, test_levels_order);
	tcase_add_test(c, test_ladder_levels);
	tcase_add_test(c, test_ladder_deterministic_and_bounded);
	tcase_set_timeout(c, 300);
	suite_add_tcase(s, c);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
