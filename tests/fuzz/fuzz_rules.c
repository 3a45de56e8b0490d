/* fuzz_rules.c: libFuzzer target: the rules of one room (server/rules/rules.h),
 * driven the way the rooms' shell (server/rooms/rooms.c) drives them, by a
 * sequence of events decoded from the input: joins (no token, a seat's
 * token, a wrong token), leaves of members that exist, game actions by
 * South, North or a spectator, the clock (with and without the absence
 * timer), and a store that fails to save.
 *
 * Beside the core the harness keeps its own model of the room, written
 * from PROTOCOL.md: the members (presence, spectators, each seat's token
 * text), the game's moves and their replay through the engine, the absence
 * countdown, and what the store holds. After every event it checks:
 *   - every decision against the model: the error code (or none), the
 *     record to save, and every flag of the outcome;
 *   - an error, or an action by a spectator (not_a_player), changes
 *     nothing, applied or not, and saves nothing;
 *   - the version grows by exactly one with each applied outcome that
 *     saves or touches, and stays the same otherwise;
 *   - the game is the replay of the recorded moves (each legal), and the
 *     last move's details are those of the replay;
 *   - offers: each -1, 0 or 1, draw only while the game is on, rematch
 *     only once it is over, either only with both seats taken;
 *   - end reasons and winners fit; game_number grows only by a rematch,
 *     which swaps the tokens, the seats' connections and clears the moves;
 *   - presence, spectators, absence, the deadline and rules_view (claim_in,
 *     claimable only for an absent seat) agree with the model;
 *   - names (a draw's or rematch's argument of 0xf0 and up is a `name` or
 *     a `chat` instead): a player's name is saved with the seat (version
 *     + 1) and swapped with the tokens by a rematch; a chat line is
 *     allowed to players and changes nothing; a spectator gets
 *     not_a_player for either;
 *   - the store's record differs from the room's only by a version and
 *     time that a failed presence save left behind, and a room restored
 *     from it (rules_restore) replays to the same game.
 * The room is a Togyz Kumalak one (kind "togyz") when the first byte has
 * bit 7 set: the model then plays the Togyz engine, moves carry hole
 * numbers of the mover's row, and a move in the form of a pit letter is
 * bad_message before anything else. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/oware.h"
#include "engine/togyz.h"
#include "protocol/message.h"
#include "server/rules/rules.h"
#include "server/base/sha256.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ROOM_ID "3f1c2a9e-7b4d-4e21-9c5a-0d8e6f1b2a47"
#define ABANDON_MS 30000
#define MAX_SPECTATORS 3
#define WALL0 1700000000 /* wall-clock seconds at now == 0 */
#define TOKEN_TEXT 24

/* An event is one byte: its kind in the low 4 bits, the actor of an
 * action in bits 4-5 (south, north, a spectator, or the side on turn),
 * and a failing store when bits 6-7 are both set; some kinds read one or
 * two argument bytes after it. */
enum {
	EV_JOIN,            /* join without a token */
	EV_JOIN_SOUTH,      /* join with the token of the seat now South */
	EV_JOIN_NORTH,      /* ... of the seat now North */
	EV_JOIN_BAD,        /* join with a token of no seat */
	EV_LEAVE_SOUTH,     /* the connection on South goes away */
	EV_LEAVE_NORTH,
	EV_LEAVE_SPECTATOR,
	EV_TICK,            /* time passes (arg), then the absence timer runs */
	EV_MOVE,            /* args: the pit, the ply */
	EV_RESIGN,
	EV_DRAW,            /* arg: the action */
	EV_ABORT,
	EV_REMATCH,         /* arg: the action */
	EV_CLAIM,
	EV_WAIT,            /* time passes (arg), no timer */
	EV_MOVE2            /* a move as well: moves are most of a game */
};
enum { ACTOR_SOUTH, ACTOR_NORTH, ACTOR_SPECTATOR, ACTOR_TURN };

/* FUZZ_RULES_TRACE=1 in the environment: each event and its outcome on
 * stderr, to read what an input does. */
static int trace;

/* The room, and the harness's own model of it. */
typedef struct model {
	rules_room r;
	rules_limits lim;
	int64_t now;
	/* The shell's members. */
	int present[2];
	unsigned spectators;
	char tok[2][TOKEN_TEXT];     /* each seat's token text ("" if untaken) */
	unsigned ntok;               /* tokens handed out, to make each new */
	/* The game: its moves and their replay, by the engine of the kind. */
	int togyz;                   /* a Togyz Kumalak room */
	uint8_t *moves;
	int nmoves;
	ow_game game;                /* Oware */
	ow_move_info last;
	tg_game tg;                  /* Togyz Kumalak */
	tg_move_info tg_last;
	unsigned game_number;
	/* The absence countdown of PROTOCOL.md. */
	int absent, shown;
	int64_t since;
	/* The store. */
	room_rec stored;
	uint8_t *stored_moves;
	int nstored;
	int64_t created;
	int decided;                 /* the event reached the rules */
} model;

/* What an outcome should be. */
typedef struct expect {
	int error, resync, save, presence, pit, new_game, seat, joins, replace;
	int welcome, token, broadcast, ended, claimable, leaves, chat;
	room_rec rec;
} expect;

/* ---- comparing ---- */

/* The meaningful parts of two games (seen[] past nseen is left over). */
static void check_game(const ow_game *a, const ow_game *b)
{
	FUZZ_CHECK(!memcmp(&a->pos, &b->pos, sizeof a->pos));
	FUZZ_CHECK_EQ(a->ply, b->ply);
	FUZZ_CHECK_EQ(a->quiet, b->quiet);
	FUZZ_CHECK_EQ(a->end, b->end);
	FUZZ_CHECK_EQ(a->winner, b->winner);
	FUZZ_CHECK_EQ(a->nseen, b->nseen);
	FUZZ_CHECK(!memcmp(a->seen, b->seen, a->nseen * sizeof a->seen[0]));
}

