/* test_engine.c: Check unit tests of the rules engine against
 * docs/rules-oware.md. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oware.h"
#include "engine/oware_internal.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

/* Builds a position from pits a..f A..F, scores and the side to move. */
static ow_pos pos_of(const int pits[OW_PITS], int south, int north, int turn)
{
	ow_pos p;
	int cap[2] = {south, north}, field = 99;

	ck_assert_int_eq(ow_pos_set(&p, pits, cap, turn, &field), OW_OK);
	return p;
}

static void assert_pits(const ow_pos *p, const int want[OW_PITS])
{
	for (int i = 0; i < OW_PITS; i++)
		ck_assert_msg(p->pits[i] == want[i], "pit %c: %d, want %d",
		              ow_pit_letter(i), p->pits[i], want[i]);
}

static int seeds_on_board(const ow_pos *p)
{
	int n = 0;

	for (int i = 0; i < OW_PITS; i++)
		n += p->pits[i];
	return n;
}

START_TEST(test_notation)
{
	const char *letters = "abcdefABCDEF";

	for (int i = 0; i < OW_PITS; i++) {
		ck_assert_int_eq(ow_pit_parse(letters[i]), i);
		ck_assert_int_eq(ow_pit_letter(i), letters[i]);
	}
	ck_assert_int_eq(ow_pit_parse('g'), -1);
	ck_assert_int_eq(ow_pit_parse('G'), -1);
	ck_assert_int_eq(ow_pit_parse('`'), -1);
	ck_assert_int_eq(ow_pit_parse('@'), -1);
	ck_assert_int_eq(ow_pit_parse('1'), -1);
	ck_assert_int_eq(ow_pit_parse(0), -1);
	ck_assert_int_eq(ow_pit_parse(-1), -1);
	ck_assert_int_eq(ow_pit_parse(256 + 'a'), -1);
	ck_assert_int_eq(ow_pit_letter(-1), '?');
	ck_assert_int_eq(ow_pit_letter(12), '?');
}
END_TEST

START_TEST(test_opening_a)
{
	static const int want[OW_PITS] = {0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4};
	ow_move_info info;
	ow_game g;

	ow_game_start(&g);
	ck_assert_int_eq(ow_game_play(&g, 0, &info), OW_OK);
	assert_pits(&g.pos, want);
	ck_assert_int_eq(g.pos.turn, OW_NORTH);
	ck_assert_int_eq(g.pos.captured[0] + g.pos.captured[1], 0);
	ck_assert_int_eq(info.nsown, 4);
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(info.sown[k], 1 + k);
	ck_assert_int_eq(info.ncaptured, 0);
	ck_assert_int_eq(g.end, OW_END_NONE);
	ck_assert_int_eq(g.winner, OW_NOBODY);
	ck_assert_uint_eq(ow_legal_mask(&g.pos), 0xfc0u);
}
END_TEST

/* docs/rules-oware.md: last seed leaves 2, the pit before holds 3, the one
 * before 4. */
START_TEST(test_capture_chain)
{
	/* South sows e (2 seeds): f, then A. B C D E F hold some seeds. */
	static const int pits[OW_PITS] = {0, 0, 0, 0, 2, 0, 1, 3, 3, 1, 4, 1};
	static const int want[OW_PITS] = {0, 0, 0, 0, 0, 1, 2, 3, 3, 1, 4, 1};
	ow_pos p = pos_of(pits, 20, 13, OW_SOUTH);
	ow_move_info info;

	/* e sows f and A: A becomes 2, the chain backwards reaches f (own). */
	ow_pos_sow(&p, 4, &info);
	ck_assert_int_eq(info.ncaptured, 1);
	ck_assert_int_eq(info.captured[0], 6);
	ck_assert_int_eq(p.captured[OW_SOUTH], 22);
	{
		int w[OW_PITS];

		memcpy(w, want, sizeof w);
		w[6] = 0;
		assert_pits(&p, w);
	}
}
END_TEST

