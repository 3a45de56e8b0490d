/* test_pairing.c: Check unit tests of the pairing of club events
 * (server/rules/pairing.h) and the Tournament Report File (server/rules/trf.h): the
 * Berger tables against the published ones, the Dutch system against
 * rounds another Dutch program paired (tests/data/pairing/), round 1,
 * colours, the bye, withdrawals, late entries, the last round. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/pair_match.h"
#include "server/rules/pairing.h"
#include "server/rules/trf.h"

#define DATA "tests/data/pairing/"

/* ---- Berger tables ---------------------------------------------------- */

/* The tables as the FIDE Handbook (C.05 Annex 1) prints them: a round a
 * line, "white-black" by board. Typed from the published text. */
static const char *const berger4[] = {
	"1-4 2-3", "4-3 1-2", "2-4 3-1",
};
static const char *const berger6[] = {
	"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1",
};
static const char *const berger10[] = {
	"1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
	"10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
	"4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1",
};
static const char *const berger14[] = {
	"1-14 2-13 3-12 4-11 5-10 6-9 7-8", "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
	"2-14 3-1 4-13 5-12 6-11 7-10 8-9", "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
	"3-14 4-2 5-1 6-13 7-12 8-11 9-10", "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
	"4-14 5-3 6-2 7-1 8-13 9-12 10-11", "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
	"5-14 6-4 7-3 8-2 9-1 10-13 11-12", "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
	"6-14 7-5 8-4 9-3 10-2 11-1 12-13", "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
	"7-14 8-6 9-5 10-4 11-3 12-2 13-1",
};

static void round_text(const pair_board *b, int nb, char *out, size_t cap)
{
	size_t at = 0;
	out[0] = 0;
	for (int i = 0; i < nb; i++) {
		if (b[i].black < 0)
			at += (size_t)snprintf(out + at, cap - at, "%s%d-bye", i ? " " : "", b[i].white + 1);
		else
			at += (size_t)snprintf(out + at, cap - at, "%s%d-%d", i ? " " : "",
				b[i].white + 1, b[i].black + 1);
	}
}

static void check_table(int n, const char *const *table, int rounds)
{
	pair_board b[PAIR_MAX_PLAYERS];
	char text[400];
	ck_assert_int_eq(pair_berger_rounds(n), rounds);
	for (int r = 1; r <= rounds; r++) {
		int nb = pair_berger(n, r, b);
		ck_assert_int_eq(nb, n / 2);
		round_text(b, nb, text, sizeof text);
		ck_assert_msg(!strcmp(text, table[r - 1]), "%d players round %d: %s, published %s",
			n, r, text, table[r - 1]);
	}
}

/* ---- The matching under the Dutch system (server/rules/pair_match.h) ------ */

#define MN 40
static word mw[MN * MN];
static blossom mb_warm, mb_cold;

/* The weight of mate over mw (n vertices), -1 when mate is not a matching
 * of mw's edges. */
static long match_weight(const int *mate, int n)
{
	long sum = 0;
	for (int i = 0; i < n; i++) {
		int j = mate[i];
		if (j < 0 || j >= n || mate[j] != i)
			return -1;
		if (j != i && !mw[i * n + j])
			return -1;
		if (j > i)
			sum += (long)mw[i * n + j];
	}
	return sum;
}

static void set_edge(int n, int i, int j, word v)
{
	mw[i * n + j] = mw[j * n + i] = v;
}

/* Starting again from the last matching after some vertices' edges
 * changed finds a matching as heavy as a solve from scratch, over random
 * graphs, weights and changes (edges added, removed, a pair forced). */
START_TEST(test_match_again_is_as_good_as_anew)
{
	unsigned seed = 12345;
	char changed[MN];
	int warm[MN], cold[MN];
	for (int trial = 0; trial < 60; trial++) {
		int n = 4 + (int)(rand_r(&seed) % (MN - 3));
		memset(mw, 0, sizeof mw);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (rand_r(&seed) % 3)
					set_edge(n, i, j, 1 + rand_r(&seed) % 40);
		pair__match(&mb_warm, mw, n, n, 1, warm);
		for (int step = 0; step < 25; step++) {
			memset(changed, 0, sizeof changed);
			int k = 1 + (int)(rand_r(&seed) % 3);
			for (int c = 0; c < k; c++) {
				int u = (int)(rand_r(&seed) % (unsigned)n);
				changed[u] = 1;
				if (rand_r(&seed) % 4 == 0) {
					/* the pair (u, v) forced: every other edge of both gone */
					int v = (u + 1) % n;
					changed[v] = 1;
					for (int o = 0; o < n; o++)
						if (o != u && o != v) {
							set_edge(n, u, o, 0);
							set_edge(n, v, o, 0);
						}
					set_edge(n, u, v, 1000);
					continue;
				}
				for (int o = 0; o < n; o++)
					if (o != u && rand_r(&seed) % 2)
						set_edge(n, u, o, rand_r(&seed) % 3 ? 1 + rand_r(&seed) % 60 : 0);
			}
			pair__match_again(&mb_warm, changed, warm);
			pair__match(&mb_cold, mw, n, n, 1, cold);
			long ww = match_weight(warm, n), wc = match_weight(cold, n);
			ck_assert_msg(ww >= 0, "trial %d step %d: not a matching", trial, step);
			ck_assert_msg(ww == wc, "trial %d step %d: %ld against %ld from scratch",
				trial, step, ww, wc);
		}
	}
}
END_TEST

