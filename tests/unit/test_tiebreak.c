/* test_tiebreak.c: Check unit tests of the tie-breaks of the FIDE
 * Tie-Break Regulations of 2024 (C.07, server/rules/event.h's
 * ev_standings_of) against the worked examples of IA Mario Held's
 * "Exercises in Tie-Breaking" (FIDE Arbiters' Commission, for C.07 as
 * applied from 2023 and 2024; rev. 2403220900): its 16-player, 5-round
 * Swiss (exercises 1-8, 11, 12 and 27: Buchholz, Cut-1,
 * Sonneborn-Berger, wins, with half-point, zero-point and
 * pairing-allocated byes, forfeits and a withdrawal), its 6-player round
 * robin (14, 16, 26: Sonneborn-Berger, Koya, the direct encounter with
 * a forfeit) and its 9-round Swiss (25: the direct encounter of groups
 * not all of whom met). The crosstables are the paper's; the answers
 * are its answers. And docs/events.md's worked example, under both rule
 * sets. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/event.h"

/* quarter points, as the standings hold them */
#define Q(x) ((int)((x) * 4))

/* A crosstable into pe: row i is starting rank i + 1's rounds, each
 * "<opponent><w|b|-><result>" ("10b1", "9w+", "0-H"; opponent 0: none). */
static void crosstable(pair_event *pe, int n, const char *const *rows)
{
	memset(pe, 0, sizeof *pe);
	pe->nplayers = n;
	for (int i = 0; i < n; i++) {
		const char *c = rows[i];
		int r = 0;
		while (*c) {
			char *end;
			long opp = strtol(c, &end, 10);
			ck_assert_ptr_ne(end, c);
			pair_game *g = &pe->p[i].rounds[r++];
			g->opp = (int16_t)(opp - 1);
			g->color = end[0] == 'w' ? PAIR_WHITE : end[0] == 'b' ? PAIR_BLACK : PAIR_NOCOLOR;
			g->result = end[1];
			c = end + 2;
			while (*c == ' ')
				c++;
		}
		pe->p[i].nrounds = r;
		pe->total_rounds = r;
	}
}

static const ev_standing *row_of(const ev_standing *st, int n, int number)
{
	for (int i = 0; i < n; i++)
		if (st[i].number == number)
			return &st[i];
	ck_abort_msg("no standing for %d", number);
	return NULL;
}

/* The paper's 16-player, 5-round Swiss (its crosstable, by starting
 * rank): H, U, Z byes, forfeits, and 12 gone after round 3. */
static const char *const swiss5[16] = {
	"9w1 13b= 2w= 15b1 4w=",
	"10b1 7w1 1b= 16w1 3b=",
	"11w= 6b1 8w1 4b= 2w=",
	"12b1 0-H 13w1 3w= 1b=",
	"13w0 15b0 11w1 7b= 10w1",
	"14b0 3w0 0-U 10w1 8b1",
	"15w1 2b0 16b0 5w= 11b0",
	"16b= 14w1 3b0 13w1 6w0",
	"1b0 10w0 0-H 11b- 0-U",
	"2w0 9b1 15w0 6b0 5b0",
	"3b= 16w0 5b0 9w+ 7w1",
	"4w0 0-U 14w+ 0-Z 0-Z",
	"5b1 1w= 4b0 8b0 14w0",
	"6w1 8b0 12b- 0-Z 13b1",
	"7b0 5w1 10b1 1w0 16b0",
	"8w= 11b1 7w1 2b0 15w1",
};

/* Exercises 1-4 (BH), 5-8 (BH-C1), 11-12 (SB) and 27 (WIN): every
 * player's value as the paper gives it. */
