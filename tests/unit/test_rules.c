/* test_rules.c: Check tests of the room rules (server/rules/rules.h): every
 * action of PROTOCOL.md in its situations, decided and applied without a
 * server, a store or a clock. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/rules.h"
#include "server/base/sha256.h"

#define S OW_SOUTH
#define N OW_NORTH
#define SPECT RULES_SPECTATOR
#define ABANDON_MS 300000

static const rules_limits lim = {ABANDON_MS, 2, 0};
static int64_t clock_ms = 1000000; /* the tests' own time */

/* A room with its two seat tokens, as a client would hold them. */
typedef struct fixture {
	rules_room r;
	char tok[2][16];
} fixture;

static void hash_of(const char *token, uint8_t out[SHA256_LEN])
{
	sha256(token, strlen(token), out);
}

static proto_msg msg(int type)
{
	proto_msg m;

	memset(&m, 0, sizeof m);
	m.type = type;
	return m;
}

static proto_msg move_msg(int pit, int ply)
{
	proto_msg m = msg(PROTO_MSG_MOVE);

	m.pit = pit;
	m.ply = ply;
	return m;
}

static proto_msg offer_msg(int type, int action)
{
	proto_msg m = msg(type);

	m.action = action;
	return m;
}

static rules_in in_for(int seat, const proto_msg *m, const uint8_t *fresh)
{
	rules_in in;

	memset(&in, 0, sizeof in);
	in.lim = &lim;
	in.now = clock_ms;
	in.wall = 1700000000 + clock_ms / 1000;
	in.seat = seat;
	in.msg = m;
	in.fresh_tok = fresh;
	return in;
}

/* Decides an action by seat and applies it as the server would when the
 * save succeeds (moves get room first). */
static rules_out act(fixture *f, int seat, proto_msg m)
{
	rules_in in = in_for(seat, &m, NULL);
	rules_out o;

	rules_act(&f->r, &in, &o);
	if (o.pit >= 0)
		ck_assert_int_eq(rules_reserve(&f->r), 0);
	rules_apply(&f->r, &o, clock_ms);
	return o;
}

/* A join by someone outside, with a token text or none ("" ). */
static rules_out join(fixture *f, const char *token, const char *fresh_text)
{
	proto_msg m = msg(PROTO_MSG_JOIN);
	uint8_t fresh[SHA256_LEN];
	rules_in in;
	rules_out o;

	snprintf(m.room, sizeof m.room, "%s", f->r.rec.id);
	snprintf(m.token, sizeof m.token, "%s", token);
	hash_of(fresh_text, fresh);
	in = in_for(SPECT, &m, fresh);
	rules_join(&f->r, &in, &o);
	rules_apply(&f->r, &o, clock_ms);
	return o;
}

static rules_out leave(fixture *f, int seat)
{
	rules_in in = in_for(seat, NULL, NULL);
	rules_out o;

	rules_leave(&f->r, &in, &o);
	rules_apply(&f->r, &o, clock_ms);
	return o;
}

static rules_out tick(fixture *f)
{
	rules_in in = in_for(SPECT, NULL, NULL);
	rules_out o;

	rules_tick(&f->r, &in, &o);
	rules_apply(&f->r, &o, clock_ms);
	return o;
}

/* A room of kind created by south; with both, north joined too. */
static void setup_kind(fixture *f, int both, const char *kind)
{
	proto_msg m = msg(PROTO_MSG_CREATE);
	uint8_t fresh[SHA256_LEN];
	rules_in in;
	rules_out o;

	memset(f, 0, sizeof *f);
	strcpy(f->tok[S], "token-south");
	strcpy(f->tok[N], "token-north");
	m.side = S;
	snprintf(m.kind, sizeof m.kind, "%s", kind);
	hash_of(f->tok[S], fresh);
	in = in_for(SPECT, &m, fresh);
	ck_assert_int_eq(rules_create(&f->r, "room-1", &in, &o), 0);
	rules_apply(&f->r, &o, clock_ms);
	if (both)
		join(f, "", f->tok[N]);
}

/* An Oware room created by south; with both, north joined too. */
static void setup(fixture *f, int both)
{
	setup_kind(f, both, "oware");
}

/* A Togyz Kumalak move: the hole number 1..9 of the mover's row. */
static proto_msg hole_msg(int hole, int ply)
{
	proto_msg m = move_msg(-1, ply);

	m.hole = hole;
	return m;
}

static void teardown_room(fixture *f)
{
	rules_room_free(&f->r);
}

/* Plays pits from the current ply on, alternating sides; each must pass. */
static void play(fixture *f, const char *letters)
{
	for (const char *p = letters; *p; p++) {
		int seat = f->r.play.ow.game.pos.turn;
		rules_out o = act(f, seat, move_msg(ow_pit_parse(*p), f->r.nmoves));

		ck_assert_msg(o.error == 0, "move %c: error %d (%s)", *p, o.error, o.why);
	}
}

/* ---- create and join ---- */

START_TEST(create_seats_the_creator_with_a_fresh_token)
{
	fixture f;
	uint8_t h[SHA256_LEN];
	proto_msg m = msg(PROTO_MSG_CREATE);
	rules_in in;
	rules_out o;

	hash_of("t", h);
	m.side = PROTO_SIDE_RANDOM;
	strcpy(m.kind, "oware");
	in = in_for(SPECT, &m, h);
	in.coin = 1;
	ck_assert_int_eq(rules_create(&f.r, "abc", &in, &o), 0);
	ck_assert_int_eq(o.seat, N); /* random: the coin */
	ck_assert(o.welcome && o.token && o.joins && o.resync);
	ck_assert_int_eq(o.save, RULES_SAVE);
	ck_assert_str_eq(o.rec.id, "abc");
	ck_assert_uint_eq(o.rec.version, 1);
	ck_assert_uint_eq(o.rec.game_number, 1);
	ck_assert(!o.rec.has_tok[S] && o.rec.has_tok[N]);
	ck_assert_mem_eq(o.rec.tok[N], h, SHA256_LEN);
	ck_assert_int_eq(o.rec.draw_offer, -1);
	ck_assert_int_eq(o.rec.rematch_offer, -1);
	rules_apply(&f.r, &o, clock_ms);
	ck_assert(f.r.present[N] && !f.r.present[S]);
	ck_assert_int_eq(f.r.absent_side, -1); /* nobody is absent without an opponent */
	rules_room_free(&f.r);
}
END_TEST

