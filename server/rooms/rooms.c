/* rooms.c: the top of the rooms' shell around the rules: members, absence
 * timers, what the rules decide carried out (store writes, messages),
 * chat, expiry. Beside it, the queries of POST /api/rooms in
 * rooms_query.c; below them both (rooms_shell.h):
 * taking, relaying and giving up rooms on a shared store in rooms_hold.c,
 * batches and their commits in rooms_batch.c, the table in
 * rooms_table.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <uuid/uuid.h>

#include "protocol/game.h"
#include "server/base/clock.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/rooms/rooms_shell.h"

#define TOKEN_BYTES 32      /* 256 random bits */
#define TOKEN_TEXT 64       /* their base64url text (43 characters) and NUL */
/* Spectators coming and going: the first COUNT_AT_ONCE changes of the
 * count in a second are announced at once, the rest together at the end
 * of that second. */
#define COUNT_AT_ONCE 3
#define COUNT_EVERY_MS 1000


static rooms_config cfg;


static room *timer_head, *timer_tail;
static uint32_t member_serial;         /* the last serial given to a member */
static jw out; /* the message being written: one at a time */
static jw line; /* one line of a chat history, measured (history_fit) */
static rooms_game_ended_fn *game_ended_fn;
static rooms_board_taken_fn *board_taken_fn;

static void room_join_found(room_member *m, room *r, const proto_msg *msg);



const rooms_stats *rooms_get_stats(void)
{
	return &shell_stats;
}

const store *rooms_get_store(void)
{
	return shell_store;
}

const char *rooms_member_room(const room_member *m)
{
	return m->room ? m->room->rr.rec.id : "-";
}

/* ---- timers: absent seats becoming claimable, clocks running out ---- */

static void timer_unlink(room *r)
{
	if (r->deadline < 0)
		return;
	if (r->tprev)
		r->tprev->tnext = r->tnext;
	else
		timer_head = r->tnext;
	if (r->tnext)
		r->tnext->tprev = r->tprev;
	else
		timer_tail = r->tprev;
	r->tnext = r->tprev = NULL;
	r->deadline = -1;
}

/* Puts r in the timer list at the deadline its rules ask for (or takes it
 * out). Deadlines are set in time order, so the place is found from the
 * tail in a step or two. */
static void timer_update(room *r)
{
	int64_t d = shell_stopping ? -1 : rules_deadline(&r->rr, &cfg.lim);
	room *p;

	if (r->count_due && !shell_stopping && (d < 0 || r->count_due < d))
		d = r->count_due;
	if (d == r->deadline)
		return;
	timer_unlink(r);
	if (d < 0)
		return;
	r->deadline = d;
	for (p = timer_tail; p && p->deadline > d; p = p->tprev)
		;
	r->tprev = p;
	r->tnext = p ? p->tnext : timer_head;
	if (r->tnext)
		r->tnext->tprev = r;
	else
		timer_tail = r;
	if (p)
		p->tnext = r;
	else
		timer_head = r;
}

/* A room enters the table from the store (rooms_table.c's hook): into
 * the timers; a board's game still on is shown to its event, which may
 * have recorded a result for it while no server here held the room. */
static void room_added(room *r)
{
	timer_update(r);
	if (r->rr.rec.event[0] && board_taken_fn && !rules_over(&r->rr))
		board_taken_fn(&r->rr);
}

/* A room leaves the table (rooms_table.c's hook): out of the timers and
 * the batch. */
static void room_unlinked(room *r)
{
	timer_unlink(r);
	batch_unmark(r);
}

int64_t rooms_next_deadline(void)
{
	return timer_head ? timer_head->deadline : -1;
}

/* ---- messages ---- */

static const jw *state_text(const room *r)
{
	proto_state_view v;
	const char *spect[ROOMS_SPECTATOR_NAMES];
	unsigned n = 0;

	rules_view(&r->rr, &cfg.lim, now_ms(), &v);
	for (const room_member *m = r->members; m && n < ROOMS_SPECTATOR_NAMES; m = m->next)
		if (m->seat < 0 && m->name)
			spect[n++] = m->name;
	v.spectator_names = spect;
	v.nspectator_names = n;
	jw_reset(&out);
	proto_state_write(&out, &v);
	return &out;
}

static void send_state(room_member *m, const room *r)
{
	shell_io.send(m, state_text(r));
}

static void timer_update(room *r);

/* The seats of rr with a connection now: bit 1 << side each. */
/* In a store shared by several servers, the seats connected go with the
 * open batch (the others' POST /api/rooms reads them); on failure they
 * are noted with the next state. */
static void note_seats(room *r)
{
	int seats = room_seats_connected(&r->rr);

	if (shell_store->ops->presence && seats != r->seats_noted && shell_stats.store_ok &&
	    shell_store->ops->presence(shell_store, r->rr.rec.id, seats) == 0)
		r->seats_noted = (uint8_t)seats;
}

/* Every member gets the state (which also carries the spectators' count). */
static void broadcast(room *r)
{
	note_seats(r);
	if (r->members)
		shell_io.send_all(r->members, state_text(r));
	if (r->count_due) {
		r->count_due = 0;
		timer_update(r);
	}
}

