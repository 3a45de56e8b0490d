/* test_store.c: Check tests of the stores through store.h, each case run
 * on SQLite and, when OW_TEST_PG names a database (make test-store-pg), on
 * PostgreSQL: club events and their logs written, read back byte for byte
 * after a reopen and removed; a room's `event`; writes that fail and
 * batches that are lost keep nothing; a database of schema 6 migrated.
 * The SQLite batch lost at its commit needs the fault build (make
 * test-store-faults: server/store/fault.h). */
#include <check.h>
#include <ev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "server/store/fault.h"
#include "server/store/store.h"

#define PG_SCHEMA "t_store"
#define NODE "test-store"

static int use_pg;                  /* the cases run on PostgreSQL */
static struct ev_loop *loop;
static char dir[] = "/tmp/owstore-XXXXXX";
static char db_path[64], plan_path[64];
static char pg_uri[512];            /* OW_TEST_PG with the test's schema */

/* ---- the store under test ---- */

static store *open_store(void)
{
	char err[256] = "";
	store *s = use_pg ? store_pg_open(loop, pg_uri, NODE, 30, 10.0, err, sizeof err)
	                  : store_sqlite_open(db_path, 0, err, sizeof err);

	ck_assert_msg(s != NULL, "open: %s", err);
	return s;
}

/* Opening that must fail: the reason. */
static void open_fails(char *err, size_t len)
{
	store *s = use_pg ? store_pg_open(loop, pg_uri, NODE, 30, 5.0, err, len)
	                  : store_sqlite_open(db_path, 0, err, len);

	ck_assert_ptr_null(s);
}

typedef struct done_t {
	int called, rc;
} done_t;

static void on_done(void *arg, int rc)
{
	done_t *d = arg;

	d->called++;
	d->rc = rc;
}

static void wake(struct ev_loop *l, ev_timer *w, int revents)
{
	(void)l;
	(void)w;
	(void)revents;
}

/* Runs the loop until d is told (at once with SQLite), 10 s at most. */
static void wait_done(done_t *d)
{
	ev_timer t;
	ev_tstamp until = ev_time() + 10;

	ev_timer_init(&t, wake, 0.05, 0.05);
	ev_timer_start(loop, &t);
	while (!d->called && ev_time() < until)
		ev_run(loop, EVRUN_ONCE);
	ev_timer_stop(loop, &t);
	ck_assert_int_eq(d->called, 1);
}

static int flush(store *s)
{
	done_t d = {0, 0};

	s->ops->flush(s, on_done, &d);
	wait_done(&d);
	return d.rc;
}

/* ---- what a load saw ---- */

#define MAX_SEEN 16

/* The callbacks of one read share its arg: done_t first. */
typedef struct seen {
	done_t d;
	int nev, nch;
	store_event ev[MAX_SEEN];
	char settings[MAX_SEEN][512];
	struct {
		char id[STORE_EVENT_ID_LEN + 1];
		store_event_change c;
		char body[512];
	} ch[MAX_SEEN];
	int out_of_place;               /* a change not of the last event seen */
} seen;

static void on_event(void *arg, const store_event *e)
{
	seen *v = arg;

	ck_assert_int_lt(v->nev, MAX_SEEN);
	v->ev[v->nev] = *e;
	snprintf(v->settings[v->nev], sizeof v->settings[0], "%s", e->settings);
	v->ev[v->nev].settings = v->settings[v->nev];
	v->nev++;
}

static void on_change(void *arg, const char *id, const store_event_change *c)
{
	seen *v = arg;

	ck_assert_int_lt(v->nch, MAX_SEEN);
	if (!v->nev || strcmp(v->ev[v->nev - 1].id, id))
		v->out_of_place++;
	snprintf(v->ch[v->nch].id, sizeof v->ch[0].id, "%s", id);
	v->ch[v->nch].c = *c;
	snprintf(v->ch[v->nch].body, sizeof v->ch[0].body, "%s", c->body);
	v->ch[v->nch].c.body = v->ch[v->nch].body;
	v->nch++;
}

/* Every event: the number of events. */
static int load_all(store *s, seen *v)
{
	memset(v, 0, sizeof *v);
	return s->ops->ev_load(s, NULL, on_event, on_change, NULL, v);
}