/* The heaviest matching of the vertices not in used (a bit set), by
 * trying every partner of the first free one. */
static long brute_force(int n, unsigned used)
{
	int u = 0;
	while (u < n && (used >> u & 1))
		u++;
	if (u == n)
		return 0;
	long best = brute_force(n, used | 1u << u);
	for (int v = u + 1; v < n; v++)
		if (!(used >> v & 1) && mw[u * n + v]) {
			long w = (long)mw[u * n + v] + brute_force(n, used | 1u << u | 1u << v);
			if (w > best)
				best = w;
		}
	return best;
}

/* On small random graphs (ties many: weights 1 to 6) the matching from
 * scratch and the one started again are as heavy as the heaviest found by
 * trying them all. */
START_TEST(test_match_is_the_heaviest_of_all)
{
	unsigned seed = 777;
	char changed[MN];
	int mate[MN];
	for (int trial = 0; trial < 300; trial++) {
		int n = 2 + (int)(rand_r(&seed) % 11);
		memset(mw, 0, sizeof mw);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (rand_r(&seed) % 4)
					set_edge(n, i, j, 1 + rand_r(&seed) % 6);
		pair__match(&mb_cold, mw, n, n, 1, mate);
		ck_assert_int_eq(match_weight(mate, n), brute_force(n, 0));
		memset(changed, 0, sizeof changed);
		int u = (int)(rand_r(&seed) % (unsigned)n);
		changed[u] = 1;
		for (int o = 0; o < n; o++)
			if (o != u)
				set_edge(n, u, o, rand_r(&seed) % 2 ? 1 + rand_r(&seed) % 6 : 0);
		pair__match_again(&mb_cold, changed, mate);
		ck_assert_int_eq(match_weight(mate, n), brute_force(n, 0));
	}
}
END_TEST

START_TEST(test_berger_published_tables)
{
	check_table(4, berger4, 3);
	check_table(6, berger6, 5);
	check_table(10, berger10, 9);
	check_table(14, berger14, 13);
}
END_TEST

/* An odd field plays the table of the next even size; the player drawn
 * against the extra number has the bye. */
START_TEST(test_berger_odd_field_bye)
{
	pair_board b[PAIR_MAX_PLAYERS];
	char text[200];
	ck_assert_int_eq(pair_berger_rounds(5), 5);
	ck_assert_int_eq(pair_berger(5, 1, b), 3);
	round_text(b, 3, text, sizeof text);
	ck_assert_str_eq(text, "2-5 3-4 1-bye");
	ck_assert_int_eq(pair_berger(5, 2, b), 3);
	round_text(b, 3, text, sizeof text);
	ck_assert_str_eq(text, "5-3 1-2 4-bye");
	int byes[5] = { 0 };
	for (int r = 1; r <= 5; r++) {
		int nb = pair_berger(5, r, b);
		ck_assert_int_eq(b[nb - 1].black, -1);
		byes[b[nb - 1].white]++;
	}
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(byes[i], 1);
}
END_TEST

/* Every field size: each pair meets once a cycle, every player plays every
 * round or has the bye, colours differ by at most one over the cycle, and
 * the second cycle is the first with the colours swapped. */
START_TEST(test_berger_every_pair_once_and_second_cycle)
{
	static int met[PAIR_MAX_PLAYERS][PAIR_MAX_PLAYERS];
	pair_board b[PAIR_MAX_PLAYERS], b2[PAIR_MAX_PLAYERS];
	for (int n = 2; n <= 40; n++) {
		int rounds = pair_berger_rounds(n);
		int whites[PAIR_MAX_PLAYERS] = { 0 };
		memset(met, 0, sizeof met);
		for (int r = 1; r <= rounds; r++) {
			int nb = pair_berger(n, r, b);
			ck_assert_int_eq(nb, (n + 1) / 2);
			int seen[PAIR_MAX_PLAYERS] = { 0 };
			for (int i = 0; i < nb; i++) {
				seen[b[i].white]++;
				if (b[i].black < 0)
					continue;
				seen[b[i].black]++;
				met[b[i].white][b[i].black]++;
				met[b[i].black][b[i].white]++;
				whites[b[i].white]++;
			}
			for (int p = 0; p < n; p++)
				ck_assert_int_eq(seen[p], 1);
			ck_assert_int_eq(pair_berger(n, rounds + r, b2), nb);
			for (int i = 0; i < nb; i++) {
				if (b[i].black < 0) {
					ck_assert_int_eq(b2[i].white, b[i].white);
					ck_assert_int_eq(b2[i].black, -1);
				} else {
					ck_assert_int_eq(b2[i].white, b[i].black);
					ck_assert_int_eq(b2[i].black, b[i].white);
				}
			}
		}
		for (int p = 0; p < n; p++) {
			for (int q = 0; q < n; q++)
				ck_assert_int_eq(met[p][q], p != q);
			int games = n % 2 ? n - 1 : n - 1;
			ck_assert_int_le(abs(2 * whites[p] - games), 1);
		}
	}
	ck_assert_int_eq(pair_berger(1, 1, b), PAIR_ERANGE);
	ck_assert_int_eq(pair_berger(6, 0, b), PAIR_ERANGE);
	ck_assert_int_eq(pair_berger(6, 11, b), PAIR_ERANGE);
	ck_assert_int_eq(pair_berger(PAIR_MAX_PLAYERS + 1, 1, b), PAIR_ERANGE);
}
END_TEST