/* The number of spectators changed: announced now (everyone gets the
 * state), or, past COUNT_AT_ONCE changes in a second, with the next state
 * or at the end of that second: spectators coming and going in numbers
 * cost a message a second, not one per visit, and no write at all. 0 when
 * announced now, 1 when later. */
static int count_changed(room *r)
{
	int64_t now = now_ms();

	if (now - r->count_window >= COUNT_EVERY_MS) {
		r->count_window = now;
		r->count_changes = 0;
	}
	if (r->count_changes < COUNT_AT_ONCE && !r->count_due) {
		r->count_changes++;
		broadcast(r);
		return 0;
	}
	if (!r->count_due) {
		r->count_due = r->count_window + COUNT_EVERY_MS;
		timer_update(r);
	}
	return 1;
}

static void send_welcome(room_member *m, const room *r, int seat, const char *token)
{
	jw_reset(&out);
	/* The Web Push key to a player of a room with a clock of days, when
	 * this server sends pushes. */
	proto_welcome_write(&out, r->rr.rec.id, r->rr.rec.kind, seat, token,
	                    seat >= 0 && r->rr.rec.clock_kind == PROTO_CLOCK_CORRESPONDENCE &&
	                    shell_store->ops->push_add ? cfg.push_key : NULL);
	shell_io.send(m, &out);
}

/* ---- members ---- */

static void attach(room *r, room_member *m, int seat)
{
	m->serial = ++member_serial;
	m->history = 0;
	m->room = r;
	m->seat = seat;
	m->prev = NULL;
	m->next = r->members;
	if (r->members)
		r->members->prev = m;
	r->members = m;
	if (seat >= 0)
		r->seat_member[seat] = m;
}



static void histories_free(void);

void rooms_free_all(void)
{
	table_free();
	histories_free();
	batch_free();
	jw_free(&out);
	jw_free(&line);
}

/* ---- tokens ---- */

static void random_bytes(void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = getrandom((char *)buf + got, n - got, 0);

		if (k > 0)
			got += (size_t)k;
	}
}

void rooms_token(const uint8_t *given, char out_text[ROOMS_TOKEN_TEXT], uint8_t hash[SHA256_LEN])
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t raw[TOKEN_BYTES + 1];
	int n = 0;

	if (given)
		memcpy(raw, given, TOKEN_BYTES);
	else
		random_bytes(raw, TOKEN_BYTES);
	raw[TOKEN_BYTES] = 0;
	for (int i = 0; i < TOKEN_BYTES; i += 3) {
		uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 |
		             (i + 2 < TOKEN_BYTES ? raw[i + 2] : 0);

		out_text[n++] = b64[v >> 18 & 63];
		out_text[n++] = b64[v >> 12 & 63];
		if (i + 1 < TOKEN_BYTES)
			out_text[n++] = b64[v >> 6 & 63];
		if (i + 2 < TOKEN_BYTES)
			out_text[n++] = b64[v & 63];
	}
	out_text[n] = 0;
	sha256(out_text, (size_t)n, hash);
}

/* A new seat token (base64url, no padding) in out, and its hash. */
static void token_new(char out_text[TOKEN_TEXT], uint8_t hash[SHA256_LEN])
{
	rooms_token(NULL, out_text, hash);
}

/* ---- carrying out the rules' outcomes ---- */

static void in_init(rules_in *in, int seat, const proto_msg *msg)
{
	memset(in, 0, sizeof *in);
	in->lim = &cfg.lim;
	in->now = now_ms();
	in->wall = (int64_t)time(NULL);
	in->seat = seat;
	in->msg = msg;
}

/* Writes what o asks the store to: 0, or -1 with nothing written. */
static int save(room *r, const rules_out *o)
{
	int rc;

	if (o->save == RULES_KEEP)
		return 0;
	if (!shell_stats.store_ok)
		return -1;
	if (o->save == RULES_SAVE_MOVES && o->pit >= 0) {
		if (rules_reserve(&r->rr) < 0)
			return -1;
		/* Past the moves played: the room shows it only once applied. */
		r->rr.moves[r->rr.nmoves] = (uint8_t)o->pit;
		rc = shell_store->ops->update_moves(shell_store, &o->rec, r->rr.moves, r->rr.nmoves + 1);
	} else if (o->save == RULES_SAVE_MOVES)
		rc = shell_store->ops->update_moves(shell_store, &o->rec, NULL, 0);
	else
		rc = shell_store->ops->update(shell_store, &o->rec);
	if (rc == 0)
		batch_mark(r);
	return rc;
}

/* A game ended (its last change is in the open batch): logged, and told
 * to the club event whose board r is. */
static void board_release(room *r);

static void game_end_log(room *r)
{
	int winner, reason = rules_end_reason(&r->rr, &winner);
	const char *w = proto_winner_name(winner);

	shell_stats.games_ended++;
	board_release(r);
	log_event(LOG_INFO, "game_ended", "room=%s game=%u reason=%s winner=%s plies=%d",
	          r->rr.rec.id, r->rr.rec.game_number, proto_reason_name(reason),
	          w ? w : "none", r->rr.nmoves);
	if (r->rr.rec.event[0] && game_ended_fn)
		game_ended_fn(&r->rr);
}

