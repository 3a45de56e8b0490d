/* test_study.c: Check unit tests of engine/ogn.h (Aualé's records, FEN)
 * and engine/analysis.h (a game judged move by move). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/analysis.h"
#include "engine/ogn.h"

#define TT_N OW_SEARCH_TT_ENTRIES /* as `oware analyse` */
#define BUDGET 20000

static ow_tt_entry tt[TT_N];
static ow_ogn rec;
static char text[16 * OW_OGN_MAX_PLIES + 2048], text2[sizeof text];

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned)((z ^ (z >> 31)) % n);
}

/* Plays our letters in g from the start; fails the test on a bad one. */
static void play_letters(ow_game *g, const char *moves)
{
	ow_game_start(g);
	for (; *moves; moves++)
		if (*moves != ' ')
			ck_assert_int_eq(ow_game_play(g, ow_pit_parse(*moves), NULL), OW_OK);
}

static int read_text(const char *t)
{
	return ow_ogn_read(t, strlen(t), &rec);
}

/* --- OGN and FEN --- */

START_TEST(test_ogn_write_from_start)
{
	const uint8_t moves[4] = {2, 11, 0, 7}; /* c F a B */
	int n = ow_ogn_write(text, sizeof text, NULL, moves, 4, NULL, NULL);

	ck_assert_str_eq(text,
	                 "[Variant \"Oware Abapa\"]\n[Event \"?\"]\n[Site \"?\"]\n"
	                 "[Date \"?\"]\n[Round \"?\"]\n[South \"?\"]\n[North \"?\"]\n"
	                 "[Result \"*\"]\n\n1. C f 2. A b\n");
	ck_assert_int_eq(n, (int)strlen(text));
}
END_TEST

START_TEST(test_ogn_write_position_marks_and_result)
{
	int pits[OW_PITS] = {0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0}, cap[2] = {23, 18};
	const uint8_t f = 5;
	ow_ogn_meta meta = {"Ann \"A\" \\", "Bo", "2026.11.30", NULL};
	ow_pos p;

	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, NULL), OW_OK);
	ck_assert_int_gt(ow_ogn_write(text, sizeof text, &p, &f, 1, &meta, NULL), 0);
	ck_assert_str_eq(text,
	                 "[Variant \"Oware Abapa\"]\n[Event \"?\"]\n[Site \"?\"]\n"
	                 "[Date \"2026.11.30\"]\n[Round \"?\"]\n[South \"Ann \\\"A\\\" \\\\\"]\n"
	                 "[North \"Bo\"]\n[Result \"25-18\"]\n"
	                 "[FEN \"0-0-0-0-0-1-1-5-0-0-0-0-23-18-S\"]\n\n1. F+2 25-18\n");
	ck_assert_int_eq(read_text(text), 0);
	ck_assert_str_eq(ow_ogn_tag_value(&rec, "South"), "Ann \"A\" \\");
	ck_assert_int_eq(rec.nmoves, 1);
	ck_assert_int_eq(rec.game.winner, OW_WINNER_SOUTH);
}
END_TEST

START_TEST(test_ogn_write_refuses)
{
	const uint8_t bad_move[2] = {2, 2}; /* c c: North is to move */
	ow_ogn_meta ctl = {"a\nb", NULL, NULL, NULL}, res = {NULL, NULL, NULL, "1-0"};
	ow_ogn_meta utf = {NULL, "\xc3(", NULL, NULL}, junk = {NULL, NULL, NULL, "won"};
	int bad = 7;

	ck_assert_int_eq(ow_ogn_write(text, sizeof text, NULL, bad_move, 2, NULL, &bad),
	                 OW_E_NOT_YOURS);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(ow_ogn_write(text, sizeof text, NULL, bad_move, 1, &ctl, &bad),
	                 OW_OGN_E_TAG);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(ow_ogn_write(text, sizeof text, NULL, bad_move, 1, &utf, &bad),
	                 OW_OGN_E_TAG);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(ow_ogn_write(text, sizeof text, NULL, bad_move, 1, &junk, &bad),
	                 OW_OGN_E_TAG);
	ck_assert_int_eq(bad, 3);
	/* A result the caller knows (a resignation) on a game not over. */
	ck_assert_int_gt(ow_ogn_write(text, sizeof text, NULL, bad_move, 1, &res, &bad), 0);
	ck_assert_ptr_nonnull(strstr(text, "\n1. C 1-0\n"));
	ck_assert_int_eq(ow_ogn_write(text, 100, NULL, bad_move, 1, NULL, &bad),
	                 OW_OGN_E_SPACE);
}
END_TEST

