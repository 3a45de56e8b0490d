/* test_search.c: Check unit tests of the search (engine/search.h): forced
 * wins, legal moves everywhere, budgets, reproducibility, and the end rules
 * against a plain minimax over ow_game_play. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/search.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

#define TT_N (1u << 16)

static ow_tt_entry tt[TT_N];

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A game from pits a..f A..F, the scores and the side to move. */
static ow_game game_of(const int pits[OW_PITS], int south, int north, int turn)
{
	ow_pos p;
	ow_game g;
	int cap[2] = {south, north};

	ck_assert_int_eq(ow_pos_set(&p, pits, cap, turn, NULL), OW_OK);
	ow_game_from(&g, &p);
	return g;
}

static ow_search_result search_depth(const ow_game *g, int depth)
{
	ow_search_limits lim = {0};
	ow_search_result r;

	lim.depth = depth;
	ow_tt_clear(tt, TT_N);
	ck_assert_int_eq(ow_search(g, &lim, tt, TT_N, &r), 0);
	return r;
}

/* Plain minimax over ow_game_play, independent of the search: 1 if the
 * side to move can force a win within depth plies, -1 if the opponent can,
 * else 0 (unknown or a draw). */
static int reference(const ow_game *g, int depth)
{
	int best = -1;

	if (g->end != OW_END_NONE)
		return g->winner == OW_DRAW ? 0 : g->winner == g->pos.turn ? 1 : -1;
	if (depth == 0)
		return 0;
	for (int m = 0; m < OW_PITS && best < 1; m++) {
		ow_game c = *g;
		int v;

		if (ow_game_play(&c, m, NULL))
			continue;
		v = -reference(&c, depth - 1);
		if (v > best)
			best = v;
	}
	return best;
}

/* Plays every move of r's line on a copy of g: each must be legal. */
static void assert_pv_legal(const ow_game *g, const ow_search_result *r)
{
	ow_game c = *g;

	ck_assert_int_ge(r->npv, 1);
	ck_assert_int_eq(r->pv[0], r->move);
	for (int i = 0; i < r->npv && c.end == OW_END_NONE; i++)
		ck_assert_msg(ow_game_play(&c, r->pv[i], NULL) == OW_OK,
		              "pv[%d] = %c illegal", i, ow_pit_letter(r->pv[i]));
}

/* South has 23: f sows into A, making 2, and wins at once; a does not. */
START_TEST(test_finds_winning_capture)
{
	const int pits[OW_PITS] = {2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3};
	ow_game g = game_of(pits, 23, 18, OW_SOUTH);
	ow_search_result r = search_depth(&g, 6);

	ck_assert_int_eq(r.move, 5);
	ck_assert_int_eq(r.score, OW_SEARCH_WIN - 1);
	ck_assert_int_ge(r.depth, 1);
}
END_TEST

/* North has 24 and a capture of 1 more than 24 would win, but it would take
 * all of South's row: a grand slam captures nothing. The search must not
 * count it as a win. */
START_TEST(test_grand_slam_is_no_win)
{
	const int pits[OW_PITS] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
	ow_game g = game_of(pits, 22, 24, OW_NORTH);
	ow_search_result r = search_depth(&g, 1);
	ow_game c = g;

	/* F sows into a: a holds 2, every seed of South's row: annulled. */
	ck_assert_int_eq(ow_game_play(&c, 11, NULL), OW_OK);
	ck_assert_int_eq(c.pos.captured[OW_NORTH], 24);
	ck_assert_int_eq(r.move, 11);
	ck_assert_int_lt(r.score, OW_SEARCH_WON);
	ck_assert_int_eq(reference(&g, 1), 0);
}
END_TEST

/* A win two moves deep: South sows b into c..f and A; whatever North does,
 * South captures on the next move. Checked against the reference. */
START_TEST(test_finds_forced_wins_like_reference)
{
	uint64_t rng = 42;
	int found = 0, tried = 0;

	/* Random endgames near 25 with few seeds: every forced win of the
	 * reference within 5 plies is found, with a winning first move, and
	 * no win is claimed that the reference cannot confirm. */
	while (tried < 800) {
		int pits[OW_PITS] = {0}, on = 3 + (int)(rnd(&rng) % 8), s, n, turn;
		ow_game g;
		ow_search_result r;
		int ref, d = 5;

		for (int i = 0; i < on; i++)
			pits[rnd(&rng) % OW_PITS]++;
		s = 18 + (int)(rnd(&rng) % 7);
		if (s > OW_SEEDS - on)
			s = OW_SEEDS - on;
		n = OW_SEEDS - on - s;
		if (n >= OW_WIN_SCORE)
			continue;
		turn = (int)(rnd(&rng) & 1);
		g = game_of(pits, s, n, turn);
		if (g.end != OW_END_NONE)
			continue;
		tried++;
		ref = reference(&g, d);
		r = search_depth(&g, d + 6);
		assert_pv_legal(&g, &r);
		if (ref == 1) {
			ow_game c = g;

			found++;
			ck_assert_msg(r.score > OW_SEARCH_WON, "position %d: win missed (%d)",
			              tried, r.score);
			ck_assert_int_eq(ow_game_play(&c, r.move, NULL), OW_OK);
			ck_assert_int_eq(reference(&c, d - 1), -1);
		}
		if (ref == -1)
			ck_assert_int_lt(r.score, -OW_SEARCH_WON);
		if (r.score > OW_SEARCH_WON) {
			int plies = OW_SEARCH_WIN - r.score;

			/* (the table may graft a longer win onto the line) */
			ck_assert_int_le(plies, 20);
			ck_assert_msg(reference(&g, plies) == 1, "position %d: false win in %d",
			              tried, plies);
		}
	}
	ck_assert_int_gt(found, 60);
}
END_TEST

