/* test_togyz.c: Check unit tests of the Togyz Kumalak engine
 * (engine/togyz.h) against docs/rules-togyz.md, its perft values and
 * the public game records of tests/data/togyz-games.txt. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/togyz.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

/* Pit of White's (south's) and Black's (north's) hole h. */
#define S(h) ((h) - 1)
#define N(h) (TG_ROW + (h) - 1)

/* A position from the 18 pits, South's score, the tuzdyks as hole numbers
 * (0 none) and the side to move; North's score takes what is left of 162. */
static tg_pos pos_of(const int pits[TG_PITS], int south, int tz_south, int tz_north, int turn)
{
	int cap[2] = {south, TG_SEEDS - south}, tz[2] = {tz_south, tz_north}, field = 99;
	tg_pos p;

	for (int i = 0; i < TG_PITS; i++)
		cap[1] -= pits[i];
	ck_assert_int_ge(cap[1], 0);
	ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, turn, &field), TG_OK);
	return p;
}

static tg_game game_of(const int pits[TG_PITS], int south, int tz_south, int tz_north, int turn)
{
	tg_pos p = pos_of(pits, south, tz_south, tz_north, turn);
	tg_game g;

	tg_game_from(&g, &p);
	return g;
}

static void assert_pits(const tg_pos *p, const int want[TG_PITS])
{
	for (int i = 0; i < TG_PITS; i++)
		ck_assert_msg(p->pits[i] == want[i], "pit %d (%s %d): %d, want %d", i,
		              i < TG_ROW ? "south" : "north", tg_hole_number(i), p->pits[i], want[i]);
}

static int total_seeds(const tg_pos *p)
{
	int n = p->captured[0] + p->captured[1];

	for (int i = 0; i < TG_PITS; i++)
		n += p->pits[i];
	return n;
}

static void assert_notation(const tg_move_info *info, const char *want)
{
	char buf[4];

	ck_assert_int_eq(tg_notation(info, buf), (int)strlen(want));
	ck_assert_str_eq(buf, want);
}

START_TEST(test_holes_and_notation)
{
	tg_move_info info;

	for (int h = 1; h <= TG_ROW; h++) {
		ck_assert_int_eq(tg_pit_of(OW_SOUTH, h), h - 1);
		ck_assert_int_eq(tg_pit_of(OW_NORTH, h), 8 + h);
		ck_assert_int_eq(tg_hole_number(h - 1), h);
		ck_assert_int_eq(tg_hole_number(8 + h), h);
	}
	ck_assert_int_eq(tg_pit_of(OW_SOUTH, 0), -1);
	ck_assert_int_eq(tg_pit_of(OW_NORTH, 10), -1);
	ck_assert_int_eq(tg_pit_of(2, 1), -1);
	ck_assert_int_eq(tg_pit_of(-1, 1), -1);
	ck_assert_int_eq(tg_hole_number(-1), 0);
	ck_assert_int_eq(tg_hole_number(TG_PITS), 0);
	memset(&info, 0, sizeof info);
	info.pit = S(7);
	info.last = N(6);
	assert_notation(&info, "76");
	info.tuzdyk = 1;
	assert_notation(&info, "76X");
}
END_TEST

START_TEST(test_start)
{
	tg_game g;

	tg_game_start(&g);
	for (int i = 0; i < TG_PITS; i++)
		ck_assert_int_eq(g.pos.pits[i], 9);
	ck_assert_int_eq(g.pos.captured[0] + g.pos.captured[1], 0);
	ck_assert_int_eq(g.pos.tuzdyk[0], TG_NONE);
	ck_assert_int_eq(g.pos.tuzdyk[1], TG_NONE);
	ck_assert_int_eq(g.pos.turn, OW_SOUTH);
	ck_assert_int_eq(g.pos.pad_, 0);
	ck_assert_int_eq(g.ply, 0);
	ck_assert_int_eq(g.end, OW_END_NONE);
	ck_assert_int_eq(g.winner, OW_NOBODY);
	ck_assert_uint_eq(tg_legal_mask(&g.pos), 0x1ffu);
	ck_assert_int_eq(sizeof(tg_pos), 24);
}
END_TEST

/* 9 seeds from White's 9th: one back into it, eight on; Black's 8th
 * becomes 10, even: captured. */
START_TEST(test_opening_hole_9)
{
	static const int want[TG_PITS] = {9, 9, 9, 9, 9, 9, 9, 9, 1, 10, 10, 10, 10, 10, 10, 10, 0, 9};
	tg_move_info info;
	tg_game g;

	tg_game_start(&g);
	ck_assert_int_eq(tg_game_play(&g, S(9), &info), TG_OK);
	assert_pits(&g.pos, want);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 10);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 0);
	ck_assert_int_eq(g.pos.turn, OW_NORTH);
	ck_assert_int_eq(g.ply, 1);
	ck_assert_int_eq(info.pit, S(9));
	ck_assert_int_eq(info.nsown, 9);
	for (int k = 0; k < 9; k++)
		ck_assert_int_eq(info.sown[k], S(9) + k);
	ck_assert_int_eq(info.last, N(8));
	ck_assert_int_eq(info.captured, N(8));
	ck_assert_int_eq(info.seeds, 10);
	ck_assert_int_eq(info.tuzdyk, 0);
	ck_assert_int_eq(info.to_tuzdyk[0] + info.to_tuzdyk[1], 0);
	assert_notation(&info, "98");
	/* Black may not sow its empty 8th. */
	ck_assert_uint_eq(tg_legal_mask(&g.pos), 0x3fe00u & ~(1u << N(8)));
}
END_TEST