/* Event id: done's value (1 found, 0 none, -1). */
static int load_one(store *s, const char *id, seen *v)
{
	memset(v, 0, sizeof *v);
	ck_assert_int_eq(s->ops->ev_load(s, id, on_event, on_change, on_done, v), 0);
	wait_done(&v->d);
	ck_assert_int_eq(v->out_of_place, 0);
	return v->d.rc;
}

#define MAX_ROOMS 8

typedef struct rooms_seen {
	done_t d;
	int n;
	room_rec r[MAX_ROOMS];
	int moves[MAX_ROOMS];
	uint8_t pits[MAX_ROOMS][16];
} rooms_seen;

static void on_room(void *arg, const room_rec *r, const uint8_t *pits, int n)
{
	rooms_seen *v = arg;

	ck_assert_int_lt(v->n, MAX_ROOMS);
	v->r[v->n] = *r;
	v->moves[v->n] = n;
	if (n)
		memcpy(v->pits[v->n], pits, (size_t)(n < 16 ? n : 16));
	v->n++;
}

static const room_rec *room_in(const rooms_seen *v, const char *id)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].id, id))
			return &v->r[i];
	return NULL;
}

/* ---- the database itself, for set-ups and checks ---- */

/* Runs q on the test's database; the first value of its first row (or
 * "" when none) into out. */
static void sql(const char *q, char *out, size_t len)
{
	if (out)
		out[0] = 0;
	if (use_pg) {
		PGconn *c = PQconnectdb(pg_uri);
		PGresult *r;

		ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
		r = PQexec(c, q);
		ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK,
		              "%s: %s", q, PQerrorMessage(c));
		if (out && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
			snprintf(out, len, "%s", PQgetvalue(r, 0, 0));
		PQclear(r);
		PQfinish(c);
	} else {
		sqlite3 *db = NULL;
		sqlite3_stmt *st = NULL;
		const char *tail = q;

		ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
		sqlite3_busy_timeout(db, 2000);
		while (tail && *tail) {
			int rc = sqlite3_prepare_v2(db, tail, -1, &st, &tail);

			ck_assert_msg(rc == SQLITE_OK, "%s: %s", q, sqlite3_errmsg(db));
			if (!st)
				break;
			while ((rc = sqlite3_step(st)) == SQLITE_ROW)
				if (out && !out[0] && sqlite3_column_text(st, 0))
					snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
			ck_assert_msg(rc == SQLITE_DONE, "%s: %s", q, sqlite3_errmsg(db));
			sqlite3_finalize(st);
		}
		sqlite3_close(db);
	}
}

static long long sql_int(const char *q)
{
	char v[64];

	sql(q, v, sizeof v);
	return strtoll(v, NULL, 10);
}

/* An empty database for each case. */
static void setup(void)
{
	loop = ev_loop_new(EVFLAG_AUTO);
	ck_assert_ptr_nonnull(loop);
	if (use_pg) {
		PGconn *c = PQconnectdb(getenv("OW_TEST_PG"));
		PGresult *r;

		ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
		r = PQexec(c, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS " PG_SCHEMA
		              " CASCADE; CREATE SCHEMA " PG_SCHEMA);
		ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQerrorMessage(c));
		PQclear(r);
		PQfinish(c);
	} else {
		char p[80];

		for (const char *const *f = (const char *const[]){"", "-wal", "-shm", NULL}; *f; f++) {
			snprintf(p, sizeof p, "%s%s", db_path, *f);
			unlink(p);
		}
	}
}

static void teardown(void)
{
	ev_loop_destroy(loop);
	loop = NULL;
}

/* ---- values ---- */

static const char EV1[] = "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a01";
static const char EV2[] = "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a02";
static const char EV3[] = "0b6c5b1e-2f4a-4d8e-9a51-7c3e2d1f0a03";
/* Texts with UTF-8 (Twi, Kazakh, an emoji), quotes, a backslash and newlines. */
static const char SETTINGS1[] = "{\"name\":\"Ɔware club — Kumasi ☀️\",\"format\":\"swiss\","
                                "\"rounds\":5}\nsecond line\\n\t'quoted'";
static const char SETTINGS2[] = "{\"name\":\"Тоғызқұмалақ\",\"format\":\"rr2\"}";
static const char BODY_JOIN[] = "{\"t\":\"join\",\"name\":\"Ama Serwaa 🌱\"}";
static const char BODY_PAIR[] = "{\"t\":\"pair\",\"round\":1}\n{\"board\":1}\r\n";
static const char BODY_RESULT[] = "{\"t\":\"result\",\"board\":1,\"r\":\"½-½\"}";