/* Random positions: from random games and random set boards, with starved
 * rows (feeding) and grand-slam shapes. */
static ow_game random_game(uint64_t *rng)
{
	ow_game g;
	int kind = (int)(rnd(rng) % 4);

	if (kind == 3) {
		/* grand-slam shapes: the opponent holds a few pits of 1 or 2
		 * seeds that one sowing could all make 2 or 3 */
		int pits[OW_PITS] = {0}, turn = (int)(rnd(rng) & 1), on = 0, s;
		int own = turn * OW_ROW, opp = OW_ROW - own, k = 1 + (int)(rnd(rng) % 3);

		/* the first k pits of the opponent's row, and the mover's last
		 * pit holding k seeds (sowing exactly them), mostly */
		for (int i = 0; i < k; i++)
			pits[opp + i] = 1 + (int)(rnd(rng) & 1);
		pits[own + OW_ROW - 1] = k;
		for (int i = 0, n = (int)(rnd(rng) % 16); i < n; i++)
			pits[own + (int)(rnd(rng) % OW_ROW)]++;
		for (int i = 0; i < OW_PITS; i++)
			on += pits[i];
		s = (OW_SEEDS - on) / 2 - (int)(rnd(rng) % 4);
		return game_of(pits, s, OW_SEEDS - on - s, turn);
	}

	if (kind == 0) {
		int plies = (int)(rnd(rng) % 120);

		ow_game_start(&g);
		for (int i = 0; i < plies && g.end == OW_END_NONE; i++) {
			unsigned mask = ow_legal_mask(&g.pos);
			int k = (int)(rnd(rng) % (uint64_t)__builtin_popcount(mask));

			while (k--)
				mask &= mask - 1;
			ck_assert_int_eq(ow_game_play(&g, __builtin_ctz(mask), NULL), OW_OK);
		}
	} else {
		int pits[OW_PITS] = {0}, on = 1 + (int)(rnd(rng) % 30), s;
		/* kind 1: one row empty (the side to move must feed, or the
		 * other must); kind 2: anywhere. */
		int lo = 0, width = OW_PITS;

		if (kind == 1) {
			lo = (int)(rnd(rng) & 1) * OW_ROW;
			width = OW_ROW;
		}
		for (int i = 0; i < on; i++)
			pits[lo + (int)(rnd(rng) % (uint64_t)width)]++;
		s = (int)(rnd(rng) % (uint64_t)(OW_SEEDS - on + 1));
		if (s > 24)
			s = 24;
		if (OW_SEEDS - on - s > 24) {
			s = OW_SEEDS - on - 24;
		}
		g = game_of(pits, s, OW_SEEDS - on - s, (int)(rnd(rng) & 1));
	}
	return g;
}

START_TEST(test_never_an_illegal_move)
{
	uint64_t rng = 7;
	int done = 0, feeding = 0, slams = 0;

	for (int t = 0; t < 5000; t++) {
		ow_game g = random_game(&rng), c;
		ow_search_limits lim;
		ow_search_result r;
		ow_move_info info;
		int level = (int)(rnd(&rng) % 3);

		if (g.end != OW_END_NONE) {
			ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), OW_E_OVER);
			continue;
		}
		ck_assert_int_eq(ow_search_level(&lim, level, (uint32_t)t, NULL, NULL, 0), 0);
		if (level == OW_LEVEL_HARD)
			lim.nodes = 3000;
		if (t % 4 == 0) /* sometimes keep the table of earlier positions */
			ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
		ck_assert_msg(ow_pos_check(&g.pos, r.move) == OW_OK, "position %d: %c illegal",
		              t, ow_pit_letter(r.move));
		assert_pv_legal(&g, &r);
		c = g;
		ck_assert_int_eq(ow_game_play(&c, r.move, &info), OW_OK);
		feeding += ow_legal_mask(&g.pos) != 0 &&
		           (g.pos.turn ? !(g.pos.pits[0] | g.pos.pits[1] | g.pos.pits[2] |
		                           g.pos.pits[3] | g.pos.pits[4] | g.pos.pits[5])
		                       : !(g.pos.pits[6] | g.pos.pits[7] | g.pos.pits[8] |
		                           g.pos.pits[9] | g.pos.pits[10] | g.pos.pits[11]));
		/* positions where some legal move is a grand slam */
		for (unsigned m = ow_legal_mask(&g.pos); m; m &= m - 1) {
			ow_pos q = g.pos;

			ow_pos_sow(&q, __builtin_ctz(m), &info);
			if (info.grand_slam) {
				slams++;
				break;
			}
		}
		done++;
	}
	ck_assert_int_gt(done, 3000);
	ck_assert_int_gt(feeding, 300);
	ck_assert_msg(slams > 300, "%d grand-slam positions", slams);
}
END_TEST

/* The end rules in the games of tests/data/end-games.txt, a few plies
 * before their repetition and move-limit ends: the search agrees with the
 * reference about forced results. */
