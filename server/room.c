/* room.c: the rooms: table by id, actions, persistence, broadcast, timers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <uuid/uuid.h>

#include "protocol/game.h"
#include "server/iptable.h"
#include "server/log.h"
#include "server/room.h"
#include "server/sha256.h"

#define TOKEN_BYTES 32 /* 256 random bits */

static room **table;
static unsigned nbuckets;
static int nrooms;

static unsigned id_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & (nbuckets - 1);
}

int room_init(int max)
{
	(void)max; /* the table grows with the rooms instead (grow()) */
	nbuckets = 1024;
	table = calloc(nbuckets, sizeof *table);
	return table ? 0 : -1;
}

/* Doubles the buckets once there are more rooms than buckets, so chains
 * stay short and memory follows the rooms actually held. On allocation
 * failure the table keeps its size (longer chains, still correct). */
static void grow(void)
{
	unsigned old = nbuckets;
	room **t = calloc((size_t)old * 2, sizeof *t);

	if (!t)
		return;
	nbuckets = old * 2;
	for (unsigned b = 0; b < old; b++)
		while (table[b]) {
			room *r = table[b];
			unsigned nb = id_hash(r->rec.id);

			table[b] = r->hnext;
			r->hnext = t[nb];
			t[nb] = r;
		}
	free(table);
	table = t;
}

int room_count(void)
{
	return nrooms;
}

static room *find(const char *id)
{
	for (room *r = table[id_hash(id)]; r; r = r->hnext)
		if (!strcmp(r->rec.id, id))
			return r;
	return NULL;
}

static void insert(room *r)
{
	unsigned b;

	if ((unsigned)nrooms >= nbuckets && nbuckets < (1u << 24))
		grow();
	b = id_hash(r->rec.id);

	r->hnext = table[b];
	table[b] = r;
	nrooms++;
}

/* The one teardown of a room: out of the table, timer cancelled, freed.
 * Connections still in it are detached. */
static void room_free(room *r)
{
	room **pp = &table[id_hash(r->rec.id)];

	while (*pp && *pp != r)
		pp = &(*pp)->hnext;
	if (*pp) {
		*pp = r->hnext;
		nrooms--;
	}
	for (conn *c = r->conns; c; c = c->next)
		c->room = NULL;
	lws_sul_cancel(&r->sul);
	free(r->moves);
	free(r);
}

void room_free_all(void)
{
	for (unsigned b = 0; table && b < nbuckets; b++)
		while (table[b])
			room_free(table[b]);
	free(table);
	table = NULL;
}

static int is_over(const room *r)
{
	return r->rec.reason != 0 || r->game.end != OW_END_NONE;
}

/* 1 when both players have moved (abort is then refused). */
static int both_moved(const room *r)
{
	return r->nmoves >= 2;
}

/* A room from the store, or a fresh one when pits is NULL. */
static room *room_new(const store_room *rec)
{
	room *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->rec = *rec;
	r->absent_side = -1;
	ow_game_start(&r->game);
	return r;
}

/* Appends pit to r's move list; 0 or -1 when out of memory. */
static int push_move(room *r, int pit)
{
	if (r->nmoves == r->capmoves) {
		int cap = r->capmoves ? r->capmoves * 2 : 64;
		uint8_t *p = realloc(r->moves, (size_t)cap);

		if (!p)
			return -1;
		r->moves = p;
		r->capmoves = cap;
	}
	r->moves[r->nmoves++] = (uint8_t)pit;
	return 0;
}

/* ---- state and broadcast ---- */

static long claim_remaining_ms(const room *r)
{
	long left;

	if (r->absent_side < 0)
		return -1;
	left = (long)(r->absent_since + (int64_t)srv.cfg.abandon_seconds * 1000 - now_ms());
	return left < 0 ? 0 : left;
}