/* ---- TRF ------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static char buf[1 << 20];
	*len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[*len] = 0;
	return buf;
}

static trf_file tf, tf2;

START_TEST(test_trf_read_columns)
{
	static const char text[] =
		"012 Thursday club Swiss\r\n"
		"XXR 5\r\n"
		"XXC black1\r\n"
		"001    1      Ama Mensah                        1820                             1.5    1     3 w 1  0000 - H\r\n"
		"001    2      Kofi Boateng                      1700                             1.0    2  0000 - U     3 b 0\r\n"
		"001    3      Yaa Asantewaa                        0                             1.0    3     1 b 0     2 w 1\r\n";
	char err[160];
	ck_assert_int_eq(trf_read(text, sizeof text - 1, &tf, err, sizeof err), 0);
	ck_assert_str_eq(tf.title, "Thursday club Swiss");
	ck_assert_int_eq(tf.ev.nplayers, 3);
	ck_assert_int_eq(tf.ev.total_rounds, 5);
	ck_assert_int_eq(tf.ev.first_color, PAIR_BLACK);
	ck_assert_str_eq(tf.names[1], "Kofi Boateng");
	ck_assert_int_eq(tf.ev.p[0].rating, 1820);
	ck_assert_int_eq(tf.ev.p[2].rating, 0);
	ck_assert_int_eq(tf.ev.p[0].nrounds, 2);
	ck_assert_int_eq(tf.ev.p[0].rounds[0].opp, 2);
	ck_assert_int_eq(tf.ev.p[0].rounds[0].color, PAIR_WHITE);
	ck_assert_int_eq(tf.ev.p[0].rounds[0].result, '1');
	ck_assert_int_eq(tf.ev.p[0].rounds[1].opp, -1);
	ck_assert_int_eq(tf.ev.p[0].rounds[1].result, 'H');
	ck_assert_int_eq(tf.ev.p[1].rounds[0].result, 'U');
	ck_assert_int_eq(pair_score_halves(&tf.ev.p[0], 2), 3);
	ck_assert_int_eq(pair_score_halves(&tf.ev.p[1], 2), 2);
	ck_assert_int_eq(pair_rounds_played(&tf.ev), 2);
	/* a name is left-aligned: blanks before it are not part of it */
	static const char shifted[] =
		"001    1        Ama Mensah                      1820                             0.0    1\n";
	ck_assert_int_eq(trf_read(shifted, sizeof shifted - 1, &tf, err, sizeof err), 0);
	ck_assert_str_eq(tf.names[0], "Ama Mensah");
	/* a reason quotes a byte that is not printable as \xNN */
	static const char bad[] =
		"001    1      A                                    0                             0.0    1     2 \x80 1\n";
	ck_assert_int_eq(trf_read(bad, sizeof bad - 1, &tf, err, sizeof err), PAIR_EINVAL);
	ck_assert_str_eq(err, "line 1: colour '\\x80'");
}
END_TEST

START_TEST(test_trf_write_then_read_is_the_same)
{
	size_t len;
	char *text = slurp(DATA "late_entry_withdrawal.trf", &len);
	char err[160];
	ck_assert_int_eq(trf_read(text, len, &tf, err, sizeof err), 0);
	static char out[1 << 16], out2[1 << 16];
	size_t n = trf_write(&tf, out, sizeof out);
	ck_assert_uint_lt(n, sizeof out);
	ck_assert_uint_eq(strlen(out), n);
	ck_assert_int_eq(trf_read(out, n, &tf2, err, sizeof err), 0);
	ck_assert_int_eq(memcmp(&tf.ev, &tf2.ev, sizeof tf.ev), 0);
	ck_assert_int_eq(memcmp(tf.names, tf2.names, sizeof tf.names), 0);
	size_t n2 = trf_write(&tf2, out2, sizeof out2);
	ck_assert_uint_eq(n2, n);
	ck_assert_str_eq(out2, out);
	/* the fixed columns: points at 81-84, round 1 at 92-99 */
	const char *p1 = strstr(out, "\n001    1 ");
	ck_assert_ptr_nonnull(p1);
	ck_assert_int_eq(memcmp(p1 + 1 + 80, " 1.0", 4), 0);
	ck_assert_int_eq(memcmp(p1 + 1 + 91, "   2 w 1", 8), 0);
	/* too small a buffer: the length it needs, and a terminated prefix */
	char small[40];
	ck_assert_uint_eq(trf_write(&tf, small, sizeof small), n);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
}
END_TEST