static int load_end_game(const char *reason, char *moves, size_t cap)
{
	char line[4096], r[32];
	FILE *f = fopen(DATA_DIR "/end-games.txt", "r");
	int found = 0, plies;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof line, f)) {
		int used;

		if (line[0] == '#' || sscanf(line, "%31s %d %n", r, &plies, &used) < 2)
			continue;
		if (!strcmp(r, reason)) {
			snprintf(moves, cap, "%s", line + used);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static void check_end_game(const char *reason, int last)
{
	static char moves[4096];
	int pits[OW_PITS * 40], n = 0, checked = 0;
	ow_game g;

	ck_assert(load_end_game(reason, moves, sizeof moves));
	for (const char *m = moves; *m; m++)
		if (*m != ' ' && *m != '\n')
			pits[n++] = ow_pit_parse(*m);
	/* From each of the last plies before the end: */
	for (int from = n - last; from < n; from++) {
		ow_search_result r;
		int ref;

		ow_game_start(&g);
		for (int i = 0; i < from; i++)
			ck_assert_int_eq(ow_game_play(&g, pits[i], NULL), OW_OK);
		ck_assert_int_eq(g.end, OW_END_NONE);
		for (int d = 1; d <= 5; d++) {
			ref = reference(&g, d);
			r = search_depth(&g, d);
			assert_pv_legal(&g, &r);
			if (ref == 1)
				ck_assert_msg(r.score > OW_SEARCH_WON, "%s ply %d depth %d: %d",
				              reason, from, d, r.score);
			if (ref == -1)
				ck_assert_msg(r.score < -OW_SEARCH_WON, "%s ply %d depth %d: %d",
				              reason, from, d, r.score);
			if (r.score > OW_SEARCH_WON || r.score < -OW_SEARCH_WON)
				checked++;
		}
	}
	ck_assert_int_gt(checked, 0);
}

START_TEST(test_repetition_end)
{
	check_end_game("repetition", 6);
}
END_TEST

START_TEST(test_move_limit_end)
{
	check_end_game("move_limit", 6);
}
END_TEST

/* Walks the last plies of the games of tests/data/end-games.txt: where the
 * game's history (the positions already seen twice, the plies without a
 * capture) changes the exact result within 4 plies against the same board
 * started afresh, the search with the history finds that result and a
 * move that achieves it, even with its table filled first by a search of
 * the fresh board (whose values the history makes wrong). */
static int check_history(const char *reason, int last)
{
	static char moves[4096];
	int pits[OW_PITS * 40], n = 0, decided = 0;
	const int d = 4;

	ck_assert(load_end_game(reason, moves, sizeof moves));
	for (const char *m = moves; *m; m++)
		if (*m != ' ' && *m != '\n')
			pits[n++] = ow_pit_parse(*m);
	for (int from = n - last; from < n; from++) {
		ow_game g, bare;
		ow_search_limits lim = {0};
		ow_search_result r;
		int ref, ref_bare;

		ow_game_start(&g);
		for (int i = 0; i < from; i++)
			ck_assert_int_eq(ow_game_play(&g, pits[i], NULL), OW_OK);
		ow_game_from(&bare, &g.pos);
		ref = reference(&g, d);
		ref_bare = reference(&bare, d);
		if (ref == ref_bare)
			continue;
		decided++;
		/* the table warmed by the fresh board, then the real game */
		lim.depth = d + 2;
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&bare, &lim, tt, TT_N, &r), 0);
		lim.depth = d;
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
		if (ref == 1) {
			ow_game c = g;

			ck_assert_msg(r.score > OW_SEARCH_WON, "%s ply %d: win missed (%d)",
			              reason, from, r.score);
			ck_assert_int_eq(ow_game_play(&c, r.move, NULL), OW_OK);
			ck_assert_msg(c.end != OW_END_NONE ? c.winner == g.pos.turn
			                                   : reference(&c, d - 1) == -1,
			              "%s ply %d: %c does not win", reason, from,
			              ow_pit_letter(r.move));
		} else if (ref == -1) {
			ck_assert_msg(r.score < -OW_SEARCH_WON, "%s ply %d: loss missed (%d)",
			              reason, from, r.score);
		} else {
			ck_assert_msg(r.score <= OW_SEARCH_WON && r.score >= -OW_SEARCH_WON,
			              "%s ply %d: false proof %d", reason, from, r.score);
		}
	}
	return decided;
}

START_TEST(test_history_decides)
{
	int rep = check_history("repetition", 60), lim = check_history("move_limit", 14);

	/* the history decided somewhere in both games */
	ck_assert_int_gt(rep, 0);
	ck_assert_int_gt(lim, 0);
}
END_TEST

/* --- the endgame database (engine/egdb.h) --- */

#ifndef EGDB_FILE
#define EGDB_FILE "build/oware.egdb"
#endif

static ow_egdb egdb;
static uint8_t *egdb_file;

