/* test_rooms.c: Check tests of the rooms shell (server/rooms/rooms.h) where a
 * store shared by several servers makes it decide: over a fake store whose
 * answers (commits, takes) come when and how each test says, and a fake
 * transport that records what the rooms send, close and relay. Covered:
 * split routing (a join relayed to the holder, a relay that failed run
 * again, the join's deadline), takes crossing (joins sharing one take, a
 * member gone meanwhile), a fence in a mixed batch, a lease lost during a
 * take, and a restart with rooms wanted elsewhere (kept while a player of
 * its own is connected, given up otherwise). And the table's defences:
 * rooms whose game has not really started make way in a full table, and
 * the budget of rooms held from one network (issue 40, item 3). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/rooms/rooms.h"
#include "server/rules/rules.h"
#include "server/base/sha256.h"

/* ---- the fake store ---- */

#define MAX_LOG 128
#define MAX_PENDING 16
#define MAX_RECS 8

typedef struct fake_take {
	char id[ROOM_ID_LEN + 1];
	store_load_fn *fn;
	store_done_fn *done;
	store_where_fn *where;
	void *arg;
} fake_take;

static struct fake {
	store base;
	char log[MAX_LOG][128]; /* the writes, in order ("update ID", ...) */
	int nlog, open;
	struct {
		store_done_fn *done;
		void *arg;
	} flushes[MAX_PENDING];
	int nflush;
	fake_take takes[MAX_PENDING];
	int ntake;
	store_events ev;
	room_rec recs[MAX_RECS]; /* the rooms stored (restore, take) */
	int nrecs;
	int64_t chat_id;
} fk;

/* One write of the open batch: what, the room, and a number (-1: none). */
static void note(const char *what, const char *id, long n)
{
	if (fk.nlog < MAX_LOG && n >= 0)
		snprintf(fk.log[fk.nlog++], sizeof fk.log[0], "%s %s %ld", what, id, n);
	else if (fk.nlog < MAX_LOG)
		snprintf(fk.log[fk.nlog++], sizeof fk.log[0], "%s %s", what, id);
	fk.open = 1;
}

static int f_insert(store *s, const room_rec *r)
{
	(void)s;
	note("insert", r->id, -1);
	return 0;
}

static int f_update(store *s, const room_rec *r)
{
	(void)s;
	note("update", r->id, -1);
	return 0;
}

static int f_update_moves(store *s, const room_rec *r, const uint8_t *pits, int n)
{
	(void)s;
	note(pits ? "moves" : "update", r->id, pits ? n : -1);
	return 0;
}

static int f_remove(store *s, const char *id)
{
	(void)s;
	note("remove", id, -1);
	return 0;
}

static int f_pending(const store *s)
{
	(void)s;
	return fk.open;
}

static void f_flush(store *s, store_done_fn *done, void *arg)
{
	(void)s;
	if (!fk.open) {
		done(arg, 0);
		return;
	}
	fk.open = 0;
	ck_assert_int_lt(fk.nflush, MAX_PENDING);
	fk.flushes[fk.nflush].done = done;
	fk.flushes[fk.nflush++].arg = arg;
}

static int f_probe(store *s)
{
	(void)s;
	return 0;
}

static void f_reclaim(store *s)
{
	(void)s;
}

static int f_load(store *s, store_load_fn *fn, void *arg)
{
	(void)s;
	for (int i = 0; i < fk.nrecs; i++)
		fn(arg, &fk.recs[i], NULL, 0);
	return fk.nrecs;
}

static void f_load_room(store *s, const char *id, store_load_fn *fn, store_done_fn *done, void *arg)
{
	(void)s;
	(void)id;
	(void)fn;
	done(arg, 0);
}

static void f_close(store *s)
{
	(void)s;
}

static int f_chat_add(store *s, const char *id, store_chat *c)
{
	(void)s;
	c->id = ++fk.chat_id;
	note("chat", id, (long)c->id);
	return 0;
}

static void f_chat_recent(store *s, const char *id, int max, store_chat_fn *fn,
                          store_done_fn *done, void *arg)
{
	(void)s;
	(void)id;
	(void)max;
	(void)fn;
	done(arg, 0);
}

static int f_reachable(const store *s)
{
	(void)s;
	return 1;
}

static void f_take(store *s, const char *id, store_load_fn *fn, store_done_fn *done,
                   store_where_fn *where, void *arg)
{
	(void)s;
	ck_assert_int_lt(fk.ntake, MAX_PENDING);
	snprintf(fk.takes[fk.ntake].id, sizeof fk.takes[0].id, "%s", id);
	fk.takes[fk.ntake].fn = fn;
	fk.takes[fk.ntake].done = done;
	fk.takes[fk.ntake].where = where;
	fk.takes[fk.ntake++].arg = arg;
}