START_TEST(join_takes_the_free_seat_then_watches)
{
	fixture f;
	rules_out o;

	setup(&f, 0);
	o = join(&f, "", "t-north");
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.seat, N);
	ck_assert(o.token && o.welcome && o.broadcast && !o.presence);
	ck_assert_int_eq(o.save, RULES_SAVE);
	ck_assert_uint_eq(f.r.rec.version, 2);
	ck_assert(f.r.rec.has_tok[N] && f.r.present[N]);
	o = join(&f, "", "unused"); /* a spectator: only the count changes */
	ck_assert_int_eq(o.seat, SPECT);
	ck_assert(!o.token && o.welcome && o.joins && !o.broadcast);
	ck_assert_int_eq(o.save, RULES_KEEP);
	ck_assert_uint_eq(f.r.spectators, 1);
	ck_assert_uint_eq(f.r.rec.version, 2);
	join(&f, "", "unused");
	ck_assert_uint_eq(f.r.spectators, 2);
	o = join(&f, "", "unused"); /* the limit is 2 */
	ck_assert_int_eq(o.error, PROTO_E_TOO_MANY_SPECTATORS);
	ck_assert_int_eq(o.save, RULES_KEEP);
	ck_assert_uint_eq(f.r.spectators, 2);
	ck_assert_uint_eq(f.r.rec.version, 2);
	teardown_room(&f);
}
END_TEST

START_TEST(join_with_a_token_reclaims_or_replaces)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	o = join(&f, f.tok[N], "unused"); /* north is connected: replaced */
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.seat, N);
	ck_assert(o.replace && o.presence && !o.token);
	ck_assert(f.r.present[N]);
	leave(&f, N);
	ck_assert(!f.r.present[N]);
	o = join(&f, f.tok[N], "unused");
	ck_assert(!o.replace);
	ck_assert(f.r.present[N]);
	o = join(&f, "not-a-token", "unused");
	ck_assert_int_eq(o.error, PROTO_E_BAD_TOKEN);
	ck_assert_int_eq(o.save, RULES_KEEP);
	teardown_room(&f);
}
END_TEST

/* ---- spectators and outsiders ---- */

START_TEST(spectators_cannot_act_and_change_nothing)
{
	static const int types[] = {PROTO_MSG_MOVE, PROTO_MSG_RESIGN, PROTO_MSG_DRAW,
	                            PROTO_MSG_ABORT, PROTO_MSG_REMATCH, PROTO_MSG_CLAIM};
	fixture f;
	rules_room before;

	setup(&f, 1);
	play(&f, "c");
	before = f.r;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		proto_msg m = msg(types[i]);
		rules_out o;

		m.action = PROTO_ACT_OFFER;
		m.ply = 1;
		o = act(&f, SPECT, m);
		ck_assert_int_eq(o.error, PROTO_E_NOT_A_PLAYER);
		ck_assert_int_eq(o.save, RULES_KEEP);
		ck_assert(memcmp(&before, &f.r, sizeof before) == 0);
	}
	teardown_room(&f);
}
END_TEST

/* ---- moves ---- */

START_TEST(moves_follow_the_engine)
{
	fixture f;
	ow_game g;
	rules_out o;

	setup(&f, 0);
	o = act(&f, S, move_msg(2, 0));
	ck_assert_int_eq(o.error, PROTO_E_OPPONENT_MISSING);
	join(&f, "", f.tok[N]);
	o = act(&f, N, move_msg(6, 0));
	ck_assert_int_eq(o.error, PROTO_E_NOT_YOUR_TURN);
	ck_assert_str_eq(o.why, "it is south's turn");
	o = act(&f, S, move_msg(7, 0));
	ck_assert_int_eq(o.error, PROTO_E_ILLEGAL_MOVE);
	ck_assert_str_eq(o.why, "pit B: not a pit of the side to move");
	ck_assert_uint_eq(f.r.rec.version, 2);
	o = act(&f, S, move_msg(2, 0));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.save, RULES_SAVE_MOVES);
	ck_assert_int_eq(o.pit, 2);
	ck_assert_uint_eq(f.r.rec.version, 3);
	ck_assert_int_eq(f.r.nmoves, 1);
	ck_assert(f.r.has_last);
	ck_assert_int_eq(f.r.play.ow.last.pit, 2);
	ck_assert_int_eq(f.r.play.ow.last.nsown, 4);
	ow_game_start(&g);
	ow_game_play(&g, 2, NULL);
	ck_assert(memcmp(&g.pos, &f.r.play.ow.game.pos, sizeof g.pos) == 0);
	o = act(&f, N, move_msg(6, 1));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.play.ow.game.pos.turn, S);
	teardown_room(&f);
}
END_TEST

START_TEST(stale_ply_and_resends)
{
	fixture f;
	rules_out o;
	uint64_t v;

	setup(&f, 1);
	play(&f, "cA");
	v = f.r.rec.version;
	o = act(&f, S, move_msg(2, 0)); /* south's own move at ply 0: a resend */
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.resync);
	ck_assert_int_eq(o.save, RULES_KEEP);
	o = act(&f, N, move_msg(2, 0)); /* the right pit, the wrong player */
	ck_assert_int_eq(o.error, PROTO_E_STALE_PLY);
	ck_assert(o.resync);
	o = act(&f, S, move_msg(3, 0)); /* another pit at that ply */
	ck_assert_int_eq(o.error, PROTO_E_STALE_PLY);
	o = act(&f, S, move_msg(3, 5)); /* a ply from the future */
	ck_assert_int_eq(o.error, PROTO_E_STALE_PLY);
	ck_assert_uint_eq(f.r.rec.version, v);
	ck_assert_int_eq(f.r.nmoves, 2);
	/* After the end the ply check still comes first. */
	act(&f, N, msg(PROTO_MSG_RESIGN));
	o = act(&f, N, move_msg(6, 1));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.resync);
	o = act(&f, S, move_msg(3, 2));
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	teardown_room(&f);
}
END_TEST

/* ---- offers ---- */

START_TEST(draw_offer_decline_accept)
{
	fixture f;
	rules_out o;

	setup(&f, 0);
	o = act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_OPPONENT_MISSING);
	join(&f, "", f.tok[N]);
	o = act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.error, PROTO_E_NO_OFFER);
	o = act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.draw_offer, N);
	o = act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_OFFER_PENDING);
	o = act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_ACCEPT)); /* one's own offer */
	ck_assert_int_eq(o.error, PROTO_E_NO_OFFER);
	o = act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_DECLINE));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.draw_offer, -1);
	o = act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_DECLINE));
	ck_assert_int_eq(o.error, PROTO_E_NO_OFFER);
	act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	o = act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.ended);
	ck_assert(rules_over(&f.r));
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_AGREEMENT);
	ck_assert_int_eq(f.r.rec.winner, OW_DRAW);
	ck_assert_int_eq(f.r.rec.draw_offer, -1);
	o = act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	teardown_room(&f);
}
END_TEST

START_TEST(crossed_draw_offers_agree)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	o = act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_AGREEMENT);
	teardown_room(&f);
}
END_TEST