static const ow_egdb *egdb_load(void)
{
	FILE *f = fopen(EGDB_FILE, "rb");
	long len;

	if (egdb_file)
		return &egdb;
	ck_assert_msg(f != NULL, "no %s (make egdb)", EGDB_FILE);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	ck_assert_int_gt(len, 0);
	rewind(f);
	egdb_file = malloc((size_t)len);
	ck_assert_ptr_nonnull(egdb_file);
	ck_assert_uint_eq(fread(egdb_file, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	ck_assert_int_eq(ow_egdb_open(&egdb, egdb_file, (size_t)len), 0);
	return &egdb;
}

/* An independent solver for boards of up to SMALL seeds: memoized
 * recursion over (board, plies left before the move limit) on ow_pos_sow
 * and ow_legal_mask, keyed by its own hash of the pits, nothing shared with
 * the generator's ranking or its iteration. The seeds the side to move
 * ends with, as egdb.h defines them. */
#define SMALL 6
#define MEMO (1u << 23)
static struct memo { uint64_t key; uint8_t val; } *memo;

static int solve(const ow_pos *p, int k, int left)
{
	uint64_t key = (uint64_t)left << 56 | (uint64_t)p->turn << 52;
	size_t h;
	unsigned mask;
	int own = 0, best = -1;

	for (int i = 0; i < OW_PITS; i++)
		key |= (uint64_t)p->pits[i] << (4 * i);
	for (int i = p->turn * OW_ROW; i < p->turn * OW_ROW + OW_ROW; i++)
		own += p->pits[i];
	mask = ow_legal_mask(p);
	if (!left || !mask)
		return own;
	h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 41) & (MEMO - 1);
	while (memo[h].key && memo[h].key != key + 1)
		h = (h + 1) & (MEMO - 1);
	if (memo[h].key)
		return memo[h].val;
	for (int m = 0; m < OW_PITS; m++) {
		ow_pos c = *p;
		int got, v;

		if (!(mask & 1u << m))
			continue;
		ow_pos_sow(&c, m, NULL);
		got = c.captured[p->turn] - p->captured[p->turn];
		v = got ? got + (k - got) - solve(&c, k - got, OW_MOVE_LIMIT)
		        : k - solve(&c, k, left - 1);
		if (v > best)
			best = v;
	}
	memo[h].key = key + 1;
	memo[h].val = (uint8_t)best;
	return best;
}

/* Every board of up to SMALL seeds, both sides to move, as the file holds
 * them, just after a capture and at the edge of each value's reach. */
static void all_boards(const ow_egdb *db, int pits[OW_PITS], int i, int left, int k,
                       int *checked)
{
	if (i == OW_PITS - 1) {
		ow_pos p;
		int cap[2] = {(OW_SEEDS - k) / 2, OW_SEEDS - k - (OW_SEEDS - k) / 2};

		pits[i] = left;
		for (int turn = 0; turn < 2; turn++) {
			int qs[3] = {0, (int)db->quiet_max[k], (int)db->quiet_max[k] - 1};

			ck_assert_int_eq(ow_pos_set(&p, pits, cap, turn, NULL), OW_OK);
			for (int j = 0; j < 3; j++) {
				int exact, v, q = qs[j];

				if (q < 0)
					continue;
				v = ow_egdb_probe(db, &p, q, &exact);
				ck_assert_int_eq(exact, 1);
				ck_assert_msg(v == solve(&p, k, OW_MOVE_LIMIT - q),
				              "%d seeds, quiet %d: file %d, solver %d", k, q, v,
				              solve(&p, k, OW_MOVE_LIMIT - q));
				(*checked)++;
			}
		}
		return;
	}
	for (int a = 0; a <= left; a++) {
		pits[i] = a;
		all_boards(db, pits, i + 1, left - a, k, checked);
	}
}

START_TEST(test_egdb_small_boards_solved_independently)
{
	const ow_egdb *db = egdb_load();
	int pits[OW_PITS], checked = 0;

	memo = calloc(MEMO, sizeof *memo);
	ck_assert_ptr_nonnull(memo);
	ck_assert_int_ge(db->seeds, SMALL);
	for (int k = 1; k <= SMALL; k++)
		all_boards(db, pits, 0, k, k, &checked);
	free(memo);
	memo = NULL;
	/* 2 * (C(12,11) + ... + C(17,11)) boards, up to 3 quiet counts each */
	ck_assert_int_ge(checked, 2 * 18563);
}
END_TEST

/* A damaged file is refused: a flipped value bit (checksum), a short file
 * (format). */
START_TEST(test_egdb_refuses_damage)
{
	const ow_egdb *db = egdb_load();
	size_t len = 12 + 12 * (size_t)(db->seeds + 1) + 8;
	ow_egdb bad;

	(void)db;
	for (int k = 0; k <= egdb.seeds; k++)
		len += egdb.period[k] * ((egdb.count[k] + 1) / 2);
	egdb_file[len - 100] ^= 4;
	ck_assert_int_eq(ow_egdb_open(&bad, egdb_file, len), OW_EGDB_E_CHECKSUM);
	egdb_file[len - 100] ^= 4;
	ck_assert_int_eq(ow_egdb_open(&bad, egdb_file, len - 1), OW_EGDB_E_FORMAT);
	ck_assert_int_eq(ow_egdb_open(&bad, egdb_file, 5), OW_EGDB_E_FORMAT);
	ck_assert_int_eq(ow_egdb_open(&bad, egdb_file, len), 0);
}
END_TEST

/* Against brute force: in random endgames of up to 10 seeds, every result
 * that a search without the database proves within 7 plies (too soon for
 * a third occurrence or the move limit, which the database does not know)
 * is the database's; and the search with the database never claims a
 * result the database refutes. */
START_TEST(test_egdb_agrees_with_search)
{
	const ow_egdb *db = egdb_load();
	uint64_t rng = 77;
	int proven = 0, checked = 0;

	for (int t = 0; t < 600; t++) {
		int pits[OW_PITS] = {0}, on = 2 + (int)(rnd(&rng) % 9), s, exact, v, me;
		ow_game g;
		ow_search_result r;
		ow_search_limits lim = {0};

		for (int i = 0; i < on; i++)
			pits[rnd(&rng) % OW_PITS]++;
		s = 24 - on / 2 - 2 + (int)(rnd(&rng) % 5);
		if (OW_SEEDS - on - s > 24 || s > 24)
			continue;
		g = game_of(pits, s, OW_SEEDS - on - s, (int)(rnd(&rng) & 1));
		if (g.end != OW_END_NONE)
			continue;
		me = g.pos.turn;
		v = ow_egdb_probe(db, &g.pos, 0, &exact);
		ck_assert_int_ge(v, 0);
		v = g.pos.captured[me] + v - (g.pos.captured[1 - me] + on - v); /* margin */
		r = search_depth(&g, 10);
		if (r.score > OW_SEARCH_WON && OW_SEARCH_WIN - r.score <= 7) {
			ck_assert_msg(v > 0, "position %d: won, file margin %d", t, v);
			proven++;
		}
		if (r.score < -OW_SEARCH_WON && OW_SEARCH_WIN + r.score <= 7) {
			ck_assert_msg(v < 0, "position %d: lost, file margin %d", t, v);
			proven++;
		}
		lim.depth = 6;
		lim.egdb = db;
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
		assert_pv_legal(&g, &r);
		if (r.score > OW_SEARCH_EGDB - OW_SEARCH_MAX_DEPTH)
			ck_assert_msg(v > 0, "position %d: claims a win, file margin %d", t, v);
		if (r.score < -(OW_SEARCH_EGDB - OW_SEARCH_MAX_DEPTH))
			ck_assert_msg(v < 0, "position %d: claims a loss, file margin %d", t, v);
		checked += r.score > OW_SEARCH_EGDB - OW_SEARCH_MAX_DEPTH ||
		           r.score < -(OW_SEARCH_EGDB - OW_SEARCH_MAX_DEPTH);
	}
	ck_assert_int_gt(proven, 50);
	ck_assert_int_gt(checked, 100); /* results decided by the file */
}
END_TEST

/* A node budget stops the search (after depth 1, always completed). */
START_TEST(test_node_budget)
{
	const uint64_t budgets[] = {1, 10, 100, 1000, 20000, 200000};
	ow_game g;
	uint64_t depth1;

	ow_game_start(&g);
	depth1 = search_depth(&g, 1).nodes;
	ck_assert_uint_ge(depth1, 7);
	ck_assert_uint_le(depth1, 7 + 6 * 6);
	for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		ow_search_limits lim = {0};
		ow_search_result r;

		lim.nodes = budgets[i];
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
		ck_assert_int_ge(r.depth, 1);
		ck_assert_int_lt(r.depth, OW_SEARCH_MAX_DEPTH);
		/* depth 1 from the start: the root, its 6 children and the
		 * captures that answer them (quiescence) */
		ck_assert_uint_le(r.nodes, budgets[i] > depth1 ? budgets[i] : depth1);
		ck_assert_msg(budgets[i] < 1000 || r.nodes + 100 >= budgets[i],
		              "stopped early: %llu", (unsigned long long)r.nodes);
		ck_assert_int_eq(ow_pos_check(&g.pos, r.move), OW_OK);
	}
}
END_TEST

