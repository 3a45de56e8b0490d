/* test_pg.c: server/store/pg.c against a real, throwaway PostgreSQL (its URI in
 * OW_TEST_PG, its folder in OW_TEST_PGDIR for stopping and starting it):
 * segments commit or roll back whole, results come back in order, a lost
 * server fails what waits and is reconnected by itself. */
#include <check.h>
#include <ev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store/pg.h"

static const pg_stmt table_stmts[] = {
	{NULL, "CREATE TABLE IF NOT EXISTS t (k int PRIMARY KEY, v text)", 0},
	{"clear", "DELETE FROM t", 0},
	{"put", "INSERT INTO t VALUES ($1::int, $2)", 2},
	{"get", "SELECT v FROM t WHERE k = $1::int", 1},
	{"count", "SELECT count(*) FROM t", 0},
	{"sleep", "SELECT pg_sleep($1::float8)", 1},
};

static struct ev_loop *loop;
static int ups, downs;

static void on_state(void *arg, int up)
{
	(void)arg;
	if (up)
		ups++;
	else
		downs++;
}

typedef struct syncs {
	int done, ok, failed;
	char err[256];
} syncs;

static void on_sync(void *arg, int ok, const char *err)
{
	syncs *s = arg;

	s->done++;
	if (ok)
		s->ok++;
	else {
		s->failed++;
		snprintf(s->err, sizeof s->err, "%s", err);
	}
}

typedef struct got {
	int n, nulls, errors;
	char v[64];
	int order[2048];
} got;

static void on_result(void *arg, const PGresult *r)
{
	got *g = arg;

	if (!r) {
		g->nulls++;
		return;
	}
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
		snprintf(g->v, sizeof g->v, "%s", PQgetvalue(r, 0, 0));
		if (g->n < 2048)
			g->order[g->n] = atoi(g->v);
	} else if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		g->errors++;
	}
	g->n++;
}

/* Runs the loop until *flag reaches want or 10 s pass. */
static int run_until(const int *flag, int want)
{
	ev_tstamp until = ev_time() + 10;

	while (*flag < want && ev_time() < until) {
		ev_now_update(loop);
		ev_run(loop, EVRUN_ONCE);
	}
	return *flag >= want;
}

static pg *connect_fresh(void)
{
	pg *p;
	syncs s = {0};

	ups = downs = 0;
	p = pg_new(loop, getenv("OW_TEST_PG"), table_stmts, 6, on_state, NULL);
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(run_until(&ups, 1), "connected: %s", pg_error(p));
	ck_assert_int_eq(pg_exec(p, "clear", 0, NULL, NULL, NULL), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s), 0);
	ck_assert(run_until(&s.done, 1));
	ck_assert_msg(s.ok == 1, "table made: %s", s.err);
	return p;
}

static int count_rows(pg *p)
{
	got g = {0};
	syncs s = {0};

	ck_assert_int_eq(pg_exec(p, "count", 0, NULL, on_result, &g), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s), 0);
	ck_assert(run_until(&s.done, 1));
	ck_assert_int_eq(g.n, 1);
	return atoi(g.v);
}

static void pgctl(const char *what)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "sh tests/cluster/pgtmp.sh %s %s %s >/dev/null", what,
	         getenv("OW_TEST_PGDIR"), strcmp(what, "start") == 0 ? getenv("OW_TEST_PGPORT") : "");
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_segment_commits_whole)
{
	pg *p = connect_fresh();
	syncs s = {0};
	got g = {0};
	const char *a[] = {"1", "one"}, *b[] = {"2", "two"}, *k[] = {"2"};

	ck_assert_int_eq(pg_exec(p, "put", 2, a, NULL, NULL), 0);
	ck_assert_int_eq(pg_exec(p, "put", 2, b, NULL, NULL), 0);
	ck_assert_int_eq(pg_exec(p, "get", 1, k, on_result, &g), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s), 0);
	ck_assert(run_until(&s.done, 1));
	ck_assert_int_eq(s.ok, 1);
	ck_assert_str_eq(g.v, "two");
	ck_assert_int_eq(count_rows(p), 2);
	ck_assert_int_eq(pg_pending(p), 0);
	pg_free(p);
}
END_TEST