START_TEST(test_capture_chain_stops_at_four)
{
	/* South's f (4 seeds) sows A B C D: D gets 2 (1+1), C 3 (2+1), B 4 (3+1). */
	static const int pits[OW_PITS] = {4, 4, 0, 0, 0, 4, 0, 3, 2, 1, 5, 5};
	ow_pos p = pos_of(pits, 10, 10, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 5, &info);
	ck_assert_int_eq(info.nsown, 4);
	ck_assert_int_eq(info.seeds, 5);
	ck_assert_int_eq(info.ncaptured, 2);
	ck_assert_int_eq(info.captured[0], 9); /* D: 2 */
	ck_assert_int_eq(info.captured[1], 8); /* C: 3 */
	ck_assert_int_eq(p.pits[7], 4);        /* B stays */
	ck_assert_int_eq(p.pits[8], 0);
	ck_assert_int_eq(p.pits[9], 0);
	ck_assert_int_eq(p.captured[OW_SOUTH], 15);
	ck_assert_int_eq(p.captured[OW_NORTH], 10);
	ck_assert_int_eq(info.grand_slam, 0);
}
END_TEST

START_TEST(test_no_capture_in_own_row)
{
	/* North's F (2 seeds) sows a b: b gets 2 -> captured (South's row).
	 * South's d (2 seeds) sows e f: f becomes 3 in its own row: no capture. */
	static const int pits[OW_PITS] = {5, 1, 5, 2, 0, 2, 5, 5, 5, 5, 5, 4};
	ow_pos p = pos_of(pits, 2, 2, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 3, &info);
	ck_assert_int_eq(info.ncaptured, 0);
	ck_assert_int_eq(p.pits[5], 3);
	ck_assert_int_eq(p.captured[OW_SOUTH], 2);
}
END_TEST

START_TEST(test_north_captures_south)
{
	static const int pits[OW_PITS] = {1, 2, 5, 5, 5, 5, 5, 5, 5, 1, 0, 2};
	ow_pos p = pos_of(pits, 5, 2, OW_NORTH);
	ow_move_info info;

	/* F (index 11, 2 seeds) sows a, b: a = 2, b = 3: last is b, chain b, a. */
	ow_pos_sow(&p, 11, &info);
	ck_assert_int_eq(info.seeds, 5);
	ck_assert_int_eq(info.ncaptured, 2);
	ck_assert_int_eq(info.captured[0], 1);
	ck_assert_int_eq(info.captured[1], 0);
	ck_assert_int_eq(p.captured[OW_NORTH], 7);
	ck_assert_int_eq(p.turn, OW_SOUTH);
}
END_TEST

START_TEST(test_grand_slam_annulled)
{
	/* North's row holds only A = 1 and B = 2; South's e (2) sows f, A:
	 * A = 2 but B = 2 too is not in the chain (B is after A)... so use f. */
	static const int pits[OW_PITS] = {10, 10, 10, 5, 2, 1, 1, 0, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 5, 4, OW_SOUTH);
	ow_move_info info;
	ow_game g;

	ow_game_from(&g, &p);
	ck_assert_int_eq(ow_game_play(&g, 5, &info), OW_OK); /* f -> A = 2: whole row */
	ck_assert_int_eq(info.grand_slam, 1);
	ck_assert_int_eq(info.ncaptured, 0);
	ck_assert_int_eq(info.seeds, 0);
	ck_assert_int_eq(g.pos.pits[6], 2);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 5);
	ck_assert_int_eq(g.quiet, 1);
	ck_assert_int_eq(g.end, OW_END_NONE);
}
END_TEST

START_TEST(test_grand_slam_chain_of_two)
{
	/* North: A = 1, B = 2, rest 0. South's e (3) sows f A B: A = 2, B = 3:
	 * the chain takes B and A = the whole row: annulled. */
	static const int pits[OW_PITS] = {10, 10, 10, 5, 3, 0, 1, 2, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 4, 3, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 4, &info);
	ck_assert_int_eq(info.grand_slam, 1);
	ck_assert_int_eq(p.pits[6], 2);
	ck_assert_int_eq(p.pits[7], 3);
	ck_assert_int_eq(p.captured[OW_SOUTH], 4);
}
END_TEST

START_TEST(test_capture_not_grand_slam_when_seeds_remain)
{
	/* As above but F holds 1: that seed stays, so the capture stands. */
	static const int pits[OW_PITS] = {10, 10, 10, 5, 3, 0, 1, 2, 0, 0, 0, 1};
	ow_pos p = pos_of(pits, 4, 2, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 4, &info);
	ck_assert_int_eq(info.grand_slam, 0);
	ck_assert_int_eq(info.seeds, 5);
	ck_assert_int_eq(p.captured[OW_SOUTH], 9);
	ck_assert_int_eq(p.pits[11], 1);
}
END_TEST