/* A fake clock that advances 1 ms each time it is read. */
static uint32_t fake_clock(void *ctx)
{
	uint32_t *t = ctx;

	return (*t)++;
}

START_TEST(test_time_budget)
{
	ow_game g;

	ow_game_start(&g);
	for (uint32_t ms = 1; ms <= 64; ms *= 4) {
		ow_search_limits lim = {0};
		ow_search_result r;
		uint32_t t = 1000;

		lim.time_ms = ms;
		lim.clock = fake_clock;
		lim.clock_ctx = &t;
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
		ck_assert_int_ge(r.depth, 1);
		/* read at most once per 1024 nodes, plus once an iteration */
		ck_assert_uint_le(t - 1000, ms + 1 + (uint32_t)r.depth + 1);
		ck_assert_uint_le(r.nodes, (uint64_t)(ms + 2) * 1024);
	}
}
END_TEST

/* Same game, limits and a cleared table: the same result; easy's random
 * slips follow the seed. */
START_TEST(test_reproducible)
{
	uint64_t rng = 99;
	int differ = 0;

	for (int t = 0; t < 300; t++) {
		ow_game g = random_game(&rng);
		ow_search_limits lim;
		ow_search_result a, b;
		int level = t % 3;

		if (g.end != OW_END_NONE)
			continue;
		ow_search_level(&lim, level, 1234, NULL, NULL, 0);
		if (level == OW_LEVEL_HARD)
			lim.nodes = 20000;
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &a), 0);
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &b), 0);
		ck_assert_int_eq(a.move, b.move);
		ck_assert_int_eq(a.score, b.score);
		ck_assert_int_eq(a.depth, b.depth);
		ck_assert_uint_eq(a.nodes, b.nodes);
		ck_assert_int_eq(a.npv, b.npv);
		ck_assert_mem_eq(a.pv, b.pv, (size_t)a.npv);
		if (level == OW_LEVEL_EASY) {
			/* another seed: some positions get another move */
			for (uint32_t seed = 1; seed < 8; seed++) {
				ow_search_level(&lim, level, seed, NULL, NULL, 0);
				ow_tt_clear(tt, TT_N);
				ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &b), 0);
				differ += b.move != a.move;
			}
		}
	}
	ck_assert_int_gt(differ, 0);
}
END_TEST

/* The table adds south's score above bit 12 of ow_pos_key's hi: the
 * engine's key must leave those bits free, and tell positions apart. */