START_TEST(test_fen)
{
	char fen[OW_FEN_SIZE];
	int pits[OW_PITS] = {48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, cap[2] = {0, 0};
	ow_pos p, q, start;

	ow_pos_start(&start);
	ck_assert_int_eq(ow_fen_write(fen, &start), 29);
	ck_assert_str_eq(fen, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_NORTH, NULL), OW_OK);
	ow_fen_write(fen, &p);
	ck_assert_str_eq(fen, "48-0-0-0-0-0-0-0-0-0-0-0-0-0-N");
	ck_assert_int_eq(ow_fen_read(fen, strlen(fen), &q), 0);
	ck_assert_mem_eq(&p, &q, sizeof p);
	ck_assert_int_eq(ow_fen_read(" 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n", 31, &q), 0);
	ck_assert_mem_eq(&start, &q, sizeof q);
	ck_assert_int_eq(ow_fen_read("4-4-4-4-4-4-4-4-4-4-4-4-0-1-S", 29, &q), OW_E_SUM);
	ck_assert_int_eq(ow_fen_read("4-4-4-4-4-4-4-4-4-4-4-4-0-S", 27, &q), -1);
	ck_assert_int_eq(ow_fen_read("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", 29, &q), -1);
	ck_assert_int_eq(ow_fen_read("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-", 30, &q), -1);
	ck_assert_int_eq(ow_fen_read("004-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 31, &q), -1);
	ck_assert_int_eq(ow_fen_read("", 0, &q), -1);
}
END_TEST

/* A random valid position (48 seeds over the pits and two scores). */
static ow_pos random_position(void)
{
	int pits[OW_PITS] = {0}, cap[2] = {(int)rnd(20), (int)rnd(20)};
	ow_pos p;

	for (int left = OW_SEEDS - cap[0] - cap[1]; left > 0; left--)
		pits[rnd(OW_PITS)]++;
	ck_assert_int_eq(ow_pos_set(&p, pits, cap, (int)rnd(2), NULL), OW_OK);
	return p;
}

static void random_name(char *buf)
{
	static const char *const bits[] = {"a", "F", " ", "\"", "\\", "\xc3\xa9", "[", "]",
	                                   "{", "1.", "+2", "\xe2\x82\xac", "Ama", "?"};
	int n = (int)rnd(8);

	buf[0] = 0;
	for (int i = 0; i < n; i++)
		strcat(buf, bits[rnd(sizeof bits / sizeof bits[0])]);
}

/* The moves Aualé loads from text, played as Aualé plays them (its
 * serialize/ogn.py and game/match.py): every letter A-F or a-f after the
 * tags and outside { } and ( ), each refused unless legal, and no move
 * after a position's second occurrence (Aualé's end). Returns how many. */
static int aule_moves(const char *rec_text, const ow_pos *start)
{
	const char *c = rec_text;
	int n = 0, over = 0;
	ow_game g;

	while (*c == '[' || *c == '\n')
		c = strchr(c, '\n') ? strchr(c, '\n') + 1 : c + strlen(c);
	ow_game_from(&g, start);
	for (; *c; c++) {
		int pit;

		if (*c == '{' || *c == '(') {
			c = strchr(c, *c == '{' ? '}' : ')');
			ck_assert_ptr_nonnull(c);
			continue;
		}
		if (!((*c >= 'A' && *c <= 'F') || (*c >= 'a' && *c <= 'f')))
			continue;
		pit = *c >= 'a' ? OW_ROW + (*c - 'a') : *c - 'A';
		ck_assert_msg(!over, "Aualé would refuse move %d: the game is over\n%s", n + 1, rec_text);
		ck_assert_msg(ow_game_play(&g, pit, NULL) == OW_OK, "move %d\n%s", n + 1, rec_text);
		n++;
		for (int i = 0; i + 1 < g.nseen; i++)
			if (!memcmp(&g.seen[i], &g.seen[g.nseen - 1], sizeof g.seen[i]))
				over = 1;
		over |= g.end != OW_END_NONE && g.end != OW_END_MOVE_LIMIT;
	}
	return n;
}

START_TEST(test_ogn_round_trip_random_games)
{
	static uint8_t moves[OW_OGN_MAX_PLIES];
	int over = 0, from_pos = 0, continued = 0, aule;

	rng_state = 15;
	for (int game = 0; game < 3000; game++) {
		char south[64], north[64];
		ow_ogn_meta meta = {south, north, game % 3 ? "2026.11.30" : NULL, NULL};
		ow_pos start = game % 2 ? random_position() : (ow_pos){{0}, {0}, 0, 0};
		ow_game g;
		int n = 0, len, stop = game % 5 == 0 ? (int)rnd(60) : OW_OGN_MAX_PLIES;

		if (!(game % 2))
			ow_pos_start(&start);
		from_pos += game % 2;
		random_name(south);
		random_name(north);
		ow_game_from(&g, &start);
		while (g.end == OW_END_NONE && n < stop) {
			unsigned mask = ow_legal_mask(&g.pos), k = rnd((unsigned)__builtin_popcount(mask));

			while (k--)
				mask &= mask - 1;
			moves[n] = (uint8_t)__builtin_ctz(mask);
			ck_assert_int_eq(ow_game_play(&g, moves[n++], NULL), OW_OK);
		}
		over += g.end != OW_END_NONE;
		len = ow_ogn_write(text, sizeof text, &start, moves, n, &meta, NULL);
		ck_assert_int_gt(len, 0);
		ck_assert_msg(ow_ogn_read(text, (size_t)len, &rec) == 0, "game %d: line %d: %s\n%s",
		              game, rec.line, rec.err, text);
		ck_assert_int_eq(rec.nmoves, n);
		ck_assert_mem_eq(rec.moves, moves, (size_t)n);
		ck_assert_mem_eq(&rec.start, &start, sizeof start);
		aule = aule_moves(text, &start);
		ck_assert_int_le(aule, n);
		ck_assert_int_eq(aule < n, strstr(text, "{Continued:") != NULL);
		continued += aule < n;
		ck_assert_int_eq(rec.has_fen, game % 2 && !(start.turn == 0 &&
		                 !memcmp(start.pits, "\4\4\4\4\4\4\4\4\4\4\4\4", 12) &&
		                 !start.captured[0] && !start.captured[1]));
		ck_assert_mem_eq(&rec.game.pos, &g.pos, sizeof g.pos);
		ck_assert_int_eq(rec.game.end, g.end);
		ck_assert_int_eq(rec.game.winner, g.winner);
		ck_assert_str_eq(ow_ogn_tag_value(&rec, "South"), (south[0] ? south : "?"));
		ck_assert_str_eq(ow_ogn_tag_value(&rec, "North"), (north[0] ? north : "?"));
		/* Written again from what was read: the same text. */
		{
			ow_ogn_meta m2 = {ow_ogn_tag_value(&rec, "South"), ow_ogn_tag_value(&rec, "North"),
			                  ow_ogn_tag_value(&rec, "Date"), ow_ogn_tag_value(&rec, "Result")};

			ck_assert_int_eq(ow_ogn_write(text2, sizeof text2, &rec.start, rec.moves,
			                              rec.nmoves, &m2, NULL), len);
			ck_assert_str_eq(text2, text);
		}
	}
	ck_assert_int_gt(over, 2000);
	ck_assert_int_eq(from_pos, 1500);
	ck_assert_int_gt(continued, 100);
}
END_TEST

START_TEST(test_ogn_read_lax_forms)
{
	/* A byte order mark, CRLF, glued numbers, "N...", comments and
	 * (nested) variations over lines, tags in any order. */
	const char *t = "\xef\xbb\xbf[South \"S\xc3\xa9\"]\r\n[Variant \"Oware Abapa\"]\r\n"
	                "[Custom_1 \"x\"]\r\n\r\n1.C {a comment\r\nover lines} f (1... a\r\n"
	                "(2. B)) 2.A\r\nb\r\n";
	ow_game g;

	ck_assert_msg(read_text(t) == 0, "line %d: %s", rec.line, rec.err);
	ck_assert_int_eq(rec.nmoves, 4);
	play_letters(&g, "cFaB");
	ck_assert_mem_eq(&rec.game.pos, &g.pos, sizeof g.pos);
	ck_assert_str_eq(ow_ogn_tag_value(&rec, "South"), "S\xc3\xa9");
	ck_assert_str_eq(ow_ogn_tag_value(&rec, "Custom_1"), "x");
	ck_assert_ptr_null(ow_ogn_tag_value(&rec, "North"));
	ck_assert_int_eq(rec.tags[2].line, 3);
	/* Only tags, or nothing at all: a game at the start. */
	ck_assert_int_eq(read_text("[Result \"*\"]"), 0);
	ck_assert_int_eq(rec.nmoves, 0);
	ck_assert_int_eq(read_text(""), 0);
	ck_assert_int_eq(rec.game.ply, 0);
	/* The last move's mark may count the seeds the mover gathers (Aualé
	 * ends a game at the first repetition); no other move's may. */
	ck_assert_int_eq(read_text("[FEN \"0-0-0-0-1-1-1-5-0-0-0-0-22-18-S\"]\n1. F+3"), 0);
	ck_assert_int_eq(read_text("[FEN \"0-0-0-0-1-1-1-5-0-0-0-0-22-18-S\"]\n1. F+2"), 0);
	ck_assert_int_eq(rec.game.pos.captured[OW_SOUTH], 24);
	ck_assert_int_eq(read_text("[FEN \"0-0-0-0-1-1-1-5-0-0-0-0-22-18-S\"]\n1. F+3 b"), -1);
	ck_assert_str_eq(rec.err, "move 1 \"F+3\": it captures 2 seeds");
	/* The moves of a "{Continued:" comment are the game's; any other
	 * comment is skipped. */
	ck_assert_int_eq(read_text("1. C {Continued: 1... f\n2. A}\n"), 0);
	ck_assert_int_eq(rec.nmoves, 3);
	ck_assert_int_eq(read_text("1. C {continued: 1... f 2. A}"), 0);
	ck_assert_int_eq(rec.nmoves, 1);
	ck_assert_int_eq(read_text("1. C { Continued: f}"), 0);
	ck_assert_int_eq(rec.nmoves, 1);
}
END_TEST

/* The refused records: each with its line and a piece of its reason. */
static const struct refused {
	const char *text;
	int line;
	const char *why;
} refused[] = {
	{"[Variant \"Oware Abapa\"]\n\n1. A a 2. A", 3, "move 3 \"A\": the pit is empty"},
	{"1. a", 1, "move 1 \"a\": a pit of North (lower case); South (upper case) is to move"},
	{"1. C\nf 2. A x", 2, "unexpected \"x\""},
	{"1. C f 2. G", 1, "unexpected \"G\""},
	{"1. Cf", 1, "not a move: \"Cf\""},
	{"1. C+", 1, "not a move"},
	{"1. C+2", 1, "move 1 \"C+2\": it captures 0 seeds"},
	{"1. C f\n2. A+1 b", 2, "move 3 \"A+1\": it captures 0 seeds"},
	{"[South \"x\n\"]", 1, "no closing quote"},
	{"[South x]", 1, "must be in double quotes"},
	{"[South \"x\" ", 1, "']' expected"},
	{"[ \"x\"]", 1, "needs a name"},
	{"[South \"x\"]\n[South \"y\"]", 2, "South\" given twice"},
	{"[Variant \"Awale\"]", 1, "Variant \"Awale\" is not \"Oware Abapa\""},
	{"\n[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-1-S\"]", 2, "must add up to 48"},
	{"[FEN \"4-4-4\"]", 1, "14 counts"},
	{"1. C {a comment\n\nthat never ends", 1, "comment '{' never closed"},
	{"1. C (f (A) \n", 1, "variation '(' never closed"},
	{"1. C } f", 1, "unexpected \"}\""},
	{"1. C f\n[Date \"?\"]", 2, "a tag after the moves"},
	{"[Result \"*\"]\n1. C f 0-48", 2, "differs from the Result tag"},
	{"1. C f * C", 1, "\"C\" after the result"},
	{"[Result \"1-0\"]\n[FEN \"0-0-0-0-0-1-1-5-0-0-0-0-23-18-S\"]\n1. F", 1,
	 "Result \"1-0\" but the game ends 25-18"},
	{"[FEN \"0-0-0-0-0-1-1-5-0-0-0-0-23-18-S\"]\n1. F 2. A", 2,
	 "move 2 \"A\": the game is over"},
	{"[South \"\xc3(\"]", 1, "must be UTF-8 text"},
	{"[South \"a\x01\"]", 1, "must be UTF-8 text"},
	{"1. C f 12-", 1, "unexpected \"12-\""},
	{"[FEN \"0-0-0-0-1-1-1-5-0-0-0-0-22-18-S\"]\n1. F+4", 2, "move 1 \"F+4\": it captures 2 seeds"},
	{"1. C f {Continued: 2. A\nb", 1, "\"{Continued:\" never closed"},
	{"1. C {Continued: 1... f 2. A} b", 1, "\"b\" after the moves of \"{Continued:\""},
	{"1. C {Continued: 1... f 2. A} 3.", 1, "\"3.\" after the moves of \"{Continued:\""},
	{"1. C {Continued: 1... f {x} 2. A}", 1, "unexpected \"{\" in \"{Continued:\""},
	{"1. C {Continued: 1... f *}", 1, "unexpected \"*\""},
	{"1. C {Continued: 1... f\n0-0}", 2, "the result \"0-0\" inside \"{Continued:\""},
	{"1. C {Continued: 1... f 2. a}", 1, "move 3 \"a\": a pit of North"},
};

START_TEST(test_ogn_refused)
{
	const struct refused *r = &refused[_i];

	ck_assert_msg(read_text(r->text) == -1, "accepted: %s", r->text);
	ck_assert_msg(r->line == rec.line && strstr(rec.err, r->why),
	              "%s\ngot line %d: %s\nwant line %d: %s", r->text, rec.line, rec.err,
	              r->line, r->why);
}
END_TEST

START_TEST(test_ogn_bounds)
{
	static char big[OW_OGN_MAX_TAGS * 16 + 64];
	char *p = big;

	for (int i = 0; i <= OW_OGN_MAX_TAGS; i++)
		p += sprintf(p, "[T%d \"v\"]\n", i);
	ck_assert_int_eq(read_text(big), -1);
	ck_assert_int_eq(rec.line, OW_OGN_MAX_TAGS + 1);
	ck_assert_ptr_nonnull(strstr(rec.err, "more than 32 tags"));
	memset(text, 'x', 300);
	memcpy(text, "[South \"", 8);
	strcpy(text + 300, "\"]");
	ck_assert_int_eq(read_text(text), -1);
	ck_assert_ptr_nonnull(strstr(rec.err, "longer than 255"));
}
END_TEST

/* --- analysis --- */

/* The position after these moves (a game of the medium level): South's f
 * gives away 3 seeds while e is safe. */
#define BLUNDER_LINE "cBeDcAbA"

static void analyse(const ow_game *g, int pit, ow_ply_analysis *a)
{
	ow_search_limits lim = {0};

	lim.nodes = BUDGET;
	ck_assert_int_eq(ow_analyse_ply(g, pit, &lim, tt, TT_N, a), OW_OK);
}

/* The most seeds the side to move in g can capture at once. */
static int max_capture(const ow_game *g)
{
	unsigned mask = g->end == OW_END_NONE ? ow_legal_mask(&g->pos) : 0;
	int best = 0;

	for (int p = 0; p < OW_PITS; p++) {
		ow_game h = *g;
		ow_move_info info;

		if (!(mask >> p & 1))
			continue;
		ow_game_play(&h, p, &info);
		if (info.seeds > best)
			best = info.seeds;
	}
	return best;
}

START_TEST(test_analysis_known_blunder)
{
	ow_ply_analysis a;
	ow_game g;

	ow_tt_clear(tt, TT_N);
	play_letters(&g, BLUNDER_LINE);
	analyse(&g, ow_pit_parse('f'), &a);
	ck_assert_int_eq(a.side, OW_SOUTH);
	ck_assert_int_ne(a.best, ow_pit_parse('f'));
	ck_assert_int_ge(a.cls, OW_CLASS_MISTAKE);
	ck_assert_int_ge(a.loss, OW_ANALYSIS_INACCURACY);
	ck_assert_int_gt(a.npv, 5);
	ck_assert_int_eq(a.pv[0], a.best);
	analyse(&g, a.best, &a);
	ck_assert_int_eq(a.cls, OW_CLASS_BEST);
	ck_assert_int_eq(a.loss, 0);
	ck_assert_int_eq(a.before, a.after);
}
END_TEST

/* Along a game of the medium level: every move that lets the opponent
 * capture 3 or more seeds at once, while another move lets them capture
 * nothing and takes nothing either, is never best or good, but for the
 * sound sacrifices among them: moves that a search of 3,000,000 nodes a
 * ply (`oware analyse --nodes 3000000`) finds as good as the best. */
static const struct { int ply; char move; } sacrifices[] = {
	{24, 'E'}, {64, 'C'}, {66, 'F'}, {70, 'D'}, {73, 'e'},
};

static int is_sacrifice(int ply, int pit)
{
	for (size_t i = 0; i < sizeof sacrifices / sizeof sacrifices[0]; i++)
		if (sacrifices[i].ply == ply && ow_pit_parse(sacrifices[i].move) == pit)
			return 1;
	return 0;
}

START_TEST(test_analysis_given_captures_never_good)
{
	static const char *const games[] = {
		"cBeDcAbAeDcBaDbCcAbDaBcCdAaFeEdAcCdEbDdBeBfEeDdEcBdDbEeFaEbBdDcCbFbEcDfCd",
	};
	int checked = 0;

	for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
		ow_game g;

		ow_game_start(&g);
		for (const char *m = games[k]; *m; m++) {
			unsigned mask = ow_legal_mask(&g.pos);
			int safe = 0;

			for (int p = 0; p < OW_PITS; p++) {
				ow_game h = g;
				ow_move_info info;

				if (mask >> p & 1) {
					ow_game_play(&h, p, &info);
					safe |= !info.seeds && !max_capture(&h);
				}
			}
			for (int p = 0; safe && p < OW_PITS; p++) {
				ow_game h = g;
				ow_move_info info;
				ow_ply_analysis a;

				if (!(mask >> p & 1))
					continue;
				ow_game_play(&h, p, &info);
				if (info.seeds || max_capture(&h) < 3 || is_sacrifice(g.ply + 1, p))
					continue;
				ow_tt_clear(tt, TT_N);
				analyse(&g, p, &a);
				ck_assert_msg(a.cls >= OW_CLASS_INACCURACY,
				              "ply %d: %c gives away %d seeds, class %s",
				              g.ply + 1, ow_pit_letter(p), max_capture(&h),
				              ow_class_name(a.cls));
				checked++;
			}
			ck_assert_int_eq(ow_game_play(&g, ow_pit_parse(*m), NULL), OW_OK);
		}
	}
	ck_assert_int_eq(checked, 32);
}
END_TEST

START_TEST(test_analysis_proven)
{
	int pits[OW_PITS] = {2, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 2}, cap[2] = {21, 19};
	ow_ply_analysis a;
	ow_pos p;
	ow_game g;

	ck_assert_int_eq(ow_pos_set(&p, pits, cap, OW_SOUTH, NULL), OW_OK);
	ow_game_from(&g, &p);
	ow_tt_clear(tt, TT_N);
	analyse(&g, ow_pit_parse('f'), &a);
	ck_assert_int_eq(a.best, ow_pit_parse('f'));
	ck_assert_int_eq(ow_analysis_proven(a.before), 10); /* South wins in 10 */
	ck_assert_int_eq(ow_analysis_south(a.before, a.side), OW_ANALYSIS_CAP);
	ck_assert_int_eq(a.npv, 10);
	ck_assert_int_eq(a.cls, OW_CLASS_BEST);
	/* Any other move lets the win go. */
	analyse(&g, ow_pit_parse('a'), &a);
	ck_assert_int_eq(ow_analysis_proven(a.after), 0);
	ck_assert_int_eq(a.cls, OW_CLASS_BLUNDER);
	/* North to move after f: a proven loss, every ply one closer. */
	ck_assert_int_eq(ow_game_play(&g, ow_pit_parse('f'), NULL), OW_OK);
	analyse(&g, ow_pit_parse('C'), &a);
	ck_assert_int_eq(ow_analysis_proven(a.before), -9);
	ck_assert_int_eq(ow_analysis_south(a.before, a.side), OW_ANALYSIS_CAP);
	/* A move that ends the game at once: a win in 1. */
	{
		int q[OW_PITS] = {0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0}, c2[2] = {23, 18};

		ck_assert_int_eq(ow_pos_set(&p, q, c2, OW_SOUTH, NULL), OW_OK);
		ow_game_from(&g, &p);
		analyse(&g, ow_pit_parse('f'), &a);
		ck_assert_int_eq(ow_analysis_proven(a.before), 1);
		ck_assert_int_eq(ow_analysis_proven(a.after), 1);
	}
}
END_TEST

START_TEST(test_analysis_reproducible_and_errors)
{
	ow_ply_analysis a, b, untouched;
	ow_game g;

	play_letters(&g, "cFa");
	ow_tt_clear(tt, TT_N);
	analyse(&g, ow_pit_parse('A'), &a);
	ow_tt_clear(tt, TT_N);
	analyse(&g, ow_pit_parse('A'), &b);
	ck_assert_mem_eq(&a, &b, sizeof a);
	ck_assert_uint_le(a.nodes, 2 * BUDGET);

	memset(&untouched, 0x5a, sizeof untouched);
	b = untouched;
	{
		ow_search_limits lim = {0};

		lim.nodes = BUDGET;
		ck_assert_int_eq(ow_analyse_ply(&g, ow_pit_parse('a'), &lim, tt, TT_N, &b),
		                 OW_E_NOT_YOURS);
		ck_assert_int_eq(ow_analyse_ply(&g, ow_pit_parse('C'), &lim, tt, TT_N, &b),
		                 OW_OK);
		b = untouched;
		g.end = OW_END_SCORE;
		ck_assert_int_eq(ow_analyse_ply(&g, ow_pit_parse('A'), &lim, tt, TT_N, &b),
		                 OW_E_OVER);
		ck_assert_mem_eq(&b, &untouched, sizeof b);
	}
}
END_TEST

START_TEST(test_analysis_classes)
{
	ck_assert_int_eq(ow_analysis_class(0, 0), OW_CLASS_BEST);
	ck_assert_int_eq(ow_analysis_class(500, 1), OW_CLASS_BEST);
	ck_assert_int_eq(ow_analysis_class(1, 0), OW_CLASS_GOOD);
	ck_assert_int_eq(ow_analysis_class(15, 0), OW_CLASS_GOOD);
	ck_assert_int_eq(ow_analysis_class(16, 0), OW_CLASS_INACCURACY);
	ck_assert_int_eq(ow_analysis_class(31, 0), OW_CLASS_INACCURACY);
	ck_assert_int_eq(ow_analysis_class(32, 0), OW_CLASS_MISTAKE);
	ck_assert_int_eq(ow_analysis_class(63, 0), OW_CLASS_MISTAKE);
	ck_assert_int_eq(ow_analysis_class(64, 0), OW_CLASS_BLUNDER);
	ck_assert_str_eq(ow_class_name(OW_CLASS_INACCURACY), "inaccuracy");
	ck_assert_str_eq(ow_class_name(9), "");
	ck_assert_int_eq(ow_analysis_south(100, OW_NORTH), -100);
	ck_assert_int_eq(ow_analysis_south(OW_SEARCH_WIN - 3, OW_NORTH), -OW_ANALYSIS_CAP);
	ck_assert_int_eq(ow_analysis_south(1000, OW_SOUTH), OW_ANALYSIS_CAP);
	ck_assert_int_eq(ow_analysis_proven(-(OW_SEARCH_WIN - 7)), -7);
	ck_assert_int_eq(ow_analysis_proven(OW_SEARCH_WON), 0);
}
END_TEST

static Suite *study_suite(void)
{
	Suite *s = suite_create("study");
	TCase *ogn = tcase_create("ogn"), *an = tcase_create("analysis");

	tcase_add_test(ogn, test_ogn_write_from_start);
	tcase_add_test(ogn, test_ogn_write_position_marks_and_result);
	tcase_add_test(ogn, test_ogn_write_refuses);
	tcase_add_test(ogn, test_fen);
	tcase_add_test(ogn, test_ogn_round_trip_random_games);
	tcase_add_test(ogn, test_ogn_read_lax_forms);
	tcase_add_loop_test(ogn, test_ogn_refused, 0, (int)(sizeof refused / sizeof refused[0]));
	tcase_add_test(ogn, test_ogn_bounds);
	tcase_add_test(an, test_analysis_known_blunder);
	tcase_add_test(an, test_analysis_given_captures_never_good);
	tcase_add_test(an, test_analysis_proven);
	tcase_add_test(an, test_analysis_reproducible_and_errors);
	tcase_add_test(an, test_analysis_classes);
	tcase_set_timeout(ogn, 120);
	tcase_set_timeout(an, 120);
	suite_add_tcase(s, ogn);
	suite_add_tcase(s, an);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(study_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