START_TEST(test_lap_of_12)
{
	/* a holds 12: b..F get one each (11), a is skipped, b gets the 12th. */
	static const int pits[OW_PITS] = {12, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6};
	static const int want[OW_PITS] = {0, 2, 1, 1, 1, 1, 7, 7, 7, 7, 7, 7};
	ow_pos p = pos_of(pits, 0, 0, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 0, &info);
	assert_pits(&p, want);
	ck_assert_int_eq(info.nsown, 12);
	ck_assert_int_eq(info.sown[10], 11);
	ck_assert_int_eq(info.sown[11], 1);
	for (int k = 0; k < 12; k++)
		ck_assert_int_ne(info.sown[k], 0);
}
END_TEST

START_TEST(test_lap_of_23)
{
	/* c holds 23: two laps of 11 (c skipped both times), then d. The last
	 * seed lands in South's own row: no capture. */
	static const int pits[OW_PITS] = {0, 0, 23, 0, 0, 0, 1, 1, 1, 1, 1, 1};
	static const int want[OW_PITS] = {2, 2, 0, 3, 2, 2, 3, 3, 3, 3, 3, 3};
	ow_pos p = pos_of(pits, 10, 9, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 2, &info);
	assert_pits(&p, want);
	ck_assert_int_eq(info.nsown, 23);
	ck_assert_int_eq(info.sown[22], 3);
	ck_assert_int_eq(info.ncaptured, 0);
	ck_assert_int_eq(p.captured[OW_SOUTH], 10);
}
END_TEST

START_TEST(test_lap_capture)
{
	/* f holds 14: A..F, a..e (11), skip f, A B C: A gets 2, B 2, C 2 on top
	 * of 0, 0, 1 -> A 2, B 2, C 3: C, B, A captured (D holds more). */
	static const int pits[OW_PITS] = {0, 0, 0, 0, 0, 14, 0, 0, 1, 5, 5, 5};
	ow_pos p = pos_of(pits, 10, 8, OW_SOUTH);
	ow_move_info info;

	ow_pos_sow(&p, 5, &info);
	ck_assert_int_eq(info.nsown, 14);
	ck_assert_int_eq(info.sown[13], 8);
	ck_assert_int_eq(info.ncaptured, 3);
	ck_assert_int_eq(info.seeds, 7);
	ck_assert_int_eq(p.captured[OW_SOUTH], 17);
	ck_assert_int_eq(p.pits[5], 0);
}
END_TEST

START_TEST(test_feeding_required)
{
	/* North's row is empty: only moves that reach it are legal. a (1 seed)
	 * does not, e (2) does (needs 6 - 4 = 2), f (1) does. */
	static const int pits[OW_PITS] = {1, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 20, 24, OW_SOUTH);
	ow_game g;

	ck_assert_uint_eq(ow_legal_mask(&p), (1u << 4) | (1u << 5));
	ck_assert_int_eq(ow_pos_check(&p, 0), OW_E_MUST_FEED);
	ck_assert_int_eq(ow_pos_check(&p, 4), OW_OK);
	ow_game_from(&g, &p);
	ck_assert_int_eq(ow_game_play(&g, 0, NULL), OW_E_MUST_FEED);
	ck_assert_int_eq(g.ply, 0);
	ck_assert_int_eq(ow_game_play(&g, 4, NULL), OW_OK);
	ck_assert_int_eq(g.pos.pits[6], 1);
}
END_TEST

START_TEST(test_feeding_north)
{
	/* South's row empty; North's B (index 7) needs 12 - 7 = 5 seeds. */
	static const int pits[OW_PITS] = {0, 0, 0, 0, 0, 0, 3, 5, 3, 0, 0, 1};
	ow_pos p = pos_of(pits, 20, 16, OW_NORTH);

	ck_assert_uint_eq(ow_legal_mask(&p), (1u << 7) | (1u << 11));
	ck_assert_int_eq(ow_pos_check(&p, 6), OW_E_MUST_FEED);
	ck_assert_int_eq(ow_pos_check(&p, 8), OW_E_MUST_FEED);
}
END_TEST