static void f_take_idle(store *s, int64_t before, store_load_fn *fn, store_done_fn *done,
                        void *arg)
{
	(void)s;
	(void)before;
	(void)fn;
	done(arg, 0);
}

static int f_release(store *s, const char *id)
{
	(void)s;
	note("release", id, -1);
	return 0;
}

static void f_set_events(store *s, const store_events *ev)
{
	(void)s;
	fk.ev = *ev;
}

static void f_peek(store *s, const char *id, store_peek_fn *fn, store_done_fn *done, void *arg)
{
	(void)s;
	(void)id;
	(void)fn;
	done(arg, 0);
}

static int f_presence(store *s, const char *id, int seats)
{
	(void)s;
	(void)id;
	(void)seats;
	return 0; /* not noted in the log: it follows every coming and going */
}

static const store_ops fake_ops = {
	.insert = f_insert, .update = f_update, .update_moves = f_update_moves,
	.remove = f_remove, .pending = f_pending, .flush = f_flush, .probe = f_probe,
	.reclaim = f_reclaim, .load = f_load, .load_room = f_load_room, .close = f_close,
	.chat_add = f_chat_add, .chat_recent = f_chat_recent, .reachable = f_reachable,
	.take = f_take, .take_idle = f_take_idle, .release = f_release,
	.set_events = f_set_events, .peek = f_peek, .presence = f_presence,
};

/* 1 when the store's log has this line. */
static int logged(const char *line)
{
	for (int i = 0; i < fk.nlog; i++)
		if (!strcmp(fk.log[i], line))
			return 1;
	return 0;
}

/* Answers the oldest commit waiting with rc (after fenced = id, if any). */
static void answer_flush(int rc, const char *fenced)
{
	ck_assert_int_gt(fk.nflush, 0);
	store_done_fn *done = fk.flushes[0].done;
	void *arg = fk.flushes[0].arg;

	memmove(fk.flushes, fk.flushes + 1, (size_t)--fk.nflush * sizeof fk.flushes[0]);
	if (fenced)
		snprintf(fk.base.fenced, sizeof fk.base.fenced, "%s", fenced);
	done(arg, rc);
}

static fake_take take_pop(void)
{
	fake_take t;

	ck_assert_int_gt(fk.ntake, 0);
	t = fk.takes[0];
	memmove(fk.takes, fk.takes + 1, (size_t)--fk.ntake * sizeof fk.takes[0]);
	return t;
}

/* A take answered: the room read (from fk.recs), then done. */
static void take_found(const fake_take *t)
{
	for (int i = 0; i < fk.nrecs; i++)
		if (!strcmp(fk.recs[i].id, t->id))
			t->fn(t->arg, &fk.recs[i], NULL, 0);
	t->done(t->arg, STORE_TAKEN);
}

/* ---- the fake transport ---- */

#define MAX_MEMBERS 16
typedef struct fmember {
	room_member m;
	char last_type[24];  /* the type of the last message sent */
	int welcomes, states, last_error, close_code, forgotten;
	int relayed;         /* relays asked */
	char relay_addr[64];
	proto_msg relay_join;
	int64_t relay_deadline;
	int relay_lease_ms;
} fmember;

static fmember members[MAX_MEMBERS];
static int retag_from, retag_to, retags;

static fmember *fm_of(room_member *m)
{
	return (fmember *)(void *)((char *)m - offsetof(fmember, m));
}

static void seen(room_member *m, const jw *w)
{
	fmember *f = fm_of(m);
	const char *t = w->len > 9 ? strstr(w->buf, "\"type\":\"") : NULL;

	if (!t)
		return;
	t += 8;
	snprintf(f->last_type, sizeof f->last_type, "%.*s", (int)strcspn(t, "\""), t);
	if (!strcmp(f->last_type, "welcome"))
		f->welcomes++;
	if (!strcmp(f->last_type, "state"))
		f->states++;
}

static void io_send(room_member *m, const jw *w)
{
	seen(m, w);
}

static void io_send_all(room_member *first, const jw *w)
{
	for (room_member *m = first; m; m = m->next)
		seen(m, w);
}

static void io_error(room_member *m, int code, const char *message)
{
	(void)message;
	fm_of(m)->last_error = code;
}

static void io_close(room_member *m, int code, const char *why)
{
	(void)why;
	fm_of(m)->close_code = code;
}

static void io_probe(room_member *m)
{
	(void)m;
}

static void io_drop(void)
{
}

static int io_relay(room_member *m, const char *addr, const char *key, const proto_msg *join,
                    int64_t deadline, int lease_ms)
{
	fmember *f = fm_of(m);

	(void)key;
	f->relayed++;
	snprintf(f->relay_addr, sizeof f->relay_addr, "%s", addr);
	f->relay_join = *join;
	f->relay_deadline = deadline;
	f->relay_lease_ms = lease_ms;
	return 0;
}