START_TEST(test_trf_bad_input_is_an_error)
{
	static const struct {
		const char *text;
		int rc;
	} bad[] = {
		/* a colour that is not w, b or - */
		{ "001    1      A                                    0                             1.0    1     2 x 1\n"
		  "001    2      B                                    0                             0.0    2     1 b 0\n", PAIR_EINVAL },
		/* opponents that do not point at each other */
		{ "001    1      A                                    0                             1.0    1     2 w 1\n"
		  "001    2      B                                    0                             0.0    2  0000 - Z\n", PAIR_EINVAL },
		/* both white */
		{ "001    1      A                                    0                             1.0    1     2 w 1\n"
		  "001    2      B                                    0                             0.0    2     1 w 0\n", PAIR_EINVAL },
		/* a starting rank out of range */
		{ "001 9999      A                                    0                             0.0    1\n", PAIR_ERANGE },
		/* an opponent with no 001 line */
		{ "001    1      A                                    0                             1.0    1     3 w 1\n", PAIR_EINVAL },
		/* the same rank twice */
		{ "001    1      A                                    0                             0.0    1\n"
		  "001    1      B                                    0                             0.0    1\n", PAIR_EINVAL },
		/* a control character in a name */
		{ "001    1      A\001B                                 0                             0.0    1\n", PAIR_EINVAL },
		/* a colour without an opponent */
		{ "001    1      A                                    0                             1.0    1  0000 w U\n", PAIR_EINVAL },
		/* a result code TRF does not have */
		{ "001    1      A                                    0                             1.0    1     2 w 7\n"
		  "001    2      B                                    0                             0.0    2     1 b 0\n", PAIR_EINVAL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char err[160] = "";
		int rc = trf_read(bad[i].text, strlen(bad[i].text), &tf, err, sizeof err);
		ck_assert_msg(rc == bad[i].rc, "case %zu: %d (%s), want %d", i, rc, err, bad[i].rc);
		ck_assert_msg(err[0], "case %zu: no message", i);
	}
}
END_TEST

/* ---- Dutch system --------------------------------------------------- */

static void *work;
/* The rules the files are paired by: the known answers of bbpPairings
 * 5.0.1 in tests/data/pairing/ are of the 2017 rules, those named
 * dutch2025_* of its dutch-2025 branch. */
static int rules = PAIR_DUTCH_2017;

static int pair_file(const char *path, pair_board *b, char *err)
{
	size_t len;
	char *text = slurp(path, &len);
	ck_assert_int_eq(trf_read(text, len, &tf, err, 160), 0);
	tf.ev.rules = rules;
	int nb = -1;
	int rc = pair_dutch(&tf.ev, work, pair_work_size(PAIR_MAX_PLAYERS), b, &nb, err, 160);
	return rc ? rc : nb;
}

/* pairings as "white-black ... N-bye" by starting rank */
static const char *pair_text(const char *path)
{
	static char text[4000];
	pair_board b[PAIR_MAX_PLAYERS];
	char err[160] = "";
	int nb = pair_file(path, b, err);
	ck_assert_msg(nb >= 0, "%s: %s", path, err);
	round_text(b, nb, text, sizeof text);
	return text;
}

/* the same, paired by rules r */
static const char *pair_text_by(int r, const char *path)
{
	int was = rules;
	rules = r;
	const char *text = pair_text(path);
	rules = was;
	return text;
}

/* The rounds in tests/data/pairing/: random tournaments made and paired
 * by bbpPairings (with draws, forfeits, requested byes, withdrawals), cut
 * before a round, and that round as it paired it (NAME.pairs: the number
 * of boards, then white and black by starting rank, 0 for the bye). */
START_TEST(test_dutch_agrees_with_bbppairings_rounds)
{
	static const char *const cases[] = {
		"swiss5_r3", "swiss9_odd_r4", "swiss12_forfeits_r5", "swiss16_byes_r4",
		"swiss20_withdrawals_r6", "swiss30_last_r7", "swiss45_r5", "swiss64_last_r9",
		"swiss101_r6", "round1_8", "round1_7_odd", "last_round_topscorers",
		"not_last_round", "bye_once", "late_entry_withdrawal", "transposition_d1",
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char path[200], want[4000] = "";
		size_t len, at = 0;
		snprintf(path, sizeof path, DATA "%s.pairs", cases[c]);
		char *p = slurp(path, &len);
		int nb = (int)strtol(p, &p, 10);
		ck_assert_int_gt(nb, 0);
		for (int i = 0; i < nb; i++) {
			int wh = (int)strtol(p, &p, 10), bl = (int)strtol(p, &p, 10);
			if (bl)
				at += (size_t)snprintf(want + at, sizeof want - at, "%s%d-%d", i ? " " : "", wh, bl);
			else
				at += (size_t)snprintf(want + at, sizeof want - at, "%s%d-bye", i ? " " : "", wh);
		}
		snprintf(path, sizeof path, DATA "%s.trf", cases[c]);
		const char *got = pair_text(path);
		ck_assert_msg(!strcmp(got, want), "%s:\n got  %s\n want %s", cases[c], got, want);
	}
}
END_TEST

/* Round 1 (C.04.3 top half against bottom half): 1-5, 6-2, 3-7, 8-4 when
 * number 1 has white; an odd field's lowest number has the bye. */
START_TEST(test_dutch_round1)
{
	ck_assert_str_eq(pair_text(DATA "round1_8.trf"), "1-5 6-2 3-7 8-4");
	ck_assert_str_eq(pair_text(DATA "round1_7_odd.trf"), "1-4 5-2 3-6 7-bye");
	/* XXC black1: every colour the other way */
	size_t len;
	char err[160];
	char *text = slurp(DATA "round1_8.trf", &len);
	ck_assert_int_eq(trf_read(text, len, &tf, err, sizeof err), 0);
	tf.ev.rules = PAIR_DUTCH_2017;
	tf.ev.first_color = PAIR_BLACK;
	pair_board b[PAIR_MAX_PLAYERS];
	int nb = -1;
	ck_assert_int_eq(pair_dutch(&tf.ev, work, pair_work_size(PAIR_MAX_PLAYERS), b, &nb, err, sizeof err), 0);
	char out[200];
	round_text(b, nb, out, sizeof out);
	ck_assert_str_eq(out, "5-1 2-6 7-3 4-8");
}
END_TEST

/* C.04.3 D.1's order of transpositions, worked by hand: eight players on
 * ½ point, S1 = 1-4 all wanting white, S2 = 5-8 all wanting black, and
 * round 1 was 5-1, 6-2, 7-3, 8-4. S2's orders in ascending sequence: every
 * one starting with 5 pairs 1-5 again, 6-5-7-8 pairs 3-7 again, so 6-5-8-7
 * is the first legal one. */
START_TEST(test_dutch_handbook_transposition_order)
{
	ck_assert_str_eq(pair_text(DATA "transposition_d1.trf"), "1-6 2-5 3-8 4-7");
}
END_TEST

/* The pairing-allocated bye at most once, and not to a player who won by
 * forfeit: with every player excluded, no pairing exists. */
START_TEST(test_dutch_bye_at_most_once)
{
	/* 1 (2 points) has the bye: 2 and 3 had theirs */
	ck_assert_str_eq(pair_text(DATA "bye_once.trf"), "2-3 1-bye");
	pair_board b[PAIR_MAX_PLAYERS];
	char err[160] = "";
	ck_assert_int_eq(pair_file(DATA "no_bye_left.trf", b, err), PAIR_ENOPAIRING);
	ck_assert_str_eq(err, "no pairing satisfies the absolute criteria");
}
END_TEST

/* A late entry with half-point byes for the rounds missed is paired on
 * those points; a withdrawn player (Z entered for the round) is not. */
START_TEST(test_dutch_late_entry_and_withdrawal)
{
	const char *got = pair_text(DATA "late_entry_withdrawal.trf");
	ck_assert_str_eq(got, "8-3 1-5 6-2 4-bye");
	ck_assert_ptr_null(strstr(got, "7-"));
	ck_assert_ptr_null(strstr(got, "-7 "));
	ck_assert_int_eq(pair_score_halves(&tf.ev.p[4], 2), 2);
}
END_TEST

/* C.04.3 A.7 and C3: two topscorers who both must have black (white twice
 * in a row) meet in the last round, and not in an earlier one. */
START_TEST(test_dutch_last_round_topscorers)
{
	ck_assert_str_eq(pair_text(DATA "last_round_topscorers.trf"), "2-1 6-3 4-5");
	const char *other = pair_text(DATA "not_last_round.trf");
	ck_assert_str_eq(other, "4-1 5-2 6-3");
}
END_TEST

/* Colours: every board of a later round gives a player with an absolute
 * preference (colour difference 2 or the same colour twice) his colour,
 * outside the last round. */
START_TEST(test_dutch_absolute_colours_kept)
{
	static const char *const files[] = {
		DATA "swiss30_last_r7.trf", DATA "swiss45_r5.trf", DATA "swiss101_r6.trf",
	};
	for (size_t f = 0; f < 3; f++) {
		pair_board b[PAIR_MAX_PLAYERS];
		char err[160];
		int nb = pair_file(files[f], b, err);
		ck_assert_int_gt(nb, 0);
		int played = pair_rounds_played(&tf.ev);
		if (played >= tf.ev.total_rounds - 1)
			continue;
		for (int i = 0; i < nb; i++)
			for (int side = 0; side < 2; side++) {
				int who = side ? b[i].black : b[i].white;
				if (who < 0)
					continue;
				const pair_player *pl = &tf.ev.p[who];
				int w = 0, bl = 0, last = 0, run = 0;
				for (int r = 0; r < played && r < pl->nrounds; r++) {
					const pair_game *g = &pl->rounds[r];
					if (g->opp < 0 || !strchr("10=WDL", g->result))
						continue;
					if (g->color == PAIR_WHITE)
						w++;
					else
						bl++;
					run = g->color == last ? run + 1 : 1;
					last = g->color;
				}
				int got = side ? PAIR_BLACK : PAIR_WHITE;
				if (w - bl >= 2 || (run >= 2 && last == PAIR_WHITE))
					ck_assert_int_eq(got, PAIR_BLACK);
				if (bl - w >= 2 || (run >= 2 && last == PAIR_BLACK))
					ck_assert_int_eq(got, PAIR_WHITE);
			}
	}
}
END_TEST

/* ---- The 2025 rules (C.04.3 applied from 1 July 2025) ----------------
 * Known answers of bbpPairings' dutch-2025 branch (and of 5.0.1 for the
 * 2017 rules): its tests dutch_2025_C5 and dutch_2025_C9 made again as our
 * files, and a case of C.2 made by hand. */

/* 2025 C.5 "minimise the score of the PAB assignee": of six players, 4 is
 * absent; the PAB goes to 6 (0 points), where the 2017 rules gave it to 5
 * (1 point) for better pairs above. */
START_TEST(test_dutch_2025_c5_pab_to_the_lowest_score)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c5.trf"), "1-5 3-2 6-bye");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c5.trf"), "1-3 6-2 5-bye");
}
END_TEST