static void check_info(const ow_move_info *a, const ow_move_info *b)
{
	FUZZ_CHECK_EQ(a->pit, b->pit);
	FUZZ_CHECK_EQ(a->nsown, b->nsown);
	FUZZ_CHECK(!memcmp(a->sown, b->sown, a->nsown));
	FUZZ_CHECK_EQ(a->ncaptured, b->ncaptured);
	FUZZ_CHECK(!memcmp(a->captured, b->captured, a->ncaptured));
	FUZZ_CHECK_EQ(a->seeds, b->seeds);
	FUZZ_CHECK_EQ(a->grand_slam, b->grand_slam);
}

static void check_tg_game(const tg_game *a, const tg_game *b)
{
	FUZZ_CHECK(!memcmp(&a->pos, &b->pos, sizeof a->pos));
	FUZZ_CHECK_EQ(a->ply, b->ply);
	FUZZ_CHECK_EQ(a->end, b->end);
	FUZZ_CHECK_EQ(a->winner, b->winner);
}

static void check_tg_info(const tg_move_info *a, const tg_move_info *b)
{
	FUZZ_CHECK_EQ(a->pit, b->pit);
	FUZZ_CHECK_EQ(a->nsown, b->nsown);
	FUZZ_CHECK(!memcmp(a->sown, b->sown, a->nsown));
	FUZZ_CHECK_EQ(a->last, b->last);
	FUZZ_CHECK_EQ(a->captured, b->captured);
	FUZZ_CHECK_EQ(a->seeds, b->seeds);
	FUZZ_CHECK_EQ(a->tuzdyk, b->tuzdyk);
	FUZZ_CHECK(!memcmp(a->to_tuzdyk, b->to_tuzdyk, sizeof a->to_tuzdyk));
}

/* A room's game (and its last move, with has_last) is the model's. */
static void check_play(const model *m, const proto_play *p, int has_last)
{
	if (m->togyz) {
		check_tg_game(&p->tg.game, &m->tg);
		if (has_last)
			check_tg_info(&p->tg.last, &m->tg_last);
	} else {
		check_game(&p->ow.game, &m->game);
		if (has_last)
			check_info(&p->ow.last, &m->last);
	}
}

/* Records equal field by field (not their padding); with stale, the
 * version and time of a may lag behind b's. */
static void check_rec(const room_rec *a, const room_rec *b, int stale)
{
	FUZZ_CHECK(!strcmp(a->id, b->id));
	FUZZ_CHECK(!strcmp(a->kind, b->kind));
	FUZZ_CHECK_EQ(a->created, b->created);
	FUZZ_CHECK_EQ(a->game_number, b->game_number);
	if (stale) {
		FUZZ_CHECK(a->version <= b->version);
		FUZZ_CHECK(a->updated <= b->updated);
	} else {
		FUZZ_CHECK_EQ(a->version, b->version);
		FUZZ_CHECK_EQ(a->updated, b->updated);
	}
	for (int s = 0; s < 2; s++) {
		FUZZ_CHECK_EQ(a->has_tok[s], b->has_tok[s]);
		FUZZ_CHECK(!a->has_tok[s] || !memcmp(a->tok[s], b->tok[s], SHA256_LEN));
	}
	FUZZ_CHECK_EQ(a->reason, b->reason);
	FUZZ_CHECK_EQ(a->winner, b->winner);
	FUZZ_CHECK_EQ(a->draw_offer, b->draw_offer);
	FUZZ_CHECK_EQ(a->rematch_offer, b->rematch_offer);
	for (int s = 0; s < 2; s++)
		FUZZ_CHECK(!strcmp(a->name[s], b->name[s]));
}

static void check_out(const rules_out *o, const expect *w)
{
	FUZZ_CHECK_EQ(o->error, w->error);
	FUZZ_CHECK(!o->error || o->why[0] != 0);
	FUZZ_CHECK(memchr(o->why, 0, sizeof o->why) != NULL);
	FUZZ_CHECK_EQ(o->resync, w->resync);
	FUZZ_CHECK_EQ(o->save, w->save);
	FUZZ_CHECK_EQ(o->presence, w->presence);
	FUZZ_CHECK_EQ(o->pit, w->pit);
	FUZZ_CHECK_EQ(o->new_game, w->new_game);
	FUZZ_CHECK_EQ(o->joins, w->joins);
	if (o->joins || o->leaves)
		FUZZ_CHECK_EQ(o->seat, w->seat);
	FUZZ_CHECK_EQ(o->replace, w->replace);
	FUZZ_CHECK_EQ(o->welcome, w->welcome);
	FUZZ_CHECK_EQ(o->token, w->token);
	FUZZ_CHECK_EQ(o->broadcast, w->save != RULES_KEEP);
	FUZZ_CHECK_EQ(o->ended, w->ended);
	FUZZ_CHECK_EQ(o->claimable, w->claimable);
	FUZZ_CHECK_EQ(o->leaves, w->leaves);
	FUZZ_CHECK_EQ(o->chat, w->chat);
	if (o->error) /* an error asks for nothing to be saved or done */
		FUZZ_CHECK(o->save == RULES_KEEP && o->pit < 0 && !o->new_game && !o->joins &&
		           !o->leaves && !o->broadcast && !o->ended && !o->claimable && !o->chat);
	if (o->chat) /* a chat line changes nothing in the room */
		FUZZ_CHECK(o->save == RULES_KEEP && !o->broadcast);
	if (o->save != RULES_KEEP)
		check_rec(&o->rec, &w->rec, 0);
}