static void io_retag(uint64_t from, uint64_t to)
{
	retag_from = (int)from;
	retag_to = (int)to;
	retags++;
}

static void io_forget(room_member *m)
{
	fm_of(m)->forgotten++;
}

static const rooms_io fake_io = {io_send, io_send_all, io_error, io_close, io_probe, io_drop,
	io_relay, io_retag, io_forget};

/* ---- fixtures ---- */

static ip_budgets budgets;        /* what the rooms' config points at */

/* The rooms over the fake store, max_rooms of them at most and per_net
 * held from one network (0: no such budget). */
static void setup_with(int max_rooms, int per_net)
{
	rooms_config cfg;

	memset(&fk, 0, sizeof fk);
	fk.base.ops = &fake_ops;
	fk.base.kind = "fake";
	memset(members, 0, sizeof members);
	retag_from = retag_to = retags = 0;
	memset(&cfg, 0, sizeof cfg);
	budgets = (ip_budgets){.rooms_per_min = 1000, .joins_per_min = 1000};
	cfg.lim.abandon_ms = 300000;
	cfg.lim.max_spectators = 10;
	cfg.lim.day_ms = 86400000;
	cfg.max_rooms = max_rooms;
	cfg.max_rooms_per_net = per_net;
	cfg.ip = &budgets;
	cfg.max_rooms_per_ip = 100;
	cfg.expire_unfinished = cfg.expire_finished = cfg.expire_unjoined = 86400;
	cfg.evict_idle = 86400;
	cfg.chat_window_ms = ROOMS_CHAT_WINDOW_MS;
	cfg.history_per_ip_per_min = 1 << 20;
	cfg.join_wait_ms = 6000;
	log_set_level(LOG_ERROR);
	ck_assert_int_eq(rooms_init(&cfg, &fk.base, &fake_io), 0);
}

static void setup(void)
{
	setup_with(100, 0);
}

static void teardown(void)
{
	for (int i = 0; i < MAX_MEMBERS; i++)
		if (members[i].m.addr)
			rooms_leave(&members[i].m);
	rooms_free_all();
}

static room_member *member(int i)
{
	members[i].m.seat = RULES_SPECTATOR;
	members[i].m.addr = "test";
	return &members[i].m;
}

static proto_msg msg_of(int type)
{
	proto_msg m;

	memset(&m, 0, sizeof m);
	m.type = type;
	return m;
}

/* A room stored by "another server": its record in fk.recs. */
static const char *stored_room(const char *id)
{
	rules_room rr;
	rules_out o;
	rules_in in;
	proto_msg create = msg_of(PROTO_MSG_CREATE);
	rules_limits lim = {300000, 10, 0};
	uint8_t hash[SHA256_LEN];

	sha256("a token", 7, hash);
	create.side = OW_SOUTH;
	snprintf(create.kind, sizeof create.kind, "oware");
	memset(&in, 0, sizeof in);
	in.lim = &lim;
	in.now = now_ms();
	in.wall = 1000000;
	in.seat = RULES_SPECTATOR;
	in.msg = &create;
	in.fresh_tok = hash;
	ck_assert_int_eq(rules_create(&rr, id, &in, &o), 0);
	ck_assert_int_lt(fk.nrecs, MAX_RECS);
	fk.recs[fk.nrecs++] = o.rec;
	rules_room_free(&rr);
	return id;
}

#define ROOM_A "aaaaaaaa-0000-4000-8000-000000000001"
#define ROOM_B "bbbbbbbb-0000-4000-8000-000000000002"

static void join(int i, const char *id)
{
	proto_msg j = msg_of(PROTO_MSG_JOIN);

	snprintf(j.room, sizeof j.room, "%s", id);
	rooms_handle(member(i), &j);
}

/* Member i creates a room (south) and it is committed: its id. */
static const char *create(int i)
{
	proto_msg c = msg_of(PROTO_MSG_CREATE);

	c.side = OW_SOUTH;
	snprintf(c.kind, sizeof c.kind, "oware");
	rooms_handle(member(i), &c);
	ck_assert_int_eq(members[i].welcomes, 1);
	rooms_flush();
	answer_flush(0, NULL);
	return rooms_member_room(&members[i].m);
}

static void move(int i, int pit, int ply)
{
	proto_msg mv = msg_of(PROTO_MSG_MOVE);

	mv.pit = pit;
	mv.ply = ply;
	rooms_handle(&members[i].m, &mv);
}

/* ---- split routing ---- */