START_TEST(test_single_seed_moves_on)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(3)] = 1;
	pits[S(4)] = 5;
	pits[N(1)] = 4;
	p = pos_of(pits, 40, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(3), &info);
	ck_assert_int_eq(p.pits[S(3)], 0);
	ck_assert_int_eq(p.pits[S(4)], 6); /* even, but White's own: no capture */
	ck_assert_int_eq(info.nsown, 1);
	ck_assert_int_eq(info.sown[0], S(4));
	ck_assert_int_eq(info.captured, TG_NONE);
	ck_assert_int_eq(p.captured[OW_SOUTH], 40);
	assert_notation(&info, "34");
}
END_TEST

START_TEST(test_single_seed_captures)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(9)] = 1;
	pits[N(1)] = 1;
	pits[N(5)] = 7;
	p = pos_of(pits, 40, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(9), &info);
	ck_assert_int_eq(p.pits[S(9)], 0);
	ck_assert_int_eq(p.pits[N(1)], 0);
	ck_assert_int_eq(p.captured[OW_SOUTH], 42);
	ck_assert_int_eq(info.captured, N(1));
	ck_assert_int_eq(info.seeds, 2);
	assert_notation(&info, "91");
}
END_TEST

/* 19 seeds: one lap of 18 from the origin (itself included), then the
 * origin again: laps never skip it. */
START_TEST(test_lap_of_19_ends_in_origin)
{
	int pits[TG_PITS], want[TG_PITS];
	tg_move_info info;
	tg_pos p;

	for (int i = 0; i < TG_PITS; i++)
		pits[i] = i == S(1) ? 19 : 5;
	p = pos_of(pits, 20, 0, 0, OW_SOUTH);
	for (int i = 0; i < TG_PITS; i++)
		want[i] = i == S(1) ? 2 : 6;
	tg_pos_sow(&p, S(1), &info);
	assert_pits(&p, want);
	ck_assert_int_eq(info.nsown, 19);
	ck_assert_int_eq(info.sown[0], S(1));
	ck_assert_int_eq(info.sown[17], N(9));
	ck_assert_int_eq(info.sown[18], S(1));
	ck_assert_int_eq(info.last, S(1));
	ck_assert_int_eq(info.captured, TG_NONE);
	assert_notation(&info, "11");
}
END_TEST

/* 20 seeds from White's 9th: a lap, then the 9th and Black's 1st again:
 * Black's 1st gets 2 (0 + 2), even: captured. */
START_TEST(test_lap_capture)
{
	int pits[TG_PITS];
	tg_move_info info;
	tg_pos p;

	for (int i = 0; i < TG_PITS; i++)
		pits[i] = 3;
	pits[S(9)] = 20;
	pits[N(1)] = 0;
	p = pos_of(pits, 40, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(9), &info);
	ck_assert_int_eq(p.pits[S(9)], 2);
	ck_assert_int_eq(p.pits[N(1)], 0);
	ck_assert_int_eq(p.pits[N(2)], 4);
	ck_assert_int_eq(p.captured[OW_SOUTH], 42);
	ck_assert_int_eq(info.last, N(1));
	ck_assert_int_eq(info.seeds, 2);
	assert_notation(&info, "91");
	ck_assert_int_eq(total_seeds(&p), TG_SEEDS);
}
END_TEST

START_TEST(test_capture_large_even)
{
	int pits[TG_PITS] = {0};
	tg_pos p;

	pits[S(6)] = 3; /* 6, 7, 8 */
	pits[S(8)] = 1;
	pits[S(1)] = 2;
	pits[N(2)] = 19;
	p = pos_of(pits, 10, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(6), NULL);
	ck_assert_int_eq(p.pits[S(8)], 2); /* own row: stays */
	ck_assert_int_eq(p.captured[OW_SOUTH], 10);
	pits[S(6)] = 5; /* 6 7 8 9, Black's 1st */
	pits[S(1)] = 0;
	pits[N(1)] = 19;
	pits[N(2)] = 0;
	p = pos_of(pits, 10, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(6), NULL);
	ck_assert_int_eq(p.pits[N(1)], 0);
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
}
END_TEST

START_TEST(test_odd_no_capture)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(9)] = 3; /* 9, Black's 1, Black's 2 */
	pits[N(2)] = 4;
	pits[N(5)] = 2;
	p = pos_of(pits, 30, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(9), &info);
	ck_assert_int_eq(p.pits[N(2)], 5);
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
	ck_assert_int_eq(info.captured, TG_NONE);
	ck_assert_int_eq(info.seeds, 0);
	assert_notation(&info, "92");
}
END_TEST

/* Black captures on White's row across the end of the circuit. */
START_TEST(test_north_captures_south)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[N(7)] = 5; /* Black 7 8 9, White 1 2 */
	pits[S(2)] = 3;
	pits[S(5)] = 1;
	p = pos_of(pits, 30, 0, 0, OW_NORTH);
	tg_pos_sow(&p, N(7), &info);
	ck_assert_int_eq(p.pits[S(1)], 1);
	ck_assert_int_eq(p.pits[S(2)], 0);
	ck_assert_int_eq(p.captured[OW_NORTH], TG_SEEDS - 30 - 9 + 4);
	ck_assert_int_eq(p.turn, OW_SOUTH);
	ck_assert_int_eq(info.captured, S(2));
	assert_notation(&info, "72");
}
END_TEST

