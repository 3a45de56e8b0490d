/* rooms.c: the rooms' shell around the rules: the table by id, members,
 * absence timers, store writes and commits, rollback, expiry, sending. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <uuid/uuid.h>

#include "protocol/game.h"
#include "server/clock.h"
#include "server/iptable.h"
#include "server/log.h"
#include "server/rooms.h"

#define TOKEN_BYTES 32      /* 256 random bits */
#define TOKEN_TEXT 64       /* their base64url text (43 characters) and NUL */
#define PROBE_EVERY_MS 1000 /* how often a failing store is tried again */
/* Spectators coming and going: the first COUNT_AT_ONCE changes of the
 * count in a second are announced at once, the rest together at the end
 * of that second. */
#define COUNT_AT_ONCE 3
#define COUNT_EVERY_MS 1000

/* A room of the table: owned by it from creation (or restore) until it
 * expires, is rolled back, or the server stops. */
struct room {
	rules_room rr;
	room *hnext;                   /* hash chain */
	room_member *seat_member[2];   /* each seat's member, or NULL */
	room_member *members;          /* every member */
	room *tnext, *tprev;           /* the timer list, by deadline */
	int64_t deadline;              /* in the timer list: when (ms); else -1 */
	room *dnext, **dpprev;         /* the rooms changed since the last confirmed
	                                * commit (dpprev NULL when not among them) */
	uint64_t dirty_seq;            /* among them: the batch of its last write */
	uint64_t created_seq;          /* the batch that created it (0: restored) */
	int64_t count_due;             /* the spectators' count to announce then, or 0 */
	int64_t count_window;          /* start (ms) of the second counted in count_changes */
	ipent *owner;                  /* the creator's address entry (rooms_held), or NULL */
	int count_changes;             /* count changes announced at once in that second */
	uint8_t seats_noted;           /* the seats connected, as last noted in a store
	                                * shared by several servers (store presence) */
	uint8_t chat_next[2];          /* the oldest of each seat's chat_at */
	uint32_t chat_at[2][ROOMS_CHAT_BURST]; /* when each seat's last chat lines were
	                                * sent (ms modulo 2^32; 0: none), a ring by seat:
	                                * the limit holds across reconnects */
};

static rooms_config cfg;
static store *st;
static rooms_io io;
static rooms_stats stats;
static int stopping;

static room **table;
static unsigned nbuckets;
static int nrooms;

static room *timer_head, *timer_tail;
static room *dirty_rooms;
/* Rooms deleted since the last confirmed commit, with their batch: read
 * back if it is lost. */
typedef struct deleted_room {
	char id[ROOM_ID_LEN + 1];
	uint64_t seq;
} deleted_room;
static deleted_room *deleted;
static int ndeleted, capdeleted;
static int reclaim_due;
/* Rooms to read back after a lost batch (a failed read is tried again
 * with the probe); a join waits for its room meanwhile. */
static char (*reloads)[ROOM_ID_LEN + 1];
static int nreloads, capreloads, reloads_busy, reload_failed;
/* The batch the read in flight shares with writes (0: none): the room
 * read counts as changed in it (it may show them), so that its loss reads
 * the room again. */
static uint64_t reload_seq;

/* Batches: started counts those handed to the store's flush (the open
 * batch is started + 1); answered is the last one the store answered,
 * commits the last one it committed. Batches are answered in order; at
 * most INFLIGHT_MAX wait for their answer (past that the open batch grows). */
#define INFLIGHT_MAX 64
static uint64_t started, answered, commits;
static int64_t flush_t0[INFLIGHT_MAX]; /* when each was started (us), by seq */
static uint32_t member_serial;         /* the last serial given to a member */
static int64_t last_probe, last_reload;
static jw out; /* the message being written: one at a time */
static jw line; /* one line of a chat history, measured (history_fit) */

/* ---- the table ---- */

static unsigned id_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & (nbuckets - 1);
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
			unsigned nb = id_hash(r->rr.rec.id);

			table[b] = r->hnext;
			r->hnext = t[nb];
			t[nb] = r;
		}
	free(table);
	table = t;
}

static room *find(const char *id)
{
	for (room *r = table[id_hash(id)]; r; r = r->hnext)
		if (!strcmp(r->rr.rec.id, id))
			return r;
	return NULL;
}

static void insert(room *r)
{
	unsigned b;

	if ((unsigned)nrooms >= nbuckets && nbuckets < (1u << 24))
		grow();
	b = id_hash(r->rr.rec.id);
	r->hnext = table[b];
	table[b] = r;
	nrooms++;
}

int rooms_count(void)
{
	return nrooms;
}

const rooms_stats *rooms_get_stats(void)
{
	return &stats;
}