static void fill_tok(uint8_t tok[SHA256_LEN], uint8_t seed)
{
	/* Every byte value shows, 0 and 0xff included. */
	for (int i = 0; i < SHA256_LEN; i++)
		tok[i] = (uint8_t)(seed + i * 37);
	tok[0] = 0;
	tok[SHA256_LEN - 1] = 0xff;
}

static store_event make_event(const char *id, int64_t created, const char *settings, uint8_t seed)
{
	store_event e;

	memset(&e, 0, sizeof e);
	snprintf(e.id, sizeof e.id, "%s", id);
	e.created = e.updated = created;
	fill_tok(e.org_tok, seed);
	e.settings = settings;
	return e;
}

static store_event_change make_change(int64_t seq, const char *body, int tok_seed)
{
	store_event_change c;

	memset(&c, 0, sizeof c);
	c.seq = seq;
	c.body = body;
	if (tok_seed >= 0) {
		c.has_tok = 1;
		fill_tok(c.tok, (uint8_t)tok_seed);
	}
	return c;
}

static room_rec make_room(const char *id, const char *event)
{
	room_rec r;

	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	snprintf(r.kind, sizeof r.kind, "oware");
	r.created = r.updated = 1765000000;
	r.game_number = 1;
	r.version = 3;
	r.has_tok[0] = 1;
	fill_tok(r.tok[0], 9);
	r.winner = OW_NOBODY;
	r.draw_offer = r.rematch_offer = -1;
	snprintf(r.name[0], sizeof r.name[0], "Kofi");
	snprintf(r.event, sizeof r.event, "%s", event);
	return r;
}

static void assert_event(const store_event *got, const store_event *want)
{
	ck_assert_str_eq(got->id, want->id);
	ck_assert_int_eq(got->created, want->created);
	ck_assert_int_eq(got->updated, want->updated);
	ck_assert_mem_eq(got->org_tok, want->org_tok, SHA256_LEN);
	ck_assert_str_eq(got->settings, want->settings);
}

static void assert_change(const store_event_change *got, const store_event_change *want)
{
	ck_assert_int_eq(got->seq, want->seq);
	ck_assert_str_eq(got->body, want->body);
	ck_assert_int_eq(got->has_tok, want->has_tok);
	if (want->has_tok)
		ck_assert_mem_eq(got->tok, want->tok, SHA256_LEN);
}

/* ---- cases ---- */

/* Two events, one with three changes appended out of seq order (a join
 * with a token, the others without), committed, the store reopened: both
 * read back whole, the changes in seq order after their event, updated
 * the last append's. */
START_TEST(test_events_read_back_whole_after_a_reopen)
{
	store *s = open_store();
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event e2 = make_event(EV2, 1765000200, SETTINGS2, 2);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	store_event_change c2 = make_change(2, BODY_PAIR, -1);
	store_event_change c3 = make_change(3, BODY_RESULT, -1);
	store_event_change d1 = make_change(1, "", 5);
	seen v;

	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_insert(s, &e2), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000150, &c3), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000160, &c1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV2, 1765000250, &d1), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000170, &c2), 0);
	ck_assert_int_eq(flush(s), 0);
	s->ops->close(s);

	s = open_store();
	e1.updated = 1765000170;
	e2.updated = 1765000250;
	ck_assert_int_eq(load_all(s, &v), 2);
	ck_assert_int_eq(v.out_of_place, 0);
	ck_assert_int_eq(v.nev, 2);
	ck_assert_int_eq(v.nch, 4);
	assert_event(&v.ev[0], &e1);
	assert_event(&v.ev[1], &e2);
	ck_assert_str_eq(v.ch[0].id, EV1);
	assert_change(&v.ch[0].c, &c1);
	assert_change(&v.ch[1].c, &c2);
	assert_change(&v.ch[2].c, &c3);
	ck_assert_str_eq(v.ch[3].id, EV2);
	assert_change(&v.ch[3].c, &d1);

	ck_assert_int_eq(load_one(s, EV2, &v), 1);
	ck_assert_int_eq(v.nev, 1);
	ck_assert_int_eq(v.nch, 1);
	assert_event(&v.ev[0], &e2);
	assert_change(&v.ch[0].c, &d1);
	ck_assert_int_eq(load_one(s, EV1, &v), 1);
	ck_assert_int_eq(v.nch, 3);
	assert_event(&v.ev[0], &e1);
	assert_change(&v.ch[2].c, &c3);
	ck_assert_int_eq(load_one(s, EV3, &v), 0);
	ck_assert_int_eq(v.nev + v.nch, 0);
	s->ops->close(s);
}
END_TEST