/* The last seed makes 3 on the mover's own row: nothing. */
START_TEST(test_three_on_own_row_is_nothing)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(1)] = 3;
	pits[S(3)] = 2;
	pits[N(4)] = 6;
	p = pos_of(pits, 30, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(1), &info);
	ck_assert_int_eq(p.pits[S(3)], 3);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], TG_NONE);
	ck_assert_int_eq(info.tuzdyk, 0);
	ck_assert_int_eq(info.captured, TG_NONE);
}
END_TEST

START_TEST(test_tuzdyk_made)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_game g;

	pits[S(7)] = 4; /* 7 8 9, Black's 1st */
	pits[N(1)] = 2;
	pits[N(3)] = 5;
	g = game_of(pits, 75, 0, 0, OW_SOUTH);
	ck_assert_int_eq(tg_game_play(&g, S(7), &info), TG_OK);
	ck_assert_int_eq(g.pos.pits[N(1)], 0);
	ck_assert_int_eq(g.pos.tuzdyk[OW_SOUTH], N(1));
	ck_assert_int_eq(g.pos.tuzdyk[OW_NORTH], TG_NONE);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 78);
	ck_assert_int_eq(g.end, OW_END_NONE);
	ck_assert_int_eq(info.tuzdyk, 1);
	ck_assert_int_eq(info.captured, N(1));
	ck_assert_int_eq(info.seeds, 3);
	assert_notation(&info, "71X");
	/* Black may never sow it. */
	ck_assert_int_eq(tg_pos_check(&g.pos, N(1)), TG_E_TUZDYK);
}
END_TEST

START_TEST(test_tuzdyk_black_on_white_row)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[N(9)] = 3; /* Black 9, White 1, White 2 */
	pits[S(2)] = 2;
	pits[S(6)] = 4;
	p = pos_of(pits, 30, 0, 0, OW_NORTH);
	tg_pos_sow(&p, N(9), &info);
	ck_assert_int_eq(p.tuzdyk[OW_NORTH], S(2));
	ck_assert_int_eq(p.pits[S(2)], 0);
	assert_notation(&info, "92X");
	ck_assert_int_eq(tg_pos_check(&p, S(2)), TG_E_TUZDYK);
}
END_TEST

/* Hole 8 is the last that can become a tuzdyk. */
START_TEST(test_tuzdyk_on_eighth)
{
	int pits[TG_PITS] = {0};
	tg_pos p;

	pits[S(9)] = 9; /* 9, Black 1..8 */
	pits[N(8)] = 2;
	p = pos_of(pits, 30, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(9), NULL);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], N(8));
	ck_assert_int_eq(p.captured[OW_SOUTH], 33);
}
END_TEST

START_TEST(test_no_tuzdyk_on_ninth)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(9)] = 10; /* 9, Black 1..9 */
	pits[N(9)] = 2;
	p = pos_of(pits, 30, 0, 0, OW_SOUTH);
	tg_pos_sow(&p, S(9), &info);
	ck_assert_int_eq(p.pits[N(9)], 3);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], TG_NONE);
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
	ck_assert_int_eq(info.tuzdyk, 0);
	assert_notation(&info, "99");
	/* Nor White's 9th for Black. */
	memset(pits, 0, sizeof pits);
	pits[N(7)] = 12; /* Black 7 8 9, White 1..9 */
	pits[S(9)] = 2;
	p = pos_of(pits, 30, 0, 0, OW_NORTH);
	tg_pos_sow(&p, N(7), &info);
	ck_assert_int_eq(info.last, S(9));
	ck_assert_int_eq(p.pits[S(9)], 3);
	ck_assert_int_eq(p.tuzdyk[OW_NORTH], TG_NONE);
}
END_TEST

START_TEST(test_one_tuzdyk_each)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	/* White owns Black's 2nd already; a 3 on Black's 1st stays a 3. */
	pits[S(7)] = 4;
	pits[N(1)] = 2;
	pits[N(3)] = 5;
	p = pos_of(pits, 30, 2, 0, OW_SOUTH);
	tg_pos_sow(&p, S(7), &info);
	ck_assert_int_eq(p.pits[N(1)], 3);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], N(2));
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
	ck_assert_int_eq(info.tuzdyk, 0);
	ck_assert_int_eq(info.captured, TG_NONE);
	assert_notation(&info, "71");
}
END_TEST

START_TEST(test_no_twin_tuzdyk)
{
	int pits[TG_PITS] = {0};
	tg_pos p;

	/* Black owns White's 4th: White cannot take Black's 4th... */
	pits[S(9)] = 5; /* 9, Black 1..4 */
	pits[N(4)] = 2;
	pits[N(6)] = 3;
	p = pos_of(pits, 30, 0, 4, OW_SOUTH);
	tg_pos_sow(&p, S(9), NULL);
	ck_assert_int_eq(p.pits[N(4)], 3);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], TG_NONE);
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
	/* ... but Black's 5th, yes. */
	pits[S(9)] = 6;
	pits[N(4)] = 0;
	pits[N(5)] = 2;
	p = pos_of(pits, 30, 0, 4, OW_SOUTH);
	tg_pos_sow(&p, S(9), NULL);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], N(5));
	ck_assert_int_eq(p.captured[OW_SOUTH], 33);
}
END_TEST