START_TEST(test_join_relayed_to_the_holder)
{
	stored_room(ROOM_A);
	join(0, ROOM_A);
	ck_assert_int_eq(members[0].m.waiting, 1);
	ck_assert_int_eq(fk.ntake, 1);
	fake_take t = take_pop();

	/* The store finds it held by a live server that takes relays. */
	ck_assert_int_eq(t.where(t.arg, "10.0.0.2:8081", "k", 2500), 1);
	t.done(t.arg, STORE_ELSEWHERE);
	ck_assert_int_eq(members[0].relayed, 1);
	ck_assert_str_eq(members[0].relay_addr, "10.0.0.2:8081");
	ck_assert_str_eq(members[0].relay_join.room, ROOM_A);
	ck_assert_int_eq(members[0].m.waiting, 0);
	ck_assert_int_eq(members[0].last_error, 0);
	ck_assert_int_eq(members[0].welcomes, 0);
	ck_assert_int_eq(rooms_count(), 0);
	/* The deadline is the join's: its arrival plus join_wait_ms. */
	ck_assert_int_gt(members[0].relay_deadline, now_ms() + 5000);
	ck_assert_int_le(members[0].relay_deadline, now_ms() + 6000);
	ck_assert_int_eq(members[0].relay_lease_ms, 2500); /* the holder's lease left, passed on */
}
END_TEST

START_TEST(test_relay_failed_runs_the_join_again)
{
	stored_room(ROOM_A);
	join(0, ROOM_A);
	fake_take t = take_pop();

	t.where(t.arg, "10.0.0.2:8081", "k", 2500);
	t.done(t.arg, STORE_ELSEWHERE);
	/* The holder gave the room up before the relay's welcome: taken here. */
	rooms_relay_failed(&members[0].m, &members[0].relay_join, members[0].relay_deadline);
	ck_assert_int_eq(members[0].m.waiting, 1);
	ck_assert_int_eq(fk.ntake, 1);
	t = take_pop();
	take_found(&t);
	ck_assert_int_eq(members[0].welcomes, 1);
	ck_assert_int_eq(members[0].m.seat, OW_NORTH);
	ck_assert_int_eq(rooms_count(), 1);
	ck_assert_int_eq(members[0].relayed, 1);
}
END_TEST

START_TEST(test_relay_failed_past_the_deadline_is_internal)
{
	stored_room(ROOM_A);
	join(0, ROOM_A);
	fake_take t = take_pop();

	t.where(t.arg, "10.0.0.2:8081", "k", 2500);
	t.done(t.arg, STORE_ELSEWHERE);
	rooms_relay_failed(&members[0].m, &members[0].relay_join, now_ms() - 1);
	ck_assert_int_eq(members[0].last_error, PROTO_E_INTERNAL);
	ck_assert_int_eq(fk.ntake, 0);
	ck_assert_int_eq(members[0].m.waiting, 0);
}
END_TEST

START_TEST(test_holder_without_relay_address_is_asked_again)
{
	stored_room(ROOM_A);
	join(0, ROOM_A);
	fake_take t = take_pop();

	/* No relay recorded (an older server): the store keeps asking. */
	ck_assert_int_eq(t.where(t.arg, "", "", 0), 0);
	ck_assert_int_eq(members[0].relayed, 0);
	ck_assert_int_eq(members[0].m.waiting, 1);
	t.done(t.arg, -1);
	ck_assert_int_eq(members[0].last_error, PROTO_E_INTERNAL);
}
END_TEST

START_TEST(test_relayed_join_never_takes)
{
	member(0)->relay_in = 1;
	stored_room(ROOM_A);
	join(0, ROOM_A);
	ck_assert_int_eq(fk.ntake, 0);
	ck_assert_int_eq(members[0].close_code, ROOMS_CLOSE_MOVED);
	ck_assert_int_eq(members[0].welcomes, 0);
}
END_TEST

/* ---- takes crossing ---- */

START_TEST(test_joins_share_one_take)
{
	stored_room(ROOM_A);
	join(0, ROOM_A);
	join(1, ROOM_A);
	join(2, ROOM_A);
	ck_assert_int_eq(fk.ntake, 1);
	rooms_leave(&members[1].m); /* gone before the answer */
	members[1].m.addr = NULL;
	fake_take t = take_pop();

	take_found(&t);
	ck_assert_int_eq(members[0].welcomes, 1);
	ck_assert_int_eq(members[1].welcomes, 0);
	ck_assert_int_eq(members[2].welcomes, 1);
	/* Two joins, two seats: north, then a spectator (south's is the
	 * creator's, with its token). */
	ck_assert_int_eq(members[0].m.seat + members[2].m.seat, OW_NORTH + RULES_SPECTATOR);
}
END_TEST

