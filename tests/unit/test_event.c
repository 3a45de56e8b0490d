/* test_event.c: Check unit tests of the rules of a club event
 * (server/rules/event.h): every decision and its errors, standings and their
 * tie-breaks against values worked out by hand here, the exports, and
 * two events driven with random results (a 30-player 7-round Swiss and a
 * 9-player double round robin) held to the invariants of their pairings
 * and to points summed independently of the module. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/event.h"
#include "server/rules/trf.h"

/* quarter points, as the standings hold them */
#define Q(x) ((int)((x) * 4))

/* An event following `rules` (enum ev_rules). */
static ev_event *mk_rules(int format, int rounds, int max_players, int rules)
{
	ev_settings s = {
		.title = "Thursday club", .kind = "oware", .format = format, .rounds = rounds,
		.clock = { PROTO_CLOCK_REALTIME, 900, 5, 0 }, .max_players = max_players,
		.rules = rules,
	};
	ev_event *ev = malloc(sizeof *ev);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(ev_create(ev, &s), 0);
	return ev;
}

/* An event following the rules in force (C.07 of 2024). */
static ev_event *mk(int format, int rounds, int max_players)
{
	return mk_rules(format, rounds, max_players, EV_RULES_2025);
}

/* The same event's standings ranked by the rules in force: the tests by
 * hand play an event under the older rules (so the older pairing stands)
 * and then rank its crosstable both ways. */
static int standings_2024(ev_event *ev, ev_standing *st)
{
	ev->rules = EV_RULES_2025;
	return ev_standings(ev, st);
}

static ev_change ch;

/* Every change applied, when a test keeps them (to replay them). */
static ev_change *journal;
static int njournal, capjournal;

static void apply(ev_event *ev)
{
	if (journal && njournal < capjournal)
		journal[njournal++] = ch;
	ev_apply(ev, &ch);
}

static int join(ev_event *ev, const char *name)
{
	int rc = ev_join(ev, name, strlen(name), &ch);
	if (rc == 0)
		apply(ev);
	return rc;
}

static int withdraw(ev_event *ev, int entry)
{
	int rc = ev_withdraw(ev, entry, &ch);
	if (rc == 0)
		apply(ev);
	return rc;
}

static int start(ev_event *ev)
{
	int rc = ev_start(ev, &ch);
	if (rc == 0)
		apply(ev);
	return rc;
}

static int next(ev_event *ev)
{
	int rc = ev_next(ev, &ch);
	if (rc == 0)
		apply(ev);
	return rc;
}

static int result(ev_event *ev, int by, int round, int board, char res, int s0, int s1)
{
	int seeds[2] = { s0, s1 };
	int rc = ev_result(ev, by, round, board, res, seeds, &ch);
	if (rc == 0)
		apply(ev);
	return rc;
}

/* The board of round `round` where starting ranks a (white) and b
 * (black) meet; fails the test when they do not. */
static int board(const ev_event *ev, int round, int a, int b)
{
	const ev_round *rd = &ev->rounds[round - 1];
	for (int i = 0; i < rd->nboards; i++)
		if (rd->boards[i].white == a - 1 && rd->boards[i].black == b - 1)
			return i;
	ck_abort_msg("round %d has no board %d-%d", round, a, b);
	return -1;
}

/* The result of white a against black b in round `round`, from the room. */
static void play(ev_event *ev, int round, int a, int b, char res, int s0, int s1)
{
	ck_assert_int_eq(result(ev, EV_BY_ROOM, round, board(ev, round, a, b), res, s0, s1), 0);
}

/* The board of starting rank a in round `round`, or -1. */
static int board_of_number(const ev_event *ev, int round, int a)
{
	const ev_round *rd = &ev->rounds[round - 1];
	for (int i = 0; i < rd->nboards; i++)
		if (rd->boards[i].white == a - 1 || rd->boards[i].black == a - 1)
			return i;
	return -1;
}

static const ev_standing *row_of(const ev_standing *st, int n, int number)
{
	for (int i = 0; i < n; i++)
		if (st[i].number == number)
			return &st[i];
	ck_abort_msg("no standing for %d", number);
	return NULL;
}

static void join_n(ev_event *ev, int n)
{
	static const char *const names[] = {
		"Ama", "Kofi", "Yaw", "Esi", "Kwame", "Akua", "Kojo", "Abena", "Kwesi", "Adwoa",
	};
	char name[24];
	for (int i = 0; i < n; i++) {
		if (i < 10)
			snprintf(name, sizeof name, "%s", names[i]);
		else
			snprintf(name, sizeof name, "Player %d", i + 1);
		ck_assert_int_eq(join(ev, name), 0);
	}
}

/* ---- decisions and their errors ---- */

START_TEST(test_create_rejects_bad_settings)
{
	ev_event *ev = malloc(sizeof *ev);
	ev_settings ok = { .title = "Club", .kind = "togyz", .format = EV_SWISS, .rounds = 5,
		.clock = { PROTO_CLOCK_NONE, 0, 0, 0 } };
	ev_settings s;
	ck_assert_int_eq(ev_create(ev, &ok), 0);
	ck_assert_str_eq(ev->kind, "togyz");
	ck_assert_int_eq(ev->total_rounds, 5);
	ck_assert_int_eq(ev->state, EV_ENTRY);
	s = ok, s.kind = "chess";
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.title = "   ";
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.format = 4;
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.rounds = 0;
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.rounds = EV_MAX_ROUNDS + 1;
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.format = EV_ROUND_ROBIN;  /* a round robin's rounds follow the field */
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.clock = (ev_clock){ PROTO_CLOCK_REALTIME, 5, 0, 0 };
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.clock = (ev_clock){ PROTO_CLOCK_REALTIME, 600, 181, 0 };
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.clock = (ev_clock){ PROTO_CLOCK_CORRESPONDENCE, 0, 0, 15 };
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.clock = (ev_clock){ PROTO_CLOCK_CORRESPONDENCE, 0, 0, 3 };
	ck_assert_int_eq(ev_create(ev, &s), 0);
	s = ok, s.max_players = 1;
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	s = ok, s.max_players = EV_MAX_PLAYERS + 1;
	ck_assert_int_eq(ev_create(ev, &s), EV_E_INVAL);
	free(ev);
}
END_TEST

START_TEST(test_join_names_and_limits)
{
	ev_event *ev = mk(EV_SWISS, 5, 3);
	ck_assert_int_eq(join(ev, "  Ama "), 0);
	ck_assert_str_eq(ev->entries[0].name, "Ama");
	ck_assert_int_eq(ev->entries[0].number, 0);
	ck_assert_int_eq(join(ev, ""), EV_E_NAME);
	ck_assert_int_eq(join(ev, "   "), EV_E_NAME);
	ck_assert_int_eq(join(ev, "South"), EV_E_NAME);  /* reads as a side */
	ck_assert_int_eq(join(ev, "AMA"), EV_E_NAME_TAKEN);
	ck_assert_int_eq(join(ev, "Kofi"), 0);
	ck_assert_int_eq(join(ev, "Yaw"), 0);
	ck_assert_int_eq(ev->nentries, 3);
	ck_assert_int_eq(join(ev, "Esi"), EV_E_FULL);
	ck_assert_int_eq(ev->nentries, 3);
	/* A withdrawal before the start frees the place and the name. */
	ck_assert_int_eq(withdraw(ev, 0), 0);
	ck_assert_int_eq(withdraw(ev, 0), EV_E_WITHDRAWN);
	ck_assert_int_eq(withdraw(ev, 7), EV_E_PLAYER);
	ck_assert_int_eq(withdraw(ev, -1), EV_E_PLAYER);
	ck_assert_int_eq(join(ev, "ama"), 0);
	ck_assert_int_eq(ev->nentries, 4);
	ck_assert_int_eq(start(ev), 0);
	/* Starting ranks in the order of entry, the withdrawn left out. */
	ck_assert_int_eq(ev->nfield, 3);
	ck_assert_int_eq(ev->entries[0].number, 0);
	ck_assert_int_eq(ev->entries[1].number, 1);
	ck_assert_int_eq(ev->entries[3].number, 3);
	ck_assert_int_eq(ev->field[2], 3);
	free(ev);

	/* A double round robin holds 16 players (30 rounds; 17 would need 34). */
	ev = mk(EV_DOUBLE_ROUND_ROBIN, 0, 0);
	join_n(ev, 16);
	ck_assert_int_eq(join(ev, "Seventeen"), EV_E_FULL);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->total_rounds, 30);
	ck_assert_int_eq(join(ev, "Late"), EV_E_STATE);  /* no late entry in a round robin */
	free(ev);
}
END_TEST

/* Issue 49, item 9: names that look alike are one name (Cyrillic, Greek,
 * fullwidth, bold, NFD, a Hangul filler, a digit for a letter), and the
 * words the event page, TRF and CSV use for byes, forfeits, withdrawals,
 * results and the organiser are not names; honest distinct names enter.
 * José and Jose are one name (marks are dropped), Ama and Amma two. */