/* 2025 C.9 "minimise the number of unplayed games of the PAB assignee":
 * 3, 4 and the late entry 5 have 0 points; 5 (no game) is not given the
 * PAB, 4 (one game, the lowest of those) is. */
START_TEST(test_dutch_2025_c9_pab_to_who_played_most)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c9.trf"), "2-1 3-5 4-bye");
}
END_TEST

/* 2025 C.2: no PAB to a player who scored without playing more than a
 * loss. 2 won by forfeit and 3 had the PAB; 1 had a full-point bye in
 * round 1: the 2017 rules give 1 the PAB (2-3, 1-bye), the 2025 rules find
 * no pairing. */
START_TEST(test_dutch_2025_c2_no_pab_after_a_full_point_bye)
{
	pair_board b[PAIR_MAX_PLAYERS];
	char err[160] = "";
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c2_full_point_bye.trf"), "2-3 1-bye");
	rules = PAIR_DUTCH_2025;
	ck_assert_int_eq(pair_file(DATA "dutch2025_c2_full_point_bye.trf", b, err), PAIR_ENOPAIRING);
	ck_assert_str_eq(err, "no pairing satisfies the absolute criteria");
	/* the forfeit win alone: the same under both (the 2017 C.2) */
	ck_assert_int_eq(pair_file(DATA "no_bye_left.trf", b, err), PAIR_ENOPAIRING);
	rules = PAIR_DUTCH_2017;
}
END_TEST