START_TEST(test_error_rolls_back_its_segment_only)
{
	pg *p = connect_fresh();
	syncs s1 = {0}, s2 = {0}, s3 = {0};
	got g = {0};
	const char *a[] = {"1", "one"}, *b[] = {"2", "two"}, *c[] = {"3", "three"};

	ck_assert_int_eq(pg_exec(p, "put", 2, a, NULL, NULL), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s1), 0);
	/* A segment whose second statement fails (key 1 exists): its first
	 * insert is rolled back too, and its third is never run. */
	ck_assert_int_eq(pg_exec(p, "put", 2, b, on_result, &g), 0);
	ck_assert_int_eq(pg_exec(p, "put", 2, a, on_result, &g), 0);
	ck_assert_int_eq(pg_exec(p, "put", 2, c, on_result, &g), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s2), 0);
	/* The next segment, already sent behind it, is not affected. */
	ck_assert_int_eq(pg_exec(p, "put", 2, c, NULL, NULL), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s3), 0);
	ck_assert(run_until(&s3.done, 1));
	ck_assert_int_eq(s1.ok, 1);
	ck_assert_int_eq(s2.failed, 1);
	ck_assert_msg(strstr(s2.err, "duplicate key") != NULL, "why: %s", s2.err);
	ck_assert_int_eq(g.n, 3);
	ck_assert_int_eq(g.errors, 2); /* the violation, then aborted */
	ck_assert_int_eq(s3.ok, 1);
	ck_assert_int_eq(count_rows(p), 2); /* keys 1 and 3 */
	pg_free(p);
}
END_TEST

START_TEST(test_many_segments_pipelined_in_order)
{
	pg *p = connect_fresh();
	syncs s = {0};
	got g = {0};
	char key[16], val[16];

	for (int i = 0; i < 1000; i++) {
		const char *v[] = {key, val};
		const char *k[] = {key};

		snprintf(key, sizeof key, "%d", i);
		snprintf(val, sizeof val, "%d", i);
		ck_assert_int_eq(pg_exec(p, "put", 2, v, NULL, NULL), 0);
		ck_assert_int_eq(pg_exec(p, "get", 1, k, on_result, &g), 0);
		ck_assert_int_eq(pg_sync(p, on_sync, &s), 0);
	}
	ck_assert(pg_pending(p) > 0);
	ck_assert(run_until(&s.done, 1000));
	ck_assert_int_eq(s.ok, 1000);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(g.order[i], i);
	ck_assert_int_eq(count_rows(p), 1000);
	pg_free(p);
}
END_TEST

START_TEST(test_lost_server_fails_waiting_items_then_reconnects)
{
	pg *p = connect_fresh();
	syncs s = {0};
	got g = {0};
	const char *sec[] = {"5"};
	const char *a[] = {"7", "seven"};

	/* A statement still running when the server goes away. */
	ck_assert_int_eq(pg_exec(p, "sleep", 1, sec, on_result, &g), 0);
	ck_assert_int_eq(pg_sync(p, on_sync, &s), 0);
	pgctl("stop");
	ck_assert(run_until(&s.done, 1));
	ck_assert_int_eq(s.failed, 1);
	ck_assert_int_eq(g.nulls + g.errors, 1);
	ck_assert(run_until(&downs, 1));
	ck_assert(!pg_up(p));
	ck_assert_int_eq(pg_exec(p, "put", 2, a, NULL, NULL), -1);
	ck_assert(strlen(pg_error(p)) > 0);
	pgctl("start");
	ck_assert_msg(run_until(&ups, 2), "reconnected: %s", pg_error(p));
	ck_assert_int_eq(count_rows(p), 0);
	pg_free(p);
}
END_TEST

START_TEST(test_unreachable_server_keeps_retrying)
{
	pg *p;
	ev_tstamp until;

	ups = downs = 0;
	p = pg_new(loop, "postgresql://oware@127.0.0.1:1/oware", table_stmts, 6, on_state, NULL);
	ck_assert_ptr_nonnull(p);
	until = ev_time() + 0.6;
	while (ev_time() < until) {
		ev_now_update(loop);
		ev_run(loop, EVRUN_ONCE);
	}
	ck_assert_int_eq(ups, 0);
	ck_assert(!pg_up(p));
	ck_assert_msg(strstr(pg_error(p), "connect") != NULL, "error: %s", pg_error(p));
	pg_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pg");
	TCase *tc = tcase_create("pg");
	SRunner *sr;
	int failed;

	if (!getenv("OW_TEST_PG")) {
		fprintf(stderr, "test_pg: set OW_TEST_PG (make test-pg starts a server)\n");
		return 2;
	}
	loop = ev_loop_new(EVFLAG_AUTO);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_segment_commits_whole);
	tcase_add_test(tc, test_error_rolls_back_its_segment_only);
	tcase_add_test(tc, test_many_segments_pipelined_in_order);
	tcase_add_test(tc, test_lost_server_fails_waiting_items_then_reconnects);
	tcase_add_test(tc, test_unreachable_server_keeps_retrying);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	ev_loop_destroy(loop);
	return failed ? 1 : 0;
}