START_TEST(a_move_declines_the_opponents_offer_only)
{
	fixture f;

	setup(&f, 1);
	act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	play(&f, "c"); /* the offerer moves: the offer stands */
	ck_assert_int_eq(f.r.rec.draw_offer, S);
	play(&f, "A"); /* the one offered moves: declined */
	ck_assert_int_eq(f.r.rec.draw_offer, -1);
	teardown_room(&f);
}
END_TEST

/* ---- resign, abort ---- */

START_TEST(resign_loses)
{
	fixture f;
	rules_out o;

	setup(&f, 0);
	o = act(&f, S, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(o.error, PROTO_E_OPPONENT_MISSING);
	join(&f, "", f.tok[N]);
	act(&f, N, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	o = act(&f, N, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.ended);
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_RESIGN);
	ck_assert_int_eq(f.r.rec.winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(f.r.rec.draw_offer, -1);
	o = act(&f, S, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	teardown_room(&f);
}
END_TEST

START_TEST(abort_until_both_have_moved)
{
	fixture f;
	rules_out o;
	proto_state_view v;
	int winner;

	setup(&f, 0);
	o = act(&f, S, msg(PROTO_MSG_ABORT)); /* alone in the room: allowed */
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_ABORTED);
	ck_assert_int_eq(f.r.rec.winner, S); /* kept: the side that aborted */
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_int_eq(v.winner, OW_NOBODY);
	ck_assert_int_eq(v.aborted_by, S);
	ck_assert_int_eq(rules_end_reason(&f.r, &winner), PROTO_END_ABORTED);
	ck_assert_int_eq(winner, OW_NOBODY);
	teardown_room(&f);

	setup(&f, 1);
	play(&f, "c");
	o = act(&f, N, msg(PROTO_MSG_ABORT)); /* one move: allowed */
	ck_assert_int_eq(o.error, 0);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_int_eq(v.winner, OW_NOBODY);
	ck_assert_int_eq(v.aborted_by, N);
	teardown_room(&f);

	setup(&f, 1);
	play(&f, "cA");
	o = act(&f, S, msg(PROTO_MSG_ABORT));
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_ABORT);
	ck_assert(!rules_over(&f.r));
	teardown_room(&f);
}
END_TEST

/* A game that is over seats nobody new: a join without a token watches,
 * even with a seat free; the creator's token still holds its seat. */
START_TEST(join_after_the_game_is_over_watches)
{
	fixture f;
	rules_out o;
	uint64_t version;

	setup(&f, 0);
	act(&f, S, msg(PROTO_MSG_ABORT));
	version = f.r.rec.version;
	o = join(&f, "", "t-late");
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.seat, SPECT);
	ck_assert(o.welcome && o.joins && !o.token);
	ck_assert_int_eq(o.save, RULES_KEEP);
	ck_assert(!f.r.rec.has_tok[N]);
	ck_assert_uint_eq(f.r.rec.version, version);
	ck_assert_uint_eq(f.r.spectators, 1);
	o = join(&f, f.tok[S], "unused");
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.seat, S);
	/* A finished game with both seats taken: watching, as before. */
	teardown_room(&f);
	setup(&f, 1);
	play(&f, "cA");
	act(&f, S, msg(PROTO_MSG_RESIGN));
	o = join(&f, "", "t-late");
	ck_assert_int_eq(o.seat, SPECT);
	ck_assert(!o.token);
	teardown_room(&f);
}
END_TEST

/* ---- rematch ---- */

START_TEST(rematch_swaps_sides_and_tokens)
{
	fixture f;
	rules_out o;
	uint8_t h[SHA256_LEN];

	setup(&f, 1);
	o = act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_GAME_NOT_OVER);
	play(&f, "cA");
	act(&f, S, msg(PROTO_MSG_RESIGN));
	o = act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.error, PROTO_E_NO_OFFER);
	act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	ck_assert_int_eq(f.r.rec.rematch_offer, N);
	o = act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_DECLINE));
	ck_assert_int_eq(f.r.rec.rematch_offer, -1);
	leave(&f, S); /* south's player is away when the rematch is agreed */
	act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	o = act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.new_game);
	ck_assert_int_eq(o.save, RULES_SAVE_MOVES);
	ck_assert_uint_eq(f.r.rec.game_number, 2);
	ck_assert_int_eq(f.r.nmoves, 0);
	ck_assert(!f.r.has_last);
	ck_assert_int_eq(f.r.rec.reason, 0);
	ck_assert_int_eq(f.r.rec.winner, OW_NOBODY);
	ck_assert_int_eq(f.r.rec.rematch_offer, -1);
	/* The player who was north now holds south, and is connected there. */
	hash_of(f.tok[N], h);
	ck_assert_mem_eq(f.r.rec.tok[S], h, SHA256_LEN);
	hash_of(f.tok[S], h);
	ck_assert_mem_eq(f.r.rec.tok[N], h, SHA256_LEN);
	ck_assert(f.r.present[S] && !f.r.present[N]);
	ck_assert_int_eq(f.r.absent_side, -1); /* south (present) is on turn */
	o = join(&f, f.tok[S], "unused");
	ck_assert_int_eq(o.seat, N);
	teardown_room(&f);
}
END_TEST

START_TEST(no_rematch_without_an_opponent)
{
	fixture f;
	rules_out o;

	setup(&f, 0);
	act(&f, S, msg(PROTO_MSG_ABORT));
	o = act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_OPPONENT_MISSING);
	teardown_room(&f);
}
END_TEST

/* A club event's board (issue 41): its game has no rematch, and the
 * state names the event. */
START_TEST(no_rematch_in_an_events_room)
{
	fixture f;
	rules_out o;
	proto_state_view v;

	setup(&f, 1);
	strcpy(f.r.rec.event, "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a03");
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_str_eq(v.event, "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a03");
	o = act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_GAME_NOT_OVER);
	play(&f, "cA");
	act(&f, S, msg(PROTO_MSG_RESIGN));
	o = act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	ck_assert_int_eq(o.error, PROTO_E_EVENT_GAME);
	ck_assert_int_eq(f.r.rec.rematch_offer, -1);
	f.r.rec.event[0] = 0;
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_ptr_null(v.event);
	teardown_room(&f);
}
END_TEST

/* An event's game has no "before both moved" escape: abort is refused
 * from the start (a no-show is the organiser's forfeit). */
START_TEST(no_abort_in_an_events_room)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	strcpy(f.r.rec.event, "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a03");
	o = act(&f, S, msg(PROTO_MSG_ABORT));
	ck_assert_int_eq(o.error, PROTO_E_EVENT_GAME);
	ck_assert(!rules_over(&f.r));
	play(&f, "c");
	o = act(&f, N, msg(PROTO_MSG_ABORT));
	ck_assert_int_eq(o.error, PROTO_E_EVENT_GAME);
	ck_assert(!rules_over(&f.r));
	teardown_room(&f);
}
END_TEST