/* 2025 1.4.3: only a round scored without playing more than a loss is a
 * downfloat; an absence is none (2017: every round not played is one).
 * Five players on 1 point, 4 on 0: 6 was absent in round 2, 1 and 2 then
 * floated down, 3 and 5 up. One of 2, 3, 5, 6 (1 met 4) floats down to
 * 4: the 2025 rules float 6; the 2017 rules, counting 6's absence as a
 * downfloat, float 3 instead (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_1_4_3_an_absence_is_no_downfloat)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_1_4_3_absence.trf"), "2-1 5-3 4-6");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_1_4_3_absence.trf"), "2-1 5-6 4-3");
}
END_TEST

/* 2025 C.7 "minimise the scores of the downfloaters" (2017: the PSD, a
 * sum of score differences). The last round of six: 1 (3 points) has met
 * 3, 4 and 5 (1.5) and floats down twice; of 3, 4, 5 one pair is made and
 * one floats too, into the 1-point bracket with 1 and 2. There the 2025
 * rules pair 1 with 2 and float the 1.5-point player on to 6 (0.5); the
 * 2017 rules, weighing the pairs' score differences, pair him with 2 and
 * float 1 on to 6 (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c7_downfloaters_of_the_lowest_scores)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c7_downfloater_scores.trf"), "1-2 4-3 5-6");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c7_downfloater_scores.trf"), "6-1 5-3 4-2");
}
END_TEST

/* The 2025 rules' end of the round: every bracket is paired so that the
 * round can still be completed, with no penultimate bracket (PPB) paired
 * again with all the rest (2017 A.9). The last round of eight: 4 (4
 * points) meets 5, 7 (2.5) floats into the bracket of 1 and 2 (2 points,
 * who met), and one of them floats on to 8 (0) past 3-6. The 2025 rules
 * pair 7 with 1, the higher, and float 2; the 2017 rules, finding that a
 * bracket's choice would leave the round incomplete, pair the PPB with the
 * rest and give 7 to 2 (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_no_penultimate_bracket)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_no_ppb.trf"), "5-4 1-7 2-8 6-3");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_no_ppb.trf"), "5-4 2-7 1-8 6-3");
}
END_TEST

/* 2025 C.8 "choose the set of downfloaters in order to maximise the number
 * of pairs and minimise the scores of the downfloaters in the following
 * bracket". Round 4 of six: 3 (2.5) and 4 (2.0) met and float into the
 * 1.5 bracket, where 1 and 5 met; 3 pairs with 1 or 5, and 4 floats on
 * with the other. 4 can only meet 2 or 6 below; 1 met 6, 5 met 2. If 1
 * floats, the round is completed only by 1-2 and 4-6: the 1-point bracket
 * pairs a 1.5 downfloater and floats 4 (2.0) on; if 5 floats, it pairs 4-2
 * and floats 5 (1.5): C.8 floats 5 and pairs 1-3, though 1 and 3 both
 * prefer black (C.12 weighs less). The 2017 C.7 sees the next bracket
 * alone (4-2 and a floater either way, the same PSD), pairs 5-3 for the
 * colours, and then needs the PPB to pair 4-6 and 1-2 (bbpPairings' two
 * versions alike). Our C.8 switched off gives the 2017 pairing. */
START_TEST(test_dutch_2025_c8_downfloaters_for_the_next_bracket)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c8_next_bracket.trf"), "1-3 4-2 5-6");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c8_next_bracket.trf"), "5-3 4-6 1-2");
}
END_TEST