/* The clock of r's side to move runs: its connection's round trip is
 * measured now, for the credit of its move. */
static void probe_mover(const room *r)
{
	room_member *m;

	if (!r->rr.rec.clock_kind || !rules_clock_running(&r->rr))
		return;
	m = r->seat_member[rules_turn(&r->rr)];
	if (m && shell_io.probe)
		shell_io.probe(m);
}

/* Saves o, or answers m with its error (and the state on resync): 0 to
 * go on and apply o, -1 when it was refused. */
static int decided(room_member *m, room *r, const rules_out *o)
{
	if (o->error || (o->save == RULES_KEEP && !o->joins)) {
		if (o->error)
			shell_io.error(m, o->error, o->why);
		if (o->resync) /* after a stale ply, or alone for a resend */
			send_state(m, r);
		return -1;
	}
	if (save(r, o) < 0 && !o->presence) {
		shell_io.error(m, PROTO_E_INTERNAL, shell_stats.store_ok
		         ? "the store failed; nothing changed"
		         : "the store cannot save changes now; nothing changed");
		return -1;
	}
	return 0;
}

/* An accepted rematch: the members swap seats and learn theirs. */
static void swap_seats(room *r)
{
	room_member *s = r->seat_member[0];

	r->seat_member[0] = r->seat_member[1];
	r->seat_member[1] = s;
	/* Each player's chat count follows it to its new seat. */
	{
		uint32_t at[ROOMS_CHAT_BURST];
		uint8_t next = r->chat_next[0];

		memcpy(at, r->chat_at[0], sizeof at);
		memcpy(r->chat_at[0], r->chat_at[1], sizeof at);
		memcpy(r->chat_at[1], at, sizeof at);
		r->chat_next[0] = r->chat_next[1];
		r->chat_next[1] = next;
	}
	for (int side = 0; side < 2; side++)
		if (r->seat_member[side]) {
			r->seat_member[side]->seat = side;
			send_welcome(r->seat_member[side], r, side, NULL);
		}
	log_event(LOG_INFO, "rematch", "room=%s game=%u", r->rr.rec.id, r->rr.rec.game_number);
}


/* A room without a game for real: a seat was never taken, or its
 * current game has fewer than ROOMS_STARTED_MOVES moves from each side
 * (whether over or not, a rematch's included: sides alternate, so that
 * is fewer than twice as many plies). One move a room must not hold the
 * table (issue 40): such a room makes way at any time in a full table
 * once nobody is connected to it, and expires after --expire-unjoined
 * (after --expire-finished when both seats are taken and its game is
 * over). */
static int gameless(const room *r)
{
	const room_rec *rec = &r->rr.rec;

	if (rec->event[0] && !rules_over(&r->rr)) /* a board of a club event being
		                                             * played: its players are paired */
		return 0;
	return !rec->has_tok[0] || !rec->has_tok[1] || r->rr.nmoves < 2 * ROOMS_STARTED_MOVES;
}

/* Seconds a room without a game for real (gameless) may sit idle:
 * --expire-unjoined, or for a correspondence game with moves made, at
 * least its days per move (its players may take that long to answer). */
static int64_t unstarted_expiry(const room *r)
{
	const room_rec *rec = &r->rr.rec;
	int64_t days = (int64_t)rec->clock_days * 86400;

	if (rec->clock_kind == PROTO_CLOCK_CORRESPONDENCE && r->rr.nmoves > 0 &&
	    days > cfg.expire_unjoined)
		return days;
	return cfg.expire_unjoined;
}

/* Which rooms make way when the table is full, first to last: 0 a room
 * without a game; 1 a finished game; 2 a game in progress; -1 never (a
 * member connected, or a game idle less than --evict-idle, or a
 * correspondence game less than its days per move). A club event's
 * board is a room like any other: while its game is on it is never
 * "without a game" (gameless), so it goes only once idle that long, and
 * the organiser then records its result. */
static int evict_class(const room *r, int64_t now)
{
	int64_t idle = now - r->rr.rec.updated;

	if (r->members)
		return -1;
	if (gameless(r))
		return 0;
	if (idle < cfg.evict_idle)
		return -1;
	if (rules_over(&r->rr))
		return 1;
	if (r->rr.rec.clock_kind == PROTO_CLOCK_CORRESPONDENCE &&
	    idle < (int64_t)r->rr.rec.clock_days * 86400)
		return -1;
	return 2;
}

/* The table is full: the room of the first class (evict_class) that has
 * been idle longest makes way. A room with someone connected is never
 * taken. 0 when one went, -1 when there is none to take. */
static int evict(void)
{
	int64_t now = (int64_t)time(NULL);
	room *best = NULL;
	int best_class = 3;

	for (unsigned b = 0; b < table_buckets(); b++)
		for (room *r = table_bucket(b); r; r = r->hnext) {
			int c = evict_class(r, now);

			if (c >= 0 && (c < best_class || (c == best_class &&
			    r->rr.rec.updated < best->rr.rec.updated))) {
				best = r;
				best_class = c;
			}
		}
	if (!best || batch_delete(best->rr.rec.id) < 0)
		return -1;
	log_event(LOG_INFO, "room_evicted", "room=%s reason=full idle=%lld class=%s",
	          best->rr.rec.id, (long long)(now - best->rr.rec.updated),
	          best_class == 0 ? "no_game" : best_class == 1 ? "finished" : "unfinished");
	room_free(best);
	shell_stats.rooms_evicted++;
	return 0;
}