/* The organiser's result ends the game: its winner, or none for a double
 * forfeit, the running clock stopped where it was; once over, refused. */
START_TEST(the_organisers_result_ends_the_game)
{
	fixture f;
	rules_in in;
	rules_out o;
	proto_state_view v;
	int winner;

	setup(&f, 1);
	play(&f, "cA");
	in = in_for(RULES_SPECTATOR, NULL, NULL);
	rules_end_by_organiser(&f.r, &in, OW_WINNER_NORTH, &o);
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.ended, 1);
	rules_apply(&f.r, &o, clock_ms);
	ck_assert(rules_over(&f.r));
	ck_assert_int_eq(rules_end_reason(&f.r, &winner), PROTO_END_ORGANISER);
	ck_assert_int_eq(winner, OW_WINNER_NORTH);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_str_eq(proto_reason_name(v.reason), "organiser");
	ck_assert_int_eq(v.winner, OW_WINNER_NORTH);
	o = act(&f, S, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	rules_end_by_organiser(&f.r, &in, OW_DRAW, &o);
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	teardown_room(&f);

	setup(&f, 1);
	rules_end_by_organiser(&f.r, &in, OW_NOBODY, &o);
	rules_apply(&f.r, &o, clock_ms);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_int_eq(v.reason, PROTO_END_ORGANISER);
	ck_assert_int_eq(v.winner, OW_NOBODY);
	ck_assert_int_eq(v.aborted_by, -1);
	teardown_room(&f);
}
END_TEST

/* ---- leaving, abandonment, claims ---- */

START_TEST(leaving_is_presence_only)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	join(&f, "", "x");
	o = leave(&f, SPECT);
	ck_assert(!o.broadcast && o.leaves);
	ck_assert_int_eq(o.save, RULES_KEEP);
	ck_assert_uint_eq(f.r.spectators, 0);
	ck_assert_uint_eq(f.r.rec.version, 2);
	o = leave(&f, N); /* a player's presence: a version, shown even unsaved */
	ck_assert(o.presence && o.broadcast && o.leaves);
	ck_assert_int_eq(o.save, RULES_SAVE);
	ck_assert_uint_eq(f.r.rec.version, 3);
	ck_assert(!f.r.present[N] && f.r.rec.has_tok[N]);
	ck_assert_int_eq(f.r.absent_side, -1); /* south is on turn */
	teardown_room(&f);
}
END_TEST

START_TEST(absence_counts_on_ones_own_turn_only)
{
	fixture f;
	rules_out o;
	proto_state_view v;
	int64_t t0;

	setup(&f, 1);
	leave(&f, N); /* not north's turn: no countdown */
	ck_assert_int_eq(rules_deadline(&f.r, &lim), -1);
	clock_ms += 1000000;
	t0 = clock_ms;
	play(&f, "c"); /* the turn passes to the absent north: it starts now */
	ck_assert_int_eq(f.r.absent_side, N);
	ck_assert_int_eq(rules_deadline(&f.r, &lim), t0 + ABANDON_MS);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_int_eq(v.claim_in, ABANDON_MS / 1000);
	ck_assert(!v.seats[N].claimable && !v.seats[N].connected);
	clock_ms += ABANDON_MS - 1;
	o = act(&f, S, msg(PROTO_MSG_CLAIM));
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_CLAIM);
	o = tick(&f);
	ck_assert(!o.claimable && !o.broadcast);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_int_eq(v.claim_in, 1);
	clock_ms += 1;
	o = tick(&f);
	ck_assert(o.claimable && o.broadcast && o.presence);
	ck_assert_uint_eq(f.r.rec.version, o.rec.version);
	ck_assert_int_eq(rules_deadline(&f.r, &lim), -1); /* announced once */
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert(v.seats[N].claimable);
	ck_assert_int_eq(v.claim_in, -1);
	o = act(&f, N, msg(PROTO_MSG_CLAIM)); /* the absent side cannot claim */
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_CLAIM);
	o = act(&f, S, msg(PROTO_MSG_CLAIM));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_ABANDONED);
	ck_assert_int_eq(f.r.rec.winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(f.r.absent_side, -1);
	teardown_room(&f);
}
END_TEST

START_TEST(returning_stops_the_countdown)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	leave(&f, S); /* south leaves on its own turn */
	ck_assert_int_eq(f.r.absent_side, S);
	clock_ms += ABANDON_MS / 2;
	join(&f, f.tok[S], "unused");
	ck_assert_int_eq(f.r.absent_side, -1);
	ck_assert_int_eq(rules_deadline(&f.r, &lim), -1);
	clock_ms += ABANDON_MS;
	o = act(&f, N, msg(PROTO_MSG_CLAIM));
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_CLAIM);
	teardown_room(&f);
}
END_TEST

/* ---- restore, view ---- */

START_TEST(restore_replays_the_moves)
{
	fixture f;
	rules_room r;
	static const uint8_t bad[] = {2, 6, 2}; /* pit c is empty at ply 2 */
	int ply = 99;

	setup(&f, 1);
	play(&f, "cAd");
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, f.r.moves, f.r.nmoves, clock_ms, &ply), 0);
	ck_assert_int_eq(ply, -1);
	ck_assert(memcmp(&r.play.ow.game, &f.r.play.ow.game, sizeof r.play.ow.game) == 0);
	ck_assert_uint_eq(r.rec.version, f.r.rec.version + 1);
	ck_assert(!r.present[S] && !r.present[N]);
	ck_assert_int_eq(r.absent_side, N); /* everyone is away; north is on turn */
	rules_room_free(&r);
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, bad, 3, clock_ms, &ply), 0);
	ck_assert_int_eq(ply, 2);
	ck_assert_int_eq(r.nmoves, 2);
	rules_room_free(&r);
	/* bad_ply may be NULL: the same room */
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, bad, 3, clock_ms, NULL), 0);
	ck_assert_int_eq(r.nmoves, 2);
	rules_room_free(&r);
	teardown_room(&f);
}
END_TEST

START_TEST(view_shows_the_room)
{
	fixture f;
	proto_state_view v;

	setup(&f, 1);
	join(&f, "", "x");
	play(&f, "c");
	act(&f, S, offer_msg(PROTO_MSG_DRAW, PROTO_ACT_OFFER));
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_str_eq(v.room, "room-1");
	ck_assert_str_eq(v.kind, "oware");
	ck_assert_uint_eq(v.version, f.r.rec.version);
	ck_assert_int_eq(v.nmoves, 1);
	ck_assert_int_eq(v.has_last, 1);
	ck_assert(v.seats[S].taken && v.seats[S].connected && v.seats[N].connected);
	ck_assert_uint_eq(v.spectators, 1);
	ck_assert_int_eq(v.draw_offer, S);
	ck_assert_int_eq(v.rematch_offer, -1);
	ck_assert_uint_eq(v.abandon_seconds, ABANDON_MS / 1000);
	ck_assert_int_eq(v.claim_in, -1);
	teardown_room(&f);
}
END_TEST