/* 2025 C.8's first half: the most pairs in the next bracket, before the
 * scores of its downfloaters. Round 6 of ten (a history not paired by the
 * Swiss system): 9 and 10 (3.5) met and float into the 3-point bracket of
 * 3 and 7 (who met): 10-3, floating 9 and 7; or 9-7, floating 10 and 3 (or
 * 10-7, worse below). Below, absolute colours and past games leave 1 only
 * 6 or 7, 5 only 3 or 6, and 2 only 4 or 9. If 10 and 3 float, 1-6, 3-5
 * and 2-4 follow and the 2.5 bracket (1, 4, 8) pairs only 10-8; if 9 and 7
 * float, it pairs 7-1 and 4-8, and 9 floats on to 2. C.8 takes the two
 * pairs; its second half alone, a pair of 3.5 points in that bracket,
 * would float 10 and 3 (7-9 8-10 3-5 6-1 2-4). The 2017 rules pair the
 * same (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c8_most_pairs_in_the_next_bracket)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c8_next_bracket_pairs.trf"), "3-10 2-9 7-1 4-8 6-5");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c8_next_bracket_pairs.trf"), "3-10 2-9 7-1 4-8 6-5");
}
END_TEST

/* 2025 C.9's limit (c9_still_single): the PAB goes to the player of its
 * score who played most only while it is the single player to float down
 * from its bracket. Round 4 of seven: 3, 6 and 7 had the PAB, so it goes
 * to 2 or 5 (1.5 points; 2 played two games, 5 three). 4 meets 6, and 1
 * (2.0) floats into their bracket and meets 2 or 3; either way two leave it,
 * the PAB and one to 7 (1.0): 1-3 with 5-7 and the PAB to 2, or 1-2 with
 * 3-7 and the PAB to 5. C.9 does not weigh, and the float criteria (C.14
 * on) take the first: in the second 3 would float down again (his PAB of
 * round 3 was a downfloat, 1.4.3) and 2 up again (he met 7 in round 3).
 * With C.9 weighing regardless, 5 would get the PAB. The 2017 rules (no
 * C.9) pair the same (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c9_only_for_a_single_downfloater)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c9_single_downfloater.trf"), "6-4 3-1 5-7 2-bye");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c9_single_downfloater.trf"), "6-4 3-1 5-7 2-bye");
}
END_TEST

/* 2025 C.18 "minimise the scores of the players who receive the same
 * downfloat as the previous round", weighed bracket by bracket among its
 * downfloaters. Round 4 of six: 1, 4 and 6 (2.0) have met one another and
 * all float down; 1 floated down in round 3 (against 2), 4 and 6 did not.
 * In the 1.5 bracket 5 can meet 1 or 6, the other two float on, and 1
 * floats down this round either way (C.14 counts him alike). C.18 pairs
 * 5-1, so that 4 and 6 float on, not 1 again. The 2017 rules' C.16 (the
 * score differences) pair the same (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c18_repeated_downfloater_scores)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c18_repeated_downfloat.trf"), "5-1 4-3 2-6");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c18_repeated_downfloat.trf"), "5-1 4-3 2-6");
}
END_TEST

/* 2025 C.19 "minimise the scores of the opponents of the players who
 * receive the same upfloat as the previous round". Round 4 of six: 2 (3.0)
 * and 5 (2.0) met and float into the 1-point bracket; 1 and 4 floated up
 * in round 3. 1 has met 3, 4 and 6, so he floats up again, against 2 or
 * 5: C.19 gives him 5, the lower score (2-6, 1-5, 3-4, where 4 does not
 * float up); without it he would meet 2 (1-2, 3-5, 6-4). The 2017 rules'
 * C.17 (the score differences) pair the same (bbpPairings' two versions
 * alike). */
START_TEST(test_dutch_2025_c19_repeated_upfloater_opponents)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c19_repeated_upfloat.trf"), "2-6 1-5 3-4");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c19_repeated_upfloat.trf"), "2-6 1-5 3-4");
}
END_TEST

/* 2025 C.20: C.18 for the downfloats of two rounds before. Round 4 of six:
 * 2 and 4 (2.5) met and float into the 1.5 bracket of 1 and 3 (who met);
 * 5 and 6 (0.5) met, so each meets one of those four and only 2-1 or 4-3
 * can be a pair: 2-1 with 4-6 and 3-5, or 4-3 with 2-6 and 1-5. 4 floated
 * down in round 2 (against 5), and in round 3 nobody floated. Either way
 * 4 gets a downfloat (C.16 counts him alike), but C.20 pairs him in the
 * 1.5 bracket rather than float him on: 3-4. The 2017 rules' C.18 pair the
 * same (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c20_downfloater_scores_two_rounds_before)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c20_downfloat_two_rounds_before.trf"), "3-4 2-6 5-1");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c20_downfloat_two_rounds_before.trf"), "3-4 2-6 5-1");
}
END_TEST

/* 2025 C.21: C.19 for the upfloats of two rounds before. Round 4 of six:
 * 4 (2.5), 5 (2.0) and 2 (1.5) cannot meet one another and all float into
 * the 1-point bracket of 1, 3 and 6, where only two pairings are left:
 * 4-6, 5-3, 2-1 or 4-3, 5-1, 2-6. Of the 1-point players only 1 floated
 * up in round 2 and none in round 3. 1 floats up either way (C.17 counts
 * him alike); C.21 gives him 2 (1.5) rather than 5 (2.0). The 2017 rules'
 * C.19 pair the same (bbpPairings' two versions alike). */