START_TEST(test_join_look_alikes_and_event_words)
{
	static const char *const alike[] = {
		"\xd0\x90m\xd0\xb0",                         /* Cyrillic Аmа */
		"\xce\x91ma",                                 /* Greek Αma */
		"\xef\xbc\xa1\xef\xbd\x8d\xef\xbd\x81",           /* fullwidth Ａｍａ */
		"\xf0\x9d\x90\x80ma",                         /* bold 𝐀ma */
		"Jose\xcc\x81",                              /* José, NFD */
		"Jose",
		"Kofi\xe3\x85\xa4",                          /* Kofi + U+3164 */
		"K0fi",
		"AMA", "ama",
	};
	static const char *const words[] = {
		"bye", "(bye)", "organiser", "withdrawn", "white_forfeit", "Draw", "1-0", "?",
		"Ama (withdrawn)", "Tablas", "\xd0\x9d\xd0\xb8\xd1\x87\xd1\x8c\xd1\x8f", /* Ничья */
		"Kofi (\xd0\xb2\xd0\xbd\xd0\xb5 \xd1\x82\xd1\x83\xd1\x80\xd0\xbd\xd0\xb8\xd1\x80\xd0\xb0)",  /* Kofi (вне турнира) */
	};
	ev_event *ev = mk(EV_SWISS, 5, 0);

	ck_assert_int_eq(join(ev, "Ama"), 0);
	ck_assert_int_eq(join(ev, "Jos\xc3\xa9"), 0);          /* José, NFC */
	ck_assert_int_eq(join(ev, "Kofi"), 0);
	for (size_t i = 0; i < sizeof alike / sizeof alike[0]; i++)
		ck_assert_msg(join(ev, alike[i]) == EV_E_NAME_TAKEN, "%s entered", alike[i]);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		ck_assert_msg(join(ev, words[i]) == EV_E_NAME_WORD, "%s entered", words[i]);
	ck_assert_int_eq(ev->nentries, 3);
	ck_assert_int_eq(join(ev, "Amma"), 0);
	ck_assert_int_eq(join(ev, "Kofi Mensah"), 0);
	ck_assert_int_eq(join(ev, "Byers"), 0);
	ck_assert_int_eq(join(ev, "Lo"), 0);                   /* not 1-0 */
	ck_assert_int_eq(join(ev, "Ama (Accra)"), 0);
	ck_assert_int_eq(ev->nentries, 8);
	/* A name freed by a withdrawal before the start is free in any form. */
	ck_assert_int_eq(withdraw(ev, 0), 0);
	ck_assert_int_eq(join(ev, "\xd0\x90m\xd0\xb0"), 0);
	ck_assert_str_eq(ev_strerror(EV_E_NAME_WORD),
	                 "that name reads as a word of the event's page (a result, a bye, a withdrawal, the organiser)");
	free(ev);
}
END_TEST

START_TEST(test_start_needs_two_players)
{
	ev_event *ev = mk(EV_ROUND_ROBIN, 0, 0);
	ck_assert_int_eq(start(ev), EV_E_FEW);
	ck_assert_int_eq(join(ev, "Ama"), 0);
	ck_assert_int_eq(start(ev), EV_E_FEW);
	ck_assert_int_eq(join(ev, "Kofi"), 0);
	ck_assert_int_eq(withdraw(ev, 1), 0);
	ck_assert_int_eq(start(ev), EV_E_FEW);
	ck_assert_int_eq(ev->state, EV_ENTRY);
	ck_assert_int_eq(ev->nrounds, 0);
	ck_assert_int_eq(join(ev, "Kofi"), 0);
	ck_assert_int_eq(ev_next(ev, &ch), EV_E_STATE);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->state, EV_RUNNING);
	ck_assert_int_eq(ev->total_rounds, 1);
	ck_assert_int_eq(start(ev), EV_E_STATE);
	free(ev);
}
END_TEST

START_TEST(test_results_and_their_errors)
{
	ev_event *ev = mk(EV_ROUND_ROBIN, 0, 0);
	join_n(ev, 5);  /* odd: a bye a round */
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, 0, '1', 0, 0), EV_E_STATE);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->total_rounds, 5);
	/* Berger 6, round 1: 1-6 (6 is the bye), 2-5, 3-4. */
	ck_assert_int_eq(ev->rounds[0].nboards, 3);
	ck_assert_int_eq(ev->rounds[0].boards[2].white, 0);
	ck_assert_int_eq(ev->rounds[0].boards[2].black, -1);
	ck_assert_int_eq(ev->rounds[0].boards[2].result, EV_RES_RR_BYE);
	int b25 = board(ev, 1, 2, 5), b34 = board(ev, 1, 3, 4);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 0, b25, '1', 0, 0), EV_E_ROUND);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 2, b25, '1', 0, 0), EV_E_ROUND);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, 3, '1', 0, 0), EV_E_BOARD);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, -1, '1', 0, 0), EV_E_BOARD);
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, 2, '1', 0, 0), EV_E_BOARD); /* the bye */
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, 'x', 0, 0), EV_E_RESULT);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, EV_RES_WHITE_FF, 0, 0), EV_E_RESULT);
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, b25, EV_RES_WHITE_FF, 1, 0), EV_E_RESULT);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, '1', 30, 19), EV_E_RESULT); /* 49 > 48 */
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, '1', -1, 0), EV_E_RESULT);
	ck_assert_int_eq(result(ev, 7, 1, b25, '1', 0, 0), EV_E_INVAL);
	ck_assert_int_eq(ev->rounds[0].boards[b25].result, EV_RES_NONE);
	ck_assert_int_eq(ev_next(ev, &ch), EV_E_PENDING);
	ck_assert_int_eq(ev_finish(ev, &ch), EV_E_PENDING);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, '1', 25, 10), 0);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b25, '0', 10, 25), EV_E_DONE);
	ck_assert_int_eq(ev->rounds[0].boards[b25].result, '1');
	ck_assert_int_eq(ev->rounds[0].boards[b25].seeds[0], 25);
	/* The organiser: a forfeit (a no-show), then a correction of it. */
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, b34, EV_RES_BLACK_FF, 0, 0), 0);
	ck_assert_int_eq(ev_rounds_complete(ev), 1);
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, b34, '=', 24, 24), 0);
	ck_assert_int_eq(next(ev), 0);
	ck_assert_int_eq(ev->nrounds, 2);
	ck_assert_int_eq(ev_rounds_complete(ev), 1);
	/* The room reports on its own round only; the organiser corrects any. */
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b34, '1', 0, 0), EV_E_ROUND);
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, b34, '1', 20, 2), 0);
	ck_assert_int_eq(ev->rounds[0].boards[b34].result, '1');
	ck_assert_int_eq(ev_finish(ev, &ch), EV_E_PENDING);
	for (int b = 0; b < ev->rounds[1].nboards; b++)
		if (ev->rounds[1].boards[b].black >= 0)
			ck_assert_int_eq(result(ev, EV_BY_ROOM, 2, b, '=', 0, 0), 0);
	ck_assert_int_eq(ev_finish(ev, &ch), 0);
	apply(ev);
	ck_assert_int_eq(ev->state, EV_OVER);
	ck_assert_int_eq(next(ev), EV_E_OVER);
	ck_assert_int_eq(join(ev, "Late"), EV_E_OVER);
	ck_assert_int_eq(withdraw(ev, 0), EV_E_OVER);
	ck_assert_int_eq(result(ev, EV_BY_ROOM, 2, 0, '1', 0, 0), EV_E_DONE);
	free(ev);
}
END_TEST

START_TEST(test_swiss_late_entry_until_half_the_rounds)
{
	ev_event *ev = mk(EV_SWISS, 5, 0);
	join_n(ev, 4);
	ck_assert_int_eq(start(ev), 0);
	/* Round 1 is on: 2 x 1 < 5, open; the entry misses round 1. */
	ck_assert_int_eq(join(ev, "Late one"), 0);
	ck_assert_int_eq(ch.round, 1);
	ck_assert_int_eq(ev->entries[4].number, 5);
	ck_assert_int_eq(ev->entries[4].late, 1);
	play(ev, 1, 1, 3, '1', 0, 0);
	play(ev, 1, 4, 2, '1', 0, 0);
	ck_assert_int_eq(next(ev), 0);
	/* Round 2 is on: 2 x 2 < 5, still open; the second misses two. */
	ck_assert_int_eq(join(ev, "Late two"), 0);
	ck_assert_int_eq(ev->entries[5].late, 2);
	for (int b = 0; b < ev->rounds[1].nboards; b++)
		if (ev->rounds[1].boards[b].black >= 0)
			ck_assert_int_eq(result(ev, EV_BY_ROOM, 2, b, '=', 0, 0), 0);
	ck_assert_int_eq(next(ev), 0);
	/* Round 3 of 5 is on: half of them have started. */
	ck_assert_int_eq(join(ev, "Too late"), EV_E_LATE);
	/* The late ones are paired now, and had ½ a round missed. */
	ck_assert_int_ge(ev_rounds_complete(ev), 2);
	pair_event *pe = malloc(sizeof *pe);
	ev_pair_event(ev, 2, pe);
	ck_assert_int_eq(pe->nplayers, 6);
	ck_assert_int_eq(pe->p[4].rounds[0].result, 'H');
	ck_assert_int_ne(pe->p[4].rounds[1].result, 'H');
	ck_assert_int_eq(pe->p[5].rounds[0].result, 'H');
	ck_assert_int_eq(pe->p[5].rounds[1].result, 'H');
	ck_assert_int_eq(pair_check(pe, NULL, 0), 0);
	ck_assert_int_ge(board_of_number(ev, 3, 6), 0);
	free(pe);
	free(ev);
}
END_TEST