/* ---- the model's view of the room ---- */

/* The model's game, through the engine of the room's kind. */
static int m_turn(const model *m)
{
	return m->togyz ? m->tg.pos.turn : m->game.pos.turn;
}

static int m_end(const model *m)
{
	return m->togyz ? m->tg.end : m->game.end;
}

static int m_winner(const model *m)
{
	return m->togyz ? m->tg.winner : m->game.winner;
}

static void m_start(model *m)
{
	if (m->togyz)
		tg_game_start(&m->tg);
	else
		ow_game_start(&m->game);
}

/* Plays pit in the model's game: 0, or the engine's error. */
static int m_play(model *m, int pit)
{
	return m->togyz ? tg_game_play(&m->tg, pit, &m->tg_last)
	                : ow_game_play(&m->game, pit, &m->last);
}

static int over(const model *m)
{
	return m->r.rec.reason != 0 || m_end(m) != OW_END_NONE;
}

/* ms until the absent seat may be claimed against, or -1. */
static int64_t left(const model *m)
{
	int64_t l;

	if (m->absent < 0)
		return -1;
	l = m->since + ABANDON_MS - m->now;
	return l < 0 ? 0 : l;
}

/* The countdown of PROTOCOL.md: it runs while the player on turn is away
 * (both seats taken, the game on), and starts again when that changes. */
static void update_absence(model *m)
{
	int turn = m_turn(m);
	int a = !over(m) && m->tok[0][0] && m->tok[1][0] && !m->present[turn]
	        ? turn : -1;

	if (a != m->absent) {
		m->absent = a;
		m->since = m->now;
		m->shown = 0;
	}
}

static void expect_init(const model *m, expect *w)
{
	memset(w, 0, sizeof *w);
	w->pit = -1;
	w->seat = RULES_SPECTATOR;
	w->rec = m->r.rec;
}

static void expect_error(expect *w, int code)
{
	w->error = code;
}

/* A change to save: the next version, stamped now. */
static void expect_save(const model *m, expect *w, int what)
{
	w->save = what;
	w->rec.version = m->r.rec.version + 1;
	w->rec.updated = WALL0 + m->now / 1000;
}

static void expect_end(const model *m, expect *w, int reason, int winner)
{
	w->rec.reason = reason;
	w->rec.winner = winner;
	w->rec.draw_offer = -1;
	w->ended = 1;
	expect_save(m, w, RULES_SAVE);
}

enum { ACCEPTED = -2, REFUSED = -3 };

/* One step on an offer slot: its new value (a side or -1), ACCEPTED, or
 * REFUSED with the error in w. */
static int expect_offer(expect *w, int me, int action, int pending)
{
	if (action == PROTO_ACT_OFFER) {
		if (pending == me) {
			expect_error(w, PROTO_E_OFFER_PENDING);
			return REFUSED;
		}
		return pending == !me ? ACCEPTED : me;
	}
	if (pending != !me) {
		expect_error(w, PROTO_E_NO_OFFER);
		return REFUSED;
	}
	return action == PROTO_ACT_ACCEPT ? ACCEPTED : -1;
}

/* 1 when the game is on (and the opponent there, if needed), else 0 with
 * the error in w. */
static int expect_game_on(const model *m, expect *w, int need_opponent, int me)
{
	if (over(m))
		expect_error(w, PROTO_E_GAME_OVER);
	else if (need_opponent && !m->r.rec.has_tok[!me])
		expect_error(w, PROTO_E_OPPONENT_MISSING);
	return !w->error;
}