START_TEST(test_key_layout)
{
	uint64_t rng = 5;

	for (int t = 0; t < 2000; t++) {
		ow_game g = random_game(&rng), h;
		struct ow_key k = ow_pos_key(&g.pos), k2;

		ck_assert_uint_eq(k.hi >> 12, 0);
		h = g;
		h.pos.pits[11] = (uint8_t)(h.pos.pits[11] + 1);
		k2 = ow_pos_key(&h.pos);
		ck_assert(k2.hi != k.hi || k2.lo != k.lo);
	}
}
END_TEST

START_TEST(test_levels)
{
	ow_search_limits lim;

	ow_search_limits easy;

	ck_assert_int_eq(ow_search_level(&easy, OW_LEVEL_EASY, 1, NULL, NULL, 0), 0);
	ck_assert_int_gt(easy.noise, 0);
	ck_assert_int_gt(easy.blunder, 0);
	/* easy and medium play as before issue 18 */
	ck_assert_ptr_eq(easy.eval, &ow_eval_classic);
	ck_assert_int_ne(easy.no_quiescence, 0);
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_MEDIUM, 1, NULL, NULL, 0), 0);
	ck_assert_int_gt(lim.depth, easy.depth);
	ck_assert_int_lt(lim.noise, easy.noise);
	ck_assert_int_eq(lim.blunder, 0);
	ck_assert_ptr_eq(lim.eval, &ow_eval_classic);
	ck_assert_int_ne(lim.no_quiescence, 0);
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_HARD, 1, NULL, NULL, 0), 0);
	ck_assert_uint_gt(lim.nodes, 0);
	ck_assert_int_eq(lim.noise, 0);
	ck_assert_ptr_null(lim.eval);
	ck_assert_int_eq(lim.no_quiescence, 0);
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_HARD, 1, fake_clock, NULL, 1000), 0);
	ck_assert_uint_eq(lim.time_ms, 1000);
	ck_assert_int_eq(ow_search_level(&lim, 3, 1, NULL, NULL, 0), -1);
	ck_assert_int_eq(ow_search_level(&lim, -1, 1, NULL, NULL, 0), -1);
}
END_TEST

/* The ladder (issues 33, 43) as docs/computer.md gives it: each step's
 * depth, node budget (0: none), spread, slips per mille, the slips'
 * margin and whether it keeps easy's evaluation without quiescence;
 * steps 2, 7 and 13 are easy, medium and hard. */
static const struct {
	int depth;
	uint64_t nodes;
	int noise, blunder, margin, classic;
} ladder_want[OW_LADDER_LEVELS + 1] = {
	{0, 0, 0, 0, 0, 0},
	{2, 0, OW_SEARCH_SEED, 1000, 6 * OW_SEARCH_SEED, 1},
	{1, 0, 3 * OW_SEARCH_SEED, 150, 0, 1},
	{2, 400, 4 * OW_SEARCH_SEED, 250, 0, 1},
	{2, 400, 17 * OW_SEARCH_SEED / 8, 110, 0, 1},
	{2, 400, OW_SEARCH_SEED / 2, 0, 0, 1},
	{3, 2000, 3 * OW_SEARCH_SEED / 4, 45, 0, 1},
	{4, 0, OW_SEARCH_SEED / 2, 0, 0, 1},
	{3, 20000, OW_SEARCH_SEED / 2, 0, 0, 0},
	{0, 600, 0, 0, 0, 0},
	{0, 2000, 0, 0, 0, 0},
	{0, 10000, 0, 0, 0, 0},
	{0, 100000, 0, 0, 0, 0},
	{0, 2000000, 0, 0, 0, 0},
};

/* The most nodes a search of the root's moves to depth d, every
 * iteration from 1, can visit without quiescence: b + b^2 + ... + b^k
 * for every k up to d (b = 6 moves a position). */
static uint64_t full_width(int d)
{
	uint64_t sum = 0, pow = 1, all = 0;

	for (int k = 1; k <= d; k++) {
		pow *= OW_ROW;
		sum += pow;
		all += sum;
	}
	return all;
}

static void assert_same_limits(const ow_search_limits *a, const ow_search_limits *b)
{
	ck_assert_int_eq(a->depth, b->depth);
	ck_assert_uint_eq(a->nodes, b->nodes);
	ck_assert_uint_eq(a->time_ms, b->time_ms);
	ck_assert_ptr_eq(a->clock, b->clock);
	ck_assert_int_eq(a->noise, b->noise);
	ck_assert_int_eq(a->blunder, b->blunder);
	ck_assert_uint_eq(a->seed, b->seed);
	ck_assert_ptr_eq(a->eval, b->eval);
	ck_assert_int_eq(a->no_quiescence, b->no_quiescence);
	ck_assert_ptr_eq(a->egdb, b->egdb);
}

/* Every step's limits, and easy, medium and hard exactly where they
 * stand; codes beside the ladder refused. */