/* ---- chat ---- */

/* The lines of a chat_history being gathered. */
static store_chat history[STORE_CHAT_KEEP];
static int nhistory;

static void history_add(void *arg, const store_chat *c)
{
	(void)arg;
	if (nhistory < STORE_CHAT_KEEP)
		history[nhistory++] = *c;
}

static void chat_view(const store_chat *c, proto_chat *v)
{
	v->id = c->id;
	v->at = c->at;
	v->side = c->side;
	v->name = c->name[0] ? c->name : NULL;
	v->text = c->text;
}

/* A chat history being read: for the member with that serial, if it is
 * still in that room when the lines come. */
typedef struct history_req {
	char id[ROOM_ID_LEN + 1];
	uint32_t serial;
	struct history_req *next, **pprev; /* in histories, until answered */
} history_req;

/* The reads not answered yet: freed with the rooms at a stop (the store
 * answers nothing once it closes). */
static history_req *histories;

static void history_unlink(history_req *q)
{
	*q->pprev = q->next;
	if (q->next)
		q->next->pprev = q->pprev;
}

static void histories_free(void)
{
	while (histories) {
		history_req *q = histories;

		history_unlink(q);
		free(q);
	}
}

/* The first of v[0..n) such that a chat_history of it and the lines
 * after it takes at most left bytes: n when not even the newest fits.
 * (An address is sent --history-per-ip-per-min bytes of them a minute.) */
static int history_fit(const proto_chat *v, int n, int64_t left)
{
	int64_t total;
	int first = n;

	jw_reset(&line);
	proto_chat_history_write(&line, v, 0);
	total = (int64_t)line.len;
	for (int i = n - 1; i >= 0; i--) {
		jw_reset(&line);
		proto_chat_write(&line, &v[i]);
		total += (int64_t)line.len + (i < n - 1); /* and its comma */
		if (line.oom || total > left)
			break;
		first = i;
	}
	return first;
}

static void history_done(void *arg, int rc)
{
	static proto_chat v[STORE_CHAT_KEEP];
	history_req *q = arg;
	room *r = room_find(q->id);
	room_member *m = NULL;

	if (rc < 0)
		log_event(LOG_ERROR, "chat_history_failed", "room=%s", q->id);
	if (r)
		for (m = r->members; m && m->serial != q->serial; m = m->next)
			;
	if (m && m->history == 2 && rc >= 0) {
		/* A line came while this was read: it went to nobody else's
		 * screen before the history, so read again (it is in it now). */
		nhistory = 0;
		m->history = 1;
		shell_store->ops->chat_recent(shell_store, q->id, STORE_CHAT_KEEP, history_add, history_done, q);
		return;
	}
	if (m)
		m->history = 0;
	if (m && nhistory) {
		int first = 0;

		for (int i = 0; i < nhistory; i++)
			chat_view(&history[i], &v[i]);
		jw_reset(&out);
		proto_chat_history_write(&out, v, nhistory);
		if (m->ip) {
			int64_t left = ip_history_left(m->ip, now_ms(), cfg.history_per_ip_per_min);

			if ((int64_t)out.len > left && (first = history_fit(v, nhistory, left)) < nhistory) {
				jw_reset(&out);
				proto_chat_history_write(&out, v + first, nhistory - first);
			}
			if (first < nhistory)
				ip_history_count(m->ip, (int64_t)out.len);
		}
		if (first < nhistory)
			shell_io.send(m, &out);
	}
	nhistory = 0;
	history_unlink(q);
	free(q);
}

/* m, just in r, gets the room's last chat lines, if it has any (a client
 * that never chats sees no message it does not know): at once with
 * SQLite, when the database answers with PostgreSQL. */
static void send_history(room_member *m, const room *r)
{
	history_req *q = malloc(sizeof *q);

	if (!q) {
		log_event(LOG_ERROR, "chat_history_failed", "room=%s error=\"out of memory\"",
		          r->rr.rec.id);
		return;
	}
	snprintf(q->id, sizeof q->id, "%s", r->rr.rec.id);
	q->serial = m->serial;
	q->next = histories;
	if (histories)
		histories->pprev = &q->next;
	histories = q;
	q->pprev = &histories;
	nhistory = 0;
	m->history = 1;
	shell_store->ops->chat_recent(shell_store, r->rr.rec.id, STORE_CHAT_KEEP, history_add, history_done, q);
}

/* 0 when m may send a chat line now (counted against its seat and its
 * address), else -1 with the error sent: its seat sent ROOMS_CHAT_BURST
 * in the last window (on any connection), or its address IP_CHAT_BURST. */
