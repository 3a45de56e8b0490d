/* rules.c: the rules of a room (PROTOCOL.md's actions) as pure decisions:
 * each decide function reads the room and fills an outcome; only
 * rules_apply changes the room. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/game.h"
#include "server/rules/rules.h"

int rules_over(const rules_room *r)
{
	return r->rec.reason != 0 || r->k->end(&r->play) != OW_END_NONE;
}

int rules_turn(const rules_room *r)
{
	return r->k->turn(&r->play);
}

int rules_end_reason(const rules_room *r, int *winner)
{
	*winner = r->rec.reason == PROTO_END_ABORTED ? OW_NOBODY
	        : r->rec.reason ? r->rec.winner : r->k->winner(&r->play);
	return r->rec.reason ? r->rec.reason : r->k->end(&r->play);
}

static void out_init(const rules_room *r, rules_out *o)
{
	memset(o, 0, offsetof(rules_out, play));
	o->pit = -1;
	o->seat = RULES_SPECTATOR;
	if (r)
		o->rec = r->rec;
}

static void fail(rules_out *o, int code, const char *why)
{
	o->error = code;
	snprintf(o->why, sizeof o->why, "%s", why);
}

/* The record becomes the room's next version, stamped now. */
static void save(const rules_room *r, const rules_in *in, rules_out *o, int what)
{
	o->save = what;
	o->rec.version = r->rec.version + 1;
	o->rec.updated = in->wall;
	o->broadcast = 1;
}

/* A change of presence only: the version and time change, and it is shown
 * even when it cannot be saved. */
static void touch(const rules_room *r, const rules_in *in, rules_out *o)
{
	save(r, in, o, RULES_SAVE);
	o->presence = 1;
}

static int64_t claim_left(const rules_room *r, const rules_limits *lim, int64_t now)
{
	int64_t left;

	if (r->absent_side < 0)
		return -1;
	left = r->absent_since + lim->abandon_ms - now;
	return left < 0 ? 0 : left;
}

/* ---- clocks ---- */

int rules_clock_running(const rules_room *r)
{
	return r->rec.clock_kind != PROTO_CLOCK_NONE && r->nmoves >= 2 && !rules_over(r);
}

/* Time the running side has used on its turn by now (0 during a grace). */
static int64_t clock_used(const rules_room *r, int64_t now)
{
	return now > r->clock_since ? now - r->clock_since : 0;
}

/* What the running side has left at now (0 when it is up). */
static int64_t clock_remaining(const rules_room *r, int64_t now)
{
	int64_t left = r->rec.clock_left[rules_turn(r)] - clock_used(r, now);

	return left > 0 ? left : 0;
}

/* When the game is lost on time: the running side's zero, plus the most
 * lag a move in flight may still be credited. */
static int64_t flag_time(const rules_room *r)
{
	return r->clock_since + r->rec.clock_left[rules_turn(r)] + RULES_LAG_CREDIT_MAX_MS;
}

int64_t rules_deadline(const rules_room *r, const rules_limits *lim)
{
	int64_t d = -1;

	if (r->absent_side >= 0 && !r->claim_shown)
		d = r->absent_since + lim->abandon_ms;
	if (rules_clock_running(r) && (d < 0 || flag_time(r) < d))
		d = flag_time(r);
	return d;
}

/* ---- rooms made and restored ---- */

/* r's game at its start: the room's position, or the standard start. */
static void game_begin(rules_room *r)
{
	r->k->begin(&r->play, r->rec.has_start ? &r->rec.start : NULL);
}