START_TEST(test_two_rooms_taken_crossing)
{
	stored_room(ROOM_A);
	stored_room(ROOM_B);
	join(0, ROOM_A);
	join(1, ROOM_B);
	ck_assert_int_eq(fk.ntake, 2);
	/* Answered in the other order. */
	fake_take ta = take_pop(), tb = take_pop();

	take_found(&tb);
	ck_assert_int_eq(members[1].welcomes, 1);
	ck_assert_int_eq(members[0].welcomes, 0);
	ck_assert_int_eq(ta.where(ta.arg, "10.0.0.3:1", "k", 2500), 1);
	ta.done(ta.arg, STORE_ELSEWHERE);
	ck_assert_int_eq(members[0].relayed, 1);
	ck_assert_int_eq(rooms_count(), 1);
}
END_TEST

/* Members 0 (south) and 1 in room a, 2 (south) and 3 in room b, the
 * joins committed. */
static void two_games(char a[ROOM_ID_LEN + 1], char b[ROOM_ID_LEN + 1])
{
	snprintf(a, ROOM_ID_LEN + 1, "%s", create(0));
	join(1, a);
	snprintf(b, ROOM_ID_LEN + 1, "%s", create(2));
	join(3, b);
	rooms_flush();
	answer_flush(0, NULL);
}

/* ---- a fence in a mixed batch ---- */

START_TEST(test_fence_costs_only_its_room)
{
	char a[ROOM_ID_LEN + 1], b[ROOM_ID_LEN + 1], line[128];

	two_games(a, b);
	/* One pass: a move in each room, and a chat line in b. */
	move(0, 3, 0);
	move(2, 3, 0);
	{
		proto_msg c = msg_of(PROTO_MSG_CHAT);

		snprintf(c.text, sizeof c.text, "hi");
		rooms_handle(&members[3].m, &c);
	}
	rooms_flush();
	ck_assert_int_eq(fk.nflush, 1);
	fk.nlog = 0;
	/* Refused: a is another server's. */
	answer_flush(STORE_FENCED, a);
	ck_assert_int_eq(members[0].close_code, ROOMS_CLOSE_STORE_FAILED);
	ck_assert_int_eq(members[1].close_code, ROOMS_CLOSE_STORE_FAILED);
	ck_assert_int_eq(members[0].forgotten, 1);
	ck_assert_int_eq(members[2].close_code, 0);
	ck_assert_int_eq(members[3].close_code, 0);
	ck_assert_int_eq(rooms_count(), 1);
	/* b's changes are written again, whole, in the open batch; its
	 * messages wait for it. */
	snprintf(line, sizeof line, "moves %s 1", b);
	ck_assert(logged(line));
	snprintf(line, sizeof line, "chat %s 2", b);
	ck_assert(logged(line));
	snprintf(line, sizeof line, "moves %s 1", a);
	ck_assert(!logged(line));
	ck_assert_int_eq(retags, 1);
	ck_assert_int_eq(retag_to, retag_from + 1);
	ck_assert_int_eq(rooms_get_stats()->store_ok, 1);
	ck_assert_int_eq(rooms_get_stats()->batches_rewritten, 1);
	ck_assert_int_eq(rooms_get_stats()->rooms_fenced, 1);
	ck_assert_int_eq(rooms_get_stats()->commits_failed, 0);
	rooms_flush();
	answer_flush(0, NULL);
	/* The store goes on: north answers in b. */
	fk.nlog = 0;
	members[3].last_error = 0;
	move(3, 8, 1);
	ck_assert_int_eq(members[3].last_error, 0);
	snprintf(line, sizeof line, "moves %s 2", b);
	ck_assert(logged(line));
}
END_TEST

/* ---- one commit in flight (PostgreSQL) ---- */

/* A store that takes one commit at a time: what is written while it is
 * out waits in the open batch and goes in the next commit, whole. */
START_TEST(test_one_commit_in_flight_groups_the_rest)
{
	char a[ROOM_ID_LEN + 1], b[ROOM_ID_LEN + 1], line[128];

	two_games(a, b);
	fk.base.max_inflight = 1;
	fk.nlog = 0;
	move(0, 3, 0);
	rooms_flush();
	ck_assert_int_eq(fk.nflush, 1);
	move(2, 3, 0);
	rooms_flush();
	move(3, 8, 1);
	rooms_flush();
	ck_assert_int_eq(fk.nflush, 1);
	ck_assert_int_eq(fk.open, 1);
	answer_flush(0, NULL);
	rooms_flush();
	ck_assert_int_eq(fk.nflush, 1);
	ck_assert_int_eq(fk.open, 0);
	snprintf(line, sizeof line, "moves %s 2", b);
	ck_assert(logged(line));
	answer_flush(0, NULL);
	ck_assert_int_eq(rooms_get_stats()->commits_failed, 0);
	/* Without the bound each pass's writes go at once. */
	fk.base.max_inflight = 0;
	move(1, 8, 1);
	rooms_flush();
	move(0, 4, 2);
	rooms_flush();
	ck_assert_int_eq(fk.nflush, 2);
	answer_flush(0, NULL);
	answer_flush(0, NULL);
}
END_TEST