/* ev_remove takes the event's log with it, for good; the other event
 * stays whole. */
START_TEST(test_removed_event_goes_with_its_log)
{
	store *s = open_store();
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event e2 = make_event(EV2, 1765000200, SETTINGS2, 2);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	store_event_change c2 = make_change(2, BODY_PAIR, -1);
	seen v;
	char q[160];

	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_insert(s, &e2), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000100, &c1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000100, &c2), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV2, 1765000200, &c1), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(s->ops->ev_remove(s, EV1), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(load_one(s, EV1, &v), 0);
	ck_assert_int_eq(v.nev + v.nch, 0);
	s->ops->close(s);

	snprintf(q, sizeof q, "SELECT count(*) FROM event_log WHERE event = '%s'", EV1);
	ck_assert_int_eq(sql_int(q), 0);
	s = open_store();
	ck_assert_int_eq(load_all(s, &v), 1);
	ck_assert_int_eq(v.nch, 1);
	assert_event(&v.ev[0], &e2);
	assert_change(&v.ch[0].c, &c1);
	ck_assert_int_eq(load_one(s, EV1, &v), 0);
	s->ops->close(s);
}
END_TEST

/* A read of one event sees the writes of the open batch. PostgreSQL
 * answers it with the batch (before its commit's answer), so once the
 * batch is flushed; SQLite at once. */
START_TEST(test_event_read_sees_the_open_batch)
{
	store *s = open_store();
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	seen v;
	done_t f = {0, 0};

	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000111, &c1), 0);
	ck_assert_int_eq(s->ops->pending(s), 1);
	memset(&v, 0, sizeof v);
	ck_assert_int_eq(s->ops->ev_load(s, EV1, on_event, on_change, on_done, &v), 0);
	ck_assert_int_eq(v.d.called, !use_pg);
	s->ops->flush(s, on_done, &f);
	wait_done(&f);
	ck_assert_int_eq(f.rc, 0);
	ck_assert_int_eq(v.d.called, 1);
	ck_assert_int_eq(v.d.rc, 1);
	e1.updated = 1765000111;
	assert_event(&v.ev[0], &e1);
	ck_assert_int_eq(v.nch, 1);
	assert_change(&v.ch[0].c, &c1);
	s->ops->close(s);
}
END_TEST

/* A room's `event` is written by insert, update and update_moves and read
 * by load and load_room; a room of two friends has "". */
START_TEST(test_room_event_round_trips)
{
	store *s = open_store();
	room_rec board = make_room("3f1e5c2a-0000-4000-8000-000000000001", EV1);
	room_rec friends = make_room("3f1e5c2a-0000-4000-8000-000000000002", "");
	room_rec moved = make_room("3f1e5c2a-0000-4000-8000-000000000003", EV2);
	const uint8_t pits[3] = {2, 7, 4};
	rooms_seen v;

	ck_assert_int_eq(s->ops->insert(s, &board), 0);
	ck_assert_int_eq(s->ops->insert(s, &friends), 0);
	ck_assert_int_eq(s->ops->insert(s, &moved), 0);
	ck_assert_int_eq(flush(s), 0);
	snprintf(board.event, sizeof board.event, "%s", EV3);
	board.version++;
	ck_assert_int_eq(s->ops->update(s, &board), 0);
	moved.version++;
	ck_assert_int_eq(s->ops->update_moves(s, &moved, pits, 3), 0);
	ck_assert_int_eq(flush(s), 0);
	s->ops->close(s);

	s = open_store();
	memset(&v, 0, sizeof v);
	ck_assert_int_eq(s->ops->load(s, on_room, &v), 3);
	ck_assert_str_eq(room_in(&v, board.id)->event, EV3);
	ck_assert_int_eq(room_in(&v, board.id)->version, 4);
	ck_assert_str_eq(room_in(&v, friends.id)->event, "");
	ck_assert_str_eq(room_in(&v, moved.id)->event, EV2);
	ck_assert_int_eq(v.moves[room_in(&v, moved.id) - v.r], 3);
	ck_assert_str_eq(room_in(&v, friends.id)->name[0], "Kofi");
	memset(&v, 0, sizeof v);
	s->ops->load_room(s, moved.id, on_room, on_done, &v);
	wait_done(&v.d);
	ck_assert_int_eq(v.d.rc, 1);
	ck_assert_str_eq(v.r[0].event, EV2);
	s->ops->close(s);
}
END_TEST