/* Two players of a 3-round Swiss cannot meet twice: round 2 cannot be
 * paired; the organiser ends the event. After a forfeit they could. */
START_TEST(test_swiss_unpairable_round_then_finish)
{
	ev_event *ev = mk(EV_SWISS, 3, 0);
	join_n(ev, 2);
	ck_assert_int_eq(start(ev), 0);
	play(ev, 1, 1, 2, '=', 24, 24);
	ck_assert_int_eq(ev_next(ev, &ch), EV_E_PAIRING);
	ck_assert_int_eq(ev->nrounds, 1);
	ck_assert_int_eq(ev_finish(ev, &ch), 0);
	apply(ev);
	ck_assert_int_eq(ev->state, EV_OVER);
	free(ev);

	ev = mk(EV_SWISS, 3, 0);
	join_n(ev, 2);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(result(ev, EV_BY_ORGANISER, 1, 0, EV_RES_WHITE_FF, 0, 0), 0);
	ck_assert_int_eq(next(ev), 0);   /* a forfeit is no meeting */
	ck_assert_int_eq(ev->nrounds, 2);
	ck_assert_int_eq(ev->rounds[1].nboards, 1);
	free(ev);
}
END_TEST

/* ---- standings by hand ---- */

/* A 4-player double round robin. Berger 4: rounds 1-3 are 1-4 2-3, 4-3
 * 1-2, 2-4 3-1; rounds 4-6 the same with the colours swapped. */
START_TEST(test_double_round_robin_4_by_hand)
{
	ev_event *ev = mk_rules(EV_DOUBLE_ROUND_ROBIN, 0, 0, EV_RULES_2017);
	ev_standing st[8];
	join_n(ev, 4);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->total_rounds, 6);
	play(ev, 1, 1, 4, '1', 25, 3);
	play(ev, 1, 2, 3, '1', 25, 20);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 2, 4, 3, '=', 24, 24);
	play(ev, 2, 1, 2, '0', 10, 30);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 3, 2, 4, '=', 24, 24);
	play(ev, 3, 3, 1, '1', 26, 12);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 4, 4, 1, '=', 24, 24);
	play(ev, 4, 3, 2, '1', 25, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 5, 3, 4, '1', 25, 5);
	play(ev, 5, 2, 1, '0', 20, 28);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 6, 4, 2, '1', 30, 2);
	play(ev, 6, 1, 3, '=', 24, 24);
	ck_assert_int_eq(next(ev), 0);
	ck_assert_int_eq(ev->state, EV_OVER);
	ck_assert_int_eq(ev_standings(ev, st), 4);
	/* Points: 1: 1 + ½ (v4), 0 + 1 (v2), 0 + ½ (v3) = 3; 2: 1 + 0 (v3),
	 * 1 + 0 (v1), ½ + 0 (v4) = 2½; 3: 0 + 1, ½ + 1, 1 + ½ = 4; 4: 2½.
	 * Sonneborn-Berger: 3: 2½ + ½·2½ + 2½ + 3 + ½·3 = 10¾;
	 * 1: 2½ + ½·2½ + 2½ + ½·4 = 8¼; 2: 4 + 3 + ½·2½ = 8¼;
	 * 4: ½·3 + ½·4 + ½·2½ + 2½ = 7¼. 2 and 4 tie on points, SB parts them. */
	ck_assert_int_eq(st[0].number, 3);
	ck_assert_int_eq(st[0].points, Q(4));
	ck_assert_int_eq(st[0].tb[0], Q(10.75));
	ck_assert_int_eq(st[1].number, 1);
	ck_assert_int_eq(st[1].points, Q(3));
	ck_assert_int_eq(st[1].tb[0], Q(8.25));
	ck_assert_int_eq(st[2].number, 2);
	ck_assert_int_eq(st[2].points, Q(2.5));
	ck_assert_int_eq(st[2].tb[0], Q(8.25));
	ck_assert_int_eq(st[3].number, 4);
	ck_assert_int_eq(st[3].points, Q(2.5));
	ck_assert_int_eq(st[3].tb[0], Q(7.25));
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(st[i].place, i + 1);
		ck_assert_int_eq(st[i].place_last, i + 1);
		ck_assert_int_eq(st[i].games, 6);
	}
	/* Seeds: 1 captured 25 + 10 + 12 + 24 + 28 + 24 = 123. */
	ck_assert_int_eq(st[1].tb[2], Q(123));
	ck_assert_int_eq(st[1].wins, 2);
	ck_assert_int_eq(st[1].draws, 2);
	ck_assert_int_eq(st[1].losses, 2);
	/* By C.07 of 2024: DE, WIN, SB, KS. 2 and 4 tie on points; they met
	 * twice, a draw and 4's win: the average (6.1.2), ¼ and ¾, puts 4
	 * first (DE: the tied players it places below, 1 and 0).
	 * WIN: 3 3, 1 2, 4 1, 2 2. KS (opponents with 3 of 6 or more: 3 and
	 * 1): 3 1½ (v1), 1 ½ (v3), 4 ½ + ½, 2 1 + 1. */
	ck_assert_int_eq(standings_2024(ev, st), 4);
	int want[4] = { 3, 1, 4, 2 }, de[4] = { 0, 0, Q(1), 0 };
	int win[4] = { Q(3), Q(2), Q(1), Q(2) }, sb[4] = { Q(10.75), Q(8.25), Q(7.25), Q(8.25) };
	int ks[4] = { Q(1.5), Q(0.5), Q(1), Q(2) };
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(st[i].number, want[i]);
		ck_assert_int_eq(st[i].tb[0], de[i]);
		ck_assert_int_eq(st[i].tb[1], win[i]);
		ck_assert_int_eq(st[i].tb[2], sb[i]);
		ck_assert_int_eq(st[i].tb[3], ks[i]);
		ck_assert_int_eq(st[i].place, i + 1);
	}
	free(ev);
}
END_TEST

/* A single round robin of 4 where 1 and 2 tie on points and on
 * Sonneborn-Berger and 1 beat 2: the direct encounter puts 1 first,
 * before seeds (2 captured more). */
START_TEST(test_round_robin_direct_encounter_before_seeds)
{
	ev_event *ev = mk_rules(EV_ROUND_ROBIN, 0, 0, EV_RULES_2017);
	ev_standing st[4];
	join_n(ev, 4);
	ck_assert_int_eq(start(ev), 0);
	play(ev, 1, 1, 4, '0', 0, 25);
	play(ev, 1, 2, 3, '1', 40, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 2, 4, 3, '1', 25, 0);
	play(ev, 2, 1, 2, '1', 25, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 3, 2, 4, '=', 24, 24);
	play(ev, 3, 3, 1, '=', 24, 24);
	ck_assert_int_eq(next(ev), 0);
	ck_assert_int_eq(ev->state, EV_OVER);
	ev_standings(ev, st);
	/* 4: 1 + ½ + 1 = 2½, SB 1½ + ½·1½ + ½ = 2¾; 1: 1 + ½ = 1½, SB 1½ +
	 * ½·½ = 1¾; 2: 1 + ½ = 1½, SB ½ + ½·2½ = 1¾; 3: ½, SB ½·1½ = ¾. */
	int want[4] = { 4, 1, 2, 3 };
	int pts[4] = { Q(2.5), Q(1.5), Q(1.5), Q(0.5) };
	int sb[4] = { Q(2.75), Q(1.75), Q(1.75), Q(0.75) };
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(st[i].number, want[i]);
		ck_assert_int_eq(st[i].points, pts[i]);
		ck_assert_int_eq(st[i].tb[0], sb[i]);
		ck_assert_int_eq(st[i].place, i + 1);
	}
	ck_assert_int_eq(st[1].tb[1], Q(1));   /* 1's point against 2 */
	ck_assert_int_eq(st[2].tb[1], Q(0));
	ck_assert_int_gt(st[2].tb[2], st[1].tb[2]);  /* 2 has more seeds */
	/* By C.07 of 2024 DE comes first: the same order. WIN 2 1 1 0; KS
	 * (opponents with 1½ of 3 or more: 4, 1, 2): 4 1 + ½, 1 1, 2 ½, 3 ½. */
	standings_2024(ev, st);
	int de[4] = { 0, Q(1), 0, 0 }, win[4] = { Q(2), Q(1), Q(1), 0 };
	int ks[4] = { Q(1.5), Q(1), Q(0.5), Q(0.5) };
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(st[i].number, want[i]);
		ck_assert_int_eq(st[i].tb[0], de[i]);
		ck_assert_int_eq(st[i].tb[1], win[i]);
		ck_assert_int_eq(st[i].tb[2], sb[i]);
		ck_assert_int_eq(st[i].tb[3], ks[i]);
		ck_assert_int_eq(st[i].place, i + 1);
	}
	free(ev);
}
END_TEST

/* The direct encounter parts a tied group only when all of it has met:
 * 5 players (Berger 6, 6 the bye), standings after round 2. 1, 2 and 5
 * tie on 1 point and SB 1 (1 beat 2, 2 beat 5, 5 beat 3, each worth 1
 * point); 1 and 5 have not met, so seeds decide: 5 (50), 2 (30), 1 (25).
 * Taken among them anyway, the games would put 5 last. */