int rules_create(rules_room *r, const char *id, const rules_in *in, rules_out *out)
{
	const proto_msg *m = in->msg;
	int side = m->side == PROTO_SIDE_RANDOM ? (in->coin & 1) : m->side;

	memset(r, 0, sizeof *r);
	r->k = proto_kind_find(m->kind);
	if (!r->k)
		return -1; /* proto_msg_parse let no such kind through */
	snprintf(r->rec.id, sizeof r->rec.id, "%s", id);
	snprintf(r->rec.kind, sizeof r->rec.kind, "%s", m->kind);
	r->rec.created = r->rec.updated = in->wall;
	r->rec.game_number = 1;
	r->rec.version = 1;
	r->rec.winner = OW_NOBODY;
	r->rec.draw_offer = r->rec.rematch_offer = -1;
	r->rec.has_tok[side] = 1;
	memcpy(r->rec.tok[side], in->fresh_tok, SHA256_LEN);
	r->rec.clock_kind = m->clock_kind;
	for (int s = 0; s < 2; s++) {
		int64_t day = in->lim->day_ms > 0 ? in->lim->day_ms : 86400000;

		r->rec.clock_initial[s] = m->clock_kind == PROTO_CLOCK_CORRESPONDENCE
		                        ? m->clock_days * day
		                        : m->clock_kind ? (int64_t)m->clock_initial[s] * 1000 : 0;
		r->rec.clock_left[s] = r->rec.clock_initial[s];
	}
	if (m->clock_kind == PROTO_CLOCK_CORRESPONDENCE)
		r->rec.clock_days = m->clock_days;
	else if (m->clock_kind)
		r->rec.clock_increment = (int64_t)m->clock_increment * 1000;
	if (m->has_name)
		snprintf(r->rec.name[side], sizeof r->rec.name[side], "%s", m->name);
	if (m->has_position) {
		r->rec.has_start = 1;
		r->rec.start = m->position;
	}
	r->absent_side = -1;
	game_begin(r);
	out_init(r, out);
	out->save = RULES_SAVE;
	out->seat = side;
	out->joins = 1;
	out->welcome = out->token = 1;
	out->resync = 1;
	return 0;
}

/* Absence on turn is counted only without a clock: with one, the
 * absent player's clock runs instead. */
static void update_absence(rules_room *r, int64_t now)
{
	int turn = rules_turn(r);
	int absent = !rules_over(r) && r->rec.has_tok[0] && r->rec.has_tok[1] &&
	             !r->rec.clock_kind && !r->present[turn] ? turn : -1;

	if (absent == r->absent_side)
		return;
	r->absent_side = absent;
	r->absent_since = now;
	r->claim_shown = 0;
}

int rules_restore(rules_room *r, const room_rec *rec, const uint8_t *pits, int n, int64_t now,
                  int *bad_ply)
{
	int bad = -1;

	memset(r, 0, sizeof *r);
	r->k = proto_kind_find(rec->kind);
	if (!r->k)
		return RULES_E_KIND;
	r->rec = *rec;
	r->absent_side = -1;
	game_begin(r);
	if (n > 0) {
		r->moves = malloc((size_t)n);
		if (!r->moves)
			return RULES_E_NOMEM;
		r->capmoves = n;
	}
	for (int i = 0; i < n; i++) {
		if (r->k->play(&r->play, pits[i])) {
			bad = i;
			break;
		}
		r->moves[r->nmoves++] = pits[i];
		r->has_last = 1;
	}
	/* Everyone is disconnected after a restart: a change of presence. The
	 * clocks resume from their stored times (the time the server was down
	 * is nobody's) after a grace for the side to move to come back. */
	r->rec.version++;
	r->clock_since = now + RULES_RESTORE_GRACE_MS;
	update_absence(r, now);
	if (bad_ply)
		*bad_ply = bad;
	return 0;
}

void rules_room_free(rules_room *r)
{
	free(r->moves);
	r->moves = NULL;
	r->nmoves = r->capmoves = 0;
}

int rules_reserve(rules_room *r)
{
	if (r->nmoves == r->capmoves) {
		int cap = r->capmoves ? r->capmoves * 2 : 64;
		uint8_t *p = realloc(r->moves, (size_t)cap);

		if (!p)
			return -1;
		r->moves = p;
		r->capmoves = cap;
	}
	return 0;
}

/* ---- joining and leaving ---- */

/* Both seats are compared every time so the timing says nothing. */
int rules_token_seat(const rules_room *r, const char *token)
{
	uint8_t h[SHA256_LEN];
	int seat = -1;

	sha256(token, strlen(token), h);
	for (int s = 0; s < 2; s++) {
		int eq = sha256_equal(h, r->rec.tok[s], SHA256_LEN);

		if (eq && r->rec.has_tok[s])
			seat = s;
	}
	return seat;
}