START_TEST(test_held_swiss_buchholz_cut1_sonneborn_berger)
{
	static const double bh[16] = { 12.5, 13, 15.5, 15, 8.5, 12, 14.5, 13.5, 9, 13, 13.5,
		11.5, 14, 11, 12, 12.5 };
	static const double c1[16] = { 11, 12, 13, 11.5, 7.5, 11, 12.5, 12, 7.5, 11.5, 12,
		9.5, 12, 9, 11, 11 };
	static const double sb[16] = { 8, 9.5, 10.5, 9.75, 4.25, 6.5, 3.25, 5.25, 2.25, 1.5,
		5.75, 4, 4.25, 4.5, 3.5, 7.25 };
	pair_event *pe = malloc(sizeof *pe);
	ev_standing st[16];
	crosstable(pe, 16, swiss5);
	ck_assert_int_eq(ev_standings_of(pe, 5, EV_SWISS, EV_RULES_2025, NULL, st), 16);
	for (int n = 1; n <= 16; n++) {
		const ev_standing *s = row_of(st, 16, n);
		ck_assert_msg(s->tb[0] == Q(c1[n - 1]), "BH-C1 of %d: %d/4", n, s->tb[0]);
		ck_assert_msg(s->tb[1] == Q(bh[n - 1]), "BH of %d: %d/4", n, s->tb[1]);
		ck_assert_msg(s->tb[3] == Q(sb[n - 1]), "SB of %d: %d/4", n, s->tb[3]);
	}
	/* Exercise 7, by hand: David (4) had a half-point bye in round 2,
	 * followed by games: his opponents count it as awarded (16.3.1); he
	 * counts a dummy of his own 3½ (16.4), and that VUR's value is the
	 * one Cut-1 cuts (16.5): 3 (Nick, whose Z in rounds 4 and 5 count
	 * as draws, 16.3.2) + 3½ + 1½ + 3½ + 3½ = 15, less 3½. */
	ck_assert_int_eq(row_of(st, 16, 4)->tb[0], Q(11.5));
	/* Exercise 27: the number of wins, byes and forfeits won counted. */
	static const int win[16] = { 2, 3, 2, 2, 2, 3, 1, 2, 1, 1, 2, 2, 1, 2, 2, 3 };
	ck_assert_int_eq(ev_standings_of(pe, 5, EV_ROUND_ROBIN, EV_RULES_2025, NULL, st), 16);
	for (int n = 1; n <= 16; n++)
		ck_assert_msg(row_of(st, 16, n)->tb[1] == 4 * win[n - 1], "WIN of %d", n);
	free(pe);
}
END_TEST

/* The paper's 6-player round robin: 5 forfeited to 6 in round 4. */
static const char *const rr6[6] = {
	"5w= 2w1 3b1 4w0 6b1",
	"6w1 1b0 5w1 3w= 4b1",
	"4w1 6b1 1w0 2b= 5w1",
	"3b0 5b0 6w= 1b1 2w0",
	"1b= 4w1 2b0 6w- 3b0",
	"2b0 3w0 4b= 5b+ 1w0",
};

/* Exercises 14 (SB), 16 (KS) and 26 (DE): a round robin counts the
 * forfeit as a game (Art. 15.2). DE parts 1, 2, 3 on 3½ (1 beat both,
 * 2 and 3 drew: ranked again between them, they stay level) and 6, 5, 4
 * on 1½ (6 1½, 5 1, 4 ½). A DE value: the tied players it places below. */
START_TEST(test_held_round_robin_sb_koya_direct_encounter)
{
	static const double sb[6] = { 9.25, 6.25, 6.25, 4.25, 3.25, 2.25 };
	static const double ks[6] = { 2, 0.5, 0.5, 1, 0.5, 0 };
	static const double de[6] = { 2, 0, 0, 0, 1, 2 };
	static const int place[6] = { 1, 2, 2, 6, 5, 4 };
	pair_event *pe = malloc(sizeof *pe);
	ev_standing st[6];
	crosstable(pe, 6, rr6);
	ck_assert_int_eq(ev_standings_of(pe, 5, EV_ROUND_ROBIN, EV_RULES_2025, NULL, st), 6);
	for (int n = 1; n <= 6; n++) {
		const ev_standing *s = row_of(st, 6, n);
		ck_assert_msg(s->tb[0] == Q(de[n - 1]), "DE of %d: %d/4", n, s->tb[0]);
		ck_assert_msg(s->tb[2] == Q(sb[n - 1]), "SB of %d: %d/4", n, s->tb[2]);
		ck_assert_msg(s->tb[3] == Q(ks[n - 1]), "KS of %d: %d/4", n, s->tb[3]);
	}
	/* The places DE alone gives (the paper's): 2 and 3 are parted only
	 * later, by WIN (2 has 3, 3 has 3) and SB (equal): they share 2-3. */
	for (int n = 1; n <= 6; n++)
		ck_assert_int_eq(row_of(st, 6, n)->place, place[n - 1]);
	ck_assert_int_eq(row_of(st, 6, 2)->place_last, 3);
	free(pe);
}
END_TEST