START_TEST(test_direct_encounter_only_when_all_met)
{
	ev_event *ev = mk_rules(EV_ROUND_ROBIN, 0, 0, EV_RULES_2017);
	ev_standing st[5];
	join_n(ev, 5);
	ck_assert_int_eq(start(ev), 0);
	play(ev, 1, 2, 5, '1', 25, 20);
	play(ev, 1, 3, 4, '1', 25, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 2, 5, 3, '1', 30, 10);
	play(ev, 2, 1, 2, '1', 25, 5);
	ck_assert_int_eq(next(ev), 0);
	ck_assert_int_eq(ev->nrounds, 3);
	ck_assert_int_eq(ev_rounds_complete(ev), 2);
	ck_assert_int_eq(ev_standings(ev, st), 5);
	int want[5] = { 5, 2, 1, 3, 4 };
	int sb[5] = { Q(1), Q(1), Q(1), Q(0), Q(0) };
	int seeds[5] = { Q(50), Q(30), Q(25), Q(35), Q(0) };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(st[i].number, want[i]);
		ck_assert_int_eq(st[i].points, i < 4 ? Q(1) : 0);
		ck_assert_int_eq(st[i].tb[0], sb[i]);
		ck_assert_int_eq(st[i].tb[1], 0);
		ck_assert_int_eq(st[i].tb[2], seeds[i]);
		ck_assert_int_eq(st[i].place, i + 1);
	}
	/* By C.07 of 2024 DE comes first, over all four on 1 point (3 too,
	 * SB 0): 1, 2 and 5 scored 1 among them, 3 none; 1 could still reach
	 * 3 (not having met 3 and 5), 2, 3 and 5 2: Art. 6 parts none. WIN
	 * 1 each, SB as above, KS (opponents with half their games' points:
	 * all but 4): 1, 1, 1, 0; then seeds: the same order. */
	standings_2024(ev, st);
	int ks[5] = { Q(1), Q(1), Q(1), 0, 0 };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(st[i].number, want[i]);
		ck_assert_int_eq(st[i].tb[0], 0);
		ck_assert_int_eq(st[i].tb[1], i < 4 ? Q(1) : 0);
		ck_assert_int_eq(st[i].tb[2], sb[i]);
		ck_assert_int_eq(st[i].tb[3], ks[i]);
		ck_assert_int_eq(st[i].tb[4], seeds[i]);
		ck_assert_int_eq(st[i].place, i + 1);
	}
	free(ev);
}
END_TEST

/* A 3-player round robin (an odd field: Berger 4, the 4th a bye) of
 * draws: everything ties, the place is shared. */
START_TEST(test_odd_round_robin_shared_place)
{
	ev_event *ev = mk_rules(EV_ROUND_ROBIN, 0, 0, EV_RULES_2017);
	ev_standing st[3];
	join_n(ev, 3);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->total_rounds, 3);
	for (int r = 1; r <= 3; r++) {
		int byes = 0;
		for (int b = 0; b < ev->rounds[r - 1].nboards; b++)
			if (ev->rounds[r - 1].boards[b].black < 0)
				byes++;
			else
				ck_assert_int_eq(result(ev, EV_BY_ROOM, r, b, '=', 24, 24), 0);
		ck_assert_int_eq(byes, 1);
		ck_assert_int_eq(next(ev), 0);
	}
	ck_assert_int_eq(ev->state, EV_OVER);
	ev_standings(ev, st);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(st[i].number, i + 1);
		ck_assert_int_eq(st[i].points, Q(1));   /* the bye scores nothing */
		ck_assert_int_eq(st[i].tb[0], Q(1));    /* ½·1 + ½·1 */
		ck_assert_int_eq(st[i].tb[1], Q(1));    /* all met: 1 point among them */
		ck_assert_int_eq(st[i].tb[2], Q(48));
		ck_assert_int_eq(st[i].place, 1);
		ck_assert_int_eq(st[i].place_last, 3);
		ck_assert_int_eq(st[i].games, 2);
	}
	char csv[1024];
	ck_assert_int_gt(ev_csv(ev, csv, sizeof csv), 0);
	ck_assert_ptr_nonnull(strstr(csv, "\r\n1-3,1,\"Ama\",1,1,1,48,2,0,2,0,0\r\n"
		"1-3,2,\"Kofi\",1,1,1,48,2,0,2,0,0\r\n1-3,3,\"Yaw\","));
	/* By C.07 of 2024: DE places no one (all met, 1 point each), WIN 0,
	 * SB 1, KS 1 (everyone has half of his 2 games' points), seeds 48:
	 * still shared. */
	ev->rules = EV_RULES_2025;
	ck_assert_int_gt(ev_csv(ev, csv, sizeof csv), 0);
	ck_assert_ptr_nonnull(strstr(csv, "place,number,name,points,direct_encounter,number_of_wins,"
		"sonneborn_berger,koya,seeds,games,wins,draws,losses,withdrawn\r\n"
		"1-3,1,\"Ama\",1,0,0,1,1,48,2,0,2,0,0\r\n"
		"1-3,2,\"Kofi\",1,0,0,1,1,48,2,0,2,0,0\r\n1-3,3,\"Yaw\","));
	free(ev);
}
END_TEST

/* A round as text: "1-4 5-2 3-6", "4-bye". */
static void round_text(const ev_event *ev, int r, char *out, size_t cap)
{
	const ev_round *rd = &ev->rounds[r - 1];
	size_t at = 0;
	out[0] = 0;
	for (int b = 0; b < rd->nboards && at < cap; b++) {
		if (rd->boards[b].black < 0)
			at += (size_t)snprintf(out + at, cap - at, "%s%d-bye", b ? " " : "",
				rd->boards[b].white + 1);
		else
			at += (size_t)snprintf(out + at, cap - at, "%s%d-%d", b ? " " : "",
				rd->boards[b].white + 1, rd->boards[b].black + 1);
	}
}

/* Checks round r's pairing, then gives its boards without a result the
 * results of `res` in board order (from the room, or the organiser for a
 * forfeit), and asks for the next step. */
static void round_of(ev_event *ev, int r, const char *pairing, const char *res)
{
	char text[256];
	int b = 0;
	round_text(ev, r, text, sizeof text);
	ck_assert_str_eq(text, pairing);
	for (const char *c = res; *c; c++, b++) {
		while (ev->rounds[r - 1].boards[b].result != EV_RES_NONE)
			b++;
		int by = *c == '1' || *c == '=' || *c == '0' ? EV_BY_ROOM : EV_BY_ORGANISER;
		ck_assert_int_eq(result(ev, by, r, b, *c, 0, 0), 0);
	}
	ck_assert_int_eq(next(ev), 0);
}

/* The expected line of a starting rank: points, Buchholz Cut-1, Buchholz,
 * Sonneborn-Berger (in quarters) and the place. */
static void want_swiss(const ev_standing *st, int n, int number, int place,
	int pts, int c1, int bh, int sb)
{
	const ev_standing *s = row_of(st, n, number);
	ck_assert_int_eq(s->place, place);
	ck_assert_int_eq(s->points, pts);
	ck_assert_int_eq(s->tb[0], c1);
	ck_assert_int_eq(s->tb[1], bh);
	ck_assert_int_eq(s->tb[2], sb);
}

/* The same by C.07 of 2024: points, BH-C1, BH, DE, SB and the places. */
static void want_swiss24(const ev_standing *st, int n, int number, int place, int last,
	int pts, int c1, int bh, int de, int sb)
{
	const ev_standing *s = row_of(st, n, number);
	ck_assert_int_eq(s->place, place);
	ck_assert_int_eq(s->place_last, last);
	ck_assert_int_eq(s->points, pts);
	ck_assert_int_eq(s->tb[0], c1);
	ck_assert_int_eq(s->tb[1], bh);
	ck_assert_int_eq(s->tb[2], de);
	ck_assert_int_eq(s->tb[3], sb);
}

/* 6 players, 3 rounds: a draw, a forfeit (3 does not come in round 2).
 * Unplayed games in Buchholz by C.07's virtual opponent (2009): an
 * opponent's unplayed rounds count ½; a player's own unplayed round
 * counts an opponent of his points before it, plus 1 - his result, plus
 * ½ a round after it. */