void rules_join(const rules_room *r, const rules_in *in, rules_out *o)
{
	const proto_msg *m = in->msg;
	int seat;

	out_init(r, o);
	if (m->token[0]) {
		seat = rules_token_seat(r, m->token);
		if (seat < 0) {
			fail(o, PROTO_E_BAD_TOKEN, "that token holds no seat in this room");
			return;
		}
		o->replace = r->present[seat];
		touch(r, in, o);
	} else {
		/* A game that is over seats nobody new: a newcomer watches it. */
		seat = rules_over(r) ? RULES_SPECTATOR
		     : !r->rec.has_tok[OW_SOUTH] ? OW_SOUTH
		     : !r->rec.has_tok[OW_NORTH] ? OW_NORTH : RULES_SPECTATOR;
		if (seat >= 0) {
			o->rec.has_tok[seat] = 1;
			memcpy(o->rec.tok[seat], in->fresh_tok, SHA256_LEN);
			o->token = 1;
			save(r, in, o, RULES_SAVE);
		} else if (r->spectators >= in->lim->max_spectators) {
			fail(o, PROTO_E_TOO_MANY_SPECTATORS, "the room has its maximum of spectators");
			return;
		}
		/* A spectator changes only the count of spectators: no version,
		 * nothing saved (the caller sends the count on, coalesced). */
	}
	/* A player's join may name the seat (saved with it); a spectator's
	 * name stays with its connection (the caller's). */
	if (seat >= 0 && m->has_name)
		snprintf(o->rec.name[seat], sizeof o->rec.name[seat], "%s", m->name);
	o->seat = seat;
	o->joins = 1;
	o->welcome = 1;
}

void rules_leave(const rules_room *r, const rules_in *in, rules_out *o)
{
	out_init(r, o);
	o->seat = in->seat;
	o->leaves = 1;
	if (in->seat >= 0)
		touch(r, in, o);
}

/* Ends the game for a room-level reason. */
static void end_game(const rules_room *r, const rules_in *in, rules_out *o, int reason, int winner);

void rules_tick(const rules_room *r, const rules_in *in, rules_out *o)
{
	out_init(r, o);
	if (rules_clock_running(r) && in->now >= flag_time(r)) {
		end_game(r, in, o, PROTO_END_TIMEOUT, !rules_turn(r));
		o->rec.clock_left[rules_turn(r)] = 0;
		return;
	}
	if (r->absent_side < 0 || r->claim_shown || claim_left(r, in->lim, in->now) > 0)
		return;
	/* The seat just became claimable: a change everyone should see. */
	touch(r, in, o);
	o->claimable = 1;
}

/* ---- game actions ---- */

/* A move whose ply is not the number of moves played: a resend of the
 * move recorded at that ply by the same player gets the state alone. */
static void stale_move(const rules_room *r, const rules_in *in, rules_out *o, int pit)
{
	const proto_msg *m = in->msg;

	/* A pit names its mover (a..f South's, A..F North's; a Togyz hole
	 * number is one of the sender's row), whoever started. */
	o->resync = 1;
	if (m->ply < r->nmoves && r->moves[m->ply] == pit && r->k->pit_side(pit) == in->seat)
		return;
	fail(o, PROTO_E_STALE_PLY, "ply is not the number of moves played");
}