/* SQLite: a write that fails leaves nothing of itself and the rest of the
 * batch commits: an event inserted twice, a change appended twice (its
 * event's `updated` kept: the first of ev_append's two statements is
 * undone), a change of an event that is not there. */
START_TEST(test_sqlite_failed_event_writes_leave_nothing)
{
	store *s = open_store();
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event again = make_event(EV1, 1765009999, "other", 3);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	store_event_change dup = make_change(1, "a second seq 1", -1);
	store_event_change c2 = make_change(2, BODY_PAIR, -1);
	seen v;

	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000120, &c1), 0);
	ck_assert_int_eq(s->ops->ev_insert(s, &again), -1);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000999, &dup), -1);
	ck_assert_int_eq(s->ops->ev_append(s, EV3, 1765000999, &c2), -1);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(load_one(s, EV1, &v), 1);
	ck_assert_int_eq(v.ev[0].updated, 1765000120);
	ck_assert_int_eq(v.nch, 1);
	ck_assert_int_eq(load_one(s, EV3, &v), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000130, &c2), 0);
	ck_assert_int_eq(flush(s), 0);
	s->ops->close(s);

	s = open_store();
	ck_assert_int_eq(load_all(s, &v), 1);
	e1.updated = 1765000130;
	assert_event(&v.ev[0], &e1);
	ck_assert_int_eq(v.nch, 2);
	assert_change(&v.ch[0].c, &c1);
	assert_change(&v.ch[1].c, &c2);
	s->ops->close(s);
}
END_TEST

/* PostgreSQL: a write that fails loses its whole batch (one transaction):
 * the change of an event that is not there takes the batch's new event,
 * its changes, a removal and a board's room with it. */
START_TEST(test_pg_failed_write_loses_the_batch_and_its_events)
{
	store *s = open_store();
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event e2 = make_event(EV2, 1765000200, SETTINGS2, 2);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	store_event_change c2 = make_change(2, BODY_PAIR, -1);
	room_rec board = make_room("3f1e5c2a-0000-4000-8000-000000000001", EV2);
	rooms_seen rv;
	seen v;

	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000100, &c1), 0);
	ck_assert_int_eq(flush(s), 0);

	ck_assert_int_eq(s->ops->ev_insert(s, &e2), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV2, 1765000201, &c1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000300, &c2), 0);
	ck_assert_int_eq(s->ops->insert(s, &board), 0);
	ck_assert_int_eq(s->ops->ev_remove(s, EV1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV3, 1765000300, &c1), 0); /* no such event */
	ck_assert_int_lt(flush(s), 0);

	ck_assert_int_eq(load_all(s, &v), 1);
	assert_event(&v.ev[0], &e1);
	ck_assert_int_eq(v.nch, 1);
	assert_change(&v.ch[0].c, &c1);
	ck_assert_int_eq(load_one(s, EV2, &v), 0);
	/* The same seq twice: the key refuses it, with its batch. */
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000400, &c1), 0);
	ck_assert_int_lt(flush(s), 0);
	ck_assert_int_eq(load_one(s, EV1, &v), 1);
	ck_assert_int_eq(v.ev[0].updated, 1765000100);
	ck_assert_int_eq(v.nch, 1);
	s->ops->close(s);
	s = open_store();
	memset(&rv, 0, sizeof rv);
	ck_assert_int_eq(s->ops->load(s, on_room, &rv), 0);
	s->ops->close(s);
}
END_TEST