/* r's `state`, written into the message writer. */
static const jw *state_text(const room *r)
{
	proto_state_view v;
	long left = claim_remaining_ms(r);
	jw *w = msg_begin();

	memset(&v, 0, sizeof v);
	v.room = r->rec.id;
	v.kind = r->rec.kind;
	v.version = r->rec.version;
	v.game_number = r->rec.game_number;
	v.game = &r->game;
	v.reason = r->rec.reason;
	v.winner = r->rec.winner;
	v.moves = r->moves;
	v.nmoves = r->nmoves;
	v.last = r->has_last ? &r->last : NULL;
	for (int s = 0; s < 2; s++) {
		v.seats[s].taken = r->rec.has_tok[s];
		v.seats[s].connected = r->seat_conn[s] != NULL;
		v.seats[s].claimable = r->absent_side == s && left == 0;
	}
	v.spectators = r->nspect;
	v.draw_offer = r->rec.draw_offer;
	v.rematch_offer = r->rec.rematch_offer;
	v.abandon_seconds = (unsigned)srv.cfg.abandon_seconds;
	v.claim_in = left > 0 ? (left + 999) / 1000 : -1;
	proto_state_write(w, &v);
	return w;
}

static void send_state(conn *c, const room *r)
{
	conn_send(c, state_text(r));
}

static void broadcast(room *r)
{
	msgbuf *b = msgbuf_from(state_text(r));

	if (!b) {
		log_event(LOG_ERROR, "broadcast_failed", "room=%s error=\"out of memory\"", r->rec.id);
		return;
	}
	for (conn *c = r->conns, *next; c; c = next) {
		next = c->next;
		conn_send_buf(c, b);
	}
	msgbuf_put(b);
}

static void send_welcome(conn *c, const room *r, int seat, const char *token)
{
	jw *w = msg_begin();

	proto_welcome_write(w, r->rec.id, r->rec.kind, seat, token);
	conn_send(c, w);
}

/* ---- abandonment ---- */

static void absence_fired(lws_sorted_usec_list_t *sul)
{
	room *r = lws_container_of(sul, room, sul);

	if (r->absent_side < 0 || srv.stopping)
		return;
	if (claim_remaining_ms(r) > 0) {
		lws_sul_schedule(srv.ctx, 0, &r->sul, absence_fired,
		                 (lws_usec_t)claim_remaining_ms(r) * 1000);
		return;
	}
	/* The seat just became claimable: a change everyone should see. */
	r->rec.version++;
	store_room_update(srv.st, &r->rec);
	log_event(LOG_INFO, "seat_claimable", "room=%s side=%s", r->rec.id,
	          proto_side_name(r->absent_side));
	broadcast(r);
}

/* Recomputes who is absent on turn after any change, and its timer. */
static void update_absence(room *r)
{
	int turn = r->game.pos.turn;
	int absent = !is_over(r) && r->rec.has_tok[0] && r->rec.has_tok[1] &&
	             !r->seat_conn[turn] ? turn : -1;

	if (absent == r->absent_side)
		return;
	r->absent_side = absent;
	lws_sul_cancel(&r->sul);
	if (absent >= 0 && !srv.stopping) {
		r->absent_since = now_ms();
		lws_sul_schedule(srv.ctx, 0, &r->sul, absence_fired,
		                 (lws_usec_t)srv.cfg.abandon_seconds * 1000000);
	}
}

/* ---- commits ---- */

/* Saves rec as r's new record (version bumped, time stamped): 0, or -1
 * after an `internal` error to c with r unchanged. */
static int commit(room *r, store_room *rec, conn *c)
{
	rec->version = r->rec.version + 1;
	rec->updated = (int64_t)time(NULL);
	if (store_room_update(srv.st, rec) < 0) {
		if (c)
			conn_error(c, PROTO_E_INTERNAL, "the store failed; nothing changed");
		return -1;
	}
	r->rec = *rec;
	return 0;
}

/* A change that only the store's version and time need to remember
 * (presence, spectators). Broadcasts it. */
static void touch(room *r)
{
	store_room rec = r->rec;

	if (commit(r, &rec, NULL) < 0) /* still show it: presence is not stored */
		r->rec.version++;
	update_absence(r);
	broadcast(r);
}

static void game_end_log(const room *r)
{
	int reason = r->rec.reason ? r->rec.reason : r->game.end;
	int winner = r->rec.reason ? r->rec.winner : r->game.winner;
	const char *w = proto_winner_name(winner);

	srv.stats.games_ended++;
	log_event(LOG_INFO, "game_ended", "room=%s game=%u reason=%s winner=%s plies=%d",
	          r->rec.id, r->rec.game_number, proto_reason_name(reason),
	          w ? w : "none", r->nmoves);
}

/* ---- connections in rooms ---- */

static void attach(room *r, conn *c, int seat)
{
	c->room = r;
	c->seat = seat;
	c->prev = NULL;
	c->next = r->conns;
	if (r->conns)
		r->conns->prev = c;
	r->conns = c;
	if (seat >= 0)
		r->seat_conn[seat] = c;
	else
		r->nspect++;
}