static void do_move(const rules_room *r, const rules_in *in, rules_out *o)
{
	const proto_msg *m = in->msg;
	int me = in->seat, rc, pit;
	char name[4];

	/* The form of the move is the kind's: a wrong one is refused first. */
	pit = r->k->move_pit(m->pit, m->hole, me, o->why, sizeof o->why);
	if (pit < 0) {
		o->error = PROTO_E_BAD_MESSAGE;
		return;
	}
	if (m->ply != r->nmoves) {
		stale_move(r, in, o, pit);
		return;
	}
	if (rules_over(r)) {
		fail(o, PROTO_E_GAME_OVER, "the game is over");
		return;
	}
	if (!r->rec.has_tok[!me]) {
		fail(o, PROTO_E_OPPONENT_MISSING, "wait for your opponent to join");
		return;
	}
	if (rules_turn(r) != me) {
		snprintf(o->why, sizeof o->why, "it is %s's turn", proto_side_name(rules_turn(r)));
		o->error = PROTO_E_NOT_YOUR_TURN;
		return;
	}
	if (rules_clock_running(r)) {
		/* The move took used ms on the server's clock; up to the mover's
		 * measured round trip of that was the network's, never more than
		 * the bound nor than the whole time. */
		int64_t used = clock_used(r, in->now);
		int64_t credit = in->lag < RULES_LAG_CREDIT_MAX_MS ? in->lag : RULES_LAG_CREDIT_MAX_MS;
		int64_t left;

		if (credit > used)
			credit = used;
		if (credit < 0)
			credit = 0;
		left = r->rec.clock_left[me] - (used - credit);
		if (left <= 0) {
			fail(o, PROTO_E_GAME_OVER, "your time is up");
			return;
		}
		o->rec.clock_left[me] = r->rec.clock_kind == PROTO_CLOCK_CORRESPONDENCE
		                      ? r->rec.clock_initial[me] : left + r->rec.clock_increment;
	}
	o->play = r->play;
	rc = r->k->play(&o->play, pit);
	if (rc) {
		r->k->move_name(pit, name);
		snprintf(o->why, sizeof o->why, "pit %s: %s", name, r->k->strerror(rc));
		o->error = PROTO_E_ILLEGAL_MOVE;
		return;
	}
	o->ended = r->k->end(&o->play) != OW_END_NONE;
	if (o->rec.draw_offer == !me || o->ended)
		o->rec.draw_offer = -1; /* moving declines the opponent's draw offer */
	o->pit = pit;
	save(r, in, o, RULES_SAVE_MOVES);
}

/* Common checks of resign, draw, abort and claim: 0 to go on, -1 after an
 * error. */
static int check_game_on(const rules_room *r, const rules_in *in, rules_out *o, int need_opponent)
{
	if (rules_over(r)) {
		fail(o, PROTO_E_GAME_OVER, "the game is over");
		return -1;
	}
	if (need_opponent && !r->rec.has_tok[!in->seat]) {
		fail(o, PROTO_E_OPPONENT_MISSING, "wait for your opponent to join");
		return -1;
	}
	return 0;
}

/* Ends the game for a room-level reason; a running clock stops where it
 * is. */
static void end_game(const rules_room *r, const rules_in *in, rules_out *o, int reason, int winner)
{
	if (rules_clock_running(r))
		o->rec.clock_left[rules_turn(r)] = clock_remaining(r, in->now);
	o->rec.reason = reason;
	o->rec.winner = winner;
	o->rec.draw_offer = -1;
	o->ended = 1;
	save(r, in, o, RULES_SAVE);
}

/* Outcomes of one step on a pending offer slot (draw or rematch). */
enum { OFFER_ERROR = -3, OFFER_ACCEPTED = -2 };

/* An offer/accept/decline on one offer slot: the slot's new value (a side
 * or -1), OFFER_ACCEPTED, or OFFER_ERROR with the error in o. */
static int offer_step(const rules_in *in, rules_out *o, int pending)
{
	int me = in->seat;

	if (in->msg->action == PROTO_ACT_OFFER) {
		if (pending == me) {
			fail(o, PROTO_E_OFFER_PENDING, "your offer is already pending");
			return OFFER_ERROR;
		}
		return pending == !me ? OFFER_ACCEPTED : me;
	}
	if (pending != !me) {
		fail(o, PROTO_E_NO_OFFER, "no offer from your opponent is pending");
		return OFFER_ERROR;
	}
	return in->msg->action == PROTO_ACT_ACCEPT ? OFFER_ACCEPTED : -1;
}

static void do_draw(const rules_room *r, const rules_in *in, rules_out *o)
{
	int v;

	if (check_game_on(r, in, o, 1) < 0)
		return;
	v = offer_step(in, o, r->rec.draw_offer);
	if (v == OFFER_ERROR)
		return;
	if (v == OFFER_ACCEPTED) {
		end_game(r, in, o, PROTO_END_AGREEMENT, OW_DRAW);
		return;
	}
	o->rec.draw_offer = v;
	save(r, in, o, RULES_SAVE);
}