START_TEST(test_feeding_impossible_ends)
{
	/* South cannot feed: the game ends at once, each side takes its row. */
	static const int pits[OW_PITS] = {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 20, 25, OW_SOUTH);
	ow_game g;

	ow_game_from(&g, &p);
	ck_assert_int_eq(g.end, OW_END_SCORE); /* 25 already: score comes first */

	{
		static const int pits2[OW_PITS] = {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
		ow_pos q = pos_of(pits2, 21, 24, OW_SOUTH);

		ow_game_from(&g, &q);
		ck_assert_int_eq(g.end, OW_END_NO_MOVES);
		ck_assert_int_eq(g.pos.captured[OW_SOUTH], 24);
		ck_assert_int_eq(g.pos.captured[OW_NORTH], 24);
		ck_assert_int_eq(g.winner, OW_DRAW);
		ck_assert_int_eq(seeds_on_board(&g.pos), 0);
		ck_assert_int_eq(ow_game_play(&g, 1, NULL), OW_E_OVER);
	}
}
END_TEST

START_TEST(test_end_score)
{
	/* South's f (1) lands in A (1 -> 2): captured, 23 + 2 = 25 wins. */
	static const int pits[OW_PITS] = {0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 23, 18, OW_SOUTH);
	ow_game g;

	ow_game_from(&g, &p);
	ck_assert_int_eq(ow_game_play(&g, 5, NULL), OW_OK);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(g.pos.captured[OW_SOUTH], 25);
	ck_assert_int_eq(g.pos.pits[7], 5); /* the board is not collected */
	ck_assert_int_eq(ow_game_play(&g, 7, NULL), OW_E_OVER);
}
END_TEST

START_TEST(test_end_score_draw_given)
{
	static const int pits[OW_PITS] = {0};
	ow_pos p = pos_of(pits, 24, 24, OW_NORTH);
	ow_game g;

	ow_game_from(&g, &p);
	ck_assert_int_eq(g.end, OW_END_SCORE);
	ck_assert_int_eq(g.winner, OW_DRAW);
}
END_TEST

START_TEST(test_end_no_moves_after_move)
{
	/* South's f (1) sows A: North's only seeds cannot reach South: over. */
	static const int pits[OW_PITS] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 23, 24, OW_SOUTH);
	ow_game g;

	ow_game_from(&g, &p);
	ck_assert_int_eq(ow_game_play(&g, 5, NULL), OW_OK);
	ck_assert_int_eq(g.end, OW_END_NO_MOVES);
	ck_assert_int_eq(g.pos.captured[OW_NORTH], 25);
	ck_assert_int_eq(g.winner, OW_WINNER_NORTH);
	ck_assert_int_eq(seeds_on_board(&g.pos), 0);
}
END_TEST