START_TEST(test_failure_other_than_a_fence_rolls_back)
{
	char a[ROOM_ID_LEN + 1];

	snprintf(a, sizeof a, "%s", create(0));
	join(1, a);
	rooms_flush();
	answer_flush(0, NULL);
	move(0, 3, 0);
	rooms_flush();
	answer_flush(-1, NULL);
	ck_assert_int_eq(rooms_get_stats()->store_ok, 0);
	ck_assert_int_eq(rooms_get_stats()->commits_failed, 1);
	ck_assert_int_eq(members[0].close_code, ROOMS_CLOSE_STORE_FAILED);
	ck_assert_int_eq(retags, 0);
}
END_TEST

/* ---- a lease lost during a take ---- */

START_TEST(test_lease_lost_during_a_take)
{
	char a[ROOM_ID_LEN + 1];

	snprintf(a, sizeof a, "%s", create(0));
	stored_room(ROOM_B);
	join(1, ROOM_B);
	ck_assert_int_eq(fk.ntake, 1);
	fk.ev.lost(fk.ev.arg);
	/* Every room dropped, its members sent to follow the routing. */
	ck_assert_int_eq(members[0].close_code, ROOMS_CLOSE_MOVED);
	ck_assert_int_eq(rooms_count(), 0);
	/* The take's answer (for the former incarnation) is not kept. */
	fake_take t = take_pop();

	take_found(&t);
	ck_assert_int_eq(rooms_count(), 0);
	ck_assert_int_eq(members[1].welcomes, 0);
	ck_assert_int_eq(members[1].last_error, PROTO_E_INTERNAL);
	/* Joined again: a new take, kept. */
	members[1].last_error = 0;
	join(1, ROOM_B);
	t = take_pop();
	take_found(&t);
	ck_assert_int_eq(members[1].welcomes, 1);
	ck_assert_int_eq(rooms_count(), 1);
}
END_TEST

/* ---- a restart with rooms wanted elsewhere ---- */

START_TEST(test_restart_then_wanted)
{
	char line[128];

	stored_room(ROOM_A);
	stored_room(ROOM_B);
	ck_assert_int_eq(rooms_restore(), 2);
	ck_assert_int_eq(rooms_count(), 2);
	join(0, ROOM_A);             /* a player of A connects here */
	ck_assert_int_eq(members[0].m.seat, OW_NORTH);
	member(1)->relay_in = 1;     /* B's player is relayed here */
	join(1, ROOM_B);
	ck_assert_int_eq(members[1].m.seat, OW_NORTH);
	fk.nlog = 0;
	fk.ev.wanted(fk.ev.arg, ROOM_A);
	fk.ev.wanted(fk.ev.arg, ROOM_B);
	fk.ev.wanted(fk.ev.arg, "cccccccc-0000-4000-8000-000000000003");
	/* A is kept: a player of its own is here. */
	snprintf(line, sizeof line, "release %s", ROOM_A);
	ck_assert(!logged(line));
	ck_assert_int_eq(members[0].close_code, 0);
	/* B had only a relayed player: given up, the relay closed (moved). */
	snprintf(line, sizeof line, "release %s", ROOM_B);
	ck_assert(logged(line));
	ck_assert_int_eq(members[1].close_code, ROOMS_CLOSE_MOVED);
	/* A room not here is given up all the same (a lost give-up). */
	ck_assert(logged("release cccccccc-0000-4000-8000-000000000003"));
	ck_assert_int_eq(rooms_count(), 1);
	ck_assert(members[0].m.room != NULL);
}
END_TEST

/* Kept while a player of its own was here; once the last one leaves, a
 * room with a member relayed here goes where that member's server is. */
START_TEST(test_last_direct_player_leaves_then_given_up)
{
	char line[128];

	stored_room(ROOM_A);
	ck_assert_int_eq(rooms_restore(), 1);
	join(0, ROOM_A);             /* north, connected here */
	ck_assert_int_eq(members[0].m.seat, OW_NORTH);
	member(1)->relay_in = 1;     /* a spectator relayed by another server */
	join(1, ROOM_A);
	ck_assert(members[1].m.room != NULL);
	fk.nlog = 0;
	fk.ev.wanted(fk.ev.arg, ROOM_A);
	snprintf(line, sizeof line, "release %s", ROOM_A);
	ck_assert(!logged(line));
	rooms_leave(&members[0].m);
	ck_assert(logged(line));
	ck_assert_int_eq(members[1].close_code, ROOMS_CLOSE_MOVED);
	ck_assert_int_eq(rooms_count(), 0);
}
END_TEST