const store *rooms_get_store(void)
{
	return st;
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
	int64_t d = stopping ? -1 : rules_deadline(&r->rr, &cfg.lim);
	room *p;

	if (r->count_due && !stopping && (d < 0 || r->count_due < d))
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

int64_t rooms_next_deadline(void)
{
	return timer_head ? timer_head->deadline : -1;
}

/* ---- the open batch ---- */

static void dirty_unlink(room *r)
{
	if (!r->dpprev)
		return;
	*r->dpprev = r->dnext;
	if (r->dnext)
		r->dnext->dpprev = r->dpprev;
	r->dnext = NULL;
	r->dpprev = NULL;
}

static void mark_dirty_at(room *r, uint64_t seq)
{
	r->dirty_seq = seq;
	if (r->dpprev)
		return;
	r->dnext = dirty_rooms;
	if (dirty_rooms)
		dirty_rooms->dpprev = &r->dnext;
	dirty_rooms = r;
	r->dpprev = &dirty_rooms;
}

/* r was written in the open batch. */
static void mark_dirty(room *r)
{
	mark_dirty_at(r, started + 1);
}

static void store_failing(const char *why)
{
	if (!stats.store_ok)
		return;
	stats.store_ok = 0;
	last_probe = now_ms();
	log_event(LOG_ERROR, "store_failing", "error=\"%s; changes are refused until it can"
	          " write again (tried every second)\"", why);
}

uint64_t rooms_release_seq(void)
{
	return started + (st->ops->pending(st) ? 1 : 0);
}

uint64_t rooms_committed(void)
{
	return commits;
}

int rooms_outstanding(void)
{
	return (int)(started - answered) + (st->ops->pending(st) ? 1 : 0);
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void rollback(void);
static void detach(room_member *m);
static void room_free(room *r);

/* Several servers: the chat lines of batches not confirmed yet, written
 * again if their batch is refused for another room (fenced_rewrite). */
typedef struct pending_chat {
	uint64_t seq;
	char id[ROOM_ID_LEN + 1];
	store_chat c;
} pending_chat;
static pending_chat *pchats;
static int npchats, cappchats;

static void pchat_add(const char *id, const store_chat *c)
{
	if (npchats == cappchats) {
		int cap = cappchats ? cappchats * 2 : 16;
		pending_chat *p = realloc(pchats, (size_t)cap * sizeof *p);

		if (!p)
			return; /* only a fence's rewrite would miss it */
		pchats = p;
		cappchats = cap;
	}
	pchats[npchats].seq = started + 1;
	snprintf(pchats[npchats].id, sizeof pchats[npchats].id, "%s", id);
	pchats[npchats++].c = *c;
}

static void pchats_confirmed(uint64_t seq)
{
	int kept = 0;

	for (int i = 0; i < npchats; i++)
		if (pchats[i].seq > seq)
			pchats[kept++] = pchats[i];
	npchats = kept;
	if (!npchats && cappchats > 64) {
		free(pchats);
		pchats = NULL;
		cappchats = 0;
	}
}

/* Batch k was refused because room st->fenced is another server's (several
 * servers): that room goes (its members are closed as after a failed
 * commit: their change was not made), and everything else the lost batch
 * and the later ones not yet confirmed wrote is written again, whole, in
 * the open batch, with their messages held for it: the other rooms lose
 * nothing and the store keeps working. (Later batches that commit meanwhile
 * are overwritten by the same or newer rows: every write is a whole row.)
 * 0, or -1 when a write could not be queued (then the batch is lost as any
 * other). */
static int fenced_rewrite(uint64_t k)
{
	uint64_t open = started + 1;
	room *f = find(st->fenced);
	int n = 0;

	if (f) {
		while (f->members) {
			room_member *m = f->members;

			io.forget(m);
			detach(m);
			io.close(m, ROOMS_CLOSE_STORE_FAILED, "store failed");
		}
		log_event(LOG_WARN, "room_fenced", "room=%s batch=%llu", st->fenced,
		          (unsigned long long)k);
		room_free(f);
		stats.rooms_fenced++;
	}
	io.retag(k, open);
	for (room *r = dirty_rooms; r; r = r->dnext) {
		if (r->dirty_seq >= open)
			continue; /* written whole in the open batch already */
		if (r->created_seq >= k && st->ops->insert(st, &r->rr.rec) < 0)
			return -1;
		if (st->ops->update_moves(st, &r->rr.rec, r->rr.moves, r->rr.nmoves) < 0)
			return -1;
		r->dirty_seq = open;
		n++;
	}
	for (int i = 0; i < ndeleted; i++)
		if (deleted[i].seq >= k && deleted[i].seq < open && strcmp(deleted[i].id, st->fenced)) {
			if (st->ops->remove(st, deleted[i].id) < 0)
				return -1;
			deleted[i].seq = open;
		}
	for (int i = 0; i < npchats; i++)
		if (pchats[i].seq >= k && pchats[i].seq < open && strcmp(pchats[i].id, st->fenced)) {
			if (!find(pchats[i].id) || st->ops->chat_add(st, pchats[i].id, &pchats[i].c) < 0)
				continue; /* its room went meanwhile */
			pchats[i].seq = open;
		}
	stats.batches_rewritten++;
	log_event(LOG_WARN, "batch_rewritten", "batch=%llu fenced=%s rooms=%d",
	          (unsigned long long)k, st->fenced, n);
	return 0;
}

/* The store's answer for batch seq (arg). */
static void flushed(void *arg, int rc)
{
	uint64_t seq = (uint64_t)(uintptr_t)arg;
	uint64_t us = (uint64_t)(now_us() - flush_t0[seq % INFLIGHT_MAX]);

	answered = seq;
	stats.commits++;
	stats.commit_us += us;
	if (us > stats.commit_max_us)
		stats.commit_max_us = us;
	if (rc == STORE_FENCED && fenced_rewrite(seq) == 0)
		return;
	if (rc < 0) {
		stats.commits_failed++;
		store_failing("a commit failed");
		/* Every message not confirmed yet goes (later batches were built
		 * on this one), then the rooms they changed are read back. */
		io.drop();
		rollback();
		return;
	}
	commits = seq;
	if (npchats)
		pchats_confirmed(seq);
	/* Rooms and deletions of later batches (still in flight, or open)
	 * stay noted. */
	for (room *r = dirty_rooms, *next; r; r = next) {
		next = r->dnext;
		if (r->dirty_seq <= seq)
			dirty_unlink(r);
	}
	{
		int kept = 0;

		for (int i = 0; i < ndeleted; i++)
			if (deleted[i].seq > seq)
				deleted[kept++] = deleted[i];
		ndeleted = kept;
	}
	if (reclaim_due && answered == started && !st->ops->pending(st)) {
		reclaim_due = 0;
		st->ops->reclaim(st);
	}
}

void rooms_flush(void)
{
	uint64_t seq;

	if (!st->ops->pending(st) || started - answered >= INFLIGHT_MAX)
		return;
	seq = ++started;
	flush_t0[seq % INFLIGHT_MAX] = now_us();
	st->ops->flush(st, flushed, (void *)(uintptr_t)seq);
}

static void reload_next(void);

void rooms_probe(void)
{
	int64_t now = now_ms();

	if (nreloads && !reloads_busy && now - last_reload >= PROBE_EVERY_MS) {
		last_reload = now;
		reload_next();
	}
	if (stats.store_ok || now - last_probe < PROBE_EVERY_MS)
		return;
	last_probe = now;
	if (st->ops->probe(st) < 0)
		return;
	stats.store_ok = 1;
	log_event(LOG_INFO, "store_recovered", "rooms=%d", nrooms);
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
	io.send(m, state_text(r));
}

static void timer_update(room *r);

/* The seats of rr with a connection now: bit 1 << side each. */
static int seats_connected(const rules_room *rr)
{
	return (rr->present[0] ? 1 : 0) | (rr->present[1] ? 2 : 0);
}

/* In a store shared by several servers, the seats connected go with the
 * open batch (the others' POST /api/rooms reads them); on failure they
 * are noted with the next state. */
static void note_seats(room *r)
{
	int seats = seats_connected(&r->rr);

	if (st->ops->presence && seats != r->seats_noted && stats.store_ok &&
	    st->ops->presence(st, r->rr.rec.id, seats) == 0)
		r->seats_noted = (uint8_t)seats;
}

/* Every member gets the state (which also carries the spectators' count). */
static void broadcast(room *r)
{
	note_seats(r);
	if (r->members)
		io.send_all(r->members, state_text(r));
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
	proto_welcome_write(&out, r->rr.rec.id, r->rr.rec.kind, seat, token);
	io.send(m, &out);
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

static void detach(room_member *m)
{
	room *r = m->room;

	if (!r)
		return;
	if (m->prev)
		m->prev->next = m->next;
	else
		r->members = m->next;
	if (m->next)
		m->next->prev = m->prev;
	if (m->seat >= 0 && r->seat_member[m->seat] == m)
		r->seat_member[m->seat] = NULL;
	m->room = NULL;
	m->next = m->prev = NULL;
}

/* The one teardown of a room: out of the table, the timers and the batch;
 * members still in it are detached; freed. */
static void room_free(room *r)
{
	room **pp = &table[id_hash(r->rr.rec.id)];

	while (*pp && *pp != r)
		pp = &(*pp)->hnext;
	if (*pp) {
		*pp = r->hnext;
		nrooms--;
	}
	while (r->members)
		detach(r->members);
	if (r->owner)
		r->owner->rooms_held--;
	timer_unlink(r);
	dirty_unlink(r);
	rules_room_free(&r->rr);
	free(r);
}

static void histories_free(void);

void rooms_free_all(void)
{
	for (unsigned b = 0; table && b < nbuckets; b++)
		while (table[b])
			room_free(table[b]);
	free(table);
	table = NULL;
	histories_free();
	free(deleted);
	deleted = NULL;
	ndeleted = capdeleted = 0;
	free(reloads);
	reloads = NULL;
	nreloads = capreloads = 0;
	free(pchats);
	pchats = NULL;
	npchats = cappchats = 0;
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

/* A new seat token (base64url, no padding) in out, and its hash. */
static void token_new(char out_text[TOKEN_TEXT], uint8_t hash[SHA256_LEN])
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t raw[TOKEN_BYTES + 1];
	int n = 0;

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
	if (!stats.store_ok)
		return -1;
	if (o->save == RULES_SAVE_MOVES && o->pit >= 0) {
		if (rules_reserve(&r->rr) < 0)
			return -1;
		/* Past the moves played: the room shows it only once applied. */
		r->rr.moves[r->rr.nmoves] = (uint8_t)o->pit;
		rc = st->ops->update_moves(st, &o->rec, r->rr.moves, r->rr.nmoves + 1);
	} else if (o->save == RULES_SAVE_MOVES)
		rc = st->ops->update_moves(st, &o->rec, NULL, 0);
	else
		rc = st->ops->update(st, &o->rec);
	if (rc == 0)
		mark_dirty(r);
	return rc;
}

static void game_end_log(const room *r)
{
	int winner, reason = rules_end_reason(&r->rr, &winner);
	const char *w = proto_winner_name(winner);

	stats.games_ended++;
	log_event(LOG_INFO, "game_ended", "room=%s game=%u reason=%s winner=%s plies=%d",
	          r->rr.rec.id, r->rr.rec.game_number, proto_reason_name(reason),
	          w ? w : "none", r->rr.nmoves);
}

/* The clock of r's side to move runs: its connection's round trip is
 * measured now, for the credit of its move. */
static void probe_mover(const room *r)
{
	room_member *m;

	if (!r->rr.rec.clock_kind || !rules_clock_running(&r->rr))
		return;
	m = r->seat_member[rules_turn(&r->rr)];
	if (m && io.probe)
		io.probe(m);
}

/* Saves o, or answers m with its error (and the state on resync): 0 to
 * go on and apply o, -1 when it was refused. */
static int decided(room_member *m, room *r, const rules_out *o)
{
	if (o->error || (o->save == RULES_KEEP && !o->joins)) {
		if (o->error)
			io.error(m, o->error, o->why);
		if (o->resync) /* after a stale ply, or alone for a resend */
			send_state(m, r);
		return -1;
	}
	if (save(r, o) < 0 && !o->presence) {
		io.error(m, PROTO_E_INTERNAL, stats.store_ok
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

static int note_deleted(const char *id);

/* A room without a game: a seat was never taken, or its players never
 * made a move (its first game has none, whether over or not). Such a
 * room makes way at any time in a full table once nobody is connected
 * to it, and expires after --expire-unjoined (after --expire-finished
 * when both seats are taken and its game is over). */
static int gameless(const room *r)
{
	const room_rec *rec = &r->rr.rec;

	return !rec->has_tok[0] || !rec->has_tok[1] ||
	       (rec->game_number <= 1 && r->rr.nmoves == 0);
}

/* Which rooms make way when the table is full, first to last: 0 a room
 * without a game; 1 a finished game; 2 a game in progress; -1 never (a
 * member connected, or a game idle less than --evict-idle, or a
 * correspondence game less than its days per move). */
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

	for (unsigned b = 0; b < nbuckets; b++)
		for (room *r = table[b]; r; r = r->hnext) {
			int c = evict_class(r, now);

			if (c >= 0 && (c < best_class || (c == best_class &&
			    r->rr.rec.updated < best->rr.rec.updated))) {
				best = r;
				best_class = c;
			}
		}
	if (!best || note_deleted(best->rr.rec.id) < 0)
		return -1;
	if (st->ops->remove(st, best->rr.rec.id) < 0) {
		ndeleted--;
		return -1;
	}
	log_event(LOG_INFO, "room_evicted", "room=%s reason=full idle=%lld class=%s",
	          best->rr.rec.id, (long long)(now - best->rr.rec.updated),
	          best_class == 0 ? "no_game" : best_class == 1 ? "finished" : "unfinished");
	room_free(best);
	stats.rooms_evicted++;
	reclaim_due = 1;
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
	room *r = find(q->id);
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
		st->ops->chat_recent(st, q->id, STORE_CHAT_KEEP, history_add, history_done, q);
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
			io.send(m, &out);
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
	st->ops->chat_recent(st, r->rr.rec.id, STORE_CHAT_KEEP, history_add, history_done, q);
}

/* 0 when m may send a chat line now (counted against its seat and its
 * address), else -1 with the error sent: its seat sent ROOMS_CHAT_BURST
 * in the last window (on any connection), or its address IP_CHAT_BURST. */
static int chat_allow(room_member *m, room *r, int64_t now)
{
	int seat = m->seat;

	if (ring_allow(r->chat_at[seat], &r->chat_next[seat], ROOMS_CHAT_BURST, now,
	               cfg.chat_window_ms) < 0) {
		io.error(m, PROTO_E_RATE_LIMITED, "too many chat lines: at most 5 in 10 seconds"
		         " from a seat");
		return -1;
	}
	if (m->ip && ip_chat_allow(m->ip, now, cfg.chat_window_ms) < 0) {
		ring_undo(r->chat_at[seat], &r->chat_next[seat], ROOMS_CHAT_BURST);
		io.error(m, PROTO_E_RATE_LIMITED, "too many chat lines: at most 20 in 10 seconds"
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
	if (!stats.store_ok || st->ops->chat_add(st, r->rr.rec.id, &c) < 0) {
		/* Not sent: the line does not count against the limits. */
		ring_undo(r->chat_at[m->seat], &r->chat_next[m->seat], ROOMS_CHAT_BURST);
		if (m->ip)
			ring_undo(m->ip->chat_at, &m->ip->chat_next, IP_CHAT_BURST);
		io.error(m, PROTO_E_INTERNAL, stats.store_ok
		         ? "the store failed; the line was not sent"
		         : "the store cannot save changes now; the line was not sent");
		return;
	}
	mark_dirty(r);
	if (st->ops->take)
		pchat_add(r->rr.rec.id, &c);
	stats.chat_lines++;
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
					io.send(x, &out);
			}
			return;
		}
	io.send_all(r->members, &out);
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

	if (!stats.store_ok) {
		io.error(m, PROTO_E_INTERNAL, "the store cannot save changes now; no room was created");
		return;
	}
	if (m->ip && m->ip->rooms_held >= cfg.max_rooms_per_ip) {
		io.error(m, PROTO_E_RATE_LIMITED, "too many rooms held from this address; finish or"
		         " wait for some to expire");
		return;
	}
	if (m->ip && ip_room_allow(m->ip, now_ms(), cfg.rooms_per_ip_per_min) < 0) {
		io.error(m, PROTO_E_RATE_LIMITED, "too many rooms created from this address; wait a minute");
		return;
	}
	if (nrooms >= cfg.max_rooms && evict() < 0) {
		io.error(m, PROTO_E_TOO_MANY_ROOMS, "the server holds its maximum of rooms");
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
	if (!r || rules_create(&r->rr, id, &in, &o) < 0 || st->ops->insert(st, &o.rec) < 0) {
		free(r);
		io.error(m, PROTO_E_INTERNAL, "could not create the room");
		return;
	}
	r->deadline = -1;
	insert(r);
	mark_dirty(r);
	r->created_seq = started + 1;
	if (m->ip) {
		r->owner = m->ip;
		m->ip->rooms_held++;
	}
	attach(r, m, o.seat);
	rules_apply(&r->rr, &o, in.now);
	stats.rooms_created++;
	log_event(LOG_INFO, "room_created", "room=%s kind=%s side=%s addr=%s",
	          id, r->rr.rec.kind, proto_side_name(o.seat), m->addr);
	set_name(m, "");
	send_welcome(m, r, o.seat, token);
	send_state(m, r);
}

static int reloading(const char *id);
static void restore_one(void *arg, const room_rec *rec, const uint8_t *pits, int n);
static void join_found(room_member *m, room *r, const proto_msg *msg);

/* Several servers: joins waiting for their room to be taken from the
 * database, by room (one take each). A member that leaves meanwhile is
 * cleared from its waiter (m NULL). */
typedef struct waiter {
	struct waiter *next;
	room_member *m;
	int64_t deadline;       /* ms: relayed or retried until then */
	proto_msg msg;
} waiter;

typedef struct take_req {
	struct take_req *next;
	char id[PROTO_ROOM_MAX + 1];
	int stale;              /* the lease was lost meanwhile: its answer is not ours */
	waiter *waiters;
} take_req;

static take_req *takes;

static void taken(void *arg, int rc)
{
	take_req *t = arg, **pp = &takes;
	room *r = find(t->id);

	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
	if (rc == STORE_TAKEN && !t->stale)
		log_event(LOG_INFO, "room_taken", "room=%s", t->id);
	while (t->waiters) {
		waiter *w = t->waiters;

		t->waiters = w->next;
		if (w->m) {
			w->m->waiting = 0;
			if (t->stale)
				io.error(w->m, PROTO_E_INTERNAL, "this server lost its hold on its rooms"
				         " while taking this one; join again");
			else if (r)
				join_found(w->m, r, &w->msg);
			else if (rc == STORE_ELSEWHERE)
				; /* relayed (relay_to) */
			else if (rc == STORE_NONE || rc == STORE_TAKEN) /* TAKEN: not restorable
				                                          * (restore_failed) */
				io.error(w->m, PROTO_E_NO_ROOM, "no room has that id (or it expired)");
			else
				io.error(w->m, PROTO_E_INTERNAL, "the room cannot be taken over now (the"
				         " store fails, or another server still holds it); try again");
		}
		free(w);
	}
	free(t);
}

/* A room taken: into the table (the take's arg is not a count), unless
 * the lease was lost since the take was asked (it would be held by the
 * former incarnation: every write fenced). */
static void restore_taken(void *arg, const room_rec *rec, const uint8_t *pits, int n)
{
	take_req *t = arg;

	if (!t->stale)
		restore_one(NULL, rec, pits, n);
}

/* The store found t's room held by another live server, which takes
 * relayed connections at addr: its waiters are relayed there rather than
 * waiting for it to give the room up (a player of the room connected
 * there keeps it there; server/CLUSTER.md, "Split routing"). */
static int relay_to(void *arg, const char *addr, const char *key)
{
	take_req *t = arg;

	if (!io.relay || !addr[0] || !key[0])
		return 0;
	for (waiter *w = t->waiters; w; w = w->next)
		if (w->m) {
			w->m->waiting = 0;
			if (io.relay(w->m, addr, key, &w->msg, w->deadline) < 0)
				io.error(w->m, PROTO_E_INTERNAL, "out of memory; try again");
			w->m = NULL;
		}
	return 1;
}

/* m waits for room msg->room, which this server does not hold, to be
 * taken from the store (or relayed to its holder) until deadline (ms). */
static void wait_take(room_member *m, const proto_msg *msg, int64_t deadline)
{
	take_req *t;
	waiter *w = malloc(sizeof *w);

	for (t = takes; t && strcmp(t->id, msg->room); t = t->next)
		;
	if (!w || (!t && !(t = calloc(1, sizeof *t)))) {
		free(w);
		io.error(m, PROTO_E_INTERNAL, "out of memory; try again");
		return;
	}
	w->m = m;
	w->deadline = deadline;
	w->msg = *msg;
	w->next = t->waiters;
	t->waiters = w;
	m->waiting = 1;
	if (t->id[0])
		return; /* its take is under way */
	snprintf(t->id, sizeof t->id, "%s", msg->room);
	t->next = takes;
	takes = t;
	st->ops->take(st, t->id, restore_taken, taken, relay_to, t);
}

void rooms_relay_failed(room_member *m, const proto_msg *join, int64_t deadline)
{
	if (m->room || m->waiting)
		return;
	if (now_ms() >= deadline) {
		io.error(m, PROTO_E_INTERNAL, "the server that holds the room cannot be reached"
		         " now; join again");
		return;
	}
	wait_take(m, join, deadline);
}

static void do_join(room_member *m, const proto_msg *msg)
{
	room *r = find(msg->room);

	if (m->ip && ip_join_allow(m->ip, now_ms(), cfg.joins_per_ip_per_min) < 0) {
		io.error(m, PROTO_E_RATE_LIMITED, "too many joins from this address; wait a minute");
		return;
	}
	if (!r && reloading(msg->room)) {
		io.error(m, PROTO_E_INTERNAL, "the room is being read back after a store failure;"
		         " try again in a moment");
		return;
	}
	if (!r && m->relay_in) {
		/* Relayed here by a server that found the room held here: it is
		 * not (any more). Never taken for a relay: the relaying server
		 * takes it or relays again (server/CLUSTER.md, "Split routing"). */
		io.close(m, ROOMS_CLOSE_MOVED, "moved");
		return;
	}
	if (!r && st->ops->take && strlen(msg->room) == ROOM_ID_LEN) {
		wait_take(m, msg, now_ms() + cfg.join_wait_ms);
		return;
	}
	if (!r) {
		io.error(m, PROTO_E_NO_ROOM, "no room has that id (or it expired)");
		return;
	}
	join_found(m, r, msg);
}

/* m joins r, which this server holds. */
static void join_found(room_member *m, room *r, const proto_msg *msg)
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

		detach(old);
		io.error(old, PROTO_E_REPLACED, "another connection took this seat");
		io.close(old, PROTO_CLOSE_REPLACED, "replaced");
		log_event(LOG_INFO, "seat_replaced", "room=%s side=%s addr=%s", r->rr.rec.id,
		          proto_side_name(o.seat), m->addr);
	}
	set_name(m, o.seat < 0 && msg->has_name ? msg->name : "");
	attach(r, m, o.seat);
	rules_apply(&r->rr, &o, in.now);
	timer_update(r);
	stats.joins++;
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

void rooms_handle(room_member *m, const proto_msg *msg)
{
	room *r = m->room;
	rules_in in;
	rules_out o;

	if (msg->type == PROTO_MSG_CREATE || msg->type == PROTO_MSG_JOIN) {
		if (r || m->waiting)
			io.error(m, PROTO_E_ALREADY_JOINED, "this connection is already in a room");
		else if (msg->type == PROTO_MSG_CREATE)
			do_create(m, msg);
		else
			do_join(m, msg);
		return;
	}
	if (!r) {
		io.error(m, PROTO_E_NOT_JOINED, m->waiting ? "the room is being taken over from"
		         " another server; wait for the welcome" : "create or join a room first");
		return;
	}
	if (msg->type == PROTO_MSG_NAME && m->seat < 0) {
		spectator_name(m, r, msg);
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

		stats.moves++;
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
}

/* ---- POST /api/rooms (PROTOCOL.md, "Your games") ---- */

/* What a holder of a room's link sees of it. */
typedef struct room_summary {
	int found;
	char kind[PROTO_KIND_MAX + 1];
	int seat;                        /* the token's seat, or -1 */
	char name[2][PROTO_NAME_BYTES + 1];
	int taken[2], connected[2];
	unsigned game_number;
	int moves, over, turn, winner, reason;
	int64_t updated;
	proto_clock_view clock;
} room_summary;

static void summarize(const rules_room *rr, int seats, const char *token, room_summary *s)
{
	proto_state_view v;

	s->found = 1;
	snprintf(s->kind, sizeof s->kind, "%s", rr->rec.kind);
	s->seat = token[0] ? rules_token_seat(rr, token) : -1;
	for (int i = 0; i < 2; i++) {
		snprintf(s->name[i], sizeof s->name[i], "%s", rr->rec.name[i]);
		s->taken[i] = rr->rec.has_tok[i];
		s->connected[i] = seats >> i & 1;
	}
	s->game_number = rr->rec.game_number;
	s->moves = rr->nmoves;
	s->over = rules_over(rr);
	s->turn = rules_turn(rr);
	s->reason = rules_end_reason(rr, &s->winner);
	s->updated = rr->rec.updated;
	rules_view(rr, &cfg.lim, now_ms(), &v);
	s->clock = v.clock;
}

static void summary_write(jw *w, const char *id, const room_summary *s)
{
	jw_obj(w);
	jw_key(w, "room");
	jw_str(w, id);
	jw_key(w, "found");
	jw_bool(w, s->found);
	if (!s->found) {
		jw_obj_end(w);
		return;
	}
	jw_key(w, "kind");
	jw_str(w, s->kind);
	jw_key(w, "seat");
	jw_str(w, proto_side_name(s->seat));
	jw_key(w, "names");
	jw_obj(w);
	for (int i = 0; i < 2; i++) {
		jw_key(w, proto_side_name(i));
		jw_str(w, s->name[i][0] ? s->name[i] : NULL);
	}
	jw_obj_end(w);
	jw_key(w, "seats");
	jw_obj(w);
	for (int i = 0; i < 2; i++) {
		jw_key(w, proto_side_name(i));
		jw_obj(w);
		jw_key(w, "taken");
		jw_bool(w, s->taken[i]);
		jw_key(w, "connected");
		jw_bool(w, s->connected[i]);
		jw_obj_end(w);
	}
	jw_obj_end(w);
	jw_key(w, "game_number");
	jw_int(w, s->game_number);
	jw_key(w, "moves");
	jw_int(w, s->moves);
	jw_key(w, "over");
	jw_bool(w, s->over);
	jw_key(w, "turn");
	jw_str(w, s->over ? NULL : proto_side_name(s->turn));
	jw_key(w, "winner");
	jw_str(w, s->over ? proto_winner_name(s->winner) : NULL);
	jw_key(w, "reason");
	jw_str(w, s->over ? proto_reason_name(s->reason) : NULL);
	jw_key(w, "updated");
	jw_int(w, s->updated);
	jw_key(w, "time_control");
	proto_clock_write(w, &s->clock);
	jw_obj_end(w);
}

/* A room of this server, or none when the store is this server's alone. */
static void summarize_here(const proto_room_ref *ref, room_summary *s)
{
	const room *r = find(ref->room);

	if (!r) {
		s->found = 0;
		return;
	}
	summarize(&r->rr, seats_connected(&r->rr), ref->token, s);
}

/* A POST /api/rooms whose rooms are partly read from a store shared by
 * several servers: one read each, in flight together. */
struct rooms_query {
	rooms_query_fn *fn;              /* NULL once cancelled */
	void *arg;
	int n, pending, failed;
	proto_room_ref refs[ROOMS_QUERY_MAX];
	room_summary sum[ROOMS_QUERY_MAX];
	struct query_slot {
		rooms_query *q;
		int i;
	} slot[ROOMS_QUERY_MAX];
};

static void query_answer(const proto_room_ref *refs, const room_summary *sum, int n,
                         rooms_query_fn *fn, void *arg)
{
	jw w;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "rooms");
	jw_arr(&w);
	for (int i = 0; i < n; i++)
		summary_write(&w, refs[i].room, &sum[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	fn(arg, &w);
	jw_free(&w);
}

static void query_peeked(void *arg, const room_rec *rec, const uint8_t *pits, int n, int seats)
{
	struct query_slot *sl = arg;
	rules_room tmp;

	memset(&tmp, 0, sizeof tmp);
	/* As a server that took it would show it (an unknown kind: none). */
	if (rules_restore(&tmp, rec, pits, n, now_ms(), NULL) == 0)
		summarize(&tmp, seats, sl->q->refs[sl->i].token, &sl->q->sum[sl->i]);
	rules_room_free(&tmp);
}

static void query_read(void *arg, int rc)
{
	struct query_slot *sl = arg;
	rooms_query *q = sl->q;

	if (rc < 0)
		q->failed = 1;
	if (--q->pending)
		return;
	if (q->fn && q->failed)
		q->fn(q->arg, NULL);
	else if (q->fn) {
		/* Rooms of this server as they are now (one read meanwhile may
		 * have taken one). */
		for (int i = 0; i < q->n; i++)
			if (find(q->refs[i].room))
				summarize_here(&q->refs[i], &q->sum[i]);
		query_answer(q->refs, q->sum, q->n, q->fn, q->arg);
	}
	free(q);
}

rooms_query *rooms_query_start(const proto_room_ref *refs, int n, rooms_query_fn *fn, void *arg)
{
	static room_summary sum[ROOMS_QUERY_MAX];
	rooms_query *q;
	int away = 0;

	for (int i = 0; i < n; i++)
		away += !find(refs[i].room);
	if (!away || !st->ops->peek) {
		for (int i = 0; i < n; i++)
			summarize_here(&refs[i], &sum[i]);
		query_answer(refs, sum, n, fn, arg);
		return NULL;
	}
	q = calloc(1, sizeof *q);
	if (!q) {
		fn(arg, NULL);
		return NULL;
	}
	q->fn = fn;
	q->arg = arg;
	q->n = n;
	q->pending = away + 1;
	memcpy(q->refs, refs, (size_t)n * sizeof *refs);
	for (int i = 0; i < n; i++) {
		q->slot[i] = (struct query_slot){q, i};
		if (!find(refs[i].room))
			st->ops->peek(st, refs[i].room, query_peeked, query_read, &q->slot[i]);
	}
	/* Its own count: a store that answers at once ends it here. */
	if (--q->pending == 0) {
		q->pending = 1;
		query_read(&q->slot[0], 0);
		return NULL;
	}
	return q;
}

void rooms_query_cancel(rooms_query *q)
{
	q->fn = NULL;
}

void rooms_leave(room_member *m)
{
	room *r = m->room;
	rules_in in;
	rules_out o;

	free(m->name);
	m->name = NULL;
	if (m->waiting) {
		for (take_req *t = takes; t; t = t->next)
			for (waiter *w = t->waiters; w; w = w->next)
				if (w->m == m)
					w->m = NULL;
		m->waiting = 0;
	}
	if (!r)
		return;
	detach(m);
	if (stopping)
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
		} else if (r->count_due && r->count_due <= now)
			broadcast(r);
		timer_update(r);
		if (r->deadline >= 0 && r->deadline <= now)
			break; /* not due after all (it cannot be): try again later */
	}
}

/* ---- set-up, restore, expiry, rollback ---- */

/* Closes r's members with 4002 "moved" (they come back through the
 * routing to the server that holds it next) and frees it. */
static void room_moved(room *r)
{
	while (r->members) {
		room_member *m = r->members;

		detach(m);
		io.close(m, ROOMS_CLOSE_MOVED, "moved");
	}
	room_free(r);
}

/* The lease is lost: no room is this server's any more. Writes in flight
 * are fenced and fail; what they would have shown is dropped with them. */
static void on_lost(void *arg)
{
	int n = nrooms;

	(void)arg;
	for (unsigned b = 0; b < nbuckets; b++)
		while (table[b])
			room_moved(table[b]);
	for (take_req *t = takes; t; t = t->next)
		t->stale = 1;
	ndeleted = 0;
	nreloads = 0;
	npchats = 0;
	reclaim_due = 0;
	log_event(LOG_WARN, "rooms_dropped", "rooms=%d reason=lease_lost", n);
}

/* 1 when a player of r is connected here directly (not relayed). */
static int direct_player(const room *r)
{
	for (int i = 0; i < 2; i++)
		if (r->seat_member[i] && !r->seat_member[i]->relay_in)
			return 1;
	return 0;
}

/* Another server wants room id: unless a player of it is connected here
 * directly, given up in the open batch, its members sent there. Released even when it is not in the table (a release that
 * was lost with its batch leaves the room held here). */
static void on_wanted(void *arg, const char *id)
{
	room *r = find(id);

	(void)arg;
	if (stopping || !stats.store_ok)
		return;
	if (r && direct_player(r)) {
		/* Kept: the other server relays its members here. */
		log_event(LOG_DEBUG, "room_kept", "room=%s", id);
		return;
	}
	if (st->ops->release(st, id) < 0)
		return;
	if (r) {
		log_event(LOG_INFO, "room_released", "room=%s members=%d", id,
		          (int)(r->rr.present[0] + r->rr.present[1] + r->rr.spectators));
		st->rooms_released++;
		room_moved(r);
	}
}

int rooms_init(const rooms_config *c, store *s, const rooms_io *i)
{
	cfg = *c;
	st = s;
	io = *i;
	stopping = 0;
	memset(&stats, 0, sizeof stats);
	stats.store_ok = 1;
	jw_init(&out);
	nbuckets = 1024;
	nrooms = 0;
	table = calloc(nbuckets, sizeof *table);
	if (!table)
		return -1;
	if (st->ops->probe(st) < 0)
		store_failing("the store cannot write");
	if (st->ops->set_events) {
		store_events ev = {on_lost, on_wanted, NULL};

		st->ops->set_events(st, &ev);
	}
	return 0;
}

void rooms_stop(void)
{
	stopping = 1;
}

static void restore_one(void *arg, const room_rec *rec, const uint8_t *pits, int n)
{
	room *r;
	int *count = arg, rc, bad;

	if (find(rec->id))
		return;
	r = calloc(1, sizeof *r);
	if (!r) {
		log_event(LOG_ERROR, "restore_failed", "room=%s error=\"out of memory\"", rec->id);
		return;
	}
	rc = rules_restore(&r->rr, rec, pits, n, now_ms(), &bad);
	if (rc < 0) {
		free(r);
		log_event(LOG_ERROR, "restore_failed", "room=%s error=\"%s\"", rec->id,
		          rc == RULES_E_NOMEM ? "out of memory" : "unknown kind");
		return;
	}
	if (bad >= 0)
		log_event(LOG_ERROR, "restore_bad_move", "room=%s ply=%d", rec->id, bad);
	r->deadline = -1;
	insert(r);
	timer_update(r);
	if (count)
		(*count)++;
}

int rooms_restore(void)
{
	int count = 0;

	if (st->ops->load(st, restore_one, &count) < 0)
		return -1;
	return count;
}

/* Notes id as deleted in the open batch: 0, or -1 out of memory. */
static int note_deleted(const char *id)
{
	if (ndeleted == capdeleted) {
		int cap = capdeleted ? capdeleted * 2 : 16;
		void *p = realloc(deleted, (size_t)cap * sizeof *deleted);

		if (!p)
			return -1;
		deleted = p;
		capdeleted = cap;
	}
	snprintf(deleted[ndeleted].id, sizeof deleted[ndeleted].id, "%s", id);
	deleted[ndeleted++].seq = started + 1;
	return 0;
}

static void idle_taken(void *arg, int rc)
{
	(void)arg;
	if (rc > 0) {
		st->rooms_taken += (uint64_t)rc;
		log_event(LOG_INFO, "rooms_taken_idle", "rooms=%d", rc);
	}
}

void rooms_expire(void)
{
	int64_t now = (int64_t)time(NULL);
	int shortest = cfg.expire_unjoined;

	if (!stats.store_ok)
		return;
	/* Several servers: rooms a dead server held that nobody joined since
	 * are taken when idle past the shortest expiry; the next sweep expires
	 * those that are due. */
	if (cfg.expire_finished < shortest)
		shortest = cfg.expire_finished;
	if (cfg.expire_unfinished < shortest)
		shortest = cfg.expire_unfinished;
	if (st->ops->take_idle && !stopping)
		st->ops->take_idle(st, now - shortest, restore_taken, idle_taken, NULL);
	for (unsigned b = 0; b < nbuckets; b++) {
		for (room *r = table[b], *next; r; r = next) {
			const room_rec *rec = &r->rr.rec;
			int64_t idle = now - rec->updated;
			int limit = !rec->has_tok[0] || !rec->has_tok[1] ? cfg.expire_unjoined
			          : rules_over(&r->rr) ? cfg.expire_finished
			          : gameless(r) ? cfg.expire_unjoined : cfg.expire_unfinished;

			next = r->hnext;
			if (r->members || idle < limit || note_deleted(rec->id) < 0)
				continue;
			if (st->ops->remove(st, rec->id) < 0) {
				ndeleted--;
				continue;
			}
			log_event(LOG_INFO, "room_expired", "room=%s idle=%lld finished=%d",
			          rec->id, (long long)idle, rules_over(&r->rr));
			room_free(r);
			stats.rooms_expired++;
			reclaim_due = 1;
		}
	}
}

static int reloading(const char *id)
{
	for (int i = 0; i < nreloads; i++)
		if (!strcmp(reloads[i], id))
			return 1;
	return 0;
}

/* The answer to the read of the first room to read back. */
static void reloaded(void *arg, int rc)
{
	(void)arg;
	reloads_busy = 0;
	if (!nreloads)
		return;
	if (rc < 0) {
		/* Tried again with the probe (every second or so). */
		log_event(LOG_ERROR, "room_reload_failed", "room=%s", reloads[0]);
		reload_failed = 1;
		return;
	}
	log_event(LOG_WARN, "room_rolled_back", "room=%s exists=%d", reloads[0], rc > 0);
	if (reload_seq && find(reloads[0]))
		mark_dirty_at(find(reloads[0]), reload_seq);
	memmove(reloads, reloads + 1, (size_t)--nreloads * sizeof *reloads);
	reload_next();
}

/* Reads the rooms to read back, one at a time, until one fails (then
 * the probe tries again). */
static void reload_next(void)
{
	reload_failed = 0;
	while (nreloads && !reloads_busy && !reload_failed) {
		if (find(reloads[0])) {
			memmove(reloads, reloads + 1, (size_t)--nreloads * sizeof *reloads);
			continue;
		}
		reloads_busy = 1;
		reload_seq = st->ops->pending(st) ? started + 1 : 0;
		/* restore_one skips a room the table has. */
		st->ops->load_room(st, reloads[0], restore_one, reloaded, NULL);
	}
}

/* Notes id to be read back from the store into the table. */
static void reload(const char *id)
{
	if (reloading(id))
		return;
	if (nreloads == capreloads) {
		int cap = capreloads ? capreloads * 2 : 16;
		void *p = realloc(reloads, (size_t)cap * sizeof *reloads);

		if (!p) {
			log_event(LOG_ERROR, "room_reload_failed", "room=%s error=\"out of memory\"", id);
			return;
		}
		reloads = p;
		capreloads = cap;
	}
	snprintf(reloads[nreloads++], ROOM_ID_LEN + 1, "%s", id);
}

/* After a lost batch: every room changed since the last confirmed commit
 * (in the lost batch, in later ones, and in the open one) is read back
 * from the store, and its members are closed (ROOMS_CLOSE_STORE_FAILED)
 * to come back with their tokens. */
static void rollback(void)
{
	char id[ROOM_ID_LEN + 1];

	while (dirty_rooms) {
		room *r = dirty_rooms;

		snprintf(id, sizeof id, "%s", r->rr.rec.id);
		while (r->members) {
			room_member *m = r->members;

			/* The close says why; a client that comes back with its
			 * token sees the room as stored (and may resend its move). */
			detach(m);
			io.close(m, ROOMS_CLOSE_STORE_FAILED, "store failed");
		}
		room_free(r);
		reload(id);
	}
	for (int i = 0; i < ndeleted; i++)
		reload(deleted[i].id);
	ndeleted = 0;
	npchats = 0;
	reclaim_due = 0;
	reload_next();
}