START_TEST(test_dutch_2025_c21_upfloater_opponents_two_rounds_before)
{
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2025, DATA "dutch2025_c21_upfloat_two_rounds_before.trf"), "4-6 3-5 1-2");
	ck_assert_str_eq(pair_text_by(PAIR_DUTCH_2017, DATA "dutch2025_c21_upfloat_two_rounds_before.trf"), "4-6 3-5 1-2");
}
END_TEST

/* The rules a TRF names (XXS) are read back, and a file without the line
 * is paired by the rules in force. */
START_TEST(test_trf_names_the_rules)
{
	static char text[1 << 16];
	char err[160];
	size_t len;
	char *in = slurp(DATA "swiss5_r3.trf", &len);
	ck_assert_int_eq(trf_read(in, len, &tf, err, sizeof err), 0);
	ck_assert_int_eq(tf.ev.rules, PAIR_DUTCH_2025);
	tf.ev.rules = PAIR_DUTCH_2017;
	len = trf_write(&tf, text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "\nXXS FIDE Dutch 2017\n"));
	ck_assert_int_eq(trf_read(text, len, &tf, err, sizeof err), 0);
	ck_assert_int_eq(tf.ev.rules, PAIR_DUTCH_2017);
	tf.ev.rules = PAIR_DUTCH_2025;
	len = trf_write(&tf, text, sizeof text);
	ck_assert_ptr_nonnull(strstr(text, "\nXXS FIDE Dutch 2025\n"));
	ck_assert_int_eq(trf_read(text, len, &tf, err, sizeof err), 0);
	ck_assert_int_eq(tf.ev.rules, PAIR_DUTCH_2025);
}
END_TEST

START_TEST(test_dutch_small_work_area_is_an_error)
{
	size_t len;
	char err[160] = "";
	char *text = slurp(DATA "swiss5_r3.trf", &len);
	ck_assert_int_eq(trf_read(text, len, &tf, err, sizeof err), 0);
	pair_board b[PAIR_MAX_PLAYERS];
	int nb = -1;
	ck_assert_int_eq(pair_dutch(&tf.ev, work, 100, b, &nb, err, sizeof err), PAIR_ENOMEM);
	ck_assert(err[0]);
	ck_assert_uint_eq(pair_work_size(PAIR_MAX_PLAYERS + 1), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pairing");
	TCase *tc = tcase_create("pairing");
	SRunner *sr;
	int failed;

	work = malloc(pair_work_size(PAIR_MAX_PLAYERS));
	if (!work)
		return 1;
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_match_again_is_as_good_as_anew);
	tcase_add_test(tc, test_match_is_the_heaviest_of_all);
	tcase_add_test(tc, test_berger_published_tables);
	tcase_add_test(tc, test_berger_odd_field_bye);
	tcase_add_test(tc, test_berger_every_pair_once_and_second_cycle);
	tcase_add_test(tc, test_trf_read_columns);
	tcase_add_test(tc, test_trf_write_then_read_is_the_same);
	tcase_add_test(tc, test_trf_bad_input_is_an_error);
	tcase_add_test(tc, test_dutch_agrees_with_bbppairings_rounds);
	tcase_add_test(tc, test_dutch_round1);
	tcase_add_test(tc, test_dutch_handbook_transposition_order);
	tcase_add_test(tc, test_dutch_bye_at_most_once);
	tcase_add_test(tc, test_dutch_late_entry_and_withdrawal);
	tcase_add_test(tc, test_dutch_last_round_topscorers);
	tcase_add_test(tc, test_dutch_absolute_colours_kept);
	tcase_add_test(tc, test_dutch_small_work_area_is_an_error);
	tcase_add_test(tc, test_dutch_2025_c5_pab_to_the_lowest_score);
	tcase_add_test(tc, test_dutch_2025_c9_pab_to_who_played_most);
	tcase_add_test(tc, test_dutch_2025_c2_no_pab_after_a_full_point_bye);
	tcase_add_test(tc, test_dutch_2025_1_4_3_an_absence_is_no_downfloat);
	tcase_add_test(tc, test_dutch_2025_c7_downfloaters_of_the_lowest_scores);
	tcase_add_test(tc, test_dutch_2025_no_penultimate_bracket);
	tcase_add_test(tc, test_dutch_2025_c8_downfloaters_for_the_next_bracket);
	tcase_add_test(tc, test_dutch_2025_c8_most_pairs_in_the_next_bracket);
	tcase_add_test(tc, test_dutch_2025_c9_only_for_a_single_downfloater);
	tcase_add_test(tc, test_dutch_2025_c18_repeated_downfloater_scores);
	tcase_add_test(tc, test_dutch_2025_c19_repeated_upfloater_opponents);
	tcase_add_test(tc, test_dutch_2025_c20_downfloater_scores_two_rounds_before);
	tcase_add_test(tc, test_dutch_2025_c21_upfloater_opponents_two_rounds_before);
	tcase_add_test(tc, test_trf_names_the_rules);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(work);
	return failed ? 1 : 0;
}