static int chat_allow(room_member *m, room *r, int64_t now)
{
	int seat = m->seat;

	if (ring_allow(r->chat_at[seat], &r->chat_next[seat], ROOMS_CHAT_BURST, now,
	               cfg.chat_window_ms) < 0) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many chat lines: at most 5 in 10 seconds"
		         " from a seat");
		return -1;
	}
	if (m->ip && ip_chat_allow(m->ip, now, cfg.chat_window_ms) < 0) {
		ring_undo(r->chat_at[seat], &r->chat_next[seat], ROOMS_CHAT_BURST);
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many chat lines: at most 20 in 10 seconds"
		         " from an address");
		return -1;
	}
	return 0;
}

/* A chat line from player m, allowed by the rules: limited, stored with
 * the room, then sent to everyone in it (after the commit). */
static void do_chat(room_member *m, room *r, const proto_msg *msg)
{
	store_chat c;
	proto_chat v;
	struct timespec ts;

	if (chat_allow(m, r, now_ms()) < 0)
		return;
	memset(&c, 0, sizeof c);
	clock_gettime(CLOCK_REALTIME, &ts);
	c.at = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	c.side = m->seat;
	snprintf(c.name, sizeof c.name, "%s", r->rr.rec.name[m->seat]);
	snprintf(c.text, sizeof c.text, "%s", msg->text);
	if (!shell_stats.store_ok || shell_store->ops->chat_add(shell_store, r->rr.rec.id, &c) < 0) {
		/* Not sent: the line does not count against the limits. */
		ring_undo(r->chat_at[m->seat], &r->chat_next[m->seat], ROOMS_CHAT_BURST);
		if (m->ip)
			ring_undo(m->ip->chat_at, &m->ip->chat_next, IP_CHAT_BURST);
		shell_io.error(m, PROTO_E_INTERNAL, shell_stats.store_ok
		         ? "the store failed; the line was not sent"
		         : "the store cannot save changes now; the line was not sent");
		return;
	}
	batch_mark(r);
	if (shell_store->ops->take)
		batch_chat(r->rr.rec.id, &c);
	shell_stats.chat_lines++;
	chat_view(&c, &v);
	jw_reset(&out);
	proto_chat_write(&out, &v);
	for (room_member *x = r->members; x; x = x->next)
		if (x->history) {
			/* Its history, still being read, must come first: the
			 * line comes with it (read again), not before it. */
			for (x = r->members; x; x = x->next) {
				if (x->history)
					x->history = 2;
				else
					shell_io.send(x, &out);
			}
			return;
		}
	shell_io.send_all(r->members, &out);
}

/* m's spectator name becomes name ("" for none): 0, or -1 when out of
 * memory (the name stays as it was). */
static int set_name(room_member *m, const char *name)
{
	char *copy = NULL;

	if (*name && !(copy = strdup(name)))
		return -1;
	free(m->name);
	m->name = copy;
	return 0;
}

/* A spectator's name (kept with its connection, shown in the state). */
static void spectator_name(room_member *m, room *r, const proto_msg *msg)
{
	if (!strcmp(m->name ? m->name : "", msg->name) || set_name(m, msg->name) < 0)
		return;
	if (count_changed(r))
		send_state(m, r);
}

static void do_create(room_member *m, const proto_msg *msg)
{
	rules_in in;
	rules_out o;
	uuid_t u;
	char id[ROOM_ID_LEN + 1], token[TOKEN_TEXT];
	uint8_t hash[SHA256_LEN], coin;
	room *r;
	ipent *net = NULL;

	if (!shell_stats.store_ok) {
		shell_io.error(m, PROTO_E_INTERNAL, "the store cannot save changes now; no room was created");
		return;
	}
	if (m->ip && m->ip->rooms_held >= cfg.max_rooms_per_ip) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many rooms held from this address; finish or"
		         " wait for some to expire");
		return;
	}
	if (m->ip && cfg.max_rooms_per_net > 0 && (net = ip_net_get(m->addr)) &&
	    net->rooms_held >= cfg.max_rooms_per_net) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many rooms held from this network (an"
		         " IPv4 /24 or IPv6 /48); finish or wait for some to expire");
		return;
	}
	if (m->ip && ip_room_allow(m->ip, now_ms(), cfg.ip->rooms_per_min) < 0) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many rooms created from this address; wait a minute");
		return;
	}
	if (rooms_count() >= cfg.max_rooms && evict() < 0) {
		shell_io.error(m, PROTO_E_TOO_MANY_ROOMS, "the server holds its maximum of rooms");
		return;
	}
	uuid_generate_random(u);
	uuid_unparse_lower(u, id);
	token_new(token, hash);
	random_bytes(&coin, 1);
	in_init(&in, RULES_SPECTATOR, msg);
	in.fresh_tok = hash;
	in.coin = coin & 1;
	r = calloc(1, sizeof *r);
	if (!r || rules_create(&r->rr, id, &in, &o) < 0 || shell_store->ops->insert(shell_store, &o.rec) < 0) {
		free(r);
		shell_io.error(m, PROTO_E_INTERNAL, "could not create the room");
		return;
	}
	r->deadline = -1;
	room_insert(r);
	batch_mark(r);
	r->created_seq = batch_open();
	if (m->ip) {
		r->owner = m->ip;
		m->ip->rooms_held++;
	}
	if (net) {
		r->owner_net = net;
		net->rooms_held++;
	}
	attach(r, m, o.seat);
	rules_apply(&r->rr, &o, in.now);
	shell_stats.rooms_created++;
	log_event(LOG_INFO, "room_created", "room=%s kind=%s side=%s addr=%s",
	          id, r->rr.rec.kind, proto_side_name(o.seat), m->addr);
	set_name(m, "");
	send_welcome(m, r, o.seat, token);
	send_state(m, r);
}