static void detach(conn *c)
{
	room *r = c->room;

	if (!r)
		return;
	if (c->prev)
		c->prev->next = c->next;
	else
		r->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	if (c->seat >= 0) {
		if (r->seat_conn[c->seat] == c)
			r->seat_conn[c->seat] = NULL;
	} else if (r->nspect)
		r->nspect--;
	c->room = NULL;
	c->next = c->prev = NULL;
}

void room_leave(conn *c)
{
	room *r = c->room;
	int was_seat = c->seat;

	if (!r)
		return;
	detach(c);
	if (srv.stopping)
		return;
	log_event(LOG_INFO, was_seat >= 0 ? "player_left" : "spectator_left",
	          "room=%s side=%s addr=%s", r->rec.id,
	          was_seat >= 0 ? proto_side_name(was_seat) : "spectator", c->addr);
	touch(r);
}

/* ---- tokens ---- */

static void token_new(char out[64], uint8_t hash[SHA256_LEN])
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t raw[TOKEN_BYTES + 1];
	size_t got = 0;
	int n = 0;

	while (got < TOKEN_BYTES) {
		ssize_t k = getrandom(raw + got, TOKEN_BYTES - got, 0);

		if (k > 0)
			got += (size_t)k;
	}
	raw[TOKEN_BYTES] = 0;
	/* base64url without padding: 43 characters for 32 bytes */
	for (int i = 0; i < TOKEN_BYTES; i += 3) {
		uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 |
		             (i + 2 < TOKEN_BYTES ? raw[i + 2] : 0);

		out[n++] = b64[v >> 18 & 63];
		out[n++] = b64[v >> 12 & 63];
		if (i + 1 < TOKEN_BYTES)
			out[n++] = b64[v >> 6 & 63];
		if (i + 2 < TOKEN_BYTES)
			out[n++] = b64[v & 63];
	}
	out[n] = 0;
	sha256(out, (size_t)n, hash);
}

/* The seat whose token hashes like token, or -1; both seats are compared
 * every time so the timing says nothing. */
static int token_seat(const room *r, const char *token)
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

/* ---- actions ---- */

static void do_create(conn *c, const proto_msg *m)
{
	store_room rec;
	uuid_t u;
	char token[64];
	int side = m->side;
	room *r;

	if (room_count() >= srv.cfg.max_rooms) {
		conn_error(c, PROTO_E_TOO_MANY_ROOMS, "the server holds its maximum of rooms");
		return;
	}
	if (c->ip && ip_room_allow(c->ip, now_ms(), srv.cfg.rooms_per_ip_per_min) < 0) {
		conn_error(c, PROTO_E_RATE_LIMITED, "too many rooms created from this address; wait a minute");
		return;
	}
	if (side == PROTO_SIDE_RANDOM) {
		uint8_t bit = 0;

		if (getrandom(&bit, 1, 0) != 1)
			bit = (uint8_t)now_ms();
		side = bit & 1;
	}
	memset(&rec, 0, sizeof rec);
	uuid_generate_random(u);
	uuid_unparse_lower(u, rec.id);
	snprintf(rec.kind, sizeof rec.kind, "%s", m->kind);
	rec.created = rec.updated = (int64_t)time(NULL);
	rec.game_number = 1;
	rec.version = 1;
	rec.winner = OW_NOBODY;
	rec.draw_offer = rec.rematch_offer = -1;
	rec.has_tok[side] = 1;
	token_new(token, rec.tok[side]);
	r = room_new(&rec);
	if (!r || store_room_insert(srv.st, &rec) < 0) {
		free(r);
		conn_error(c, PROTO_E_INTERNAL, "could not create the room");
		return;
	}
	insert(r);
	attach(r, c, side);
	srv.stats.rooms_created++;
	log_event(LOG_INFO, "room_created", "room=%s kind=%s side=%s addr=%s",
	          rec.id, rec.kind, proto_side_name(side), c->addr);
	send_welcome(c, r, side, token);
	send_state(c, r);
}