/* ---- names and chat (issue 14) ---- */

static proto_msg name_msg(const char *name)
{
	proto_msg m = msg(PROTO_MSG_NAME);

	m.has_name = 1;
	snprintf(m.name, sizeof m.name, "%s", name);
	return m;
}

START_TEST(names_are_the_seats)
{
	fixture f;
	proto_state_view v;
	uint64_t v0;
	rules_out o;

	setup(&f, 1);
	v0 = f.r.rec.version;
	o = act(&f, S, name_msg("Ana"));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.save, RULES_SAVE);
	ck_assert_int_eq(o.broadcast, 1);
	ck_assert_str_eq(f.r.rec.name[S], "Ana");
	ck_assert(f.r.rec.version == v0 + 1);
	act(&f, N, name_msg("Bo"));
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_str_eq(v.names[S], "Ana");
	ck_assert_str_eq(v.names[N], "Bo");
	/* null (an empty name) removes it; the state shows null. */
	act(&f, N, name_msg(""));
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_ptr_null(v.names[N]);
	/* A spectator's name is not the rules' business. */
	o = act(&f, SPECT, name_msg("Kofi"));
	ck_assert_int_eq(o.error, PROTO_E_NOT_A_PLAYER);
	/* A reclaiming join with a name replaces the seat's; without, keeps it. */
	{
		proto_msg m = msg(PROTO_MSG_JOIN);
		rules_in in;

		snprintf(m.token, sizeof m.token, "%s", f.tok[S]);
		m.has_name = 1;
		strcpy(m.name, "Ana K.");
		in = in_for(SPECT, &m, NULL);
		leave(&f, S);
		rules_join(&f.r, &in, &o);
		ck_assert_int_eq(o.seat, S);
		ck_assert_str_eq(o.rec.name[S], "Ana K.");
		rules_apply(&f.r, &o, clock_ms);
		leave(&f, S);
		m.has_name = 0;
		rules_join(&f.r, &in, &o);
		ck_assert_str_eq(o.rec.name[S], "Ana K.");
		rules_apply(&f.r, &o, clock_ms);
	}
	/* A rematch: the names follow the tokens to the other seats. */
	act(&f, N, name_msg("Bo"));
	act(&f, S, msg(PROTO_MSG_RESIGN));
	act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	o = act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.new_game, 1);
	ck_assert_str_eq(f.r.rec.name[S], "Bo");
	ck_assert_str_eq(f.r.rec.name[N], "Ana K.");
	teardown_room(&f);
}
END_TEST

START_TEST(chat_is_for_players)
{
	fixture f;
	proto_msg m = msg(PROTO_MSG_CHAT);
	rules_room before;
	rules_out o;

	setup(&f, 0);
	strcpy(m.text, "hello");
	before = f.r;
	/* The creator alone may write; nothing is saved or changed by the rules. */
	o = act(&f, S, m);
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.chat, 1);
	ck_assert_int_eq(o.save, RULES_KEEP);
	ck_assert_int_eq(o.broadcast, 0);
	ck_assert(!memcmp(&before.rec, &f.r.rec, sizeof before.rec));
	o = act(&f, SPECT, m);
	ck_assert_int_eq(o.error, PROTO_E_NOT_A_PLAYER);
	ck_assert_int_eq(o.chat, 0);
	/* After the game too. */
	join(&f, "", f.tok[N]);
	act(&f, N, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(act(&f, N, m).chat, 1);
	teardown_room(&f);
}
END_TEST

/* ---- clocks ---- */

static const rules_limits clim = {ABANDON_MS, 2, 1000}; /* a "day" of one second */

/* Like setup(), for a room with a clock: kind, seconds for each side (or
 * days), increment in seconds. */
static void setup_clock(fixture *f, int kind, int s_secs, int n_secs, int inc)
{
	proto_msg m = msg(PROTO_MSG_CREATE);
	uint8_t fresh[SHA256_LEN];
	rules_in in;
	rules_out o;

	memset(f, 0, sizeof *f);
	strcpy(f->tok[S], "token-south");
	strcpy(f->tok[N], "token-north");
	m.side = S;
	strcpy(m.kind, "oware");
	m.clock_kind = kind;
	m.clock_initial[S] = s_secs;
	m.clock_initial[N] = n_secs;
	m.clock_increment = inc;
	m.clock_days = s_secs;
	hash_of(f->tok[S], fresh);
	in = in_for(SPECT, &m, fresh);
	in.lim = &clim;
	ck_assert_int_eq(rules_create(&f->r, "room-c", &in, &o), 0);
	rules_apply(&f->r, &o, clock_ms);
	join(f, "", f->tok[N]);
}

/* A move by the side to move with a measured round trip of lag ms. */
static rules_out move_lag(fixture *f, const char *letter, int64_t lag)
{
	proto_msg m = move_msg(ow_pit_parse(*letter), f->r.nmoves);
	rules_in in = in_for(f->r.play.ow.game.pos.turn, &m, NULL);
	rules_out o;

	in.lag = lag;
	rules_act(&f->r, &in, &o);
	if (o.pit >= 0)
		ck_assert_int_eq(rules_reserve(&f->r), 0);
	rules_apply(&f->r, &o, clock_ms);
	return o;
}

START_TEST(clocks_start_after_both_first_moves_and_add_the_increment)
{
	fixture f;
	proto_state_view v;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 60, 60, 2);
	ck_assert_int_eq(f.r.rec.clock_initial[S], 60000);
	ck_assert_int_eq(f.r.rec.clock_increment, 2000);
	clock_ms += 5000;
	play(&f, "c");      /* free: no time, no increment */
	ck_assert(!rules_clock_running(&f.r));
	ck_assert_int_eq(rules_deadline(&f.r, &clim), -1);
	clock_ms += 7000;
	play(&f, "A");
	ck_assert(rules_clock_running(&f.r));
	ck_assert_int_eq(f.r.rec.clock_left[S], 60000);
	ck_assert_int_eq(f.r.rec.clock_left[N], 60000);
	ck_assert_int_eq(rules_deadline(&f.r, &clim), clock_ms + 60000 + RULES_LAG_CREDIT_MAX_MS);
	clock_ms += 5000;
	rules_view(&f.r, &clim, clock_ms, &v);
	ck_assert_int_eq(v.clock.kind, PROTO_CLOCK_REALTIME);
	ck_assert_int_eq(v.clock.running, S);
	ck_assert_int_eq(v.clock.left[S], 55000);
	ck_assert_int_eq(v.clock.left[N], 60000);
	ck_assert_int_eq(v.clock.grace, 0);
	play(&f, "d");
	ck_assert_int_eq(f.r.rec.clock_left[S], 57000);
	ck_assert_int_eq(f.r.rec.clock_left[N], 60000);
	ck_assert_int_eq(f.r.absent_side, -1);
	teardown_room(&f);
}
END_TEST