/* Reads "reason plies moves..." lines of end-games.txt into the game. */
static int load_end_game(const char *reason, char *moves, size_t cap, int *plies)
{
	char line[4096], r[32];
	FILE *f = fopen(DATA_DIR "/end-games.txt", "r");
	int found = 0;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof line, f)) {
		int used;

		if (line[0] == '#' || sscanf(line, "%31s %d %n", r, plies, &used) < 2)
			continue;
		if (!strcmp(r, reason)) {
			snprintf(moves, cap, "%s", line + used);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* The repetition game: the final position occurs for the third time, counted
 * here independently of the engine, and never earlier. */
START_TEST(test_end_repetition)
{
	static char moves[4096];
	ow_pos seen[400];
	int plies, n = 0;
	ow_game g;

	ck_assert(load_end_game("repetition", moves, sizeof moves, &plies));
	ow_game_start(&g);
	seen[n++] = g.pos;
	for (const char *m = moves; *m; m++) {
		int count = 0;

		if (*m == ' ' || *m == '\n')
			continue;
		ck_assert_int_eq(g.end, OW_END_NONE);
		ck_assert_int_eq(ow_game_play(&g, ow_pit_parse(*m), NULL), OW_OK);
		if (g.end)
			break;
		seen[n++] = g.pos;
		for (int i = 0; i < n; i++)
			if (!memcmp(seen[i].pits, g.pos.pits, OW_PITS) && seen[i].turn == g.pos.turn)
				count++;
		ck_assert_int_lt(count, 3);
	}
	ck_assert_int_eq(g.end, OW_END_REPETITION);
	ck_assert_int_eq(g.ply, plies);
	ck_assert_int_eq(seeds_on_board(&g.pos), 0);
	ck_assert_int_eq(g.pos.captured[0] + g.pos.captured[1], OW_SEEDS);
}
END_TEST

START_TEST(test_end_move_limit)
{
	static char moves[4096];
	int plies, last_capture = 0, cap = 0;
	ow_game g;

	ck_assert(load_end_game("move_limit", moves, sizeof moves, &plies));
	ow_game_start(&g);
	for (const char *m = moves; *m; m++) {
		if (*m == ' ' || *m == '\n')
			continue;
		ck_assert_int_eq(g.end, OW_END_NONE);
		ck_assert_int_eq(ow_game_play(&g, ow_pit_parse(*m), NULL), OW_OK);
		if (g.end)
			break;
		if (g.pos.captured[0] + g.pos.captured[1] != cap) {
			cap = g.pos.captured[0] + g.pos.captured[1];
			last_capture = g.ply;
		}
	}
	ck_assert_int_eq(g.end, OW_END_MOVE_LIMIT);
	ck_assert_int_eq(g.ply, plies);
	ck_assert_int_eq(g.ply - last_capture, OW_MOVE_LIMIT);
	ck_assert_int_eq(seeds_on_board(&g.pos), 0);
}
END_TEST

START_TEST(test_repetition_given_position_counts)
{
	/* Two seeds chase each other around the board; the given position is
	 * the first occurrence: it recurs after 12 plies and again after 24. */
	static const int pits[OW_PITS] = {1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
	ow_pos p = pos_of(pits, 23, 23, OW_SOUTH);
	ow_game g;
	int plies = 0;

	ow_game_from(&g, &p);
	while (g.end == OW_END_NONE && plies < 100) {
		unsigned m = ow_legal_mask(&g.pos);

		ck_assert_uint_ne(m, 0);
		ck_assert_int_eq(ow_game_play(&g, __builtin_ctz(m), NULL), OW_OK);
		plies++;
	}
	ck_assert_int_eq(g.end, OW_END_REPETITION);
	ck_assert_int_eq(plies, 24);
	ck_assert_int_eq(g.winner, OW_DRAW);
}
END_TEST

START_TEST(test_illegal_moves_change_nothing)
{
	ow_game g, before;

	ow_game_start(&g);
	before = g;
	ck_assert_int_eq(ow_game_play(&g, -1, NULL), OW_E_NOT_PIT);
	ck_assert_int_eq(ow_game_play(&g, 12, NULL), OW_E_NOT_PIT);
	ck_assert_int_eq(ow_game_play(&g, 6, NULL), OW_E_NOT_YOURS);
	ck_assert(!memcmp(&g, &before, sizeof g));
	ck_assert_int_eq(ow_game_play(&g, 0, NULL), OW_OK);
	before = g;
	ck_assert_int_eq(ow_game_play(&g, 0, NULL), OW_E_NOT_YOURS);
	ck_assert_int_eq(ow_game_play(&g, 6, NULL), OW_OK);
	ck_assert_int_eq(ow_game_play(&g, 0, NULL), OW_E_EMPTY);
	ck_assert_int_eq(g.ply, 2);
}
END_TEST

START_TEST(test_position_validation)
{
	int pits[OW_PITS], cap[2] = {0, 0}, field = 99;
	ow_pos p, orig;

	ow_pos_start(&orig);
	p = orig;
	for (int i = 0; i < OW_PITS; i++)
		pits[i] = 4;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_NORTH, &field), OW_OK);
	ck_assert_int_eq(p.turn, OW_NORTH);

	p = orig;
	pits[3] = -1;
	pits[4] = 9;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, &field), OW_E_NEGATIVE);
	ck_assert_int_eq(field, 3);
	ck_assert(!memcmp(&p, &orig, sizeof p));

	pits[3] = 4;
	pits[4] = 4;
	cap[1] = -3;
	cap[0] = 3;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, &field), OW_E_NEGATIVE);
	ck_assert_int_eq(field, 13);

	cap[0] = 1;
	cap[1] = 0;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, &field), OW_E_SUM);
	ck_assert_int_eq(field, -1);

	cap[0] = 0;
	pits[0] = 300; /* would wrap a byte */
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, &field), OW_E_SUM);
	ck_assert_int_eq(field, 0);

	pits[0] = 4;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, 2, &field), OW_E_TURN);
	ck_assert_int_eq(field, 14);
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, -1, NULL), OW_E_TURN);
	ck_assert(!memcmp(&p, &orig, sizeof p));
}
END_TEST