/* A seed sown into a tuzdyk goes to its owner at once: the mover's own on
 * the opponent's row, and the opponent's on the mover's row. */
START_TEST(test_seeds_into_tuzdyks)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;
	int north;

	/* White owns Black's 2nd; White's 8th (5) sows 8 9, B1 B2 B3. */
	pits[S(8)] = 5;
	pits[N(3)] = 1;
	pits[N(6)] = 4;
	p = pos_of(pits, 30, 2, 0, OW_SOUTH);
	north = p.captured[OW_NORTH];
	tg_pos_sow(&p, S(8), &info);
	ck_assert_int_eq(p.pits[N(2)], 0);
	ck_assert_int_eq(info.to_tuzdyk[OW_SOUTH], 1);
	ck_assert_int_eq(info.to_tuzdyk[OW_NORTH], 0);
	ck_assert_int_eq(info.captured, N(3)); /* 1 + 1 = 2: captured too */
	ck_assert_int_eq(p.captured[OW_SOUTH], 30 + 1 + 2);
	ck_assert_int_eq(p.captured[OW_NORTH], north);

	/* Black owns White's 3rd; White's 1st (4) sows 1 2 3 4: the seed in
	 * the 3rd goes to Black. */
	memset(pits, 0, sizeof pits);
	pits[S(1)] = 4;
	pits[N(4)] = 6;
	p = pos_of(pits, 30, 0, 3, OW_SOUTH);
	north = p.captured[OW_NORTH];
	tg_pos_sow(&p, S(1), &info);
	ck_assert_int_eq(p.pits[S(3)], 0);
	ck_assert_int_eq(p.captured[OW_NORTH], north + 1);
	ck_assert_int_eq(p.captured[OW_SOUTH], 30);
	ck_assert_int_eq(info.to_tuzdyk[OW_NORTH], 1);
	ck_assert_int_eq(total_seeds(&p), TG_SEEDS);
}
END_TEST

/* The last seed into a tuzdyk goes to its owner; no capture, no tuzdyk. */
START_TEST(test_last_seed_into_tuzdyk)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;

	pits[S(8)] = 4; /* 8 9 B1 B2: B2 is White's */
	pits[N(5)] = 7;
	p = pos_of(pits, 30, 2, 0, OW_SOUTH);
	tg_pos_sow(&p, S(8), &info);
	ck_assert_int_eq(p.pits[N(2)], 0);
	ck_assert_int_eq(p.captured[OW_SOUTH], 31);
	ck_assert_int_eq(info.last, N(2));
	ck_assert_int_eq(info.captured, TG_NONE);
	ck_assert_int_eq(info.seeds, 0);
	assert_notation(&info, "82");
}
END_TEST

/* 40 seeds lap the board twice and more: each tuzdyk gets its seeds. */
START_TEST(test_laps_through_both_tuzdyks)
{
	int pits[TG_PITS] = {0};
	tg_move_info info;
	tg_pos p;
	int north;

	pits[S(5)] = 40; /* seeds 0..39 into S5 + k: laps 0-35, then S5 S6 S7 S8 */
	p = pos_of(pits, 30, 3, 7, OW_SOUTH);
	north = p.captured[OW_NORTH];
	tg_pos_sow(&p, S(5), &info);
	ck_assert_int_eq(info.to_tuzdyk[OW_SOUTH], 2); /* Black's 3rd */
	ck_assert_int_eq(info.to_tuzdyk[OW_NORTH], 3); /* White's 7th: twice, and the 4th lap */
	ck_assert_int_eq(p.pits[S(7)], 0);
	ck_assert_int_eq(p.pits[N(3)], 0);
	ck_assert_int_eq(p.pits[S(5)], 3);
	ck_assert_int_eq(p.pits[S(8)], 3);
	ck_assert_int_eq(p.pits[N(1)], 2);
	ck_assert_int_eq(info.last, S(8));
	ck_assert_int_eq(p.captured[OW_SOUTH], 32);
	ck_assert_int_eq(p.captured[OW_NORTH], north + 3);
	ck_assert_int_eq(total_seeds(&p), TG_SEEDS);
}
END_TEST

START_TEST(test_illegal_moves_change_nothing)
{
	int pits[TG_PITS] = {0};
	tg_game g, before;

	pits[S(1)] = 4;
	pits[S(2)] = 0;
	pits[N(4)] = 6;
	g = game_of(pits, 75, 0, 3, OW_SOUTH);
	ck_assert_int_eq(g.end, OW_END_NONE);
	before = g;
	ck_assert_int_eq(tg_game_play(&g, -1, NULL), TG_E_NOT_PIT);
	ck_assert_int_eq(tg_game_play(&g, TG_PITS, NULL), TG_E_NOT_PIT);
	ck_assert_int_eq(tg_game_play(&g, 1000, NULL), TG_E_NOT_PIT);
	ck_assert_int_eq(tg_game_play(&g, N(4), NULL), TG_E_NOT_YOURS);
	ck_assert_int_eq(tg_game_play(&g, S(2), NULL), TG_E_EMPTY);
	ck_assert_int_eq(tg_game_play(&g, S(3), NULL), TG_E_TUZDYK);
	ck_assert_int_eq(memcmp(&g, &before, sizeof g), 0);
	ck_assert_uint_eq(tg_legal_mask(&g.pos), 1u << S(1));
}
END_TEST