START_TEST(lag_credit_is_the_measured_round_trip_bounded)
{
	fixture f;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 60, 60, 0);
	play(&f, "cA");
	clock_ms += 1000;
	move_lag(&f, "d", 300);            /* 300 of the 1000 ms were the network's */
	ck_assert_int_eq(f.r.rec.clock_left[S], 59300);
	clock_ms += 2000;
	move_lag(&f, "B", 5000);           /* a claimed 5 s: at most the bound */
	ck_assert_int_eq(f.r.rec.clock_left[N], 60000 - 2000 + RULES_LAG_CREDIT_MAX_MS);
	clock_ms += 200;
	move_lag(&f, "e", 400);            /* never more than the move took */
	ck_assert_int_eq(f.r.rec.clock_left[S], 59300);
	clock_ms += 100;
	move_lag(&f, "C", -5);             /* nonsense counts as none */
	ck_assert_int_eq(f.r.rec.clock_left[N], 60000 - 2000 + RULES_LAG_CREDIT_MAX_MS - 100);
	teardown_room(&f);
}
END_TEST

START_TEST(a_clock_running_out_ends_the_game_by_the_timer)
{
	fixture f;
	rules_out o;
	proto_state_view v;
	int64_t start;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 10, 20, 0);
	play(&f, "cA");
	start = clock_ms;
	ck_assert_int_eq(rules_deadline(&f.r, &clim), start + 10000 + RULES_LAG_CREDIT_MAX_MS);
	/* Past zero, inside the window: a move with enough lag still counts. */
	clock_ms = start + 10200;
	rules_view(&f.r, &clim, clock_ms, &v);
	ck_assert_int_eq(v.clock.left[S], 0);
	o = move_lag(&f, "d", 100);
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	ck_assert(!rules_over(&f.r));
	o = move_lag(&f, "d", 300);
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(f.r.rec.clock_left[S], 100);
	/* North lets its 20 s go by. */
	start = clock_ms;
	clock_ms = start + 20000 + RULES_LAG_CREDIT_MAX_MS - 1;
	o = tick(&f);
	ck_assert(!o.ended && !o.save);
	clock_ms++;
	o = tick(&f);
	ck_assert(o.ended && o.broadcast);
	ck_assert_int_eq(o.save, RULES_SAVE);
	ck_assert(rules_over(&f.r));
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_TIMEOUT);
	ck_assert_int_eq(f.r.rec.winner, S);
	ck_assert_int_eq(f.r.rec.clock_left[N], 0);
	ck_assert_int_eq(f.r.rec.clock_left[S], 100);
	ck_assert_int_eq(rules_deadline(&f.r, &clim), -1);
	o = move_lag(&f, "B", 0);
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	rules_view(&f.r, &clim, clock_ms, &v);
	ck_assert_int_eq(v.clock.running, -1);
	ck_assert_str_eq(proto_reason_name(v.reason), "timeout");
	teardown_room(&f);
}
END_TEST

START_TEST(time_odds_follow_the_players_into_a_rematch)
{
	fixture f;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 10, 300, 5);
	ck_assert_int_eq(f.r.rec.clock_initial[S], 10000);
	ck_assert_int_eq(f.r.rec.clock_initial[N], 300000);
	play(&f, "cA");
	clock_ms += 3000;
	act(&f, S, msg(PROTO_MSG_RESIGN));
	ck_assert_int_eq(f.r.rec.clock_left[S], 7000); /* stopped where it was */
	act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_ACCEPT));
	ck_assert_uint_eq(f.r.rec.game_number, 2);
	/* The player who had 10 s now plays north, and still has 10 s. */
	ck_assert_int_eq(f.r.rec.clock_initial[N], 10000);
	ck_assert_int_eq(f.r.rec.clock_initial[S], 300000);
	ck_assert_int_eq(f.r.rec.clock_left[N], 10000);
	ck_assert_int_eq(f.r.rec.clock_left[S], 300000);
	ck_assert_int_eq(f.r.rec.clock_increment, 5000);
	ck_assert(!rules_clock_running(&f.r));
	teardown_room(&f);
}
END_TEST

START_TEST(correspondence_gives_the_full_allowance_each_move)
{
	fixture f;
	proto_state_view v;

	setup_clock(&f, PROTO_CLOCK_CORRESPONDENCE, 3, 0, 0);
	ck_assert_int_eq(f.r.rec.clock_days, 3);
	ck_assert_int_eq(f.r.rec.clock_initial[S], 3000); /* clim's day is a second */
	ck_assert_int_eq(f.r.rec.clock_initial[N], 3000);
	play(&f, "cA");
	clock_ms += 2500;
	play(&f, "d");
	ck_assert_int_eq(f.r.rec.clock_left[S], 3000);
	rules_view(&f.r, &clim, clock_ms, &v);
	ck_assert_int_eq(v.clock.kind, PROTO_CLOCK_CORRESPONDENCE);
	ck_assert_int_eq(v.clock.days, 3);
	ck_assert_int_eq(v.clock.increment, 0);
	ck_assert_int_eq(v.clock.running, N);
	clock_ms += 3000 + RULES_LAG_CREDIT_MAX_MS;
	ck_assert(tick(&f).ended);
	ck_assert_int_eq(f.r.rec.reason, PROTO_END_TIMEOUT);
	ck_assert_int_eq(f.r.rec.winner, S);
	teardown_room(&f);
}
END_TEST

START_TEST(a_restart_resumes_the_clocks_after_a_grace)
{
	fixture f;
	rules_room r;
	proto_state_view v;
	rules_out o;
	proto_msg jm = msg(PROTO_MSG_JOIN);
	rules_in in;
	int ply = 99;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 60, 60, 0);
	play(&f, "cA");
	clock_ms += 4000;
	play(&f, "d");                  /* south: 56 s left; north to move */
	clock_ms += 9000;               /* north thinks 9 s, then the server dies */
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, f.r.moves, f.r.nmoves, clock_ms, &ply), 0);
	ck_assert_int_eq(ply, -1);
	rules_view(&r, &clim, clock_ms + 5000, &v);
	ck_assert_int_eq(v.clock.running, N);
	ck_assert_int_eq(v.clock.grace, RULES_RESTORE_GRACE_MS - 5000);
	ck_assert_int_eq(v.clock.left[N], 60000); /* from its stored time */
	ck_assert_int_eq(v.clock.left[S], 56000);
	ck_assert_int_eq(rules_deadline(&r, &clim),
	                 clock_ms + RULES_RESTORE_GRACE_MS + 60000 + RULES_LAG_CREDIT_MAX_MS);
	/* North comes back after 5 s: its clock runs from then. */
	clock_ms += 5000;
	snprintf(jm.token, sizeof jm.token, "%s", f.tok[N]);
	in = in_for(SPECT, &jm, NULL);
	rules_join(&r, &in, &o);
	ck_assert_int_eq(o.seat, N);
	rules_apply(&r, &o, clock_ms);
	rules_view(&r, &clim, clock_ms + 1000, &v);
	ck_assert_int_eq(v.clock.grace, 0);
	ck_assert_int_eq(v.clock.left[N], 59000);
	rules_room_free(&r);
	teardown_room(&f);
}
END_TEST