static void do_join(room_member *m, const proto_msg *msg)
{
	room *r = room_find(msg->room);

	if (m->ip && ip_join_allow(m->ip, now_ms(), cfg.ip->joins_per_min) < 0) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many joins from this address; wait a minute");
		return;
	}
	if (!r && batch_reloading(msg->room)) {
		shell_io.error(m, PROTO_E_INTERNAL, "the room is being read back after a store failure;"
		         " try again in a moment");
		return;
	}
	if (!r && m->relay_in) {
		/* Relayed here by a server that found the room held here: it is
		 * not (any more). Never taken for a relay: the relaying server
		 * takes it or relays again (server/CLUSTER.md, "Split routing"). */
		shell_io.close(m, ROOMS_CLOSE_MOVED, "moved");
		return;
	}
	if (!r && shell_store->ops->take && strlen(msg->room) == ROOM_ID_LEN) {
		hold_wait(m, msg, now_ms() + cfg.join_wait_ms);
		return;
	}
	if (!r) {
		shell_io.error(m, PROTO_E_NO_ROOM, "no room has that id (or it expired)");
		return;
	}
	room_join_found(m, r, msg);
}

/* m joins r, which this server holds (also when a waiting join's room
 * was taken: rooms_hold.c's callback). */
static void room_join_found(room_member *m, room *r, const proto_msg *msg)
{
	char token[TOKEN_TEXT];
	uint8_t hash[SHA256_LEN];
	rules_in in;
	rules_out o;

	in_init(&in, RULES_SPECTATOR, msg);
	if (!msg->token[0]) {
		token_new(token, hash);
		in.fresh_tok = hash;
	}
	rules_join(&r->rr, &in, &o);
	if (decided(m, r, &o) < 0)
		return;
	if (o.replace) {
		room_member *old = r->seat_member[o.seat];

		member_detach(old);
		shell_io.error(old, PROTO_E_REPLACED, "another connection took this seat");
		shell_io.close(old, PROTO_CLOSE_REPLACED, "replaced");
		log_event(LOG_INFO, "seat_replaced", "room=%s side=%s addr=%s", r->rr.rec.id,
		          proto_side_name(o.seat), m->addr);
	}
	set_name(m, o.seat < 0 && msg->has_name ? msg->name : "");
	attach(r, m, o.seat);
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	shell_stats.joins++;
	if (o.seat < 0)
		log_event(LOG_INFO, "spectator_joined", "room=%s addr=%s", r->rr.rec.id, m->addr);
	else
		log_event(LOG_INFO, o.token ? "player_joined" : "seat_reclaimed",
		          "room=%s side=%s addr=%s", r->rr.rec.id, proto_side_name(o.seat), m->addr);
	send_welcome(m, r, o.seat, o.token ? token : NULL);
	if (o.broadcast)
		broadcast(r);
	else if (count_changed(r))
		send_state(m, r); /* the newcomer's state cannot wait */
	send_history(m, r);
	if (o.seat >= 0 && o.seat == rules_turn(&r->rr))
		probe_mover(r);
}
const rules_room *rooms_find_rules(const char *id)
{
	const room *r = room_find(id);

	return r ? &r->rr : NULL;
}

void rooms_on_game_ended(rooms_game_ended_fn *fn)
{
	game_ended_fn = fn;
}

void rooms_on_board_taken(rooms_board_taken_fn *fn)
{
	board_taken_fn = fn;
}

void rooms_each_board(rooms_board_taken_fn *fn)
{
	for (unsigned b = 0; b < table_buckets(); b++)
		for (const room *r = table_bucket(b); r; r = r->hnext)
			if (r->rr.rec.event[0] && !rules_over(&r->rr))
				fn(&r->rr);
}

/* A board room's game ended: it no longer counts against the budgets of
 * the address that made it (it is a finished room like any other). */
static void board_release(room *r)
{
	if (!r->rr.rec.event[0])
		return;
	if (r->owner)
		r->owner->rooms_held--;
	if (r->owner_net)
		r->owner_net->rooms_held--;
	r->owner = r->owner_net = NULL;
}

int rooms_boards_room(int n, struct ipent *owner, struct ipent *owner_net)
{
	if (!shell_stats.store_ok)
		return ROOMS_E_STORE;
	if (owner && owner->rooms_held + n > cfg.max_rooms_per_ip)
		return ROOMS_E_IP;
	if (owner_net && cfg.max_rooms_per_net > 0 &&
	    owner_net->rooms_held + n > cfg.max_rooms_per_net)
		return ROOMS_E_NET;
	if (rooms_count() + n > cfg.max_rooms) {
		/* All or none: nothing makes way unless enough may. */
		int64_t now = (int64_t)time(NULL);
		int may = 0;

		for (unsigned b = 0; b < table_buckets(); b++)
			for (room *r = table_bucket(b); r; r = r->hnext)
				may += evict_class(r, now) >= 0;
		if (rooms_count() + n - may > cfg.max_rooms)
			return ROOMS_E_FULL;
	}
	while (rooms_count() + n > cfg.max_rooms)
		if (evict() < 0)
			return ROOMS_E_FULL;
	return 0;
}