#if defined(OW_FAULTS) && OW_FAULTS
/* Replaces the fault plan, then waits until the store may look again. */
static void plan(const char *text)
{
	char tmp[80];
	FILE *f;
	struct timespec wait = {0, (FAULT_CHECK_MS + 10) * 1000000L};

	snprintf(tmp, sizeof tmp, "%s.new", plan_path);
	f = fopen(tmp, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(rename(tmp, plan_path), 0);
	nanosleep(&wait, NULL);
}

/* SQLite: a batch whose commit fails keeps none of its event writes (nor
 * its rooms'); the store takes the next batch. */
START_TEST(test_sqlite_lost_batch_keeps_no_event_write)
{
	store *s;
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event e2 = make_event(EV2, 1765000200, SETTINGS2, 2);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	store_event_change c2 = make_change(2, BODY_PAIR, -1);
	room_rec board = make_room("3f1e5c2a-0000-4000-8000-000000000001", EV2);
	rooms_seen rv;
	seen v;

	plan("# 1\n");
	s = open_store();
	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000100, &c1), 0);
	ck_assert_int_eq(flush(s), 0);

	plan("# 2\nfail commit\n");
	ck_assert_int_eq(s->ops->ev_insert(s, &e2), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV2, 1765000201, &c1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000300, &c2), 0);
	ck_assert_int_eq(s->ops->insert(s, &board), 0);
	ck_assert_int_eq(s->ops->ev_remove(s, EV1), 0);
	ck_assert_int_eq(flush(s), -1);

	ck_assert_int_eq(load_all(s, &v), 1);
	assert_event(&v.ev[0], &e1);
	ck_assert_int_eq(v.nch, 1);
	assert_change(&v.ch[0].c, &c1);
	memset(&rv, 0, sizeof rv);
	ck_assert_int_eq(s->ops->load(s, on_room, &rv), 0);

	/* A failed write: nothing of it, the batch goes on. */
	plan("# 3\nfail write\n");
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000300, &c2), -1);
	ck_assert_int_eq(s->ops->ev_insert(s, &e2), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(load_one(s, EV1, &v), 1);
	ck_assert_int_eq(v.nch, 1);
	ck_assert_int_eq(v.ev[0].updated, 1765000100);
	ck_assert_int_eq(load_one(s, EV2, &v), 1);
	s->ops->close(s);
	plan("# 4\n");
}
END_TEST
#endif

/* A database of schema 6 (no events) keeps its rooms, each on no event,
 * and gets the events' tables. */