START_TEST(no_abandonment_claim_with_a_clock)
{
	fixture f;
	rules_out o;

	setup_clock(&f, PROTO_CLOCK_REALTIME, 60, 60, 0);
	play(&f, "cA");
	leave(&f, S);
	ck_assert_int_eq(f.r.absent_side, -1);
	clock_ms += ABANDON_MS + 1;
	o = act(&f, N, msg(PROTO_MSG_CLAIM));
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_CLAIM);
	/* Abort is over too: both have moved. */
	o = act(&f, N, msg(PROTO_MSG_ABORT));
	ck_assert_int_eq(o.error, PROTO_E_CANNOT_ABORT);
	teardown_room(&f);
}
END_TEST

/* ---- Togyz Kumalak rooms ---- */

/* PlayStrategy's game FgWSk5be (tests/data/togyz-games.txt): 75 plies,
 * each the hole sown and the hole of the last seed; White (south) wins
 * 82-43 at once. */
static const char *const record_75 =
	"76 98 66 76 12 88 25 89 93 36 49 49 81 24 93 61 53 84 76 91 "
	"93 15 13 91 82 74 12 89 22 48 23 78 61 78 67 91 12 82 12 89 "
	"93 23 81 92 12 53 12 89 24 92 12 38 91 12 72 12 78 23 81 45 "
	"57 89 78 78 67 78 78 89 81 89 31 89 81 12 96";

START_TEST(togyz_room_takes_hole_numbers)
{
	fixture f;
	rules_out o;
	tg_game g;

	setup_kind(&f, 1, "togyz");
	ck_assert_ptr_eq(f.r.k, &proto_kind_togyz);
	ck_assert_str_eq(f.r.rec.kind, "togyz");
	ck_assert_int_eq(rules_turn(&f.r), S);
	/* A pit letter is not a Togyz move: bad_message, nothing changes. */
	o = act(&f, S, move_msg(2, 0));
	ck_assert_int_eq(o.error, PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(o.why, "pit: a Togyz Kumalak move is a hole number \"1\" to \"9\"");
	ck_assert_uint_eq(f.r.rec.version, 2);
	ck_assert_int_eq(f.r.nmoves, 0);
	o = act(&f, N, hole_msg(7, 0));
	ck_assert_int_eq(o.error, PROTO_E_NOT_YOUR_TURN);
	/* South's hole 7 is pit 6; North's hole 7 is pit 15. */
	o = act(&f, S, hole_msg(7, 0));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.pit, 6);
	ck_assert_int_eq(o.save, RULES_SAVE_MOVES);
	ck_assert_int_eq(f.r.moves[0], 6);
	ck_assert_int_eq(f.r.play.tg.last.pit, 6);
	ck_assert_int_eq(f.r.play.tg.last.last, 14); /* North's hole 6: "76" */
	ck_assert_int_eq(f.r.play.tg.last.captured, 14); /* 10 seeds there: even */
	ck_assert_int_eq(f.r.play.tg.last.seeds, 10);
	o = act(&f, N, hole_msg(9, 1));
	ck_assert_int_eq(o.error, 0);
	ck_assert_int_eq(o.pit, 17);
	tg_game_start(&g);
	ck_assert_int_eq(tg_game_play(&g, 6, NULL), 0);
	ck_assert_int_eq(tg_game_play(&g, 17, NULL), 0);
	ck_assert(memcmp(&g, &f.r.play.tg.game, sizeof g) == 0);
	ck_assert_int_eq(rules_turn(&f.r), S);
	/* A resend of North's move is recognised by its pit; South's hole 9
	 * at ply 1 is not that move. */
	o = act(&f, N, hole_msg(9, 1));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.resync);
	ck_assert_int_eq(o.save, RULES_KEEP);
	o = act(&f, S, hole_msg(9, 1));
	ck_assert_int_eq(o.error, PROTO_E_STALE_PLY);
	ck_assert_int_eq(f.r.nmoves, 2);
	teardown_room(&f);
}
END_TEST

START_TEST(oware_room_refuses_hole_numbers)
{
	fixture f;
	rules_out o;

	setup(&f, 1);
	o = act(&f, S, hole_msg(3, 0));
	ck_assert_int_eq(o.error, PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(o.why, "pit: an Oware move is a pit letter a-f or A-F");
	ck_assert_int_eq(f.r.nmoves, 0);
	ck_assert_uint_eq(f.r.rec.version, 2);
	teardown_room(&f);
}
END_TEST

/* Plays a record of two-digit tokens; each token's second digit (where
 * the last seed landed) is checked against the engine's notation. */
static void play_record(fixture *f, const char *rec)
{
	for (const char *p = rec; *p; p += p[2] ? 3 : 2) {
		int seat = rules_turn(&f->r);
		rules_out o = act(f, seat, hole_msg(p[0] - '0', f->r.nmoves));
		char note[4];

		ck_assert_msg(o.error == 0, "ply %d: error %d (%s)", f->r.nmoves, o.error, o.why);
		tg_notation(&f->r.play.tg.last, note);
		ck_assert_msg(note[0] == p[0] && note[1] == p[1], "ply %d: %s, not %.2s",
		              f->r.nmoves, note, p);
	}
}

START_TEST(togyz_game_to_its_end_then_a_rematch)
{
	fixture f;
	rules_out o;
	int winner;

	setup_kind(&f, 1, "togyz");
	play_record(&f, record_75);
	ck_assert_int_eq(f.r.nmoves, 75);
	ck_assert(rules_over(&f.r));
	ck_assert_int_eq(rules_end_reason(&f.r, &winner), OW_END_SCORE);
	ck_assert_int_eq(winner, OW_WINNER_SOUTH);
	ck_assert_int_eq(f.r.play.tg.game.pos.captured[S], 82);
	ck_assert_int_eq(f.r.play.tg.game.pos.captured[N], 43);
	/* South's tuzdyk is North's hole 6 (pit 14), North's South's 4 (pit 3). */
	ck_assert_int_eq(f.r.play.tg.game.pos.tuzdyk[S], 14);
	ck_assert_int_eq(f.r.play.tg.game.pos.tuzdyk[N], 3);
	o = act(&f, N, hole_msg(1, 75));
	ck_assert_int_eq(o.error, PROTO_E_GAME_OVER);
	act(&f, S, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_OFFER));
	o = act(&f, N, offer_msg(PROTO_MSG_REMATCH, PROTO_ACT_ACCEPT));
	ck_assert_int_eq(o.error, 0);
	ck_assert(o.new_game);
	ck_assert_int_eq(f.r.nmoves, 0);
	ck_assert(!rules_over(&f.r));
	ck_assert_int_eq(f.r.play.tg.game.pos.pits[0], 9);
	ck_assert_int_eq(f.r.play.tg.game.pos.tuzdyk[S], TG_NONE);
	ck_assert_int_eq(f.r.play.tg.game.pos.captured[S], 0);
	teardown_room(&f);
}
END_TEST