static void do_join(conn *c, const proto_msg *m)
{
	room *r = find(m->room);
	store_room rec;
	char token[64];
	int seat;

	if (!r) {
		conn_error(c, PROTO_E_NO_ROOM, "no room has that id (or it expired)");
		return;
	}
	if (m->token[0]) {
		seat = token_seat(r, m->token);
		if (seat < 0) {
			conn_error(c, PROTO_E_BAD_TOKEN, "that token holds no seat in this room");
			return;
		}
		if (r->seat_conn[seat]) {
			conn *old = r->seat_conn[seat];

			detach(old);
			conn_error(old, PROTO_E_REPLACED, "another connection took this seat");
			conn_close(old, 4001, "replaced");
			log_event(LOG_INFO, "seat_replaced", "room=%s side=%s addr=%s", r->rec.id,
			          proto_side_name(seat), c->addr);
		}
		attach(r, c, seat);
		srv.stats.joins++;
		log_event(LOG_INFO, "seat_reclaimed", "room=%s side=%s addr=%s", r->rec.id,
		          proto_side_name(seat), c->addr);
		send_welcome(c, r, seat, NULL);
		touch(r);
		return;
	}
	seat = !r->rec.has_tok[OW_SOUTH] ? OW_SOUTH : !r->rec.has_tok[OW_NORTH] ? OW_NORTH : -1;
	if (seat >= 0) {
		rec = r->rec;
		rec.has_tok[seat] = 1;
		token_new(token, rec.tok[seat]);
		if (commit(r, &rec, c) < 0)
			return;
		attach(r, c, seat);
		srv.stats.joins++;
		log_event(LOG_INFO, "player_joined", "room=%s side=%s addr=%s", r->rec.id,
		          proto_side_name(seat), c->addr);
		send_welcome(c, r, seat, token);
		update_absence(r);
		broadcast(r);
		return;
	}
	if (r->nspect >= (unsigned)srv.cfg.max_spectators) {
		conn_error(c, PROTO_E_TOO_MANY_SPECTATORS, "the room has its maximum of spectators");
		return;
	}
	attach(r, c, -1);
	srv.stats.joins++;
	log_event(LOG_INFO, "spectator_joined", "room=%s addr=%s", r->rec.id, c->addr);
	send_welcome(c, r, -1, NULL);
	touch(r);
}

/* Answers a move whose ply is not the number of moves played. */
static void stale_move(conn *c, room *r, const proto_msg *m)
{
	/* Moves alternate from South at ply 0, so ply's parity names its mover. */
	if (m->ply < r->nmoves && r->moves[m->ply] == m->pit && (m->ply & 1) == c->seat) {
		send_state(c, r); /* a resend of a move already applied */
		return;
	}
	conn_error(c, PROTO_E_STALE_PLY, "ply is not the number of moves played");
	send_state(c, r);
}

static void do_move(conn *c, room *r, const proto_msg *m)
{
	int me = c->seat;
	ow_game g = r->game;
	ow_move_info info;
	store_room rec = r->rec;
	char msg[96];
	int rc;

	if (m->ply != r->nmoves) {
		stale_move(c, r, m);
		return;
	}
	if (is_over(r)) {
		conn_error(c, PROTO_E_GAME_OVER, "the game is over");
		return;
	}
	if (!r->rec.has_tok[!me]) {
		conn_error(c, PROTO_E_OPPONENT_MISSING, "wait for your opponent to join");
		return;
	}
	if (r->game.pos.turn != me) {
		snprintf(msg, sizeof msg, "it is %s's turn", proto_side_name(r->game.pos.turn));
		conn_error(c, PROTO_E_NOT_YOUR_TURN, msg);
		return;
	}
	rc = ow_game_play(&g, m->pit, &info);
	if (rc) {
		snprintf(msg, sizeof msg, "pit %c: %s", ow_pit_letter(m->pit), ow_strerror(rc));
		conn_error(c, PROTO_E_ILLEGAL_MOVE, msg);
		return;
	}
	if (rec.draw_offer == !me)
		rec.draw_offer = -1; /* moving declines the opponent's draw offer */
	if (g.end != OW_END_NONE)
		rec.draw_offer = -1;
	rec.version = r->rec.version + 1;
	rec.updated = (int64_t)time(NULL);
	if (push_move(r, m->pit) < 0) {
		conn_error(c, PROTO_E_INTERNAL, "out of memory; the move was not made");
		return;
	}
	if (store_moves_update(srv.st, &rec, r->moves, r->nmoves) < 0) {
		r->nmoves--;
		conn_error(c, PROTO_E_INTERNAL, "the store failed; the move was not made");
		return;
	}
	r->rec = rec;
	r->game = g;
	r->last = info;
	r->has_last = 1;
	srv.stats.moves++;
	log_event(LOG_DEBUG, "move", "room=%s ply=%d pit=%c", r->rec.id, r->nmoves - 1,
	          ow_pit_letter(m->pit));
	if (is_over(r))
		game_end_log(r);
	update_absence(r);
	broadcast(r);
}