void rooms_drop_board(const char *id)
{
	room *r = room_find(id);

	if (!r || batch_delete(id) < 0)
		return;
	log_event(LOG_INFO, "room_dropped", "room=%s event=%s", id, r->rr.rec.event);
	room_free(r);
}

int rooms_create_board(const rooms_board *b, const char *id)
{
	proto_msg msg;
	rules_in in;
	rules_out o;
	room *r;

	if (!shell_stats.store_ok)
		return -1;
	if (rooms_count() >= cfg.max_rooms && evict() < 0)
		return -2;
	memset(&msg, 0, sizeof msg);
	msg.type = PROTO_MSG_CREATE;
	msg.side = OW_SOUTH;
	snprintf(msg.kind, sizeof msg.kind, "%s", b->kind);
	msg.clock_kind = b->clock_kind;
	msg.clock_initial[0] = msg.clock_initial[1] = b->clock_initial;
	msg.clock_increment = b->clock_increment;
	msg.clock_days = b->clock_days;
	msg.has_name = 1;
	snprintf(msg.name, sizeof msg.name, "%s", b->names[OW_SOUTH]);
	in_init(&in, RULES_SPECTATOR, &msg);
	in.fresh_tok = b->tok[OW_SOUTH];
	r = calloc(1, sizeof *r);
	if (!r || rules_create(&r->rr, id, &in, &o) < 0) {
		free(r);
		return -1;
	}
	o.joins = 0; /* nobody is connected: the players come with their tokens */
	o.rec.has_tok[OW_NORTH] = 1;
	memcpy(o.rec.tok[OW_NORTH], b->tok[OW_NORTH], SHA256_LEN);
	snprintf(o.rec.name[OW_NORTH], sizeof o.rec.name[OW_NORTH], "%s", b->names[OW_NORTH]);
	snprintf(o.rec.event, sizeof o.rec.event, "%s", b->event);
	if (shell_store->ops->insert(shell_store, &o.rec) < 0) {
		rules_room_free(&r->rr);
		free(r);
		return -1;
	}
	r->deadline = -1;
	room_insert(r);
	batch_mark(r);
	r->created_seq = batch_open();
	if ((r->owner = b->owner))
		b->owner->rooms_held++;
	if ((r->owner_net = b->owner_net))
		b->owner_net->rooms_held++;
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	shell_stats.rooms_created++;
	log_event(LOG_INFO, "room_created", "room=%s kind=%s event=%s", id, r->rr.rec.kind, b->event);
	return 0;
}

int rooms_end_board(const char *id, int winner)
{
	room *r = room_find(id);
	rules_in in;
	rules_out o;

	if (!r)
		return -1;
	in_init(&in, RULES_SPECTATOR, NULL);
	rules_end_by_organiser(&r->rr, &in, winner, &o);
	if (o.error)
		return 1;
	if (save(r, &o) < 0)
		return -1;
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	shell_stats.games_ended++;
	board_release(r);
	log_event(LOG_INFO, "game_ended", "room=%s game=%u reason=organiser winner=%s plies=%d",
	          r->rr.rec.id, r->rr.rec.game_number, proto_winner_name(winner) ?
	          proto_winner_name(winner) : "none", r->rr.nmoves);
	broadcast(r);
	push_after_end(r);
	return 0;
}

void rooms_handle(room_member *m, const proto_msg *msg)
{
	room *r = m->room;
	rules_in in;
	rules_out o;

	if (msg->type == PROTO_MSG_CREATE || msg->type == PROTO_MSG_JOIN) {
		if (r || m->waiting)
			shell_io.error(m, PROTO_E_ALREADY_JOINED, "this connection is already in a room");
		else if (msg->type == PROTO_MSG_CREATE)
			do_create(m, msg);
		else
			do_join(m, msg);
		return;
	}
	if (!r) {
		shell_io.error(m, PROTO_E_NOT_JOINED, m->waiting ? "the room is being taken over from"
		         " another server; wait for the welcome" : "create or join a room first");
		return;
	}
	if (msg->type == PROTO_MSG_NAME && m->seat < 0) {
		spectator_name(m, r, msg);
		return;
	}
	if (msg->type == PROTO_MSG_PUSH) {
		push_handle(m, r, msg);
		return;
	}
	in_init(&in, m->seat, msg);
	in.lag = m->rtt_ms;
	/* A clock that ran out (or a seat now claimable) counts before the
	 * action, even when its timer has not run yet. */
	if (r->deadline >= 0 && r->deadline <= in.now)
		rooms_run_timers(in.now);
	rules_act(&r->rr, &in, &o);
	if (o.chat) {
		do_chat(m, r, msg);
		return;
	}
	if (decided(m, r, &o) < 0)
		return;
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	if (o.pit >= 0) {
		char name[4];

		shell_stats.moves++;
		r->rr.k->move_name(o.pit, name);
		log_event(LOG_DEBUG, "move", "room=%s ply=%d pit=%s", r->rr.rec.id,
		          r->rr.nmoves - 1, name);
	}
	if (o.ended)
		game_end_log(r);
	if (o.new_game)
		swap_seats(r);
	broadcast(r);
	if (o.pit >= 0)
		probe_mover(r);
	push_after_action(r, m->seat, msg, &o);
}