START_TEST(test_swiss_6_players_by_hand)
{
	ev_event *ev = mk_rules(EV_SWISS, 3, 0, EV_RULES_2017);
	ev_standing st[6];
	join_n(ev, 6);
	ck_assert_int_eq(start(ev), 0);
	round_of(ev, 1, "1-4 5-2 3-6", "1=0");
	round_of(ev, 2, "6-1 2-3 4-5", "=+0");
	round_of(ev, 3, "1-5 2-6 4-3", "10=");
	ck_assert_int_eq(ev->state, EV_OVER);
	ck_assert_int_eq(ev_standings(ev, st), 6);
	/* Points: 1: 1 ½ 1; 6: 1 ½ 1; 2: ½ 1(+) 0; 5: ½ 1 0; 4: 0 0 ½;
	 * 3: 0 0(-) ½. Adjusted for others' Buchholz: 2 and 3 have 1 each
	 * (the forfeit ½); the rest their points.
	 * 1: 4 (½) + 6 (2½) + 5 (1½) = 4½, cut ½: 4; SB ½ + 1¼ + 1½ = 3¼.
	 * 6: 3 (1) + 1 (2½) + 2 (1) = 4½, cut 1: 3½; SB 1 + 1¼ + 1 = 3¼.
	 * 2: 5 (1½) + virtual (½ + 0 + ½ = 1) + 6 (2½) = 5, cut: 4; SB ¾ + 1 = 1¾.
	 * 5: 2 (1) + 4 (½) + 1 (2½) = 4, cut: 3½; SB ½ + ½ = 1.
	 * 4: 1 (2½) + 5 (1½) + 3 (1) = 5, cut: 4; SB ½.
	 * 3: 6 (2½) + virtual (0 + 1 + ½ = 1½) + 4 (½) = 4½, cut: 4; SB ¼. */
	want_swiss(st, 6, 1, 1, Q(2.5), Q(4), Q(4.5), Q(3.25));
	want_swiss(st, 6, 6, 2, Q(2.5), Q(3.5), Q(4.5), Q(3.25));
	want_swiss(st, 6, 2, 3, Q(1.5), Q(4), Q(5), Q(1.75));
	want_swiss(st, 6, 5, 4, Q(1.5), Q(3.5), Q(4), Q(1));
	want_swiss(st, 6, 4, 5, Q(0.5), Q(4), Q(5), Q(0.5));
	want_swiss(st, 6, 3, 6, Q(0.5), Q(4), Q(4.5), Q(0.25));
	ck_assert_int_eq(row_of(st, 6, 2)->games, 3);  /* the forfeit is a game, unplayed */
	ck_assert_int_eq(row_of(st, 6, 3)->losses, 2);
	/* By C.07 of 2024 (Art. 16): every score as it stands (a forfeit
	 * counts as awarded, 16.3.1); each own unplayed round a dummy of the
	 * player's own score (16.4); Cut-1 cuts a VUR's value first (16.5).
	 * 1: 4 (½) + 6 (2½) + 5 (1½) = 4½, cut ½: 4; SB ½ + 1¼ + 1½ = 3¼.
	 * 6: 3 (½) + 1 (2½) + 2 (1½) = 4½, cut: 4; SB 3¼. 1 and 6 drew: DE
	 * places neither, and they share the first place.
	 * 2: 5 (1½) + dummy (1½, the forfeit won) + 6 (2½) = 5½, cut 1½: 4;
	 * SB ¾ + 1½ = 2¼. 5: 2 (1½) + 4 (½) + 1 (2½) = 4½, cut: 4; SB ¾ + ½.
	 * 4: 1 (2½) + 5 (1½) + 3 (½) = 4½, cut: 4; SB ¼.
	 * 3: 6 (2½) + dummy (½, the forfeit lost: a VUR) + 4 (½) = 3½, cut
	 * the VUR's ½: 3; SB ¼. */
	ck_assert_int_eq(standings_2024(ev, st), 6);
	want_swiss24(st, 6, 1, 1, 2, Q(2.5), Q(4), Q(4.5), 0, Q(3.25));
	want_swiss24(st, 6, 6, 1, 2, Q(2.5), Q(4), Q(4.5), 0, Q(3.25));
	want_swiss24(st, 6, 2, 3, 3, Q(1.5), Q(4), Q(5.5), 0, Q(2.25));
	want_swiss24(st, 6, 5, 4, 4, Q(1.5), Q(4), Q(4.5), 0, Q(1.25));
	want_swiss24(st, 6, 4, 5, 5, Q(0.5), Q(4), Q(4.5), 0, Q(0.25));
	want_swiss24(st, 6, 3, 6, 6, Q(0.5), Q(3), Q(3.5), 0, Q(0.25));
	free(ev);
}
END_TEST

/* 5 players (an odd field), 3 rounds; 3 withdraws during round 2: his
 * game is forfeited, and he is not paired in round 3 ('Z', 0 points). */
START_TEST(test_swiss_odd_field_and_withdrawal_by_hand)
{
	ev_event *ev = mk_rules(EV_SWISS, 3, 0, EV_RULES_2017);
	ev_standing st[5];
	join_n(ev, 5);
	ck_assert_int_eq(start(ev), 0);
	round_of(ev, 1, "1-3 4-2 5-bye", "10");
	ck_assert_int_eq(ev->rounds[1].boards[2].result, EV_RES_BYE);
	ck_assert_int_eq(ev_withdraw(ev, 2, &ch), 0);
	ck_assert_int_eq(ch.round, 2);
	ck_assert_int_eq(ch.board, 1);
	apply(ev);
	ck_assert_int_eq(ev->rounds[1].boards[1].result, EV_RES_WHITE_FF);  /* 2-3: 2 wins */
	ck_assert_int_eq(withdraw(ev, 2), EV_E_WITHDRAWN);
	round_of(ev, 2, "5-1 2-3 4-bye", "=");
	round_of(ev, 3, "2-5 1-4", "10");
	ev_standings(ev, st);
	/* Points: 2: 1 1(+) 1 = 3; 4: 0 1(bye) 1 = 2; 5: 1(bye) ½ 0; 1: 1 ½ 0;
	 * 3: 0 0(-) 0(Z). Adjusted: 2 2½, 3 1, 4 1½, 5 1, 1 1½.
	 * 2: 4 (1½) + virtual (1 + 0 + ½) + 5 (1) = 4, cut: 3; SB 1½ + 1½ + 1 = 4.
	 * 4: 2 (2½) + virtual bye (0 + 0 + ½) + 1 (1½) = 4½, cut: 4; SB ½ + 1½ = 2.
	 * 5: virtual bye (0 + 0 + 1) + 1 (1½) + 2 (2½) = 5, cut: 4; SB 1 + ¾ = 1¾.
	 * 1: 3 (1) + 5 (1) + 4 (1½) = 3½, cut: 2½; SB 1 + ½ = 1½.
	 * 3: 1 (1½) + virtual (0 + 1 + ½) + virtual (0 + 1 + 0) = 4, cut: 3; SB 0. */
	want_swiss(st, 5, 2, 1, Q(3), Q(3), Q(4), Q(4));
	want_swiss(st, 5, 4, 2, Q(2), Q(4), Q(4.5), Q(2));
	want_swiss(st, 5, 5, 3, Q(1.5), Q(4), Q(5), Q(1.75));
	want_swiss(st, 5, 1, 4, Q(1.5), Q(2.5), Q(3.5), Q(1.5));
	want_swiss(st, 5, 3, 5, Q(0), Q(3), Q(4), Q(0));
	ck_assert_int_eq(row_of(st, 5, 3)->withdrawn, 1);
	ck_assert_int_eq(row_of(st, 5, 4)->games, 2);  /* a bye is no game */
	/* By C.07 of 2024: 3's forfeit loss counts as awarded (16.2.4), his Z
	 * after it, followed by nothing but VURs, as a draw (16.2.5): 3
	 * counts ½ in his opponents' tie-breaks; everyone else his points.
	 * 2: 4 (2) + dummy (3, the forfeit won) + 5 (1½) = 6½, cut: 5; SB 6½.
	 * 4: 2 (3) + dummy (2, the bye) + 1 (1½) = 6½, cut: 5; SB 2 + 1½.
	 * 5: dummy (1½, the bye) + 1 (1½) + 2 (3) = 6, cut: 4½; SB 1½ + ¾.
	 * 1: 3 (½) + 5 (1½) + 4 (2) = 4, cut: 3½; SB ½ + ¾.
	 * 3: 1 (1½) + two dummies of his 0 (VURs) = 1½, a VUR's 0 cut; SB 0. */
	ck_assert_int_eq(standings_2024(ev, st), 5);
	want_swiss24(st, 5, 2, 1, 1, Q(3), Q(5), Q(6.5), 0, Q(6.5));
	want_swiss24(st, 5, 4, 2, 2, Q(2), Q(5), Q(6.5), 0, Q(3.5));
	want_swiss24(st, 5, 5, 3, 3, Q(1.5), Q(4.5), Q(6), 0, Q(2.25));
	want_swiss24(st, 5, 1, 4, 4, Q(1.5), Q(3.5), Q(4), 0, Q(1.25));
	want_swiss24(st, 5, 3, 5, 5, 0, Q(1.5), Q(1.5), 0, 0);
	free(ev);
}
END_TEST

/* 4 players, 3 rounds; a fifth enters during round 1 (2 x 1 < 3): a
 * half-point bye for it, paired from round 2. */