START_TEST(test_ladder_levels)
{
	static const int legacy[][2] = {
		{OW_LADDER_EASY, OW_LEVEL_EASY},
		{OW_LADDER_MEDIUM, OW_LEVEL_MEDIUM},
		{OW_LADDER_HARD, OW_LEVEL_HARD},
	};
	ow_search_limits lim, old;

	ck_assert_int_eq(OW_LADDER_LEVELS, 13);
	for (int n = 1; n <= OW_LADDER_LEVELS; n++) {
		ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER + n, 77, NULL, NULL, 0), 0);
		ck_assert_int_eq(lim.depth, ladder_want[n].depth);
		ck_assert_uint_eq(lim.nodes, ladder_want[n].nodes);
		ck_assert_int_eq(lim.noise, ladder_want[n].noise);
		ck_assert_int_eq(lim.blunder, ladder_want[n].blunder);
		ck_assert_int_eq(lim.slip_margin, ladder_want[n].margin);
		ck_assert_ptr_eq(lim.eval, ladder_want[n].classic ? &ow_eval_classic : NULL);
		ck_assert_int_eq(lim.no_quiescence, ladder_want[n].classic);
		ck_assert_uint_eq(lim.seed, 77);
		ck_assert_uint_eq(lim.time_ms, 0);
		/* every step below hard is bounded by depth or nodes */
		ck_assert(n == OW_LADDER_HARD || lim.depth > 0 || lim.nodes > 0);
	}
	for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++) {
		ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER + legacy[i][0], 5, NULL, NULL, 0), 0);
		ck_assert_int_eq(ow_search_level(&old, legacy[i][1], 5, NULL, NULL, 0), 0);
		assert_same_limits(&lim, &old);
		ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER + legacy[i][0], 5, fake_clock,
		                                 NULL, 1000), 0);
		ck_assert_int_eq(ow_search_level(&old, legacy[i][1], 5, fake_clock, NULL, 1000), 0);
		assert_same_limits(&lim, &old);
	}
	ck_assert_uint_eq(lim.time_ms, 1000); /* hard, by the clock */
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER, 1, NULL, NULL, 0), -1);
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER + OW_LADDER_LEVELS + 1, 1, NULL,
	                                 NULL, 0), -1);
	ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER - 1, 1, NULL, NULL, 0), -1);
}
END_TEST

/* Each step from random positions: the same seed and a cleared table give
 * the same result; the search stays within the step's depth and node
 * budget (its own, or the full width of its depth); other seeds change
 * some moves of the steps with a spread. Hard (2,000,000 nodes) from a
 * few positions only. */
START_TEST(test_ladder_deterministic_and_bounded)
{
	uint64_t rng = 4242;
	int differ[OW_LADDER_LEVELS + 1] = {0}, tried[OW_LADDER_LEVELS + 1] = {0};

	for (int t = 0; t < 360; t++) {
		ow_game g = random_game(&rng);
		int n = 1 + t % OW_LADDER_LEVELS;
		ow_search_limits lim;
		ow_search_result a, b;
		uint64_t bound;

		if (g.end != OW_END_NONE || (n == OW_LADDER_HARD && tried[n] >= 3))
			continue;
		tried[n]++;
		ck_assert_int_eq(ow_search_level(&lim, OW_LEVEL_LADDER + n, (uint32_t)t, NULL, NULL, 0), 0);
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &a), 0);
		ow_tt_clear(tt, TT_N);
		ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &b), 0);
		ck_assert_int_eq(a.move, b.move);
		ck_assert_int_eq(a.score, b.score);
		ck_assert_int_eq(a.depth, b.depth);
		ck_assert_uint_eq(a.nodes, b.nodes);
		ck_assert_int_eq(a.npv, b.npv);
		ck_assert_mem_eq(a.pv, b.pv, (size_t)a.npv);
		ck_assert_int_eq(ow_pos_check(&g.pos, a.move), OW_OK);
		ck_assert_int_ge(a.depth, 1);
		if (lim.depth)
			ck_assert_int_le(a.depth, lim.depth);
		bound = lim.nodes ? lim.nodes : full_width(lim.depth);
		ck_assert_msg(a.nodes <= bound || (a.depth == 1 && a.nodes <= 200),
		              "level %d: %llu nodes, budget %llu", n,
		              (unsigned long long)a.nodes, (unsigned long long)bound);
		if (lim.noise) {
			for (uint32_t seed = 1000; seed < 1006; seed++) {
				lim.seed = seed;
				ow_tt_clear(tt, TT_N);
				ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &b), 0);
				differ[n] += b.move != a.move;
			}
		}
	}
	for (int n = 1; n <= OW_LADDER_LEVELS; n++) {
		ow_search_limits lim;

		ck_assert_int_gt(tried[n], 0);
		ow_search_level(&lim, OW_LEVEL_LADDER + n, 1, NULL, NULL, 0);
		if (lim.noise)
			ck_assert_msg(differ[n] > 0, "level %d: the seed changes nothing", n);
	}
}
END_TEST

/* Minimax over ow_game_play with leaves valued by ow_search_eval with w
 * (all-zero weights: OW_SEARCH_SEED a seed ahead) and the search's end
 * values: the exact value the search must return at depths without
 * reductions (1 and 2). A leaf is quiescent: its side to move keeps the
 * evaluation or plays a capture, whichever is better for it, until no
 * capture is left. */
static int quiesce_ref = 1; /* 0: leaves as they stand (no_quiescence) */

static int material_ref(const ow_game *g, int depth, int ply, const ow_eval_weights *w)
{
	int best = -OW_SEARCH_WIN - 1, me = g->pos.turn;

	if (g->end != OW_END_NONE)
		return g->winner == OW_DRAW ? 0 : g->winner == me ? OW_SEARCH_WIN - ply
		                                                 : -(OW_SEARCH_WIN - ply);
	if (depth == 0)
		best = ow_search_eval(&g->pos, w);
	for (int m = 0; m < OW_PITS; m++) {
		ow_game c = *g;
		int v;

		if (ow_game_play(&c, m, NULL))
			continue;
		if (depth == 0 && (!quiesce_ref || c.pos.captured[me] == g->pos.captured[me]))
			continue;
		v = -material_ref(&c, depth ? depth - 1 : 0, ply + 1, w);
		if (v > best)
			best = v;
	}
	return best;
}