/* What rules_act must decide for msg by seat me. */
static void expect_act(const model *m, int me, const proto_msg *msg, expect *w)
{
	int v, pit;
	model g;

	expect_init(m, w);
	if (me < 0) {
		expect_error(w, PROTO_E_NOT_A_PLAYER);
		return;
	}
	switch (msg->type) {
	case PROTO_MSG_MOVE:
		/* The form of the kind first: a letter in a Togyz room, a hole
		 * number in an Oware room. */
		if (m->togyz ? !msg->hole : msg->pit < 0) {
			expect_error(w, PROTO_E_BAD_MESSAGE);
			break;
		}
		pit = m->togyz ? tg_pit_of(me, msg->hole) : msg->pit;
		if (msg->ply != m->nmoves) {
			/* A resend of the recorded move by its player: the state alone. */
			w->resync = 1;
			if (!(msg->ply < m->nmoves && m->moves[msg->ply] == pit &&
			      (msg->ply & 1) == me))
				expect_error(w, PROTO_E_STALE_PLY);
			break;
		}
		if (!expect_game_on(m, w, 1, me))
			break;
		g = *m; /* the engine's game only is played on the copy */
		if (m_turn(m) != me)
			expect_error(w, PROTO_E_NOT_YOUR_TURN);
		else if (m_play(&g, pit) != 0)
			expect_error(w, PROTO_E_ILLEGAL_MOVE);
		else {
			w->pit = pit;
			w->ended = m_end(&g) != OW_END_NONE;
			if (w->rec.draw_offer == !me || w->ended)
				w->rec.draw_offer = -1;
			expect_save(m, w, RULES_SAVE_MOVES);
		}
		break;
	case PROTO_MSG_RESIGN:
		if (expect_game_on(m, w, 1, me))
			expect_end(m, w, PROTO_END_RESIGN, !me);
		break;
	case PROTO_MSG_DRAW:
		if (!expect_game_on(m, w, 1, me) ||
		    (v = expect_offer(w, me, msg->action, m->r.rec.draw_offer)) == REFUSED)
			break;
		if (v == ACCEPTED)
			expect_end(m, w, PROTO_END_AGREEMENT, OW_DRAW);
		else {
			w->rec.draw_offer = v;
			expect_save(m, w, RULES_SAVE);
		}
		break;
	case PROTO_MSG_ABORT:
		if (!expect_game_on(m, w, 0, me))
			break;
		if (m->nmoves >= 2)
			expect_error(w, PROTO_E_CANNOT_ABORT);
		else
			expect_end(m, w, PROTO_END_ABORTED, me); /* the aborter, shown as aborted_by */
		break;
	case PROTO_MSG_REMATCH:
		if (!over(m))
			expect_error(w, PROTO_E_GAME_NOT_OVER);
		else if (!m->r.rec.has_tok[!me])
			expect_error(w, PROTO_E_OPPONENT_MISSING);
		else if ((v = expect_offer(w, me, msg->action, m->r.rec.rematch_offer)) == ACCEPTED) {
			/* Sides swap: each token now holds the other seat. */
			memcpy(w->rec.tok[0], m->r.rec.tok[1], SHA256_LEN);
			memcpy(w->rec.tok[1], m->r.rec.tok[0], SHA256_LEN);
			w->rec.has_tok[0] = m->r.rec.has_tok[1];
			w->rec.has_tok[1] = m->r.rec.has_tok[0];
			/* The names follow the tokens. */
			memcpy(w->rec.name[0], m->r.rec.name[1], sizeof w->rec.name[0]);
			memcpy(w->rec.name[1], m->r.rec.name[0], sizeof w->rec.name[1]);
			w->rec.game_number++;
			w->rec.reason = 0;
			w->rec.winner = OW_NOBODY;
			w->rec.draw_offer = w->rec.rematch_offer = -1;
			w->new_game = 1;
			expect_save(m, w, RULES_SAVE_MOVES);
		} else if (v != REFUSED) {
			w->rec.rematch_offer = v;
			expect_save(m, w, RULES_SAVE);
		}
		break;
	case PROTO_MSG_CLAIM:
		if (!expect_game_on(m, w, 0, me))
			break;
		/* The opponent away on its turn for the abandon time. */
		if (m->absent != !me || left(m) != 0)
			expect_error(w, PROTO_E_CANNOT_CLAIM);
		else
			expect_end(m, w, PROTO_END_ABANDONED, me);
		break;
	case PROTO_MSG_NAME:
		/* Any time: the seat's name, or none. */
		snprintf(w->rec.name[me], sizeof w->rec.name[me], "%s", msg->name);
		expect_save(m, w, RULES_SAVE);
		break;
	case PROTO_MSG_CHAT:
		w->chat = 1;
		break;
	default:
		FUZZ_CHECK(0);
	}
}

/* ---- invariants of the room at rest ---- */

/* The game replayed from the start through r's moves, each legal. */
static void check_replay(const model *m, const rules_room *r)
{
	static model g; /* large (an Oware game): not on the stack */

	g.togyz = m->togyz;
	m_start(&g);
	for (int i = 0; i < r->nmoves; i++)
		FUZZ_CHECK_EQ(m_play(&g, r->moves[i]), 0);
	check_play(&g, &r->play, r->nmoves > 0);
}

/* A room restored from what the store holds replays to the same game. */
static void check_restore(const model *m)
{
	rules_room rr;
	int turn, bad = 0;

	FUZZ_CHECK_EQ(rules_restore(&rr, &m->stored, m->stored_moves, m->nstored, m->now, &bad), 0);
	FUZZ_CHECK_EQ(bad, -1);
	FUZZ_CHECK(rr.k == m->r.k);
	check_play(m, &rr.play, rr.has_last);
	FUZZ_CHECK_EQ(rr.nmoves, m->r.nmoves);
	FUZZ_CHECK(!rr.nmoves || !memcmp(rr.moves, m->r.moves, (size_t)rr.nmoves));
	FUZZ_CHECK_EQ(rr.has_last, m->r.has_last);
	FUZZ_CHECK_EQ(rr.rec.version, m->stored.version + 1);
	if (trace)
		dprintf(STDERR_FILENO, "restored from the store: version %llu (the room shows %llu)\n",
		        (unsigned long long)rr.rec.version, (unsigned long long)m->r.rec.version);
	FUZZ_CHECK(!rr.present[0] && !rr.present[1] && rr.spectators == 0);
	turn = rules_turn(&rr);
	FUZZ_CHECK_EQ(rr.absent_side, !rules_over(&rr) && rr.rec.has_tok[0] && rr.rec.has_tok[1]
	              ? turn : -1);
	rules_room_free(&rr);
}