/* 82 ends the game at once; the board stays as it is. */
START_TEST(test_end_score_82)
{
	int pits[TG_PITS] = {0};
	tg_game g;

	pits[S(9)] = 1;
	pits[N(1)] = 1;
	pits[N(4)] = 5;
	pits[S(3)] = 4;
	g = game_of(pits, 80, 0, 0, OW_SOUTH);
	ck_assert_int_eq(g.end, OW_END_NONE);
	ck_assert_int_eq(tg_game_play(&g, S(9), NULL), TG_OK);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 82);
	ck_assert_int_eq(g.pos.pits[N(4)], 5);
	ck_assert_int_eq(g.pos.pits[S(3)], 4);
	ck_assert_int_eq(tg_game_play(&g, N(4), NULL), TG_E_OVER);
	ck_assert_uint_eq(tg_perft(&g, 1), 0);
}
END_TEST

/* 81-81 by a capture is a draw by score. */
START_TEST(test_end_81_81_by_capture)
{
	int pits[TG_PITS] = {0};
	tg_game g;

	pits[S(9)] = 1;
	pits[N(1)] = 1;
	g = game_of(pits, 79, 0, 0, OW_SOUTH);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 81);
	ck_assert_int_eq(g.end, OW_END_NONE);
	ck_assert_int_eq(tg_game_play(&g, S(9), NULL), TG_OK);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.winner, OW_DRAW);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 81);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 81);
}
END_TEST

/* Black is left without seeds: White collects its row, the board is
 * cleared, the scores decide. */
START_TEST(test_end_no_moves_collects)
{
	int pits[TG_PITS] = {0};
	tg_game g;

	pits[S(1)] = 2;
	pits[S(5)] = 30;
	g = game_of(pits, 60, 0, 0, OW_SOUTH);
	ck_assert_int_eq(tg_game_play(&g, S(1), NULL), TG_OK);
	ck_assert_int_eq(g.end, OW_END_NO_MOVES);
	ck_assert_int_eq(g.winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 92);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 70);
	for (int i = 0; i < TG_PITS; i++)
		ck_assert_int_eq(g.pos.pits[i], 0);
	ck_assert_int_eq(g.pos.turn, OW_NORTH);
	ck_assert_int_eq(g.ply, 1);
}
END_TEST

/* A given position without a move for the side to move is over: 81-81
 * after the collection is a draw; the tuzdyks' holes are empty. */
START_TEST(test_end_81_81_by_collection)
{
	int pits[TG_PITS] = {0};
	tg_game g;

	pits[S(2)] = 4;
	pits[S(8)] = 2;
	g = game_of(pits, 75, 3, 4, OW_NORTH);
	ck_assert_int_eq(g.end, OW_END_NO_MOVES);
	ck_assert_int_eq(g.winner, OW_DRAW);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 81);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 81);
	ck_assert_int_eq(g.pos.tuzdyk[OW_SOUTH], N(3));
	ck_assert_int_eq(g.pos.tuzdyk[OW_NORTH], S(4));
	for (int i = 0; i < TG_PITS; i++)
		ck_assert_int_eq(g.pos.pits[i], 0);
}
END_TEST

START_TEST(test_end_given_positions)
{
	int pits[TG_PITS] = {0};
	tg_game g;

	/* White to move with nothing: Black collects and wins. */
	pits[N(1)] = 20;
	pits[N(9)] = 20;
	g = game_of(pits, 50, 0, 0, OW_SOUTH);
	ck_assert_int_eq(g.end, OW_END_NO_MOVES);
	ck_assert_int_eq(g.winner, OW_WINNER_NORTH);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 112);
	ck_assert_int_eq(tg_game_play(&g, S(1), NULL), TG_E_OVER);
	/* 82 given: over by score, board kept. */
	memset(pits, 0, sizeof pits);
	pits[S(1)] = 10;
	pits[N(1)] = 10;
	g = game_of(pits, 60, 0, 0, OW_SOUTH);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 82);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.winner, OW_WINNER_NORTH);
	ck_assert_int_eq(g.pos.pits[S(1)], 10);
	/* 82 and no move: the score comes first, nothing collected. */
	memset(pits, 0, sizeof pits);
	pits[N(1)] = 10;
	g = game_of(pits, 82, 0, 0, OW_SOUTH);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.pos.pits[N(1)], 10);
}
END_TEST

START_TEST(test_position_validation)
{
	int pits[TG_PITS], cap[2] = {0, 0}, tz[2] = {0, 0}, field;
	tg_pos p, before;

	memset(&p, 0x5a, sizeof p);
	before = p;
#define REFUSED(code, want_field) do { \
		field = 1234; \
		ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, OW_SOUTH, &field), code); \
		ck_assert_int_eq(field, want_field); \
		ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, OW_SOUTH, NULL), code); \
		ck_assert_int_eq(memcmp(&p, &before, sizeof p), 0); \
	} while (0)