/* The paper's 16-player, 9-round Swiss (the 5-round one played on). */
static const char *const swiss9[16] = {
	"9w1 13b= 2w= 15b1 4w= 6b= 3b= 16w= 8b1",
	"10b1 7w1 1b= 16w1 3b1 4w= 6w0 15b= 5w=",
	"11w= 6b1 8w1 4b= 2w0 16b1 1w= 14w1 10b1",
	"12b1 0-H 13w1 3w= 1b= 2b= 16w= 6b= 15w1",
	"13w0 15b0 11w1 7b= 10w1 14b0 9b1 8w0 2b=",
	"14b0 3w0 0-U 10w1 8b1 1w= 2b1 4w= 16b1",
	"15w1 2b0 16b0 5w= 11b0 10b0 13w1 9w1 14b1",
	"16b= 14w1 3b0 13w1 6w0 11b= 15w= 5b1 1w0",
	"1b0 10w0 0-H 11b- 0-U 13b1 5w0 7b0 12w=",
	"2w0 9b1 15w0 6b0 5b0 7w1 12b1 11w1 3w0",
	"3b= 16w0 5b0 9w+ 7w1 8w= 14b0 10b0 13w=",
	"4w0 0-U 14w+ 0-Z 0-Z 15b0 10w0 13b= 9b=",
	"5b1 1w= 4b0 8b0 14w0 9w0 7b0 12w= 11b=",
	"6w1 8b0 12b- 0-Z 13b1 5w1 11w1 3b0 7w0",
	"7b0 5w1 10b1 1w0 16b0 12w1 8b= 2w= 4b0",
	"8w= 11b1 7w1 2b0 15w1 3w0 4b= 1b= 6w0",
};

/* Exercise 25: DE as the first tie-break (the round robin's list, which
 * starts with it; no forfeit lies within a tied group, so it counts the
 * same games a Swiss would). On 6: 1, 2, 4, 6 all met (6.2): 6 2, 1 and
 * 4 1½ (they drew: level), 2 1. On 4½ 7, 8, 16 have not all met (6.3):
 * 16's 1½ could still be reached by 8 (½ + a win over 7): none placed.
 * On 4 5, 10, 14, 15: 15's 2 by 14 (1 + 2 wins): none placed. On 3 9
 * and 12 drew: level. */