static void check_view(const model *m)
{
	proto_state_view v;
	int64_t l = left(m);
	int aborted;

	rules_view(&m->r, &m->lim, m->now, &v);
	FUZZ_CHECK(v.room == m->r.rec.id && !strcmp(v.room, ROOM_ID));
	FUZZ_CHECK(!strcmp(v.kind, m->togyz ? "togyz" : "oware"));
	FUZZ_CHECK_EQ(v.version, m->r.rec.version);
	FUZZ_CHECK_EQ(v.game_number, m->game_number);
	FUZZ_CHECK(v.play == &m->r.play &&
	           v.k == (m->togyz ? &proto_kind_togyz : &proto_kind_oware));
	FUZZ_CHECK_EQ(v.reason, m->r.rec.reason);
	aborted = m->r.rec.reason == PROTO_END_ABORTED;
	FUZZ_CHECK_EQ(v.winner, aborted ? OW_NOBODY : m->r.rec.winner);
	FUZZ_CHECK_EQ(v.aborted_by, aborted ? m->r.rec.winner : -1);
	FUZZ_CHECK_EQ(v.nmoves, m->nmoves);
	FUZZ_CHECK(!v.nmoves || !memcmp(v.moves, m->moves, (size_t)v.nmoves));
	FUZZ_CHECK(v.has_last == (m->nmoves > 0));
	for (int s = 0; s < 2; s++) {
		FUZZ_CHECK_EQ(v.seats[s].taken, m->r.rec.has_tok[s]);
		FUZZ_CHECK_EQ(v.seats[s].connected, m->present[s]);
		FUZZ_CHECK_EQ(v.seats[s].claimable, m->absent == s && l == 0);
		/* Claimable only for a seat that is taken, away and on turn. */
		FUZZ_CHECK(!v.seats[s].claimable ||
		           (v.seats[s].taken && !v.seats[s].connected && m_turn(m) == s));
	}
	FUZZ_CHECK_EQ(v.spectators, m->spectators);
	FUZZ_CHECK_EQ(v.draw_offer, m->r.rec.draw_offer);
	FUZZ_CHECK_EQ(v.rematch_offer, m->r.rec.rematch_offer);
	FUZZ_CHECK_EQ(v.abandon_seconds, ABANDON_MS / 1000);
	FUZZ_CHECK(v.claim_in >= -1);
	FUZZ_CHECK_EQ(v.claim_in, l > 0 ? (l + 999) / 1000 : -1);
}

static void check_room(const model *m)
{
	const rules_room *r = &m->r;
	const room_rec *rec = &r->rec;
	int winner, reason;

	/* The game is the replay of the moves (kept move by move here; the
	 * whole replay runs in check_replay at the end of each game). */
	FUZZ_CHECK_EQ(r->nmoves, m->nmoves);
	FUZZ_CHECK(r->nmoves <= r->capmoves);
	FUZZ_CHECK(!r->nmoves || !memcmp(r->moves, m->moves, (size_t)r->nmoves));
	check_play(m, &r->play, r->has_last);
	FUZZ_CHECK_EQ(m->togyz ? r->play.tg.game.ply : r->play.ow.game.ply, r->nmoves);
	FUZZ_CHECK_EQ(r->has_last, r->nmoves > 0);

	/* The record. */
	FUZZ_CHECK(!strcmp(rec->id, ROOM_ID) && !strcmp(rec->kind, m->togyz ? "togyz" : "oware"));
	FUZZ_CHECK_EQ(rec->created, m->created);
	FUZZ_CHECK_EQ(rec->game_number, m->game_number);
	FUZZ_CHECK(rec->has_tok[0] || rec->has_tok[1]);
	for (int s = 0; s < 2; s++)
		FUZZ_CHECK_EQ(rec->has_tok[s], m->tok[s][0] != 0);
	FUZZ_CHECK(rec->draw_offer >= -1 && rec->draw_offer <= 1);
	FUZZ_CHECK(rec->rematch_offer >= -1 && rec->rematch_offer <= 1);
	FUZZ_CHECK(rec->draw_offer == -1 || !over(m));
	FUZZ_CHECK(rec->rematch_offer == -1 || over(m));
	FUZZ_CHECK((rec->draw_offer == -1 && rec->rematch_offer == -1) ||
	           (rec->has_tok[0] && rec->has_tok[1]));
	switch (rec->reason) {
	case 0:
		FUZZ_CHECK_EQ(rec->winner, OW_NOBODY);
		break;
	case PROTO_END_RESIGN:
	case PROTO_END_ABANDONED:
		FUZZ_CHECK(rec->winner == OW_WINNER_SOUTH || rec->winner == OW_WINNER_NORTH);
		break;
	case PROTO_END_AGREEMENT:
		FUZZ_CHECK_EQ(rec->winner, OW_DRAW);
		break;
	case PROTO_END_ABORTED: /* winner: the side that aborted */
		FUZZ_CHECK(rec->winner == OW_SOUTH || rec->winner == OW_NORTH);
		FUZZ_CHECK(r->nmoves < 2);
		break;
	default:
		FUZZ_CHECK(0);
	}
	/* A room-level end stops the engine's game where it was. */
	FUZZ_CHECK(rec->reason == 0 || m_end(m) == OW_END_NONE);
	FUZZ_CHECK_EQ(rules_over(r), over(m));
	reason = rules_end_reason(r, &winner);
	FUZZ_CHECK_EQ(reason, rec->reason ? rec->reason : m_end(m));
	FUZZ_CHECK_EQ(winner, rec->reason == PROTO_END_ABORTED ? OW_NOBODY
	                      : rec->reason ? rec->winner : m_winner(m));

	/* Members and absence. */
	for (int s = 0; s < 2; s++) {
		FUZZ_CHECK_EQ(r->present[s], m->present[s]);
		FUZZ_CHECK(!r->present[s] || rec->has_tok[s]);
	}
	FUZZ_CHECK_EQ(r->spectators, m->spectators);
	FUZZ_CHECK(r->spectators <= MAX_SPECTATORS);
	FUZZ_CHECK_EQ(r->absent_side, m->absent);
	if (m->absent >= 0) {
		FUZZ_CHECK_EQ(r->absent_since, m->since);
		FUZZ_CHECK_EQ(r->claim_shown, m->shown);
	}
	FUZZ_CHECK_EQ(rules_deadline(r, &m->lim),
	              m->absent >= 0 && !m->shown ? m->since + ABANDON_MS : -1);
	check_view(m);

	/* The store: behind only by presence it could not save. */
	check_rec(&m->stored, rec, 1);
	FUZZ_CHECK_EQ(m->nstored, m->nmoves);
	FUZZ_CHECK(!m->nstored || !memcmp(m->stored_moves, m->moves, (size_t)m->nstored));
}