void rooms_leave(room_member *m)
{
	room *r = m->room;
	rules_in in;
	rules_out o;

	free(m->name);
	m->name = NULL;
	if (m->waiting) {
		hold_forget_member(m);
		m->waiting = 0;
	}
	if (!r)
		return;
	member_detach(m);
	if (shell_stopping)
		return;
	log_event(LOG_INFO, m->seat >= 0 ? "player_left" : "spectator_left",
	          "room=%s side=%s addr=%s", r->rr.rec.id,
	          m->seat >= 0 ? proto_side_name(m->seat) : "spectator", m->addr);
	in_init(&in, m->seat, NULL);
	rules_leave(&r->rr, &in, &o);
	save(r, &o); /* presence: shown even if it cannot be saved */
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	if (o.broadcast)
		broadcast(r);
	else
		count_changed(r);
	if (m->seat >= 0)
		hold_player_left(r);
}

void rooms_run_timers(int64_t now)
{
	while (timer_head && timer_head->deadline <= now) {
		room *r = timer_head;
		rules_in in;
		rules_out o;

		timer_unlink(r);
		in_init(&in, RULES_SPECTATOR, NULL);
		in.now = now;
		rules_tick(&r->rr, &in, &o);
		if (o.save) {
			/* Applied even if it cannot be saved: a restart then shows the
			 * room as stored (a clock resumes and runs out again). */
			save(r, &o);
			rules_apply(&r->rr, &o, now);
			if (o.claimable)
				log_event(LOG_INFO, "seat_claimable", "room=%s side=%s", r->rr.rec.id,
				          proto_side_name(r->rr.absent_side));
			if (o.ended)
				game_end_log(r);
			broadcast(r);
			if (o.ended)
				push_after_end(r);
		} else if (r->count_due && r->count_due <= now)
			broadcast(r);
		timer_update(r);
		if (r->deadline >= 0 && r->deadline <= now)
			break; /* not due after all (it cannot be): try again later */
	}
}

/* ---- set-up, restore, expiry ---- */


int rooms_init(const rooms_config *c, store *s, const rooms_io *i)
{
	cfg = *c;
	shell_lim = &cfg.lim;
	shell_store = s;
	shell_io = *i;
	shell_stopping = 0;
	memset(&shell_stats, 0, sizeof shell_stats);
	shell_stats.store_ok = 1;
	jw_init(&out);
	push_setup(&cfg);
	if (table_init(&(table_hooks){room_added, room_unlinked}) < 0)
		return -1;
	hold_init(room_join_found);
	if (shell_store->ops->probe(shell_store) < 0)
		batch_store_failing("the store cannot write");
	if (shell_store->ops->set_events) {
		store_events ev = {.lost = hold_lost, .wanted = hold_wanted};

		shell_store->ops->set_events(shell_store, &ev);
	}
	return 0;
}

void rooms_stop(void)
{
	shell_stopping = 1;
}


int rooms_restore(void)
{
	int count = 0;

	if (shell_store->ops->load(shell_store, room_restore_one, &count) < 0)
		return -1;
	return count;
}

void rooms_expire(void)
{
	int64_t now = (int64_t)time(NULL);
	int shortest = cfg.expire_unjoined;

	if (!shell_stats.store_ok)
		return;
	/* Several servers: rooms a dead server held that nobody joined since
	 * are taken when idle past the shortest expiry; the next sweep expires
	 * those that are due. */
	if (cfg.expire_finished < shortest)
		shortest = cfg.expire_finished;
	if (cfg.expire_unfinished < shortest)
		shortest = cfg.expire_unfinished;
	if (shell_store->ops->take_idle && !shell_stopping)
		shell_store->ops->take_idle(shell_store, now - shortest, room_restore_one,
		                                 hold_idle_taken, NULL);
	for (unsigned b = 0; b < table_buckets(); b++) {
		for (room *r = table_bucket(b), *next; r; r = next) {
			const room_rec *rec = &r->rr.rec;
			int64_t idle = now - rec->updated;
			int64_t limit = !rec->has_tok[0] || !rec->has_tok[1] ? cfg.expire_unjoined
			          : rules_over(&r->rr) ? cfg.expire_finished
			          : gameless(r) ? unstarted_expiry(r) : cfg.expire_unfinished;

			next = r->hnext;
			if (r->members || idle < limit || batch_delete(rec->id) < 0)
				continue;
			log_event(LOG_INFO, "room_expired", "room=%s idle=%lld finished=%d",
			          rec->id, (long long)idle, rules_over(&r->rr));
			room_free(r);
			shell_stats.rooms_expired++;
		}
	}
}