START_TEST(test_swiss_late_entry_by_hand)
{
	ev_event *ev = mk_rules(EV_SWISS, 3, 0, EV_RULES_2017);
	ev_standing st[5];
	join_n(ev, 4);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(join(ev, "Late"), 0);
	round_of(ev, 1, "1-3 4-2", "10");
	ck_assert_int_eq(join(ev, "Later"), EV_E_LATE);  /* 2 x 2 >= 3 */
	round_of(ev, 2, "2-1 3-5 4-bye", "=0");
	round_of(ev, 3, "5-2 1-4 3-bye", "=1");
	ev_standings(ev, st);
	/* Points: 1: 1 ½ 1; 2: 1 ½ ½; 5: ½(H) 1 ½; 4: 0 1(bye) 0; 3: 0 0 1(bye).
	 * Adjusted: 3 and 4 ½ (their byes count ½), 5 2 (H is ½ already).
	 * 1: 3 (½) + 2 (2) + 4 (½) = 3, cut: 2½; SB ½ + 1 + ½ = 2.
	 * 2: 4 (½) + 1 (2½) + 5 (2) = 5, cut: 4½; SB ½ + 1¼ + 1 = 2¾.
	 * 5: virtual H (0 + ½ + 1) + 3 (½) + 2 (2) = 4, cut: 3½; SB ¾ + ½ + 1 = 2¼.
	 * 4: 2 (2) + virtual bye (0 + 0 + ½) + 1 (2½) = 5, cut: 4½; SB ½.
	 * 3: 1 (2½) + 5 (2) + virtual bye (0 + 0 + 0) = 4½, cut: 4½; SB 0. */
	want_swiss(st, 5, 1, 1, Q(2.5), Q(2.5), Q(3), Q(2));
	want_swiss(st, 5, 2, 2, Q(2), Q(4.5), Q(5), Q(2.75));
	want_swiss(st, 5, 5, 3, Q(2), Q(3.5), Q(4), Q(2.25));
	want_swiss(st, 5, 4, 4, Q(1), Q(4.5), Q(5), Q(0.5));
	want_swiss(st, 5, 3, 5, Q(1), Q(4.5), Q(4.5), Q(0));
	/* By C.07 of 2024: 5's H, followed by games, counts as awarded (½,
	 * 16.2.3); the byes U as awarded (1).
	 * 1: 3 (1) + 2 (2) + 4 (1) = 4, cut: 3; SB 1 + 1 + 1 = 3.
	 * 2: 4 (1) + 1 (2½) + 5 (2) = 5½, cut: 4½; SB 1 + 1¼ + 1 = 3¼.
	 * 5: dummy (2, the H: a VUR) + 3 (1) + 2 (2) = 5, the VUR's 2 cut: 3;
	 * SB 1 + 1 + 1 = 3. 4: 2 (2) + dummy (1) + 1 (2½) = 5½, cut: 4½; SB 1.
	 * 3: 1 (2½) + 5 (2) + dummy (1) = 5½, cut: 4½; SB 1. 4 and 3 tie on
	 * all; they have not met (DE 0): they share the place. */
	ck_assert_int_eq(standings_2024(ev, st), 5);
	want_swiss24(st, 5, 1, 1, 1, Q(2.5), Q(3), Q(4), 0, Q(3));
	want_swiss24(st, 5, 2, 2, 2, Q(2), Q(4.5), Q(5.5), 0, Q(3.25));
	want_swiss24(st, 5, 5, 3, 3, Q(2), Q(3), Q(5), 0, Q(3));
	want_swiss24(st, 5, 4, 4, 5, Q(1), Q(4.5), Q(5.5), 0, Q(1));
	want_swiss24(st, 5, 3, 4, 5, Q(1), Q(4.5), Q(5.5), 0, Q(1));
	free(ev);
}
END_TEST

/* ev_will_pair (the server pairs off its loop when it says so) is 1
 * exactly when ev_start or ev_next would run the Swiss pairing. */
static void all_white(ev_event *ev, int r)
{
	for (int b = 0; b < ev->rounds[r - 1].nboards; b++)
		if (ev->rounds[r - 1].boards[b].black >= 0 && !ev->rounds[r - 1].boards[b].result)
			ck_assert_int_eq(result(ev, EV_BY_ROOM, r, b, '1', 30, 10), 0);
}

START_TEST(test_will_pair_exactly_when_a_swiss_pairs)
{
	ev_event *ev = mk(EV_SWISS, 2, 0);
	ck_assert_int_eq(join(ev, "Solo"), 0);
	ck_assert_int_eq(ev_will_pair(ev), 0);          /* start: too few */
	ck_assert_int_eq(withdraw(ev, 0), 0);
	join_n(ev, 4);
	ck_assert_int_eq(ev_will_pair(ev), 1);          /* start pairs round 1 */
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev_will_pair(ev), 0);          /* next: pending */
	ck_assert_int_eq(ev_next(ev, &ch), EV_E_PENDING);
	all_white(ev, 1);
	ck_assert_int_eq(ev_will_pair(ev), 1);
	ck_assert_int_eq(ev_next(ev, &ch), 0);
	ck_assert_int_eq(ch.op, EV_OP_ROUND);
	apply(ev);
	all_white(ev, 2);
	ck_assert_int_eq(ev_will_pair(ev), 0);          /* the last round: the end */
	ck_assert_int_eq(ev_next(ev, &ch), 0);
	ck_assert_int_eq(ch.op, EV_OP_END);
	free(ev);

	/* Fewer than 2 players left: the end, not a pairing. */
	ev = mk(EV_SWISS, 5, 0);
	join_n(ev, 3);
	ck_assert_int_eq(start(ev), 0);
	all_white(ev, 1);
	ck_assert_int_eq(withdraw(ev, 0), 0);
	ck_assert_int_eq(withdraw(ev, 1), 0);
	ck_assert_int_eq(ev_will_pair(ev), 0);
	ck_assert_int_eq(ev_next(ev, &ch), 0);
	ck_assert_int_eq(ch.op, EV_OP_END);
	free(ev);

	/* A round robin's Berger table is never the worker's. */
	ev = mk(EV_ROUND_ROBIN, 0, 0);
	join_n(ev, 4);
	ck_assert_int_eq(ev_will_pair(ev), 0);
	ck_assert_int_eq(start(ev), 0);
	all_white(ev, 1);
	ck_assert_int_eq(ev_will_pair(ev), 0);
	ck_assert_int_eq(ev_next(ev, &ch), 0);
	ck_assert_int_eq(ch.op, EV_OP_ROUND);
	free(ev);
}
END_TEST

/* ---- exports ---- */

START_TEST(test_csv_and_trf_exports)
{
	ev_event *ev = mk(EV_ROUND_ROBIN, 0, 0);
	char buf[4096];
	join_n(ev, 3);
	ck_assert_int_eq(join(ev, "Abdul \"The Sower\""), 0);
	ck_assert_int_eq(start(ev), 0);
	play(ev, 1, 1, 4, '0', 0, 25);
	play(ev, 1, 2, 3, '1', 40, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 2, 4, 3, '1', 25, 0);
	play(ev, 2, 1, 2, '1', 25, 0);
	ck_assert_int_eq(next(ev), 0);
	play(ev, 3, 2, 4, '=', 24, 24);
	play(ev, 3, 3, 1, '=', 24, 24);
	ck_assert_int_eq(next(ev), 0);
	long len = ev_csv(ev, buf, sizeof buf);
	ck_assert_int_gt(len, 0);
	ck_assert_str_eq(buf,
		"place,number,name,points,direct_encounter,number_of_wins,sonneborn_berger,"
		"koya,seeds,games,wins,draws,losses,withdrawn\r\n"
		"1,4,\"Abdul \"\"The Sower\"\"\",2.5,0,2,2.75,1.5,74,3,2,1,0,0\r\n"
		"2,1,\"Ama\",1.5,1,1,1.75,1,49,3,1,1,1,0\r\n"
		"3,2,\"Kofi\",1.5,0,1,1.75,0.5,64,3,1,1,1,0\r\n"
		"4,3,\"Yaw\",0.5,0,0,0.75,0.5,24,3,0,1,2,0\r\n");
	ck_assert_int_eq(len, (long)strlen(buf));
	/* Too small a buffer: the length needed, as snprintf. */
	char small[16];
	ck_assert_int_eq(ev_csv(ev, small, sizeof small), len);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);

	len = ev_trf(ev, buf, sizeof buf);
	ck_assert_int_gt(len, 0);
	ck_assert_ptr_nonnull(strstr(buf, "012 Thursday club\n"));
	ck_assert_ptr_nonnull(strstr(buf, "XXR 3\n"));
	/* The rules of the Dutch system the event follows. */
	ck_assert_ptr_nonnull(strstr(buf, ev->rules == EV_RULES_2017
		? "\nXXS FIDE Dutch 2017\n" : "\nXXS FIDE Dutch 2025\n"));
	/* Read back: the same games; the rank column (86-89) is the place. */
	trf_file *f = malloc(sizeof *f);
	char err[128];
	ck_assert_int_eq(trf_read(buf, (size_t)len, f, err, sizeof err), 0);
	ck_assert_int_eq(f->ev.rules, ev->rules == EV_RULES_2017 ? PAIR_DUTCH_2017 : PAIR_DUTCH_2025);
	ck_assert_int_eq(f->ev.nplayers, 4);
	ck_assert_str_eq(f->names[1], "Kofi");
	ck_assert_int_eq(f->ev.p[0].rounds[0].opp, 3);
	ck_assert_int_eq(f->ev.p[0].rounds[0].color, PAIR_WHITE);
	ck_assert_int_eq(f->ev.p[0].rounds[0].result, '0');
	ck_assert_int_eq(f->ev.p[1].rounds[2].result, '=');
	ck_assert_int_eq(pair_score_halves(&f->ev.p[3], 3), 5);
	int places[4] = { 2, 3, 4, 1 };
	for (const char *line = buf; (line = strstr(line, "001 ")) != NULL; line++) {
		int num = atoi(line + 4);
		ck_assert_int_eq(atoi(line + 85), places[num - 1]);
	}
	free(f);
	free(ev);
}
END_TEST

/* Names a spreadsheet would read as formulas get a leading ' in the
 * CSV (OWASP's CSV injection guidance); other names are left alone. */