/* Random positions searched to depths 1 and 2 with weights w: the score is
 * material_ref's, and so is the value of the move played. Returns how
 * many depth-1 scores were above 0. */
static int check_like_minimax(const ow_eval_weights *w, uint64_t rng, int positions)
{
	int above = 0;

	for (int t = 0; t < positions; t++) {
		ow_game g = random_game(&rng);

		if (g.end != OW_END_NONE)
			continue;
		for (int d = 1; d <= 2; d++) {
			ow_search_limits lim = {0};
			ow_search_result r;
			ow_game c = g;
			int want = material_ref(&g, d, 0, w);

			lim.depth = d;
			lim.eval = w;
			lim.no_quiescence = !quiesce_ref;
			ow_tt_clear(tt, TT_N);
			ck_assert_int_eq(ow_search(&g, &lim, tt, TT_N, &r), 0);
			ck_assert_msg(r.score == want, "position %d depth %d: %d, want %d",
			              t, d, r.score, want);
			ck_assert_int_eq(ow_game_play(&c, r.move, NULL), OW_OK);
			ck_assert_int_eq(-material_ref(&c, d - 1, 1, w), want);
			above += d == 1 && want > 0;
		}
	}
	return above;
}

/* Set positions where seeds can be won (or must be defended): at depths 1
 * and 2 the search takes the most seeds there are, exactly as minimax. */
START_TEST(test_wins_the_most_seeds)
{
	static const ow_eval_weights material; /* all 0: captures only */

	ck_assert_int_gt(check_like_minimax(&material, 2024, 1500), 100);
	/* without the quiescence search, as easy and medium: plain minimax */
	quiesce_ref = 0;
	ck_assert_int_gt(check_like_minimax(&material, 2025, 600), 50);
	quiesce_ref = 1;
}
END_TEST

/* The same with the default evaluation (its table, as the search reads it,
 * is ow_search_eval's), and with the four per-side weights alone. */
START_TEST(test_evaluation_like_minimax)
{
	static const ow_eval_weights four = {.held = 2, .target = 6, .kroo = 3, .empty = -16};

	static ow_eval_weights t;
	ow_pos p;

	/* The table by row (the mover's first), pit (from each owner's
	 * first) and seeds (15 and more on the last entry). */
	ow_pos_start(&p);
	p.turn = OW_NORTH;
	p.pits[7] = 20;            /* North's B: the mover's pit 1 */
	p.pits[3] = 0;             /* South's d: the opponent's pit 3 */
	p.pits[0] = 8;
	p.captured[OW_NORTH] = 2;  /* (the sum need not be 48 here) */
	p.captured[OW_SOUTH] = 0;
	t.table[0][1][15] = 100;
	t.table[0][0][4] = 1;
	t.table[1][3][0] = -1000;
	t.table[1][0][8] = 10;
	ck_assert_int_eq(ow_search_eval(&p, &t), 2 * OW_SEARCH_SEED + 100 + 1 - 1000 + 10);
	t.held = 1;
	ck_assert_int_eq(ow_search_eval(&p, &t),
	                 2 * OW_SEARCH_SEED + 100 + 1 - 1000 + 10 + (4 * 5 + 20) - (8 + 4 * 4));
	ck_assert_int_gt(check_like_minimax(NULL, 77, 600), 50);
	ck_assert_int_gt(check_like_minimax(&four, 78, 600), 50);
}
END_TEST

/* No table at all works too, and finds the same win. */
START_TEST(test_without_table)
{
	const int pits[OW_PITS] = {2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3};
	ow_game g = game_of(pits, 23, 18, OW_SOUTH);
	ow_search_limits lim = {0};
	ow_search_result r;

	lim.depth = 8;
	ck_assert_int_eq(ow_search(&g, &lim, NULL, 0, &r), 0);
	ck_assert_int_eq(r.move, 5);
	ck_assert_int_eq(r.score, OW_SEARCH_WIN - 1);
}
END_TEST

static Suite *search_suite(void)
{
	Suite *s = suite_create("search");
	TCase *wins = tcase_create("wins");
	TCase *rules = tcase_create("rules");
	TCase *limits = tcase_create("limits");

	tcase_add_test(wins, test_finds_winning_capture);
	tcase_add_test(wins, test_grand_slam_is_no_win);
	tcase_add_test(wins, test_finds_forced_wins_like_reference);
	tcase_add_test(wins, test_without_table);
	tcase_add_test(wins, test_wins_the_most_seeds);
	tcase_add_test(wins, test_evaluation_like_minimax);
	tcase_add_test(rules, test_never_an_illegal_move);
	tcase_add_test(rules, test_repetition_end);
	tcase_add_test(rules, test_move_limit_end);
	tcase_add_test(rules, test_history_decides);
	tcase_add_test(rules, test_egdb_small_boards_solved_independently);
	tcase_add_test(rules, test_egdb_refuses_damage);
	tcase_add_test(rules, test_egdb_agrees_with_search);
	tcase_add_test(limits, test_node_budget);
	tcase_add_test(limits, test_time_budget);
	tcase_add_test(limits, test_reproducible);
	tcase_add_test(limits, test_levels);
	tcase_add_test(limits, test_ladder_levels);
	tcase_add_test(limits, test_ladder_deterministic_and_bounded);
	tcase_add_test(limits, test_key_layout);
	tcase_set_timeout(wins, 300);
	tcase_set_timeout(rules, 300);
	tcase_set_timeout(limits, 300);
	suite_add_tcase(s, wins);
	suite_add_tcase(s, rules);
	suite_add_tcase(s, limits);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(search_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