#define RESET() do { \
		for (int i_ = 0; i_ < TG_PITS; i_++) \
			pits[i_] = 9; \
		cap[0] = cap[1] = 0; \
		tz[0] = tz[1] = 0; \
	} while (0)

	RESET();
	pits[3] = -1;
	pits[4] = 19;
	REFUSED(TG_E_NEGATIVE, 3);
	RESET();
	pits[0] = 163;
	REFUSED(TG_E_SUM, 0);
	RESET();
	cap[1] = -1;
	pits[0] = 10;
	REFUSED(TG_E_NEGATIVE, 19);
	RESET();
	cap[0] = 200;
	REFUSED(TG_E_SUM, 18);
	RESET();
	pits[17] = 8;
	REFUSED(TG_E_SUM, -1);
	RESET();
	pits[9] = 0;
	cap[0] = 9;
	tz[0] = 9; /* Black's 9th */
	REFUSED(TG_E_TUZDYK_HOLE, 20);
	tz[0] = -1;
	REFUSED(TG_E_TUZDYK_HOLE, 20);
	tz[0] = 10;
	REFUSED(TG_E_TUZDYK_HOLE, 20);
	tz[0] = 0;
	tz[1] = 9;
	REFUSED(TG_E_TUZDYK_HOLE, 21);
	RESET();
	pits[S(4)] = 0;
	pits[N(4)] = 0;
	cap[0] = 9;
	cap[1] = 9;
	tz[0] = 4;
	tz[1] = 4;
	REFUSED(TG_E_TUZDYK_TWIN, 21);
	tz[1] = 5; /* White's 5th holds 9 */
	REFUSED(TG_E_TUZDYK_SEEDS, 21);
	tz[0] = 3; /* Black's 3rd holds 9, checked first */
	REFUSED(TG_E_TUZDYK_SEEDS, 20);
	RESET();
	ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, 2, &field), TG_E_TURN);
	ck_assert_int_eq(field, 22);
	ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, -1, &field), TG_E_TURN);
	ck_assert_int_eq(memcmp(&p, &before, sizeof p), 0);

	/* Accepted: the tuzdyks become pits on the opponent's row. */
	pits[S(2)] = 0;
	pits[N(3)] = 0;
	cap[0] = 18;
	tz[0] = 3;
	tz[1] = 2;
	ck_assert_int_eq(tg_pos_set(&p, pits, cap, tz, OW_NORTH, &field), TG_OK);
	ck_assert_int_eq(p.tuzdyk[OW_SOUTH], N(3));
	ck_assert_int_eq(p.tuzdyk[OW_NORTH], S(2));
	ck_assert_int_eq(p.captured[OW_SOUTH], 18);
	ck_assert_int_eq(p.turn, OW_NORTH);
	ck_assert_int_eq(p.pad_, 0);
#undef REFUSED
#undef RESET
}
END_TEST

START_TEST(test_strerror)
{
	static const int codes[] = {TG_E_NOT_PIT, TG_E_NOT_YOURS, TG_E_EMPTY, TG_E_TUZDYK,
	                            TG_E_OVER, TG_E_NEGATIVE, TG_E_SUM, TG_E_TURN,
	                            TG_E_TUZDYK_HOLE, TG_E_TUZDYK_TWIN, TG_E_TUZDYK_SEEDS};
	int n = (int)(sizeof codes / sizeof codes[0]);

	ck_assert_str_eq(tg_strerror(TG_OK), "");
	ck_assert_str_eq(tg_strerror(-99), "unknown error");
	for (int i = 0; i < n; i++) {
		ck_assert_int_gt((int)strlen(tg_strerror(codes[i])), 0);
		ck_assert_str_ne(tg_strerror(codes[i]), "unknown error");
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(tg_strerror(codes[i]), tg_strerror(codes[j]));
	}
}
END_TEST

START_TEST(test_perft_table)
{
	FILE *f = fopen(DATA_DIR "/togyz-perft.txt", "r");
	char line[128];
	int checked = 0;
	tg_game g;

	ck_assert_ptr_nonnull(f);
	tg_game_start(&g);
	while (fgets(line, sizeof line, f)) {
		int d;
		unsigned long long want;

		if (line[0] == '#' || sscanf(line, "%d %llu", &d, &want) != 2 || d > 7)
			continue;
		ck_assert_msg(tg_perft(&g, d) == want, "perft %d", d);
		checked++;
	}
	fclose(f);
	ck_assert_int_eq(checked, 7);
	ck_assert_uint_eq(tg_perft(&g, 0), 1);
	ck_assert_uint_eq(tg_perft(&g, -1), 0);
	ck_assert_uint_eq(tg_perft(&g, 65), 0);
}
END_TEST

/* perft equals counting by tg_game_play, which has its own end checks. */
static uint64_t perft_by_play(const tg_game *g, int depth)
{
	uint64_t n = 0;

	if (depth == 0)
		return 1;
	if (g->end)
		return 0;
	for (int pit = 0; pit < TG_PITS; pit++) {
		tg_game c = *g;

		if (tg_game_play(&c, pit, NULL) == TG_OK)
			n += perft_by_play(&c, depth - 1);
	}
	return n;
}

/* A small deterministic generator for the random games. */
static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Random games from the start: every invariant of the rules after every
 * move, and perft against play along the way. */