/* Without a relayed member the room stays when its player leaves. */
START_TEST(test_last_player_leaves_room_stays)
{
	char line[128];

	stored_room(ROOM_A);
	ck_assert_int_eq(rooms_restore(), 1);
	join(0, ROOM_A);
	join(1, ROOM_A);             /* a spectator connected here */
	fk.nlog = 0;
	rooms_leave(&members[0].m);
	snprintf(line, sizeof line, "release %s", ROOM_A);
	ck_assert(!logged(line));
	ck_assert_int_eq(members[1].close_code, 0);
	ck_assert_int_eq(rooms_count(), 1);
}
END_TEST


/* ---- a full table (issue 40, item 3) ---- */

static void committed(void)
{
	rooms_flush();
	while (fk.nflush)
		answer_flush(0, NULL);
}

/* Members i (south) and i + 1 (north) play a room with the first plies
 * of pits (each a legal move), commit it and leave it: its id in id. */
static void played_and_left(int i, const int *pits, int plies, char id[ROOM_ID_LEN + 1])
{
	memset(&members[i], 0, sizeof members[i]);
	memset(&members[i + 1], 0, sizeof members[i + 1]);
	snprintf(id, ROOM_ID_LEN + 1, "%s", create(i));
	join(i + 1, id);
	ck_assert_int_eq(members[i + 1].welcomes, 1);
	committed();
	for (int ply = 0; ply < plies; ply++) {
		move(i + ply % 2, pits[ply], ply);
		ck_assert_int_eq(members[i + ply % 2].last_error, 0);
		committed();
	}
	rooms_leave(&members[i].m);
	rooms_leave(&members[i + 1].m);
	committed();
}

/* Eight plies from the start: each side's pits in turn (all legal). */
static const int eight[] = {0, 6, 1, 7, 2, 8, 3, 9};

/* A create from member i: its error, or 0 and its room in the table. */
static int try_create(int i)
{
	proto_msg c = msg_of(PROTO_MSG_CREATE);

	memset(&members[i], 0, sizeof members[i]);
	c.side = OW_SOUTH;
	snprintf(c.kind, sizeof c.kind, "oware");
	rooms_handle(member(i), &c);
	committed();
	return members[i].welcomes ? 0 : members[i].last_error;
}

/* The attack: a table of rooms with one move each, everyone gone. Today's
 * table kept them as unfinished games for --evict-idle; now they make
 * way like rooms without a game, the one idle longest first. */
START_TEST(test_one_move_rooms_make_way)
{
	char id[3][ROOM_ID_LEN + 1], line[128];

	int removed = 0;

	for (int k = 0; k < 3; k++)
		played_and_left(0, eight, 1, id[k]);
	ck_assert_int_eq(rooms_count(), 3);
	fk.nlog = 0;
	ck_assert_int_eq(try_create(4), 0);
	ck_assert_int_eq(rooms_count(), 3);
	ck_assert_int_eq(rooms_get_stats()->rooms_evicted, 1);
	for (int k = 0; k < 3; k++) {
		snprintf(line, sizeof line, "remove %s", id[k]);
		removed += logged(line);
	}
	ck_assert_int_eq(removed, 1);
}
END_TEST

/* Seven plies (3 moves from one side) have not started a game; eight
 * (4 from each) have: only the room with seven makes way, and once only
 * started games are left, a create is too_many_rooms. */
START_TEST(test_started_games_never_make_way)
{
	char id[3][ROOM_ID_LEN + 1], line[128];

	played_and_left(0, eight, 8, id[0]);
	played_and_left(0, eight, 7, id[1]);
	played_and_left(0, eight, 8, id[2]);
	fk.nlog = 0;
	ck_assert_int_eq(try_create(4), 0);
	snprintf(line, sizeof line, "remove %s", id[1]);
	ck_assert(logged(line));
	rooms_leave(&members[4].m);
	committed();
	/* The new room (no one joined) goes next; then nothing may. */
	ck_assert_int_eq(try_create(5), 0);
	rooms_leave(&members[5].m);
	committed();
	played_and_left(6, eight, 8, id[1]);
	fk.nlog = 0;
	ck_assert_int_eq(try_create(8), PROTO_E_TOO_MANY_ROOMS);
	ck_assert_int_eq(rooms_count(), 3);
	snprintf(line, sizeof line, "remove %s", id[0]);
	ck_assert(!logged(line));
	snprintf(line, sizeof line, "remove %s", id[2]);
	ck_assert(!logged(line));
}
END_TEST

/* A create from addr (a member of its own, counted there). */
static int create_from(int i, const char *addr)
{
	proto_msg c = msg_of(PROTO_MSG_CREATE);

	memset(&members[i], 0, sizeof members[i]);
	c.side = OW_SOUTH;
	snprintf(c.kind, sizeof c.kind, "oware");
	members[i].m.seat = RULES_SPECTATOR;
	members[i].m.addr = addr;
	members[i].m.ip = ip_get(addr);
	rooms_handle(&members[i].m, &c);
	committed();
	return members[i].welcomes ? 0 : members[i].last_error;
}