/* Ends the game for a room-level reason and commits it. */
static void end_game(conn *c, room *r, int reason, int winner)
{
	store_room rec = r->rec;

	rec.reason = reason;
	rec.winner = winner;
	rec.draw_offer = -1;
	if (commit(r, &rec, c) < 0)
		return;
	game_end_log(r);
	update_absence(r);
	broadcast(r);
}

/* Common checks of resign, draw and abort: 0 to go on, -1 after an error. */
static int check_game_on(conn *c, room *r, int need_opponent)
{
	if (is_over(r)) {
		conn_error(c, PROTO_E_GAME_OVER, "the game is over");
		return -1;
	}
	if (need_opponent && !r->rec.has_tok[!c->seat]) {
		conn_error(c, PROTO_E_OPPONENT_MISSING, "wait for your opponent to join");
		return -1;
	}
	return 0;
}

/* An offer/accept/decline on one pending offer slot (draw or rematch).
 * Returns the new value of the slot, PROTO_ACT_ACCEPT (as -2) when the
 * offer is accepted, or -3 after an error to c. */
static int offer_step(conn *c, int pending, int action)
{
	int me = c->seat;

	switch (action) {
	case PROTO_ACT_OFFER:
		if (pending == me) {
			conn_error(c, PROTO_E_OFFER_PENDING, "your offer is already pending");
			return -3;
		}
		return pending == !me ? -2 : me;
	default:
		if (pending != !me) {
			conn_error(c, PROTO_E_NO_OFFER, "no offer from your opponent is pending");
			return -3;
		}
		return action == PROTO_ACT_ACCEPT ? -2 : -1;
	}
}

static void do_draw(conn *c, room *r, const proto_msg *m)
{
	store_room rec;
	int v;

	if (check_game_on(c, r, 1) < 0)
		return;
	v = offer_step(c, r->rec.draw_offer, m->action);
	if (v == -3)
		return;
	if (v == -2) {
		end_game(c, r, PROTO_END_AGREEMENT, OW_DRAW);
		return;
	}
	rec = r->rec;
	rec.draw_offer = v;
	if (commit(r, &rec, c) == 0)
		broadcast(r);
}

static void new_game(conn *c, room *r)
{
	store_room rec = r->rec;
	conn *sc[2] = {r->seat_conn[0], r->seat_conn[1]};

	/* Sides swap: each token now holds the other seat. */
	memcpy(rec.tok[0], r->rec.tok[1], SHA256_LEN);
	memcpy(rec.tok[1], r->rec.tok[0], SHA256_LEN);
	rec.has_tok[0] = r->rec.has_tok[1];
	rec.has_tok[1] = r->rec.has_tok[0];
	rec.game_number++;
	rec.reason = 0;
	rec.winner = OW_NOBODY;
	rec.draw_offer = rec.rematch_offer = -1;
	rec.version = r->rec.version + 1;
	rec.updated = (int64_t)time(NULL);
	if (store_moves_update(srv.st, &rec, NULL, 0) < 0) {
		conn_error(c, PROTO_E_INTERNAL, "the store failed; nothing changed");
		return;
	}
	r->rec = rec;
	ow_game_start(&r->game);
	r->nmoves = 0;
	r->has_last = 0;
	r->seat_conn[0] = sc[1];
	r->seat_conn[1] = sc[0];
	for (int s = 0; s < 2; s++)
		if (r->seat_conn[s]) {
			r->seat_conn[s]->seat = s;
			send_welcome(r->seat_conn[s], r, s, NULL);
		}
	log_event(LOG_INFO, "rematch", "room=%s game=%u", r->rec.id, r->rec.game_number);
	update_absence(r);
	broadcast(r);
}