START_TEST(test_random_games_invariants)
{
	int ends[5] = {0}, tuzdyks = 0;

	for (int game = 0; game < 300; game++) {
		tg_game g;

		tg_game_start(&g);
		while (g.end == OW_END_NONE) {
			uint32_t mask = tg_legal_mask(&g.pos);
			int n = __builtin_popcount(mask), k = (int)(next_rand() % (uint32_t)n), pit = 0;
			tg_game before = g;
			tg_move_info info;

			for (uint32_t m = mask;; m &= m - 1)
				if (k-- == 0) {
					pit = __builtin_ctz(m);
					break;
				}
			if (game % 50 == 0 && g.ply % 16 == 0)
				ck_assert_uint_eq(tg_perft(&g, 3), perft_by_play(&g, 3));
			ck_assert_int_eq(tg_game_play(&g, pit, &info), TG_OK);
			ck_assert_int_eq(total_seeds(&g.pos), TG_SEEDS);
			ck_assert_int_ge(g.pos.captured[0], before.pos.captured[0]);
			ck_assert_int_ge(g.pos.captured[1], before.pos.captured[1]);
			for (int s = 0; s < 2; s++) {
				int t = g.pos.tuzdyk[s];

				if (before.pos.tuzdyk[s] != TG_NONE)
					ck_assert_int_eq(t, before.pos.tuzdyk[s]);
				if (t == TG_NONE)
					continue;
				ck_assert_int_eq(t / TG_ROW, 1 - s);
				ck_assert_int_ne(t % TG_ROW, TG_ROW - 1);
				ck_assert_int_eq(g.pos.pits[t], 0);
			}
			if (g.pos.tuzdyk[0] != TG_NONE && g.pos.tuzdyk[1] != TG_NONE)
				ck_assert_int_ne(g.pos.tuzdyk[0] % TG_ROW, g.pos.tuzdyk[1] % TG_ROW);
			tuzdyks += info.tuzdyk;
			ck_assert_int_eq(info.nsown, before.pos.pits[pit]);
			ck_assert_int_eq(info.sown[info.nsown - 1], info.last);
		}
		ck_assert_int_ne(g.winner, OW_NOBODY);
		ends[g.end]++;
	}
	/* Both ways to end occur, and tuzdyks are made. */
	ck_assert_int_gt(ends[OW_END_SCORE], 100);
	ck_assert_int_gt(ends[OW_END_NO_MOVES], 10);
	ck_assert_int_eq(ends[OW_END_NO_MOVES] + ends[OW_END_SCORE], 300);
	ck_assert_int_gt(tuzdyks, 300);
}
END_TEST

/* One record of togyz-games.txt being replayed. */
struct record {
	char name[80];
	int xmarks;
	int nmoves;
	char moves[400][4];
	tg_game g;
	int ply;
	int checks;
};

/* Plays every move of r, checking notation; stops at ply stop. */
static void replay_to(struct record *r, int stop)
{
	for (; r->ply < stop; r->ply++) {
		const char *t = r->moves[r->ply];
		int hole = t[0] - '0', pit = tg_pit_of(r->g.pos.turn, hole), rc;
		tg_move_info info;
		char buf[4];

		ck_assert_msg(r->ply < r->nmoves, "%s: only %d moves", r->name, r->nmoves);
		rc = tg_game_play(&r->g, pit, &info);
		ck_assert_msg(rc == TG_OK, "%s ply %d (%s): %s", r->name, r->ply + 1, t, tg_strerror(rc));
		tg_notation(&info, buf);
		if (t[1])
			ck_assert_msg(t[1] == buf[1], "%s ply %d: record %s, engine %s", r->name, r->ply + 1, t, buf);
		if (t[1] && r->xmarks)
			ck_assert_msg((t[2] == 'X') == info.tuzdyk, "%s ply %d: record %s, engine %s",
			              r->name, r->ply + 1, t, buf);
		if (r->ply + 1 < r->nmoves)
			ck_assert_msg(r->g.end == OW_END_NONE, "%s: over after ply %d", r->name, r->ply + 1);
	}
}

static int tz_number(int pit)
{
	return pit == TG_NONE ? 0 : tg_hole_number(pit);
}