/* An accepted rematch: a new game, sides swapped (each token now holds
 * the other seat). */
static void new_game(const rules_room *r, const rules_in *in, rules_out *o)
{
	memcpy(o->rec.tok[0], r->rec.tok[1], SHA256_LEN);
	memcpy(o->rec.tok[1], r->rec.tok[0], SHA256_LEN);
	o->rec.has_tok[0] = r->rec.has_tok[1];
	o->rec.has_tok[1] = r->rec.has_tok[0];
	/* Names follow their players (their tokens). */
	memcpy(o->rec.name[0], r->rec.name[1], sizeof o->rec.name[0]);
	memcpy(o->rec.name[1], r->rec.name[0], sizeof o->rec.name[1]);
	o->rec.game_number++;
	o->rec.reason = 0;
	o->rec.winner = OW_NOBODY;
	o->rec.draw_offer = o->rec.rematch_offer = -1;
	/* The time control stays; time odds follow the players to their new
	 * sides. */
	o->rec.clock_initial[0] = r->rec.clock_initial[1];
	o->rec.clock_initial[1] = r->rec.clock_initial[0];
	o->rec.clock_left[0] = o->rec.clock_initial[0];
	o->rec.clock_left[1] = o->rec.clock_initial[1];
	o->new_game = 1;
	save(r, in, o, RULES_SAVE_MOVES);
}

static void do_rematch(const rules_room *r, const rules_in *in, rules_out *o)
{
	int v;

	if (!rules_over(r)) {
		fail(o, PROTO_E_GAME_NOT_OVER, "the game is still on");
		return;
	}
	if (r->rec.event[0]) {
		fail(o, PROTO_E_EVENT_GAME, "an event's game has no rematch");
		return;
	}
	if (!r->rec.has_tok[!in->seat]) {
		fail(o, PROTO_E_OPPONENT_MISSING, "no opponent to play again");
		return;
	}
	v = offer_step(in, o, r->rec.rematch_offer);
	if (v == OFFER_ERROR)
		return;
	if (v == OFFER_ACCEPTED) {
		new_game(r, in, o);
		return;
	}
	o->rec.rematch_offer = v;
	save(r, in, o, RULES_SAVE);
}

void rules_act(const rules_room *r, const rules_in *in, rules_out *o)
{
	out_init(r, o);
	if (in->seat < 0) {
		fail(o, PROTO_E_NOT_A_PLAYER, "spectators cannot act");
		return;
	}
	switch (in->msg->type) {
	case PROTO_MSG_MOVE:
		do_move(r, in, o);
		break;
	case PROTO_MSG_RESIGN:
		if (check_game_on(r, in, o, 1) == 0)
			end_game(r, in, o, PROTO_END_RESIGN, !in->seat);
		break;
	case PROTO_MSG_DRAW:
		do_draw(r, in, o);
		break;
	case PROTO_MSG_ABORT:
		if (check_game_on(r, in, o, 0) < 0)
			break;
		if (r->rec.event[0])
			fail(o, PROTO_E_EVENT_GAME, "an event's game cannot be aborted: play it, resign,"
			     " or ask the organiser to record a forfeit");
		else if (r->nmoves >= 2)
			fail(o, PROTO_E_CANNOT_ABORT, "both players have moved");
		else
			end_game(r, in, o, PROTO_END_ABORTED, in->seat); /* kept as aborted_by */
		break;
	case PROTO_MSG_REMATCH:
		do_rematch(r, in, o);
		break;
	case PROTO_MSG_NAME:
		/* Any time, game on or over: the seat's name (or none). */
		snprintf(o->rec.name[in->seat], sizeof o->rec.name[in->seat], "%s", in->msg->name);
		save(r, in, o, RULES_SAVE);
		break;
	case PROTO_MSG_CHAT:
		/* Players only: the caller limits the rate, stores and sends it. */
		o->chat = 1;
		break;
	case PROTO_MSG_CLAIM:
		if (check_game_on(r, in, o, 0) < 0)
			break;
		if (r->rec.clock_kind)
			fail(o, PROTO_E_CANNOT_CLAIM, "the clock decides a game that has one");
		else if (r->absent_side != !in->seat || claim_left(r, in->lim, in->now) > 0)
			fail(o, PROTO_E_CANNOT_CLAIM,
			     "your opponent is connected, not on turn, or not gone long enough");
		else
			end_game(r, in, o, PROTO_END_ABANDONED, in->seat);
		break;
	default:
		fail(o, PROTO_E_BAD_MESSAGE, "not an action on a room");
	}
}