START_TEST(test_strerror)
{
	for (int e = OW_E_TURN; e < 0; e++)
		ck_assert(strlen(ow_strerror(e)) > 0);
	ck_assert_str_eq(ow_strerror(OW_OK), "");
}
END_TEST

START_TEST(test_perft_table)
{
	FILE *f = fopen(DATA_DIR "/perft.txt", "r");
	char line[128];
	int checked = 0;
	ow_game g;

	ck_assert_ptr_nonnull(f);
	ow_game_start(&g);
	while (fgets(line, sizeof line, f)) {
		int d;
		unsigned long long want;

		if (line[0] == '#' || sscanf(line, "%d %llu", &d, &want) != 2 || d > 9)
			continue;
		ck_assert_msg(ow_perft(&g, d) == want, "perft %d", d);
		checked++;
	}
	fclose(f);
	ck_assert_int_eq(checked, 9);
	ck_assert_uint_eq(ow_perft(&g, 0), 1);
}
END_TEST

/* perft equals counting by ow_game_play, which has its own end checks. */
static uint64_t perft_by_play(const ow_game *g, int depth)
{
	uint64_t n = 0;

	if (depth == 0) /* a line of exactly depth plies, even one that just ended */
		return 1;
	if (g->end)
		return 0;
	for (int pit = 0; pit < OW_PITS; pit++) {
		ow_game c = *g;

		if (ow_game_play(&c, pit, NULL) == OW_OK)
			n += perft_by_play(&c, depth - 1);
	}
	return n;
}

START_TEST(test_perft_matches_play_near_the_end)
{
	/* Few seeds: lines end by score, repetition and no-moves within reach. */
	static const int pits[OW_PITS] = {1, 0, 2, 0, 0, 1, 1, 0, 0, 2, 0, 0};
	ow_pos p = pos_of(pits, 19, 22, OW_SOUTH);
	ow_game g;

	ow_game_from(&g, &p);
	for (int d = 1; d <= 14; d++)
		ck_assert_uint_eq(ow_perft(&g, d), perft_by_play(&g, d));
}
END_TEST

/* Thousands of random games: seeds conserved, scores never fall, only
 * legal moves accepted, every game ends, and the end is consistent. */
/* ow_game.seen's keys: every board of a few seeds, and crowded ones,
 * come back from their key; two boards of the same seeds never share one. */
START_TEST(test_history_keys_exact)
{
	ow_pos p = {{0}, {0}, 0, 0}, q;
	uint64_t x = 88172645463325252ull;

	for (int k = 0; k < 200000; k++) {
		int left = (int)(x % 49), board = left;
		uint64_t h;

		for (int i = 0; i < OW_PITS; i++)
			p.pits[i] = 0;
		for (; left > 0; left--) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			p.pits[k % 3 == 0 ? (int)(x % 2) * 11 : (int)(x % OW_PITS)]++;
		}
		p.turn = (uint8_t)(k & 1);
		h = ow__hkey(&p);
		memset(&q, 0xff, sizeof q);
		ow__hkey_pos(h, board, &q);
		ck_assert_mem_eq(q.pits, p.pits, OW_PITS);
		ck_assert_int_eq(q.turn, p.turn);
		/* One seed moved to another pit: another key. */
		for (int i = 0; i < OW_PITS; i++)
			if (p.pits[i]) {
				p.pits[i]--, p.pits[(i + 5) % OW_PITS]++;
				ck_assert(ow__hkey(&p) != h);
				break;
			}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	}
}
END_TEST