START_TEST(test_public_records)
{
	FILE *f = fopen(DATA_DIR "/togyz-games.txt", "r");
	static struct record r;
	char line[1024];
	int games = 0, checks = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		char word[16], rest[1000];
		int n = 0, v[24];

		if (line[0] == '#' || sscanf(line, "%15s%n", word, &n) != 1)
			continue;
		snprintf(rest, sizeof rest, "%s", line + n);
		if (!strcmp(word, "game")) {
			memset(&r, 0, sizeof r);
			sscanf(rest, "%79s", r.name);
			tg_game_start(&r.g);
		} else if (!strcmp(word, "xmarks")) {
			r.xmarks = strstr(rest, "yes") != NULL;
		} else if (!strcmp(word, "moves")) {
			char *save = NULL;

			for (char *t = strtok_r(rest, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
				ck_assert_int_lt(r.nmoves, 400);
				ck_assert_int_le((int)strlen(t), 3);
				snprintf(r.moves[r.nmoves++], 4, "%s", t);
			}
		} else if (!strcmp(word, "after")) {
			ck_assert_int_eq(sscanf(rest, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
			                        &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			                        &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16],
			                        &v[17], &v[18], &v[19], &v[20], &v[21], &v[22]), 23);
			replay_to(&r, v[0]);
			for (int i = 0; i < TG_PITS; i++)
				ck_assert_msg(r.g.pos.pits[i] == v[1 + i], "%s after %d: pit %d is %d, want %d",
				              r.name, v[0], i, r.g.pos.pits[i], v[1 + i]);
			ck_assert_msg(r.g.pos.captured[0] == v[19] && r.g.pos.captured[1] == v[20],
			              "%s after %d: score %d-%d", r.name, v[0], r.g.pos.captured[0], r.g.pos.captured[1]);
			ck_assert_msg(tz_number(r.g.pos.tuzdyk[0]) == v[21] && tz_number(r.g.pos.tuzdyk[1]) == v[22],
			              "%s after %d: tuzdyks", r.name, v[0]);
			r.checks++;
		} else if (!strcmp(word, "pit")) {
			char side[8];

			ck_assert_int_eq(sscanf(rest, "%d %7s %d %d", &v[0], side, &v[1], &v[2]), 4);
			replay_to(&r, v[0]);
			ck_assert_msg(r.g.pos.pits[tg_pit_of(strcmp(side, "south") ? OW_NORTH : OW_SOUTH, v[1])] == v[2],
			              "%s after %d: %s %d", r.name, v[0], side, v[1]);
			r.checks++;
		} else if (!strcmp(word, "score")) {
			ck_assert_int_eq(sscanf(rest, "%d %d %d", &v[0], &v[1], &v[2]), 3);
			replay_to(&r, v[0]);
			ck_assert_msg(r.g.pos.captured[0] == v[1] && r.g.pos.captured[1] == v[2],
			              "%s after %d: score %d-%d", r.name, v[0], r.g.pos.captured[0], r.g.pos.captured[1]);
			r.checks++;
		} else if (!strcmp(word, "tuzdyks")) {
			ck_assert_int_eq(sscanf(rest, "%d %d %d", &v[0], &v[1], &v[2]), 3);
			replay_to(&r, v[0]);
			ck_assert_msg(tz_number(r.g.pos.tuzdyk[0]) == v[1] && tz_number(r.g.pos.tuzdyk[1]) == v[2],
			              "%s after %d: tuzdyks", r.name, v[0]);
			r.checks++;
		} else if (!strcmp(word, "result")) {
			char who[16], why[16];

			replay_to(&r, r.nmoves);
			if (sscanf(rest, "%15s %15s %d %d", who, why, &v[0], &v[1]) == 4) {
				ck_assert_int_eq(r.g.end, strcmp(why, "score") ? OW_END_NO_MOVES : OW_END_SCORE);
				ck_assert_int_eq(r.g.winner, !strcmp(who, "south") ? OW_WINNER_SOUTH
				                              : !strcmp(who, "north") ? OW_WINNER_NORTH : OW_DRAW);
				ck_assert_int_eq(r.g.pos.captured[0], v[0]);
				ck_assert_int_eq(r.g.pos.captured[1], v[1]);
			} else {
				ck_assert_str_eq(who, "none");
				ck_assert_msg(r.g.end == OW_END_NONE, "%s: over", r.name);
			}
			r.checks++;
		} else if (!strcmp(word, "end")) {
			ck_assert_int_eq(r.ply, r.nmoves);
			ck_assert_int_gt(r.checks, 0);
			checks += r.checks;
			games++;
		}
	}
	fclose(f);
	ck_assert_int_eq(games, 5);
	ck_assert_int_gt(checks, 140);
}
END_TEST

static Suite *togyz_suite(void)
{
	Suite *s = suite_create("togyz");
	TCase *rules = tcase_create("rules");
	TCase *ends = tcase_create("ends");
	TCase *input = tcase_create("input");
	TCase *bulk = tcase_create("bulk");

	tcase_add_test(rules, test_start);
	tcase_add_test(rules, test_opening_hole_9);
	tcase_add_test(rules, test_single_seed_moves_on);
	tcase_add_test(rules, test_single_seed_captures);
	tcase_add_test(rules, test_lap_of_19_ends_in_origin);
	tcase_add_test(rules, test_lap_capture);
	tcase_add_test(rules, test_capture_large_even);
	tcase_add_test(rules, test_odd_no_capture);
	tcase_add_test(rules, test_north_captures_south);
	tcase_add_test(rules, test_three_on_own_row_is_nothing);
	tcase_add_test(rules, test_tuzdyk_made);
	tcase_add_test(rules, test_tuzdyk_black_on_white_row);
	tcase_add_test(rules, test_tuzdyk_on_eighth);
	tcase_add_test(rules, test_no_tuzdyk_on_ninth);
	tcase_add_test(rules, test_one_tuzdyk_each);
	tcase_add_test(rules, test_no_twin_tuzdyk);
	tcase_add_test(rules, test_seeds_into_tuzdyks);
	tcase_add_test(rules, test_last_seed_into_tuzdyk);
	tcase_add_test(rules, test_laps_through_both_tuzdyks);
	tcase_add_test(ends, test_end_score_82);
	tcase_add_test(ends, test_end_81_81_by_capture);
	tcase_add_test(ends, test_end_no_moves_collects);
	tcase_add_test(ends, test_end_81_81_by_collection);
	tcase_add_test(ends, test_end_given_positions);
	tcase_add_test(input, test_holes_and_notation);
	tcase_add_test(input, test_illegal_moves_change_nothing);
	tcase_add_test(input, test_position_validation);
	tcase_add_test(input, test_strerror);
	tcase_add_test(bulk, test_perft_table);
	tcase_add_test(bulk, test_public_records);
	tcase_add_test(bulk, test_random_games_invariants);
	tcase_set_timeout(bulk, 300);
	suite_add_tcase(s, rules);
	suite_add_tcase(s, ends);
	suite_add_tcase(s, input);
	suite_add_tcase(s, bulk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(togyz_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
