/* test_fault.c: Check tests of the fault build's plan file and failing VFS
 * (server/store/fault.h) against SQLite itself: what a commit returns on a full
 * or read-only disk, that reads go on working, that clearing the plan
 * recovers, and the "fail POINT N" counts. Built only with FAULTS=1. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "server/store/fault.h"

static char dir[] = "/tmp/owfault-XXXXXX";
static char plan_path[64], db_path[64];

/* Replaces the plan (a new file under the same name), then waits until the
 * fault code may look again. */
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

static sqlite3 *open_db(void)
{
	sqlite3 *db = NULL;

	ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
	sqlite3_extended_result_codes(db, 1);
	return db;
}

static int exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static long long value(sqlite3 *db)
{
	sqlite3_stmt *st;
	long long v = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT v FROM t", -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A fresh WAL database with t.v = 1, and no plan. */
static sqlite3 *setup_db(void)
{
	sqlite3 *db;

	unlink(plan_path);
	plan("");
	unlink(db_path);
	db = open_db();
	ck_assert_int_eq(exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS t (v);"
	                          "DELETE FROM t; INSERT INTO t VALUES (1);"), SQLITE_OK);
	return db;
}

/* Under mode, a batch's COMMIT fails with want and changes nothing; reads
 * still work; an empty plan lets the same batch through. */
static void commit_fails(const char *mode, int want)
{
	sqlite3 *db = setup_db();

	plan(mode);
	ck_assert_int_eq(exec(db, "BEGIN IMMEDIATE"), SQLITE_OK);
	ck_assert_int_eq(exec(db, "UPDATE t SET v = 2"), SQLITE_OK); /* in the cache */
	ck_assert_int_eq(exec(db, "COMMIT"), want);
	ck_assert_int_eq(sqlite3_extended_errcode(db), want);
	if (!sqlite3_get_autocommit(db))
		exec(db, "ROLLBACK");
	ck_assert_int_eq(value(db), 1);
	plan("# the disk is back\n");
	ck_assert_int_eq(exec(db, "UPDATE t SET v = 3"), SQLITE_OK);
	ck_assert_int_eq(value(db), 3);
	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
	db = open_db();
	ck_assert_int_eq(value(db), 3);
	sqlite3_close(db);
}

START_TEST(test_full_disk_commit_fails_with_sqlite_full)
{
	commit_fails("full\n", SQLITE_FULL);
}
END_TEST

START_TEST(test_readonly_disk_commit_fails_with_ioerr_write)
{
	commit_fails("readonly\n", SQLITE_IOERR_WRITE);
}
END_TEST

/* A second connection (the server's checkpointer has one) fails the same
 * way: its checkpoint cannot write the database file. */
START_TEST(test_full_disk_fails_another_connections_checkpoint)
{
	sqlite3 *db = setup_db(), *other = open_db();

	ck_assert_int_eq(exec(db, "PRAGMA wal_autocheckpoint=0; UPDATE t SET v = 5"), SQLITE_OK);
	ck_assert_int_eq(value(other), 5); /* a first read: other now knows the WAL */
	plan("full\n");
	ck_assert_int_eq(sqlite3_wal_checkpoint_v2(other, "main", SQLITE_CHECKPOINT_PASSIVE,
	                                           NULL, NULL), SQLITE_FULL);
	ck_assert_int_eq(value(other), 5);
	plan("");
	ck_assert_int_eq(sqlite3_wal_checkpoint_v2(other, "main", SQLITE_CHECKPOINT_PASSIVE,
	                                           NULL, NULL), SQLITE_OK);
	sqlite3_close(other);
	sqlite3_close(db);
}
END_TEST

/* A database opened while the disk is full: reading works, writing not. */
START_TEST(test_open_on_a_full_disk_reads)
{
	sqlite3 *db = setup_db();

	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
	plan("full\n");
	db = open_db();
	ck_assert_int_eq(value(db), 1);
	ck_assert_int_eq(exec(db, "UPDATE t SET v = 4"), SQLITE_FULL);
	ck_assert_int_eq(value(db), 1);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_fail_points_count_down)
{
	unlink(plan_path);
	plan("# a comment\n\nfail write 2\nfail commit\n");
	ck_assert_int_eq(fault_hit("write"), 1);
	ck_assert_int_eq(fault_hit("commit"), 1);
	ck_assert_int_eq(fault_hit("write"), 1);
	ck_assert_int_eq(fault_hit("write"), 0);
	ck_assert_int_eq(fault_hit("commit"), 0);
	ck_assert_int_eq(fault_hit("other"), 0);
}
END_TEST

/* A changed file replaces the plan: a used-up count is armed again, and a
 * line not understood is skipped. */
START_TEST(test_changed_plan_rearms)
{
	struct timespec wait = {0, (FAULT_CHECK_MS + 10) * 1000000L};

	plan("fail write\n");
	ck_assert_int_eq(fault_hit("write"), 1);
	ck_assert_int_eq(fault_hit("write"), 0);
	plan("fail write 1\nfail write 0\nfail\nexplode now\n# 2\n");
	ck_assert_int_eq(fault_hit("write"), 1);
	ck_assert_int_eq(fault_hit("write"), 0);
	plan("fail commit 3\n");
	ck_assert_int_eq(fault_hit("commit"), 1);
	unlink(plan_path);
	nanosleep(&wait, NULL);
	ck_assert_int_eq(fault_hit("commit"), 0); /* a missing file: no faults */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = tcase_create("fault");

	tcase_add_test(tc, test_full_disk_commit_fails_with_sqlite_full);
	tcase_add_test(tc, test_readonly_disk_commit_fails_with_ioerr_write);
	tcase_add_test(tc, test_full_disk_fails_another_connections_checkpoint);
	tcase_add_test(tc, test_open_on_a_full_disk_reads);
	tcase_add_test(tc, test_fail_points_count_down);
	tcase_add_test(tc, test_changed_plan_rearms);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;
	char path[80];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(plan_path, sizeof plan_path, "%s/plan", dir);
	snprintf(db_path, sizeof db_path, "%s/t.db", dir);
	setenv("OW_FAULT_FILE", plan_path, 1);
	if (fault_init() < 0)
		return 1;
	sr = srunner_create(suite());
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (const char *const *f = (const char *const[]){"plan", "t.db", "t.db-wal", "t.db-shm", NULL};
	     *f; f++) {
		snprintf(path, sizeof path, "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	return failed ? 1 : 0;
}