START_TEST(test_schema_6_is_migrated)
{
	static const char room_id[] = "3f1e5c2a-0000-4000-8000-000000000009";
	store *s;
	rooms_seen rv;
	store_event e1 = make_event(EV1, 1765000100, SETTINGS1, 1);
	store_event_change c1 = make_change(1, BODY_JOIN, 77);
	seen v;

	if (use_pg) {
		/* The tables as a server of schema 6 left them. */
		room_rec r = make_room(room_id, "");

		s = open_store();
		ck_assert_int_eq(s->ops->insert(s, &r), 0);
		ck_assert_int_eq(flush(s), 0);
		s->ops->close(s);
		sql("ALTER TABLE rooms DROP COLUMN event; DROP TABLE event_log; DROP TABLE events;"
		    " UPDATE owared_schema SET version = 6", NULL, 0);
	} else {
		/* Schema 6's tables, as store_sqlite.c made them, with a room
		 * (two moves) and a chat line. */
		sql("PRAGMA auto_vacuum=INCREMENTAL; PRAGMA journal_mode=WAL;"
		    "CREATE TABLE rooms (id TEXT PRIMARY KEY, kind TEXT NOT NULL,"
		    " created INTEGER NOT NULL, updated INTEGER NOT NULL, game_number INTEGER NOT NULL,"
		    " version INTEGER NOT NULL, tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL,"
		    " winner INTEGER NOT NULL, draw_offer INTEGER NOT NULL,"
		    " rematch_offer INTEGER NOT NULL, moves BLOB NOT NULL DEFAULT x'',"
		    " name_south TEXT NOT NULL DEFAULT '', name_north TEXT NOT NULL DEFAULT '',"
		    " clock_kind INTEGER NOT NULL DEFAULT 0, clock_days INTEGER NOT NULL DEFAULT 0,"
		    " clock_init_south INTEGER NOT NULL DEFAULT 0,"
		    " clock_init_north INTEGER NOT NULL DEFAULT 0,"
		    " clock_increment INTEGER NOT NULL DEFAULT 0,"
		    " clock_left_south INTEGER NOT NULL DEFAULT 0,"
		    " clock_left_north INTEGER NOT NULL DEFAULT 0, start TEXT NOT NULL DEFAULT ''"
		    ") WITHOUT ROWID;"
		    "CREATE TABLE chat (room TEXT NOT NULL, id INTEGER NOT NULL, at INTEGER NOT NULL,"
		    " side INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,"
		    " PRIMARY KEY (room, id));"
		    "INSERT INTO rooms (id, kind, created, updated, game_number, version, tok_south,"
		    " reason, winner, draw_offer, rematch_offer, moves, name_south)"
		    " VALUES ('3f1e5c2a-0000-4000-8000-000000000009', 'oware', 1765000000, 1765000000,"
		    " 1, 3, zeroblob(32), 0, -1, -1, -1, x'0207', 'Kofi');"
		    "INSERT INTO chat VALUES ('3f1e5c2a-0000-4000-8000-000000000009', 1, 1, 0, 'Kofi',"
		    " 'akwaaba');"
		    "PRAGMA user_version=6;", NULL, 0);
	}
	s = open_store();
	memset(&rv, 0, sizeof rv);
	ck_assert_int_eq(s->ops->load(s, on_room, &rv), 1);
	ck_assert_str_eq(rv.r[0].id, room_id);
	ck_assert_str_eq(rv.r[0].event, "");
	ck_assert_str_eq(rv.r[0].name[0], "Kofi");
	ck_assert_int_eq(rv.r[0].version, 3);
	ck_assert_int_eq(rv.r[0].has_tok[0], 1);
	if (!use_pg) {
		ck_assert_int_eq(rv.moves[0], 2);
		ck_assert_int_eq(rv.pits[0][1], 7);
	}
	ck_assert_int_eq(load_all(s, &v), 0);
	ck_assert_int_eq(s->ops->ev_insert(s, &e1), 0);
	ck_assert_int_eq(s->ops->ev_append(s, EV1, 1765000100, &c1), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(s->ops->ev_remove(s, EV1), 0);
	ck_assert_int_eq(flush(s), 0);
	s->ops->close(s);
	ck_assert_int_eq(sql_int("SELECT count(*) FROM event_log"), 0);
	if (use_pg)
		ck_assert_int_eq(sql_int("SELECT max(version) FROM owared_schema"), 8);
	else
		ck_assert_int_eq(sql_int("PRAGMA user_version"), 8);
}
END_TEST

/* A database of a newer schema is refused, untouched. */
START_TEST(test_newer_schema_is_refused)
{
	char err[256] = "";

	if (use_pg)
		sql("CREATE TABLE owared_schema (version int NOT NULL);"
		    " INSERT INTO owared_schema VALUES (9)", NULL, 0);
	else
		sql("CREATE TABLE rooms (id TEXT PRIMARY KEY); PRAGMA user_version=9;", NULL, 0);
	open_fails(err, sizeof err);
	ck_assert_msg(strstr(err, use_pg ? "schema 9, this one knows 8" : "schema 9; this one knows 8"),
	              "%s", err);
	if (use_pg)
		ck_assert_int_eq(sql_int("SELECT max(version) FROM owared_schema"), 9);
	else
		ck_assert_int_eq(sql_int("PRAGMA user_version"), 9);
}
END_TEST

/* Web Push's subscriptions: replaced by endpoint, a seat's newest four
 * kept, deleted one, by seat, or with their room; the key pair kept by
 * the first to offer one. */
typedef struct push_seen {
	done_t d;
	int n;
	store_push_sub p[8];
} push_seen;

static void on_push(void *arg, const store_push_sub *p)
{
	push_seen *v = arg;

	ck_assert_int_lt(v->n, 8);
	v->p[v->n++] = *p;
}

static int push_count(store *s, const char *id, push_seen *v)
{
	int open = s->ops->pending(s);

	memset(v, 0, sizeof *v);
	s->ops->push_list(s, id, on_push, on_done, v);
	if (open) /* PostgreSQL answers a read in the open batch with its commit */
		ck_assert_int_eq(flush(s), 0);
	wait_done(&v->d);
	ck_assert_int_eq(v->d.rc, v->n);
	return v->n;
}

START_TEST(test_push_subscriptions_kept_trimmed_and_gone)
{
	store *s = open_store();
	room_rec r = make_room("3f1e5c2a-0000-4000-8000-000000000021", "");
	store_push_sub p;
	push_seen v;
	char key[STORE_PUSH_KEY_TEXT];

	ck_assert_int_eq(s->ops->insert(s, &r), 0);
	memset(&p, 0, sizeof p);
	snprintf(p.room, sizeof p.room, "%s", r.id);
	p.game = 1;
	snprintf(p.p256dh, sizeof p.p256dh, "BPub");
	snprintf(p.auth, sizeof p.auth, "auth1");
	for (int i = 0; i < 6; i++) {
		p.created = 1765000000 + i;
		snprintf(p.endpoint, sizeof p.endpoint, "https://fcm.googleapis.com/s/%d", i);
		ck_assert_int_eq(s->ops->push_add(s, &p), 0);
	}
	p.side = 1;
	snprintf(p.auth, sizeof p.auth, "auth2");
	snprintf(p.endpoint, sizeof p.endpoint, "https://fcm.googleapis.com/s/5"); /* replaced */
	ck_assert_int_eq(s->ops->push_add(s, &p), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(push_count(s, r.id, &v), 4); /* south: 2, 3, 4; north: 5 */
	{
		int north = 0;

		for (int i = 0; i < v.n; i++)
			if (v.p[i].side == 1) {
				north++;
				ck_assert_str_eq(v.p[i].auth, "auth2");
				ck_assert_str_eq(v.p[i].endpoint, "https://fcm.googleapis.com/s/5");
			} else
				ck_assert_int_ge(v.p[i].endpoint[strlen(v.p[i].endpoint) - 1], '2');
		ck_assert_int_eq(north, 1);
	}
	ck_assert_int_eq(s->ops->push_del(s, r.id, 0, "https://fcm.googleapis.com/s/2"), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(push_count(s, r.id, &v), 3);
	ck_assert_int_eq(s->ops->push_del(s, r.id, 0, NULL), 0);
	ck_assert_int_eq(push_count(s, r.id, &v), 1); /* the open batch is seen */
	ck_assert_int_eq(s->ops->remove(s, r.id), 0);
	ck_assert_int_eq(flush(s), 0);
	ck_assert_int_eq(push_count(s, r.id, &v), 0);

	ck_assert_int_eq(s->ops->push_key(s, "first", key, sizeof key), 0);
	ck_assert_str_eq(key, "first");
	s->ops->close(s);
	s = open_store();
	ck_assert_int_eq(s->ops->push_key(s, "second", key, sizeof key), 0);
	ck_assert_str_eq(key, "first");
	s->ops->close(s);
}
END_TEST

static Suite *store_suite(const char *name)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_events_read_back_whole_after_a_reopen);
	tcase_add_test(tc, test_push_subscriptions_kept_trimmed_and_gone);
	tcase_add_test(tc, test_removed_event_goes_with_its_log);
	tcase_add_test(tc, test_event_read_sees_the_open_batch);
	tcase_add_test(tc, test_room_event_round_trips);
	if (use_pg)
		tcase_add_test(tc, test_pg_failed_write_loses_the_batch_and_its_events);
	else
		tcase_add_test(tc, test_sqlite_failed_event_writes_leave_nothing);
#if defined(OW_FAULTS) && OW_FAULTS
	if (!use_pg)
		tcase_add_test(tc, test_sqlite_lost_batch_keeps_no_event_write);
#endif
	tcase_add_test(tc, test_schema_6_is_migrated);
	tcase_add_test(tc, test_newer_schema_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

static int run_suite(const char *name)
{
	SRunner *sr = srunner_create(store_suite(name));
	int failed;

	/* One case at a time in this process: a PostgreSQL store's loop and
	 * connection are the case's own. */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed;
}

int main(void)
{
	const char *pg = getenv("OW_TEST_PG");
	int failed;
	char p[80];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(db_path, sizeof db_path, "%s/t.db", dir);
	snprintf(plan_path, sizeof plan_path, "%s/plan", dir);
	setenv("OW_FAULT_FILE", plan_path, 1);
	if (fault_init() < 0)
		return 1;
	failed = run_suite("store_sqlite");
	if (pg && *pg) {
		snprintf(pg_uri, sizeof pg_uri, "%s%coptions=-csearch_path%%3D" PG_SCHEMA, pg,
		         strchr(pg, '?') ? '&' : '?');
		use_pg = 1;
		failed += run_suite("store_pg");
	} else
		printf("store_pg: skipped (no OW_TEST_PG; make test-store-pg)\n");
	for (const char *const *f = (const char *const[]){"plan", "t.db", "t.db-wal", "t.db-shm", NULL};
	     *f; f++) {
		snprintf(p, sizeof p, "%s/%s", dir, *f);
		unlink(p);
	}
	rmdir(dir);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