START_TEST(test_random_games_invariants)
{
	unsigned seed = 12345;
	int reasons[5] = {0};

	for (int game = 0; game < 3000; game++) {
		ow_game g;

		ow_game_start(&g);
		while (g.end == OW_END_NONE) {
			unsigned mask = ow_legal_mask(&g.pos), pick;
			int before[2] = {g.pos.captured[0], g.pos.captured[1]}, pit = -1;
			ow_move_info info;

			ck_assert_uint_ne(mask, 0);
			seed = seed * 1103515245u + 12345u;
			pick = (seed >> 16) % (unsigned)__builtin_popcount(mask);
			for (int i = 0; i < OW_PITS; i++)
				if (mask & (1u << i) && pick-- == 0) {
					pit = i;
					break;
				}
			for (int i = 0; i < OW_PITS; i++)
				if (!(mask & (1u << i)))
					ck_assert_int_ne(ow_pos_check(&g.pos, i), OW_OK);
			ck_assert_int_eq(ow_game_play(&g, pit, &info), OW_OK);
			ck_assert_int_eq(seeds_on_board(&g.pos) + g.pos.captured[0] + g.pos.captured[1], OW_SEEDS);
			ck_assert_int_ge(g.pos.captured[0], before[0]);
			ck_assert_int_ge(g.pos.captured[1], before[1]);
			ck_assert_int_le(g.quiet, OW_MOVE_LIMIT);
			ck_assert_int_lt(g.ply, 5000);
			if (info.seeds)
				ck_assert_int_eq(info.seeds, g.pos.captured[1 - g.pos.turn] - before[1 - g.pos.turn]);
		}
		ck_assert_int_ne(g.winner, OW_NOBODY);
		if (g.end != OW_END_SCORE)
			ck_assert_int_eq(seeds_on_board(&g.pos), 0);
		if (g.winner == OW_DRAW)
			ck_assert_int_eq(g.pos.captured[0], 24);
		else
			ck_assert_int_ge(g.pos.captured[g.winner], OW_WIN_SCORE);
		reasons[g.end]++;
	}
	ck_assert_int_gt(reasons[OW_END_SCORE], 0);
	ck_assert_int_gt(reasons[OW_END_NO_MOVES], 0);
	ck_assert_int_gt(reasons[OW_END_REPETITION], 0);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *rules = tcase_create("rules"), *ends = tcase_create("ends");
	TCase *input = tcase_create("input"), *bulk = tcase_create("bulk");

	tcase_add_test(rules, test_opening_a);
	tcase_add_test(rules, test_capture_chain);
	tcase_add_test(rules, test_capture_chain_stops_at_four);
	tcase_add_test(rules, test_no_capture_in_own_row);
	tcase_add_test(rules, test_north_captures_south);
	tcase_add_test(rules, test_grand_slam_annulled);
	tcase_add_test(rules, test_grand_slam_chain_of_two);
	tcase_add_test(rules, test_capture_not_grand_slam_when_seeds_remain);
	tcase_add_test(rules, test_lap_of_12);
	tcase_add_test(rules, test_lap_of_23);
	tcase_add_test(rules, test_lap_capture);
	tcase_add_test(rules, test_feeding_required);
	tcase_add_test(rules, test_feeding_north);
	tcase_add_test(ends, test_feeding_impossible_ends);
	tcase_add_test(ends, test_end_score);
	tcase_add_test(ends, test_end_score_draw_given);
	tcase_add_test(ends, test_end_no_moves_after_move);
	tcase_add_test(ends, test_end_repetition);
	tcase_add_test(ends, test_end_move_limit);
	tcase_add_test(ends, test_repetition_given_position_counts);
	tcase_add_test(input, test_notation);
	tcase_add_test(input, test_illegal_moves_change_nothing);
	tcase_add_test(input, test_position_validation);
	tcase_add_test(input, test_strerror);
	tcase_add_test(bulk, test_perft_table);
	tcase_add_test(bulk, test_perft_matches_play_near_the_end);
	tcase_add_test(bulk, test_random_games_invariants);
	/* 200,000 boards: a bulk test, timed as one (Check's default 4 s ran
	 * out on a loaded machine under the sanitizers). */
	tcase_add_test(bulk, test_history_keys_exact);
	tcase_set_timeout(bulk, 300);
	suite_add_tcase(s, rules);
	suite_add_tcase(s, ends);
	suite_add_tcase(s, input);
	suite_add_tcase(s, bulk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(engine_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