void rules_end_by_organiser(const rules_room *r, const rules_in *in, int winner, rules_out *o)
{
	out_init(r, o);
	if (rules_over(r)) {
		fail(o, PROTO_E_GAME_OVER, "the game is over");
		return;
	}
	end_game(r, in, o, PROTO_END_ORGANISER, winner);
}

/* ---- applying an outcome ---- */

void rules_apply(rules_room *r, const rules_out *o, int64_t now)
{
	if (o->error)
		return;
	if (o->save)
		r->rec = o->rec;
	if (o->pit >= 0) {
		r->clock_since = now; /* the next mover's turn starts */
		r->moves[r->nmoves++] = (uint8_t)o->pit;
		r->play = o->play;
		r->has_last = 1;
	}
	if (o->new_game) {
		int p = r->present[0];

		game_begin(r);
		r->nmoves = 0;
		r->has_last = 0;
		r->present[0] = r->present[1];
		r->present[1] = p;
	}
	/* The side to move is back after a restart: its grace ends. */
	if (o->joins && o->seat >= 0 && o->seat == rules_turn(r) && r->clock_since > now)
		r->clock_since = now;
	if (o->joins && !o->replace) {
		if (o->seat >= 0)
			r->present[o->seat] = 1;
		else
			r->spectators++;
	}
	if (o->leaves) {
		if (o->seat >= 0)
			r->present[o->seat] = 0;
		else if (r->spectators)
			r->spectators--;
	}
	if (o->claimable)
		r->claim_shown = 1;
	update_absence(r, now);
}

void rules_view(const rules_room *r, const rules_limits *lim, int64_t now, proto_state_view *v)
{
	int64_t left = claim_left(r, lim, now);

	memset(v, 0, sizeof *v);
	v->room = r->rec.id;
	v->kind = r->rec.kind;
	v->version = r->rec.version;
	v->game_number = r->rec.game_number;
	v->k = r->k;
	v->play = &r->play;
	v->has_last = r->has_last;
	v->reason = r->rec.reason;
	v->winner = r->rec.reason == PROTO_END_ABORTED ? OW_NOBODY : r->rec.winner;
	v->aborted_by = r->rec.reason == PROTO_END_ABORTED ? r->rec.winner : -1;
	v->moves = r->moves;
	v->nmoves = r->nmoves;
	for (int s = 0; s < 2; s++) {
		v->seats[s].taken = r->rec.has_tok[s];
		v->seats[s].connected = r->present[s];
		v->seats[s].claimable = r->absent_side == s && left == 0;
	}
	v->spectators = r->spectators;
	v->draw_offer = r->rec.draw_offer;
	v->rematch_offer = r->rec.rematch_offer;
	v->abandon_seconds = (unsigned)(lim->abandon_ms / 1000);
	v->claim_in = left > 0 ? (long)((left + 999) / 1000) : -1;
	v->clock.kind = r->rec.clock_kind;
	v->clock.running = -1;
	for (int s = 0; s < 2; s++) {
		v->clock.left[s] = r->rec.clock_left[s];
		v->clock.initial[s] = r->rec.clock_initial[s];
	}
	v->clock.increment = r->rec.clock_increment;
	v->clock.days = r->rec.clock_days;
	if (rules_clock_running(r)) {
		v->clock.running = rules_turn(r);
		v->clock.left[rules_turn(r)] = clock_remaining(r, now);
		v->clock.grace = r->clock_since > now ? r->clock_since - now : 0;
	}
	for (int s = 0; s < 2; s++)
		v->names[s] = r->rec.name[s][0] ? r->rec.name[s] : NULL;
	v->start = r->rec.has_start ? &r->rec.start : NULL;
	v->event = r->rec.event[0] ? r->rec.event : NULL;
}