START_TEST(test_csv_neutralises_formula_names)
{
	ev_event *ev = mk(EV_ROUND_ROBIN, 0, 0);
	char buf[4096];
	ck_assert_int_eq(join(ev, "=HYPERLINK(\"//e.vil\")"), 0);
	ck_assert_int_eq(join(ev, "+1 Ama"), 0);
	ck_assert_int_eq(join(ev, "-Kofi"), 0);
	ck_assert_int_eq(join(ev, "@SUM(A1)"), 0);
	ck_assert_int_eq(join(ev, "Yaw = 1"), 0);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_gt(ev_csv(ev, buf, sizeof buf), 0);
	ck_assert_ptr_nonnull(strstr(buf, ",1,\"'=HYPERLINK(\"\"//e.vil\"\")\","));
	ck_assert_ptr_nonnull(strstr(buf, ",2,\"'+1 Ama\","));
	ck_assert_ptr_nonnull(strstr(buf, ",3,\"'-Kofi\","));
	ck_assert_ptr_nonnull(strstr(buf, ",4,\"'@SUM(A1)\","));
	ck_assert_ptr_nonnull(strstr(buf, ",5,\"Yaw = 1\","));
	/* No cell of a name line starts with a formula character. */
	ck_assert_ptr_null(strstr(buf, ",\"="));
	ck_assert_ptr_null(strstr(buf, ",\"@"));
	free(ev);
}
END_TEST

/* Column `col` (1-based) of a line counted in code points, as TRF
 * readers (JaVaFo, bbpPairings) count it: a pointer into the line. */
static const char *col_at(const char *line, int col)
{
	for (int c = 1; c < col; c++) {
		line++;
		while (((unsigned char)*line & 0xC0) == 0x80)
			line++;
	}
	return line;
}

/* Non-ASCII names take 33 characters, not 33 bytes, in the TRF: every
 * later column stays where a Dutch-system program reads it, a long name
 * is cut at a character, and the file reads back the same. */