START_TEST(test_held_swiss_direct_encounter)
{
	static const double de[16] = { 1, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const int place[16] = { 3, 5, 1, 3, 9, 2, 6, 6, 14, 9, 13, 14, 16, 9, 9, 6 };
	pair_event *pe = malloc(sizeof *pe);
	ev_standing st[16];
	crosstable(pe, 16, swiss9);
	ck_assert_int_eq(ev_standings_of(pe, 9, EV_ROUND_ROBIN, EV_RULES_2025, NULL, st), 16);
	for (int n = 1; n <= 16; n++) {
		const ev_standing *s = row_of(st, 16, n);
		ck_assert_msg(s->tb[0] == Q(de[n - 1]), "DE of %d: %d/4", n, s->tb[0]);
		/* the paper's place after points and DE: the first of the
		 * places the later tie-breaks may still spread */
		int before = 0, tied = 0;
		for (int m = 0; m < 16; m++) {
			before += st[m].points > s->points ||
			          (st[m].points == s->points && st[m].tb[0] > s->tb[0]);
			tied += st[m].points == s->points && st[m].tb[0] == s->tb[0];
		}
		ck_assert_msg(before + 1 == place[n - 1], "place of %d: %d", n, before + 1);
		ck_assert_int_ge(tied, 1);
	}
	free(pe);
}
END_TEST

/* Art. 6 applies again to those it leaves level. 6.2: 1, 2, 3, 4 tie on
 * 2 points and all met: 1 scored 2 among them, 2 and 4 1½, 3 1; ranked
 * again between them, 2 beat 4. 6.3: in the second, 1, 2, 3, 4 tie on
 * 2½ but 1 and 4 have not met: 1's 2 is out of the others' reach (2 1,
 * 3 1½, 4 ½ + a win over 1), so 1 is placed, and among 2, 3, 4, who all
 * met, 3 scored 1½, 2 1, 4 ½. Values: the tied players placed below. */
static const char *const de_again[6] = {
	"2w1 3w= 4w= 5w0 0-Z",
	"1b0 4w1 3b= 6w= 0-Z",
	"4w0 1b= 2w= 0-Z 5w1",
	"3b1 2b0 1b= 0-Z 6w=",
	"6w= 0-Z 0-Z 1b1 3b0",
	"5b= 0-Z 0-Z 2b= 4b=",
};
static const char *const de_reach[8] = {
	"2w1 3w1 5w0 6w0 7w=",
	"1b0 4w1 3b0 5b1 8b=",
	"4w= 1b0 2w1 7w1 6b0",
	"3b= 2b0 6w1 8w1 5w0",
	"6w= 7w= 1b1 2w0 4b1",
	"5b= 8w= 4b0 1b1 3w1",
	"8w= 5b= 0-Z 3b0 1b=",
	"7b= 6b= 0-Z 4b0 2w=",
};

START_TEST(test_direct_encounter_ranks_again)
{
	static const int again[6] = { 3, 2, 0, 1, 0, 0 }, reach[8] = { 3, 1, 2, 0, 0, 0, 0, 0 };
	pair_event *pe = malloc(sizeof *pe);
	ev_standing st[8];
	crosstable(pe, 6, de_again);
	ck_assert_int_eq(ev_standings_of(pe, 5, EV_ROUND_ROBIN, EV_RULES_2025, NULL, st), 6);
	for (int n = 1; n <= 6; n++)
		ck_assert_msg(row_of(st, 6, n)->tb[0] == 4 * again[n - 1], "6.2: DE of %d: %d/4",
			n, row_of(st, 6, n)->tb[0]);
	ck_assert_int_eq(st[0].number, 1);
	ck_assert_int_eq(st[1].number, 2);
	ck_assert_int_eq(st[2].number, 4);
	ck_assert_int_eq(st[3].number, 3);
	crosstable(pe, 8, de_reach);
	ck_assert_int_eq(ev_standings_of(pe, 5, EV_ROUND_ROBIN, EV_RULES_2025, NULL, st), 8);
	for (int n = 1; n <= 8; n++)
		ck_assert_msg(row_of(st, 8, n)->tb[0] == 4 * reach[n - 1], "6.3: DE of %d: %d/4",
			n, row_of(st, 8, n)->tb[0]);
	free(pe);
}
END_TEST

/* docs/events.md's worked example ("Standings"): 6 players, 3 rounds; 6
 * enters late (H in round 1) and forfeits round 2; 3 and then 6 get the
 * pairing-allocated bye; 5 withdraws after round 2 (Z). Each tie-break
 * under both rule sets, as the document gives them. */
static const char *const docs6[6] = {
	"4w1 3b1 2w=",
	"5w= 6w+ 1b=",
	"0-U 1w0 4b1",
	"1b0 5w1 3w0",
	"2b= 4b0 0-Z",
	"0-H 2b- 0-U",
};

START_TEST(test_docs_worked_example_both_rule_sets)
{
	/* by starting rank: points, BH-C1, BH, SB (and DE 0 for all) */
	static const double y2024[6][4] = {
		{ 2.5, 4, 5, 4 }, { 2, 4.5, 5.5, 3.75 }, { 2, 4.5, 5.5, 3 },
		{ 1, 4.5, 5.5, 1 }, { 0.5, 3, 3.5, 1 }, { 1.5, 3, 4.5, 2.25 },
	};
	static const double y2017[6][4] = {
		{ 2.5, 3, 4, 3.25 }, { 2, 3.5, 4.5, 2.75 }, { 2, 3.5, 4.5, 2 },
		{ 1, 4, 5, 1 }, { 0.5, 3, 4, 0.75 }, { 1.5, 3.5, 4, 1.25 },
	};
	static const int order[6] = { 1, 2, 3, 6, 4, 5 };
	pair_event *pe = malloc(sizeof *pe);
	ev_standing st[6];
	crosstable(pe, 6, docs6);
	ck_assert_int_eq(ev_standings_of(pe, 3, EV_SWISS, EV_RULES_2025, NULL, st), 6);
	for (int n = 1; n <= 6; n++) {
		const ev_standing *s = row_of(st, 6, n);
		ck_assert_int_eq(st[n - 1].number, order[n - 1]);
		ck_assert_int_eq(s->points, Q(y2024[n - 1][0]));
		ck_assert_msg(s->tb[0] == Q(y2024[n - 1][1]), "2024 BH-C1 of %d: %d/4", n, s->tb[0]);
		ck_assert_msg(s->tb[1] == Q(y2024[n - 1][2]), "2024 BH of %d: %d/4", n, s->tb[1]);
		ck_assert_int_eq(s->tb[2], 0);
		ck_assert_msg(s->tb[3] == Q(y2024[n - 1][3]), "2024 SB of %d: %d/4", n, s->tb[3]);
	}
	ck_assert_int_eq(ev_standings_of(pe, 3, EV_SWISS, EV_RULES_2017, NULL, st), 6);
	for (int n = 1; n <= 6; n++) {
		const ev_standing *s = row_of(st, 6, n);
		ck_assert_int_eq(st[n - 1].number, order[n - 1]);
		ck_assert_msg(s->tb[0] == Q(y2017[n - 1][1]), "2017 BH-C1 of %d: %d/4", n, s->tb[0]);
		ck_assert_msg(s->tb[1] == Q(y2017[n - 1][2]), "2017 BH of %d: %d/4", n, s->tb[1]);
		ck_assert_msg(s->tb[2] == Q(y2017[n - 1][3]), "2017 SB of %d: %d/4", n, s->tb[2]);
	}
	free(pe);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tiebreak");
	TCase *tc = tcase_create("tiebreak");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_held_swiss_buchholz_cut1_sonneborn_berger);
	tcase_add_test(tc, test_held_round_robin_sb_koya_direct_encounter);
	tcase_add_test(tc, test_held_swiss_direct_encounter);
	tcase_add_test(tc, test_direct_encounter_ranks_again);
	tcase_add_test(tc, test_docs_worked_example_both_rule_sets);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