/* ---- events ---- */

static void in_init(const model *m, rules_in *in, int seat, const proto_msg *msg)
{
	memset(in, 0, sizeof *in);
	in->lim = &m->lim;
	in->now = m->now;
	in->wall = WALL0 + m->now / 1000;
	in->seat = seat;
	in->msg = msg;
}

/* Carries out o as rooms.c does (its decided(), save() and the apply),
 * with a store that fails when fail is set, and checks the version. */
static void carry_out(model *m, const rules_out *o, int fail)
{
	rules_room before;
	uint64_t v0 = m->r.rec.version;
	/* A spectator's coming or going: applied, no version, nothing saved. */
	int count_only = !o->error && o->save == RULES_KEEP && (o->joins || o->leaves);
	int apply = count_only || (!o->error && o->save != RULES_KEEP && (!fail || o->presence));

	memcpy(&before, &m->r, sizeof before);
	m->decided = 1;
	if (trace)
		dprintf(STDERR_FILENO, " -> error %d save %d presence %d%s, version %llu\n",
		        o->error, o->save, o->presence, apply ? " applied" : "",
		        (unsigned long long)o->rec.version);
	if (o->error || (o->save == RULES_KEEP && !count_only)) {
		/* Not applied by the shell; applying it anyway changes nothing:
		 * an error returns at once, and a keep finds the room at rest. */
		rules_room scratch;

		memcpy(&scratch, &m->r, sizeof scratch);
		rules_apply(&scratch, o, m->now);
		FUZZ_CHECK(!memcmp(&scratch, &before, sizeof before));
	}
	if (!apply) {
		FUZZ_CHECK_EQ(m->r.rec.version, v0);
		return;
	}
	if (o->pit >= 0)
		FUZZ_CHECK_EQ(rules_reserve(&m->r), 0);
	if (!fail && !count_only) {
		m->stored = o->rec;
		if (o->save == RULES_SAVE_MOVES && o->pit >= 0) {
			memcpy(m->stored_moves, m->moves, (size_t)m->nmoves);
			m->stored_moves[m->nmoves] = (uint8_t)o->pit;
			m->nstored = m->nmoves + 1;
		} else if (o->save == RULES_SAVE_MOVES)
			m->nstored = 0;
	}
	rules_apply(&m->r, o, m->now);
	FUZZ_CHECK_EQ(m->r.rec.version, count_only ? v0 : v0 + 1);
	check_rec(&m->r.rec, &o->rec, 0);

	/* The model follows. */
	if (o->pit >= 0) {
		FUZZ_CHECK_EQ(m_play(m, o->pit), 0);
		m->moves[m->nmoves++] = (uint8_t)o->pit;
		check_play(m, &o->play, 1);
	}
	if (o->new_game) {
		char t[TOKEN_TEXT];
		int p = m->present[0];

		check_replay(m, &before); /* the game that ended */
		m_start(m);
		m->nmoves = 0;
		m->game_number++;
		m->present[0] = m->present[1];
		m->present[1] = p;
		memcpy(t, m->tok[0], sizeof t);
		memcpy(m->tok[0], m->tok[1], sizeof t);
		memcpy(m->tok[1], t, sizeof t);
	}
	if (o->joins) {
		if (o->seat >= 0)
			m->present[o->seat] = 1; /* a replaced connection is gone without a leave */
		else
			m->spectators++;
	}
	if (o->leaves) {
		if (o->seat >= 0)
			m->present[o->seat] = 0;
		else
			m->spectators--;
	}
	if (o->claimable)
		m->shown = 1;
	update_absence(m);
	if (o->ended)
		check_replay(m, &m->r);
}

static void new_token(model *m, char text[TOKEN_TEXT], uint8_t hash[SHA256_LEN])
{
	snprintf(text, TOKEN_TEXT, "token-%u", m->ntok++);
	sha256(text, strlen(text), hash);
}

static void ev_join(model *m, int kind, int fail)
{
	proto_msg msg;
	rules_in in;
	rules_out o;
	expect w;
	char fresh[TOKEN_TEXT];
	uint8_t hash[SHA256_LEN];
	int s = kind == EV_JOIN_SOUTH ? OW_SOUTH : kind == EV_JOIN_NORTH ? OW_NORTH : -1;

	memset(&msg, 0, sizeof msg);
	msg.type = PROTO_MSG_JOIN;
	snprintf(msg.room, sizeof msg.room, "%s", ROOM_ID);
	if (kind == EV_JOIN_BAD || (s >= 0 && !m->tok[s][0]))
		snprintf(msg.token, sizeof msg.token, "not-a-token");
	else if (s >= 0)
		snprintf(msg.token, sizeof msg.token, "%s", m->tok[s]);
	in_init(m, &in, RULES_SPECTATOR, &msg);
	if (!msg.token[0]) {
		new_token(m, fresh, hash);
		in.fresh_tok = hash;
	}

	expect_init(m, &w);
	if (msg.token[0] && (s < 0 || !m->tok[s][0]))
		expect_error(&w, PROTO_E_BAD_TOKEN);
	else {
		if (msg.token[0]) { /* reclaim */
			w.replace = m->present[s];
			w.presence = 1;
		} else if ((s = over(m) ? -1 /* a game over seats nobody new */
		                : !m->tok[0][0] ? OW_SOUTH : !m->tok[1][0] ? OW_NORTH : -1) >= 0) {
			w.rec.has_tok[s] = 1;
			memcpy(w.rec.tok[s], hash, SHA256_LEN);
			w.token = 1;
		} else if (m->spectators >= MAX_SPECTATORS)
			expect_error(&w, PROTO_E_TOO_MANY_SPECTATORS);
		if (!w.error) {
			if (s >= 0) /* a spectator changes no version and saves nothing */
				expect_save(m, &w, RULES_SAVE);
			w.seat = s;
			w.joins = w.welcome = 1;
		}
	}
	rules_join(&m->r, &in, &o);
	check_out(&o, &w);
	if (o.token && (!fail || o.presence))
		memcpy(m->tok[o.seat], fresh, TOKEN_TEXT);
	carry_out(m, &o, fail);
}