START_TEST(togyz_restore_replays_and_unknown_kinds_are_refused)
{
	fixture f;
	rules_room r;
	room_rec rec;
	static const uint8_t bad[] = {6, 15, 15}; /* pit 15 is North's: not at ply 2 */
	int ply = 99;

	setup_kind(&f, 1, "togyz");
	play_record(&f, "76 98 66 76 12");
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, f.r.moves, f.r.nmoves, clock_ms, &ply), 0);
	ck_assert_int_eq(ply, -1);
	ck_assert_ptr_eq(r.k, &proto_kind_togyz);
	ck_assert(memcmp(&r.play.tg.game, &f.r.play.tg.game, sizeof r.play.tg.game) == 0);
	ck_assert(memcmp(&r.play.tg.last, &f.r.play.tg.last, sizeof r.play.tg.last) == 0);
	ck_assert_int_eq(rules_turn(&r), N);
	rules_room_free(&r);
	ck_assert_int_eq(rules_restore(&r, &f.r.rec, bad, 3, clock_ms, &ply), 0);
	ck_assert_int_eq(ply, 2);
	ck_assert_int_eq(r.nmoves, 2);
	rules_room_free(&r);
	rec = f.r.rec;
	strcpy(rec.kind, "chess");
	ply = 99;
	ck_assert_int_eq(rules_restore(&r, &rec, f.r.moves, f.r.nmoves, clock_ms, &ply),
	                 RULES_E_KIND);
	ck_assert_int_eq(ply, 99); /* untouched on an error */
	teardown_room(&f);
}
END_TEST

START_TEST(togyz_room_from_a_position)
{
	fixture f;
	proto_msg m = msg(PROTO_MSG_CREATE);
	uint8_t fresh[SHA256_LEN];
	rules_in in;
	rules_out o;
	proto_state_view v;
	/* South to move; North's tuzdyk is South's hole 2 (pit 1, empty). */
	static const int pits[TG_PITS] = {9, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
	static const int cap[2] = {0, 9}, tz[2] = {0, 2};

	memset(&f, 0, sizeof f);
	strcpy(f.tok[S], "token-south");
	strcpy(f.tok[N], "token-north");
	m.side = S;
	strcpy(m.kind, "togyz");
	m.has_position = 1;
	ck_assert_int_eq(tg_pos_set(&m.position.tg, pits, cap, tz, S, NULL), 0);
	hash_of(f.tok[S], fresh);
	in = in_for(SPECT, &m, fresh);
	ck_assert_int_eq(rules_create(&f.r, "room-1", &in, &o), 0);
	rules_apply(&f.r, &o, clock_ms);
	join(&f, "", f.tok[N]);
	ck_assert(f.r.rec.has_start);
	ck_assert(memcmp(&f.r.play.tg.game.pos, &m.position.tg, sizeof m.position.tg) == 0);
	/* Hole 2 is North's tuzdyk: never sown. */
	o = act(&f, S, hole_msg(2, 0));
	ck_assert_int_eq(o.error, PROTO_E_ILLEGAL_MOVE);
	ck_assert_msg(strstr(o.why, "pit 2: ") == o.why, "%s", o.why);
	ck_assert_int_eq(f.r.nmoves, 0);
	rules_view(&f.r, &lim, clock_ms, &v);
	ck_assert_ptr_eq(v.k, &proto_kind_togyz);
	ck_assert_ptr_eq(v.start, &f.r.rec.start);
	ck_assert_int_eq(v.has_last, 0);
	teardown_room(&f);
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *t = tcase_create("rules");

	tcase_add_test(t, create_seats_the_creator_with_a_fresh_token);
	tcase_add_test(t, join_takes_the_free_seat_then_watches);
	tcase_add_test(t, join_with_a_token_reclaims_or_replaces);
	tcase_add_test(t, spectators_cannot_act_and_change_nothing);
	tcase_add_test(t, moves_follow_the_engine);
	tcase_add_test(t, stale_ply_and_resends);
	tcase_add_test(t, draw_offer_decline_accept);
	tcase_add_test(t, crossed_draw_offers_agree);
	tcase_add_test(t, a_move_declines_the_opponents_offer_only);
	tcase_add_test(t, resign_loses);
	tcase_add_test(t, abort_until_both_have_moved);
	tcase_add_test(t, join_after_the_game_is_over_watches);
	tcase_add_test(t, rematch_swaps_sides_and_tokens);
	tcase_add_test(t, no_rematch_without_an_opponent);
	tcase_add_test(t, no_rematch_in_an_events_room);
	tcase_add_test(t, no_abort_in_an_events_room);
	tcase_add_test(t, the_organisers_result_ends_the_game);
	tcase_add_test(t, leaving_is_presence_only);
	tcase_add_test(t, absence_counts_on_ones_own_turn_only);
	tcase_add_test(t, returning_stops_the_countdown);
	tcase_add_test(t, restore_replays_the_moves);
	tcase_add_test(t, view_shows_the_room);
	tcase_add_test(t, names_are_the_seats);
	tcase_add_test(t, chat_is_for_players);
	suite_add_tcase(s, t);
	t = tcase_create("togyz");
	tcase_add_test(t, togyz_room_takes_hole_numbers);
	tcase_add_test(t, oware_room_refuses_hole_numbers);
	tcase_add_test(t, togyz_game_to_its_end_then_a_rematch);
	tcase_add_test(t, togyz_restore_replays_and_unknown_kinds_are_refused);
	tcase_add_test(t, togyz_room_from_a_position);
	suite_add_tcase(s, t);
	t = tcase_create("clocks");
	tcase_add_test(t, clocks_start_after_both_first_moves_and_add_the_increment);
	tcase_add_test(t, lag_credit_is_the_measured_round_trip_bounded);
	tcase_add_test(t, a_clock_running_out_ends_the_game_by_the_timer);
	tcase_add_test(t, time_odds_follow_the_players_into_a_rematch);
	tcase_add_test(t, correspondence_gives_the_full_allowance_each_move);
	tcase_add_test(t, a_restart_resumes_the_clocks_after_a_grace);
	tcase_add_test(t, no_abandonment_claim_with_a_clock);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rules_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