/* Two rooms held per network: a third from another address of the same
 * IPv4 /24 or IPv6 /48 is rate_limited; one from the next network is not;
 * a room gone gives its place back. */
START_TEST(test_rooms_held_per_network)
{
	ck_assert_int_eq(create_from(0, "10.1.2.3"), 0);
	ck_assert_int_eq(create_from(1, "10.1.2.4"), 0);
	ck_assert_int_eq(create_from(2, "10.1.2.200"), PROTO_E_RATE_LIMITED);
	ck_assert_int_eq(create_from(3, "::ffff:10.1.2.9"), PROTO_E_RATE_LIMITED);
	ck_assert_int_eq(create_from(4, "10.1.3.4"), 0);
	ck_assert_int_eq(create_from(5, "2001:db8:1:1::1"), 0);
	ck_assert_int_eq(create_from(6, "2001:db8:1:ff00::2"), 0);
	ck_assert_int_eq(create_from(7, "2001:db8:1:abcd::3"), PROTO_E_RATE_LIMITED);
	ck_assert_int_eq(create_from(8, "2001:db8:2::1"), 0);
	ck_assert_int_eq(rooms_count(), 6);
	ck_assert_int_eq(ip_net_get("10.1.2.77")->rooms_held, 2);
	ck_assert_int_eq(ip_get("10.1.2.3")->rooms_held, 1);
}
END_TEST

/* A room that goes gives its network's place back. */
START_TEST(test_network_place_given_back)
{
	ck_assert_int_eq(create_from(0, "10.9.9.1"), 0);
	ck_assert_int_eq(create_from(1, "10.9.9.2"), 0);
	ck_assert_int_eq(create_from(2, "10.9.9.3"), PROTO_E_RATE_LIMITED);
	rooms_leave(&members[0].m);
	committed();
	/* Unjoined and left: it makes way for the next create in a full
	 * table of 3 (the other network's). */
	ck_assert_int_eq(create_from(3, "10.7.7.7"), 0);
	ck_assert_int_eq(create_from(4, "10.7.7.8"), 0);
	ck_assert_int_eq(rooms_get_stats()->rooms_evicted, 1);
	ck_assert_int_eq(ip_net_get("10.9.9.9")->rooms_held, 1);
	rooms_leave(&members[3].m);
	committed();
	ck_assert_int_eq(create_from(5, "10.9.9.3"), 0);
	ck_assert_int_eq(ip_net_get("10.9.9.9")->rooms_held, 2);
}
END_TEST

static void setup_full_table(void)
{
	setup_with(3, 0);
}

static void setup_per_network(void)
{
	setup_with(100, 2);
}

static void setup_both(void)
{
	setup_with(3, 2);
}

static Suite *rooms_suite(void)
{
	Suite *s = suite_create("rooms");
	TCase *t = tcase_create("several servers");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_join_relayed_to_the_holder);
	tcase_add_test(t, test_relay_failed_runs_the_join_again);
	tcase_add_test(t, test_relay_failed_past_the_deadline_is_internal);
	tcase_add_test(t, test_holder_without_relay_address_is_asked_again);
	tcase_add_test(t, test_relayed_join_never_takes);
	tcase_add_test(t, test_joins_share_one_take);
	tcase_add_test(t, test_two_rooms_taken_crossing);
	tcase_add_test(t, test_fence_costs_only_its_room);
	tcase_add_test(t, test_one_commit_in_flight_groups_the_rest);
	tcase_add_test(t, test_failure_other_than_a_fence_rolls_back);
	tcase_add_test(t, test_lease_lost_during_a_take);
	tcase_add_test(t, test_restart_then_wanted);
	tcase_add_test(t, test_last_direct_player_leaves_then_given_up);
	tcase_add_test(t, test_last_player_leaves_room_stays);
	suite_add_tcase(s, t);
	t = tcase_create("a full table");
	tcase_add_checked_fixture(t, setup_full_table, teardown);
	tcase_add_test(t, test_one_move_rooms_make_way);
	tcase_add_test(t, test_started_games_never_make_way);
	suite_add_tcase(s, t);
	t = tcase_create("rooms per network");
	tcase_add_checked_fixture(t, setup_per_network, teardown);
	tcase_add_test(t, test_rooms_held_per_network);
	suite_add_tcase(s, t);
	t = tcase_create("a full table, rooms per network");
	tcase_add_checked_fixture(t, setup_both, teardown);
	tcase_add_test(t, test_network_place_given_back);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(rooms_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