static void ev_leave(model *m, int seat, int fail)
{
	rules_in in;
	rules_out o;
	expect w;

	in_init(m, &in, seat, NULL);
	expect_init(m, &w);
	w.seat = seat;
	w.leaves = 1;
	if (seat >= 0) { /* a spectator changes no version and saves nothing */
		w.presence = 1;
		expect_save(m, &w, RULES_SAVE);
	}
	rules_leave(&m->r, &in, &o);
	check_out(&o, &w);
	carry_out(m, &o, fail);
}

static void ev_tick(model *m, int fail)
{
	rules_in in;
	rules_out o;
	expect w;

	in_init(m, &in, RULES_SPECTATOR, NULL);
	expect_init(m, &w);
	if (m->absent >= 0 && !m->shown && left(m) == 0) {
		w.claimable = w.presence = 1;
		expect_save(m, &w, RULES_SAVE);
	}
	rules_tick(&m->r, &in, &o);
	check_out(&o, &w);
	carry_out(m, &o, fail);
}

static void ev_act(model *m, int seat, const proto_msg *msg, int fail)
{
	rules_room before;
	rules_in in;
	rules_out o;
	expect w;

	memcpy(&before, &m->r, sizeof before);
	in_init(m, &in, seat, msg);
	expect_act(m, seat, msg, &w);
	rules_act(&m->r, &in, &o);
	check_out(&o, &w);
	carry_out(m, &o, fail);
	if (seat < 0) /* a spectator changes nothing, the record included */
		FUZZ_CHECK(!memcmp(&before, &m->r, sizeof before));
}

/* A move's ply: mostly the number of moves played, else an older ply
 * (b from 0xc0) or a newer one (from 0xe0). Its pit: at the current ply the
 * a-th legal move of the side on turn, at an older ply the move recorded
 * there, or any pit when a >= 0x80. */
static void move_args(const model *m, uint8_t a, uint8_t b, proto_msg *msg)
{
	unsigned mask = m->togyz ? tg_legal_mask(&m->tg.pos) : ow_legal_mask(&m->game.pos);

	if (b < 0xc0)
		msg->ply = m->nmoves;
	else if (b < 0xe0)
		msg->ply = m->nmoves - 1 - (b & 0x1f) < 0 ? 0 : m->nmoves - 1 - (b & 0x1f);
	else
		msg->ply = m->nmoves + 1 + (b & 0x1f);
	if (a >= 0x80 || msg->ply > m->nmoves || (msg->ply == m->nmoves && !mask))
		msg->pit = (a & 0x7f) % OW_PITS;
	else if (msg->ply < m->nmoves)
		msg->pit = m->moves[msg->ply];
	else {
		for (int k = a % __builtin_popcount(mask); k > 0; k--)
			mask &= mask - 1;
		msg->pit = __builtin_ctz(mask);
	}
	/* Togyz: the hole number of that pit (a >= 0x80: any hole, or with
	 * (a & 0x7f) % 10 == 0 a pit letter, the wrong form). */
	if (m->togyz) {
		msg->hole = a >= 0x80 ? (a & 0x7f) % 10 : tg_hole_number(msg->pit);
		if (msg->hole)
			msg->pit = -1;
	}
}

/* A draw's or a rematch's argument of 0xf0 or more: a `name` (bit 3
 * clear: none, "Ana", "Bo" or a name of 24 two-byte characters, by the low
 * bits) or a `chat` line (bit 3 set). */
static void name_or_chat(uint8_t a, proto_msg *msg)
{
	static const char *const names[] = {"", "Ana", "Bo", NULL};

	if (a & 8) {
		msg->type = PROTO_MSG_CHAT;
		snprintf(msg->text, sizeof msg->text, "line %u", a & 7);
		return;
	}
	msg->type = PROTO_MSG_NAME;
	msg->has_name = 1;
	if (names[a & 3])
		snprintf(msg->name, sizeof msg->name, "%s", names[a & 3]);
	else
		for (int i = 0; i < PROTO_NAME_MAX; i++)
			memcpy(msg->name + 2 * i, "\xc3\xa9", 3);
}