START_TEST(test_trf_columns_are_characters)
{
	static const char *const names[] = {
		"Әлихан Сәрсенбаев", "Пётр Иванов", "Hélène Dupré", "José Núñez",
		"Жанқожа Қожахметұлы Ёжик", /* 24 characters, 45 bytes */
		"Ақжол Нұрмағанбетов",
	};
	ev_event *ev = mk(EV_SWISS, 3, 0);
	char buf[8192];
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(join(ev, names[i]), 0);
	ck_assert_int_eq(start(ev), 0);
	for (int b = 0; b < ev->rounds[0].nboards; b++)
		ck_assert_int_eq(result(ev, EV_BY_ROOM, 1, b, b % 2 ? '0' : '1', 20, 20), 0);
	ck_assert_int_eq(next(ev), 0);
	long len = ev_trf(ev, buf, sizeof buf);
	ck_assert_int_gt(len, 0);
	ck_assert_int_lt(len, (long)sizeof buf);
	ev_standing st[6];
	ck_assert_int_eq(ev_standings(ev, st), 6);
	int lines = 0;
	for (const char *line = buf; (line = strstr(line, "001 ")) != NULL; line++) {
		int num = atoi(line + 4);
		ck_assert_int_ge(num, 1);
		ck_assert_int_le(num, 6);
		/* columns 15-47: the name padded with blanks to 33 characters */
		const char *name = col_at(line, 15), *end = col_at(line, 48);
		const char *want = names[num - 1];
		ck_assert_int_eq(strncmp(name, want, strlen(want)), 0);
		for (const char *c = name + strlen(want); c < end; c++)
			ck_assert_int_eq(*c, ' ');
		ck_assert_int_eq(*end, ' ');
		/* points in 81-84, the place of the standings in 86-89, round 1
		 * from 92 */
		ck_assert_int_eq(col_at(line, 80)[0], ' ');
		char pts[8];
		snprintf(pts, sizeof pts, "%.4s", col_at(line, 81));
		ck_assert_msg(strchr(pts, '.') != NULL, "points column: '%s'", pts);
		for (int i = 0; i < 6; i++)
			if (st[i].number == num)
				ck_assert_int_eq(atoi(col_at(line, 86)), st[i].place);
		ck_assert_int_eq(col_at(line, 90)[0], ' ');
		ck_assert_int_eq(col_at(line, 91)[0], ' ');
		ck_assert_int_gt(atoi(col_at(line, 92)), 0);
		ck_assert(strchr("wb", col_at(line, 97)[0]));
		ck_assert(strchr("10=", col_at(line, 99)[0]));
		lines++;
	}
	ck_assert_int_eq(lines, 6);
	/* Read back: the same names and games. */
	trf_file *f = malloc(sizeof *f);
	char err[128];
	ck_assert_msg(trf_read(buf, (size_t)len, f, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(f->ev.nplayers, 6);
	ck_assert_str_eq(f->names[0], names[0]);
	ck_assert_str_eq(f->names[4], names[4]);
	ck_assert_str_eq(f->names[5], names[5]);
	pair_event pe;
	ev_pair_event(ev, 1, &pe);
	for (int i = 0; i < 6; i++) {
		ck_assert_int_eq(f->ev.p[i].rounds[0].opp, pe.p[i].rounds[0].opp);
		ck_assert_int_eq(f->ev.p[i].rounds[0].color, pe.p[i].rounds[0].color);
		ck_assert_int_eq(f->ev.p[i].rounds[0].result, pe.p[i].rounds[0].result);
	}
	free(f);
	free(ev);
}
END_TEST

/* A file laid out by characters (as JaVaFo or bbpPairings write it) with
 * a Cyrillic name reads right: rating, opponent, colour and result. */
START_TEST(test_trf_reads_character_columns)
{
	const char *text =
		"012 Кубок\n"
		"XXR 3\n"
		"001    1      Пётр Иванов                       1500                             1.0    1     2 w 1\n"
		"001    2      Ama                               1400                             0.0    2     1 b 0\n";
	trf_file *f = malloc(sizeof *f);
	char err[128];
	ck_assert_msg(trf_read(text, strlen(text), f, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(f->title, "Кубок");
	ck_assert_str_eq(f->names[0], "Пётр Иванов");
	ck_assert_int_eq(f->ev.p[0].rating, 1500);
	ck_assert_int_eq(f->ev.p[0].nrounds, 1);
	ck_assert_int_eq(f->ev.p[0].rounds[0].opp, 1);
	ck_assert_int_eq(f->ev.p[0].rounds[0].color, PAIR_WHITE);
	ck_assert_int_eq(f->ev.p[0].rounds[0].result, '1');
	/* Written with a name of 40 characters: cut after the 33rd, at a
	 * character, and the rating still in columns 49-52. */
	char out[2048];
	snprintf(f->names[1], sizeof f->names[1], "%s",
		"Ақжол Серікұлы Нұрмағанбетов-Әбдіадыров");
	size_t n = trf_write(f, out, sizeof out);
	ck_assert_uint_lt(n, sizeof out);
	const char *line = strstr(out, "001    2");
	ck_assert_ptr_nonnull(line);
	ck_assert_int_eq(strncmp(col_at(line, 15), "Ақжол Серікұлы Нұрмағанбетов-Әбді ",
		strlen("Ақжол Серікұлы Нұрмағанбетов-Әбді ")), 0);
	ck_assert_int_eq(atoi(col_at(line, 49)), 1400);
	ck_assert_int_eq(atoi(col_at(line, 92)), 1);
	ck_assert_msg(trf_read(out, n, f, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(f->names[1], "Ақжол Серікұлы Нұрмағанбетов-Әбді");
	ck_assert_str_eq(f->names[0], "Пётр Иванов");
	free(f);
}
END_TEST

/* ---- random events ---- */

static uint32_t rng = 2463534242u;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

/* Random results for the boards of round r still without one: draws,
 * wins either way, forfeits from the organiser, seeds from the room. */
static void random_results(ev_event *ev, int r)
{
	ev_round *rd = &ev->rounds[r - 1];
	for (int b = 0; b < rd->nboards; b++) {
		if (rd->boards[b].result != EV_RES_NONE)
			continue;
		unsigned x = rnd(100);
		int w = (int)rnd(49), k = (int)rnd((unsigned)(49 - w));
		char res = x < 4 ? EV_RES_WHITE_FF : x < 7 ? EV_RES_BLACK_FF : x < 8 ? EV_RES_DOUBLE_FF
		         : x < 30 ? EV_RES_DRAW : x < 65 ? EV_RES_WHITE : EV_RES_BLACK;
		if (res == EV_RES_WHITE_FF || res == EV_RES_BLACK_FF || res == EV_RES_DOUBLE_FF)
			ck_assert_int_eq(result(ev, EV_BY_ORGANISER, r, b, res, 0, 0), 0);
		else
			ck_assert_int_eq(result(ev, EV_BY_ROOM, r, b, res, w, k), 0);
	}
}

/* Points in halves from the boards of the complete rounds and the late
 * entries' half-point byes, without the module's standings. */
static void points_by_hand(const ev_event *ev, int *halves)
{
	int rounds = ev_rounds_complete(ev);
	for (int i = 0; i < ev->nfield; i++)
		halves[i] = ev->entries[ev->field[i]].late < rounds
		          ? ev->entries[ev->field[i]].late : rounds;
	for (int r = 0; r < rounds; r++)
		for (int b = 0; b < ev->rounds[r].nboards; b++) {
			const ev_board *bd = &ev->rounds[r].boards[b];
			switch (bd->result) {
			case '1': case '+': halves[bd->white] += 2; break;
			case '0': case '-': halves[bd->black] += 2; break;
			case '=': halves[bd->white]++, halves[bd->black]++; break;
			case 'U': halves[bd->white] += 2; break;
			default: break;
			}
		}
}

static void check_standings_points(const ev_event *ev)
{
	int halves[EV_MAX_PLAYERS];
	ev_standing *st = malloc(EV_MAX_PLAYERS * sizeof *st);
	int n = ev_standings(ev, st);
	ck_assert_int_eq(n, ev->nfield);
	points_by_hand(ev, halves);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(st[i].points, 2 * halves[st[i].number - 1]);
		if (i) {
			ck_assert_int_le(st[i].points, st[i - 1].points);
			ck_assert_int_ge(st[i].place, st[i - 1].place);
		}
		ck_assert_int_le(st[i].place, i + 1);
		ck_assert_int_ge(st[i].place_last, i + 1);
	}
	free(st);
}

START_TEST(test_swiss_30_players_7_rounds_random)
{
	ev_event *ev = mk(EV_SWISS, 7, 0);
	static int met[EV_MAX_PLAYERS][EV_MAX_PLAYERS]; /* games played over the board */
	int byes[EV_MAX_PLAYERS] = { 0 }, won_ff[EV_MAX_PLAYERS] = { 0 };
	char buf[32768];

	memset(met, 0, sizeof met);
	capjournal = 1000;
	njournal = 0;
	journal = malloc((size_t)capjournal * sizeof *journal);
	ck_assert_ptr_nonnull(journal);
	rng = 12345;
	join_n(ev, 29);
	ck_assert_int_eq(start(ev), 0);
	for (int r = 1; ev->state == EV_RUNNING; r++) {
		ck_assert_int_eq(ev->nrounds, r);
		if (r == 2)
			ck_assert_int_eq(join(ev, "Late comer"), 0);  /* 30th: 2 half-point byes */
		const ev_round *rd = &ev->rounds[r - 1];
		int seen[EV_MAX_PLAYERS] = { 0 };
		for (int b = 0; b < rd->nboards; b++) {
			int w = rd->boards[b].white, k = rd->boards[b].black;
			seen[w]++;
			if (k < 0) {
				ck_assert_int_eq(rd->boards[b].result, EV_RES_BYE);
				ck_assert_int_eq(byes[w], 0);     /* one pairing-allocated bye at most */
				ck_assert_int_eq(won_ff[w], 0);   /* never after a win by forfeit */
				byes[w]++;
				continue;
			}
			seen[k]++;
			ck_assert_msg(!met[w][k], "round %d: %d and %d meet again", r, w + 1, k + 1);
		}
		/* Everyone in the field and not withdrawn is paired once. */
		for (int i = 0; i < ev->nfield; i++) {
			const ev_player *p = &ev->entries[ev->field[i]];
			int expect = !p->withdrawn && p->late < r;
			ck_assert_msg(seen[i] == expect, "round %d: %d paired %d times", r, i + 1, seen[i]);
		}
		if (r == 3) {
			/* withdraws with a game on: it is forfeited */
			int e = ev->field[4];
			ck_assert_int_eq(withdraw(ev, e), 0);
			int b = board_of_number(ev, 3, 5);
			if (b >= 0 && ev->rounds[2].boards[b].black >= 0)
				ck_assert(strchr("+-", ev->rounds[2].boards[b].result));
		}
		random_results(ev, r);
		if (r == 5)
			ck_assert_int_eq(withdraw(ev, ev->field[9]), 0);  /* between rounds */
		for (int b = 0; b < rd->nboards; b++) {
			const ev_board *bd = &rd->boards[b];
			if (bd->black < 0)
				continue;
			if (bd->result == '1' || bd->result == '=' || bd->result == '0')
				met[bd->white][bd->black] = met[bd->black][bd->white] = 1;
			if (bd->result == '+')
				won_ff[bd->white] = 1;
			if (bd->result == '-')
				won_ff[bd->black] = 1;
		}
		check_standings_points(ev);
		ck_assert_int_eq(next(ev), 0);
	}
	ck_assert_int_eq(ev->nrounds, 7);
	ck_assert_int_eq(ev->nfield, 30);
	check_standings_points(ev);
	/* The TRF reads back, consistent, with the same points. */
	long len = ev_trf(ev, buf, sizeof buf);
	ck_assert_int_gt(len, 0);
	ck_assert_int_lt(len, (long)sizeof buf);
	trf_file *f = malloc(sizeof *f);
	char err[128];
	int halves[EV_MAX_PLAYERS];
	ck_assert_msg(trf_read(buf, (size_t)len, f, err, sizeof err) == 0, "%s", err);
	points_by_hand(ev, halves);
	for (int i = 0; i < 30; i++)
		ck_assert_int_eq(pair_score_halves(&f->ev.p[i], 7), halves[i]);
	ck_assert_int_eq(f->ev.p[29].rounds[0].result, 'H');
	ck_assert_int_eq(f->ev.p[29].rounds[1].result, 'H');
	ck_assert_int_eq(f->ev.p[4].rounds[6].result, 'Z');
	free(f);
	/* The changes replayed on the same settings rebuild the event. */
	ck_assert_int_lt(njournal, capjournal);
	ev_event *again = mk(EV_SWISS, 7, 0);
	for (int i = 0; i < njournal; i++)
		ev_apply(again, &journal[i]);
	ck_assert_int_eq(memcmp(again, ev, sizeof *ev), 0);
	free(again);
	free(journal);
	journal = NULL;
	free(ev);
}
END_TEST

START_TEST(test_double_round_robin_9_players_random)
{
	ev_event *ev = mk(EV_DOUBLE_ROUND_ROBIN, 0, 0);
	rng = 777;
	join_n(ev, 9);
	ck_assert_int_eq(start(ev), 0);
	ck_assert_int_eq(ev->total_rounds, 18);
	for (int r = 1; ev->state == EV_RUNNING; r++) {
		if (r == 12)
			ck_assert_int_eq(withdraw(ev, ev->field[6]), 0);  /* 7, mid-round */
		random_results(ev, r);
		ck_assert_int_eq(next(ev), 0);
	}
	ck_assert_int_eq(ev->nrounds, 18);
	for (int c = 0; c < 2; c++) {
		int met[9][9] = { { 0 } }, byes[9] = { 0 };
		for (int r = c * 9; r < c * 9 + 9; r++) {
			const ev_round *rd = &ev->rounds[r];
			ck_assert_int_eq(rd->nboards, 5);
			for (int b = 0; b < rd->nboards; b++) {
				const ev_board *bd = &rd->boards[b];
				if (bd->black < 0) {
					byes[bd->white]++;
					ck_assert_int_eq(bd->result, EV_RES_RR_BYE);
				} else {
					met[bd->white][bd->black]++;
					met[bd->black][bd->white]++;
				}
				if (c == 1) {
					/* cycle two: the same boards, colours swapped */
					const ev_board *one = &ev->rounds[r - 9].boards[b];
					if (bd->black < 0)
						ck_assert_int_eq(bd->white, one->white);
					else {
						ck_assert_int_eq(bd->white, one->black);
						ck_assert_int_eq(bd->black, one->white);
					}
				}
				/* 7's games after his withdrawal in round 12 are forfeits. */
				if (r >= 12 && bd->black >= 0 && (bd->white == 6 || bd->black == 6))
					ck_assert_int_eq(bd->result,
						bd->white == 6 ? EV_RES_BLACK_FF : EV_RES_WHITE_FF);
			}
		}
		for (int i = 0; i < 9; i++) {
			ck_assert_int_eq(byes[i], 1);
			for (int j = 0; j < 9; j++)
				ck_assert_int_eq(met[i][j], i != j);
		}
	}
	check_standings_points(ev);
	free(ev);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("event");
	TCase *tc = tcase_create("event");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_create_rejects_bad_settings);
	tcase_add_test(tc, test_join_names_and_limits);
	tcase_add_test(tc, test_join_look_alikes_and_event_words);
	tcase_add_test(tc, test_start_needs_two_players);
	tcase_add_test(tc, test_results_and_their_errors);
	tcase_add_test(tc, test_swiss_late_entry_until_half_the_rounds);
	tcase_add_test(tc, test_swiss_unpairable_round_then_finish);
	tcase_add_test(tc, test_double_round_robin_4_by_hand);
	tcase_add_test(tc, test_round_robin_direct_encounter_before_seeds);
	tcase_add_test(tc, test_direct_encounter_only_when_all_met);
	tcase_add_test(tc, test_odd_round_robin_shared_place);
	tcase_add_test(tc, test_swiss_6_players_by_hand);
	tcase_add_test(tc, test_swiss_odd_field_and_withdrawal_by_hand);
	tcase_add_test(tc, test_swiss_late_entry_by_hand);
	tcase_add_test(tc, test_csv_and_trf_exports);
	tcase_add_test(tc, test_csv_neutralises_formula_names);
	tcase_add_test(tc, test_will_pair_exactly_when_a_swiss_pairs);
	tcase_add_test(tc, test_trf_columns_are_characters);
	tcase_add_test(tc, test_trf_reads_character_columns);
	tcase_add_test(tc, test_swiss_30_players_7_rounds_random);
	tcase_add_test(tc, test_double_round_robin_9_players_random);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