static void do_rematch(conn *c, room *r, const proto_msg *m)
{
	store_room rec;
	int v;

	if (!is_over(r)) {
		conn_error(c, PROTO_E_GAME_NOT_OVER, "the game is still on");
		return;
	}
	if (!r->rec.has_tok[!c->seat]) {
		conn_error(c, PROTO_E_OPPONENT_MISSING, "no opponent to play again");
		return;
	}
	v = offer_step(c, r->rec.rematch_offer, m->action);
	if (v == -3)
		return;
	if (v == -2) {
		new_game(c, r);
		return;
	}
	rec = r->rec;
	rec.rematch_offer = v;
	if (commit(r, &rec, c) == 0)
		broadcast(r);
}

static void do_claim(conn *c, room *r)
{
	if (is_over(r)) {
		conn_error(c, PROTO_E_GAME_OVER, "the game is over");
		return;
	}
	if (r->absent_side != !c->seat || claim_remaining_ms(r) > 0) {
		conn_error(c, PROTO_E_CANNOT_CLAIM,
		           "your opponent is connected, not on turn, or not gone long enough");
		return;
	}
	end_game(c, r, PROTO_END_ABANDONED, c->seat);
}

void room_handle(conn *c, const proto_msg *m)
{
	room *r = c->room;

	if (m->type == PROTO_MSG_CREATE || m->type == PROTO_MSG_JOIN) {
		if (r) {
			conn_error(c, PROTO_E_ALREADY_JOINED, "this connection is already in a room");
			return;
		}
		if (m->type == PROTO_MSG_CREATE)
			do_create(c, m);
		else
			do_join(c, m);
		return;
	}
	if (!r) {
		conn_error(c, PROTO_E_NOT_JOINED, "create or join a room first");
		return;
	}
	if (c->seat < 0) {
		conn_error(c, PROTO_E_NOT_A_PLAYER, "spectators cannot act");
		return;
	}
	switch (m->type) {
	case PROTO_MSG_MOVE:
		do_move(c, r, m);
		break;
	case PROTO_MSG_RESIGN:
		if (check_game_on(c, r, 1) == 0)
			end_game(c, r, PROTO_END_RESIGN, !c->seat);
		break;
	case PROTO_MSG_DRAW:
		do_draw(c, r, m);
		break;
	case PROTO_MSG_ABORT:
		if (check_game_on(c, r, 0) < 0)
			break;
		if (both_moved(r)) {
			conn_error(c, PROTO_E_CANNOT_ABORT, "both players have moved");
			break;
		}
		end_game(c, r, PROTO_END_ABORTED, OW_NOBODY);
		break;
	case PROTO_MSG_REMATCH:
		do_rematch(c, r, m);
		break;
	case PROTO_MSG_CLAIM:
		do_claim(c, r);
		break;
	}
}

/* ---- restore and expiry ---- */

static void restore_one(void *arg, const store_room *rec, const uint8_t *pits, int n)
{
	room *r = room_new(rec);
	int *count = arg;

	if (!r || find(rec->id)) {
		free(r);
		return;
	}
	for (int i = 0; i < n; i++) {
		ow_move_info info;

		if (ow_game_play(&r->game, pits[i], &info) || push_move(r, pits[i]) < 0) {
			log_event(LOG_ERROR, "restore_bad_move", "room=%s ply=%d", rec->id, i);
			break;
		}
		r->last = info;
		r->has_last = 1;
	}
	/* Everyone is disconnected after a restart: a change of presence. */
	r->rec.version++;
	insert(r);
	update_absence(r);
	(*count)++;
}

int room_restore_all(void)
{
	int count = 0;

	if (store_load(srv.st, restore_one, &count) < 0)
		return -1;
	return count;
}

void room_expire(void)
{
	int64_t now = (int64_t)time(NULL);
	int expired = 0;

	for (unsigned b = 0; b < nbuckets; b++) {
		room *r = table[b];

		while (r) {
			room *next = r->hnext;
			int64_t idle = now - r->rec.updated;
			int limit = !r->rec.has_tok[0] || !r->rec.has_tok[1] ? srv.cfg.expire_unjoined
			          : is_over(r) ? srv.cfg.expire_finished : srv.cfg.expire_unfinished;

			if (!r->conns && idle >= limit && store_room_delete(srv.st, r->rec.id) == 0) {
				log_event(LOG_INFO, "room_expired", "room=%s idle=%lld finished=%d",
				          r->rec.id, (long long)idle, is_over(r));
				room_free(r);
				srv.stats.rooms_expired++;
				expired++;
			}
			r = next;
		}
	}
	if (expired)
		store_reclaim(srv.st);
}