/* Reads events from p[0..n) until the input ends. */
static void run(model *m, const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint8_t op = p[i++];
		int kind = op & 0x0f, actor = op >> 4 & 3, fail = (op >> 6) == 3;
		int seat = actor == ACTOR_TURN ? m_turn(m)
		         : actor == ACTOR_SPECTATOR ? RULES_SPECTATOR : actor;
		int nargs = kind == EV_MOVE || kind == EV_MOVE2 ? 2
		          : kind == EV_TICK || kind == EV_WAIT || kind == EV_DRAW ||
		            kind == EV_REMATCH ? 1 : 0;
		const uint8_t *arg = p + i;
		proto_msg msg;

		if (n - i < (size_t)nargs)
			break;
		i += (size_t)nargs;
		if (trace)
			dprintf(STDERR_FILENO, "event %02x: kind %d actor %d%s, ply %d, turn %d, t %lld ms",
			        op, kind, actor, fail ? " store fails" : "", m->nmoves,
			        m_turn(m), (long long)m->now);
		memset(&msg, 0, sizeof msg);
		m->decided = 0;
		switch (kind) {
		case EV_JOIN:
		case EV_JOIN_SOUTH:
		case EV_JOIN_NORTH:
		case EV_JOIN_BAD:
			ev_join(m, kind, fail);
			break;
		case EV_LEAVE_SOUTH:
		case EV_LEAVE_NORTH:
			if (m->present[kind - EV_LEAVE_SOUTH])
				ev_leave(m, kind - EV_LEAVE_SOUTH, fail);
			break;
		case EV_LEAVE_SPECTATOR:
			if (m->spectators)
				ev_leave(m, RULES_SPECTATOR, fail);
			break;
		case EV_TICK:
		case EV_WAIT:
			/* Up to 1.27 s in steps of 10 ms, or up to 127 s. */
			m->now += arg[0] < 0x80 ? arg[0] * 10 : (arg[0] - 0x80) * 1000;
			if (kind == EV_TICK)
				ev_tick(m, fail);
			break;
		default:
			/* Only members act: a seat with a connection, or a spectator. */
			if (seat >= 0 ? !m->present[seat] : !m->spectators)
				break;
			msg.type = kind == EV_MOVE || kind == EV_MOVE2 ? PROTO_MSG_MOVE
			         : kind == EV_RESIGN ? PROTO_MSG_RESIGN
			         : kind == EV_DRAW ? PROTO_MSG_DRAW
			         : kind == EV_ABORT ? PROTO_MSG_ABORT
			         : kind == EV_REMATCH ? PROTO_MSG_REMATCH : PROTO_MSG_CLAIM;
			if (msg.type == PROTO_MSG_MOVE)
				move_args(m, arg[0], arg[1], &msg);
			else if (nargs && arg[0] >= 0xf0)
				name_or_chat(arg[0], &msg);
			else if (nargs)
				msg.action = PROTO_ACT_OFFER + arg[0] % 3;
			ev_act(m, seat, &msg, fail);
		}
		if (trace && !m->decided)
			dprintf(STDERR_FILENO, " -> nothing to decide\n");
		check_room(m);
	}
}

/* The state a client would get: written whole and valid JSON. */
static void check_state_json(const model *m)
{
	proto_state_view v;
	json_t *j;
	jw out;

	rules_view(&m->r, &m->lim, m->now, &v);
	jw_init(&out);
	proto_state_write(&out, &v);
	FUZZ_CHECK(!out.oom);
	j = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, NULL);
	FUZZ_CHECK(j != NULL);
	FUZZ_CHECK_EQ(json_integer_value(json_object_get(j, "version")), (long long)m->r.rec.version);
	FUZZ_CHECK_EQ(json_array_size(json_object_get(j, "moves")), m->nmoves);
	json_decref(j);
	jw_free(&out);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *t = getenv("FUZZ_RULES_TRACE");

	(void)argc;
	(void)argv;
	trace = t && *t && strcmp(t, "0");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	model m;
	proto_msg msg;
	rules_in in;
	rules_out o;
	char text[TOKEN_TEXT];
	uint8_t hash[SHA256_LEN], first = size ? data[0] : 0;

	memset(&m, 0, sizeof m);
	m.lim.abandon_ms = ABANDON_MS;
	m.lim.max_spectators = MAX_SPECTATORS;
	m.now = 1000;
	m.absent = -1;
	m.game_number = 1;
	/* Moves: at most one per input byte. */
	m.moves = malloc(size + 1);
	m.stored_moves = malloc(size + 1);
	FUZZ_CHECK(m.moves && m.stored_moves);
	m.togyz = first >> 7;
	m_start(&m);

	/* The room: created by South, North or at random (first byte), of
	 * kind togyz with its bit 7. */
	memset(&msg, 0, sizeof msg);
	msg.type = PROTO_MSG_CREATE;
	msg.side = (first & 0x7f) % 3;
	snprintf(msg.kind, sizeof msg.kind, "%s", m.togyz ? "togyz" : "oware");
	new_token(&m, text, hash);
	in_init(&m, &in, RULES_SPECTATOR, &msg);
	in.fresh_tok = hash;
	in.coin = first >> 2 & 1;
	FUZZ_CHECK_EQ(rules_create(&m.r, ROOM_ID, &in, &o), 0);
	FUZZ_CHECK(o.error == 0 && o.save == RULES_SAVE && o.joins && o.welcome && o.token);
	FUZZ_CHECK_EQ(o.seat, msg.side == PROTO_SIDE_RANDOM ? in.coin : msg.side);
	FUZZ_CHECK_EQ(o.rec.version, 1);
	m.stored = o.rec;
	m.created = o.rec.created;
	rules_apply(&m.r, &o, m.now);
	memcpy(m.tok[o.seat], text, TOKEN_TEXT);
	m.present[o.seat] = 1;
	check_room(&m);

	if (size)
		run(&m, data + 1, size - 1);
	if (trace)
		dprintf(STDERR_FILENO, "end: game %u, %d moves, end %d reason %d winner %d/%d, version %llu\n",
		        m.game_number, m.nmoves, m_end(&m), m.r.rec.reason, m_winner(&m),
		        m.r.rec.winner, (unsigned long long)m.r.rec.version);
	check_replay(&m, &m.r);
	check_restore(&m);
	check_state_json(&m);
	rules_room_free(&m.r);
	free(m.moves);
	free(m.stored_moves);
	return 0;
}
