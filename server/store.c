/* store.c: rooms and moves in SQLite, one prepared statement per query. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "server/log.h"
#include "server/store.h"

enum { Q_BEGIN, Q_COMMIT, Q_ROLLBACK, Q_SAVE, Q_RELEASE, Q_UNDO, Q_INSERT, Q_UPDATE, Q_MOVE, Q_CLEAR,
       Q_DELETE, Q_DELETE_MOVES, Q_ROOMS, Q_MOVES, Q_COUNT };

static const char *const sql[Q_COUNT] = {
	[Q_BEGIN] = "BEGIN IMMEDIATE",
	[Q_COMMIT] = "COMMIT",
	[Q_ROLLBACK] = "ROLLBACK",
	[Q_SAVE] = "SAVEPOINT op",
	[Q_RELEASE] = "RELEASE op",
	[Q_UNDO] = "ROLLBACK TO op",
	[Q_INSERT] = "INSERT INTO rooms (id, kind, created, updated, game_number, version,"
	             " tok_south, tok_north, reason, winner, draw_offer, rematch_offer)"
	             " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
	[Q_UPDATE] = "UPDATE rooms SET kind=?2, created=?3, updated=?4, game_number=?5,"
	             " version=?6, tok_south=?7, tok_north=?8, reason=?9, winner=?10,"
	             " draw_offer=?11, rematch_offer=?12 WHERE id=?1",
	[Q_MOVE] = "INSERT INTO moves (room, ply, pit) VALUES (?1, ?2, ?3)",
	[Q_CLEAR] = "DELETE FROM moves WHERE room=?1",
	[Q_DELETE] = "DELETE FROM rooms WHERE id=?1",
	[Q_DELETE_MOVES] = "DELETE FROM moves WHERE room=?1",
	[Q_ROOMS] = "SELECT id, kind, created, updated, game_number, version, tok_south,"
	            " tok_north, reason, winner, draw_offer, rematch_offer FROM rooms",
	[Q_MOVES] = "SELECT ply, pit FROM moves WHERE room=?1 ORDER BY ply",
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS rooms ("
	" id TEXT PRIMARY KEY, kind TEXT NOT NULL, created INTEGER NOT NULL,"
	" updated INTEGER NOT NULL, game_number INTEGER NOT NULL, version INTEGER NOT NULL,"
	" tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL, winner INTEGER NOT NULL,"
	" draw_offer INTEGER NOT NULL, rematch_offer INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS moves ("
	" room TEXT NOT NULL, ply INTEGER NOT NULL, pit INTEGER NOT NULL,"
	" PRIMARY KEY (room, ply)) WITHOUT ROWID;";

/* Owned by main for the life of the process. Writes accumulate in one
 * open transaction (each operation inside a savepoint) until store_flush()
 * commits them together: one sync for all the changes of an event loop pass. */
struct store {
	sqlite3 *db;
	/* The checkpointer: a thread with a connection of its own copies the WAL
	 * into the database file (and syncs it) once a second, so that the
	 * event loop never waits for a checkpoint's syncs; the loop's own
	 * commits only append to the WAL. */
	pthread_t ckpt_thread;
	int ckpt_running;
	sqlite3 *ckpt_db;
	pthread_mutex_t ckpt_mu;
	pthread_cond_t ckpt_cv;
	int ckpt_stop;
	sqlite3_stmt *q[Q_COUNT];
	int in_tx;  /* a transaction is open */
	int broken; /* SQLite dropped the open transaction: flushing must fail */
	uint64_t commits; /* batches committed */
};

static void *checkpointer(void *arg)
{
	store *s = arg;
	struct timespec until;

	pthread_mutex_lock(&s->ckpt_mu);
	while (!s->ckpt_stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&s->ckpt_cv, &s->ckpt_mu, &until);
		if (s->ckpt_stop)
			break;
		pthread_mutex_unlock(&s->ckpt_mu);
		/* PASSIVE: never waits for, nor blocks, the writer. */
		sqlite3_wal_checkpoint_v2(s->ckpt_db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&s->ckpt_mu);
	}
	pthread_mutex_unlock(&s->ckpt_mu);
	return NULL;
}

/* Starts the checkpointer; 0, or -1 with the reason in err. */
static int checkpointer_start(store *s, const char *path, int sync_full, char *err, size_t errlen)
{
	if (sqlite3_open_v2(path, &s->ckpt_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ||
	    sqlite3_exec(s->ckpt_db, sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL",
	                 NULL, NULL, NULL)) {
		snprintf(err, errlen, "%s: checkpointer: %s", path,
		         s->ckpt_db ? sqlite3_errmsg(s->ckpt_db) : "cannot open");
		return -1;
	}
	sqlite3_busy_timeout(s->ckpt_db, 100);
	pthread_mutex_init(&s->ckpt_mu, NULL);
	pthread_cond_init(&s->ckpt_cv, NULL);
	if (pthread_create(&s->ckpt_thread, NULL, checkpointer, s)) {
		snprintf(err, errlen, "%s: cannot start the checkpointer thread", path);
		pthread_mutex_destroy(&s->ckpt_mu);
		pthread_cond_destroy(&s->ckpt_cv);
		return -1;
	}
	s->ckpt_running = 1;
	return 0;
}

static void checkpointer_stop(store *s)
{
	if (s->ckpt_running) {
		pthread_mutex_lock(&s->ckpt_mu);
		s->ckpt_stop = 1;
		pthread_cond_signal(&s->ckpt_cv);
		pthread_mutex_unlock(&s->ckpt_mu);
		pthread_join(s->ckpt_thread, NULL);
		pthread_mutex_destroy(&s->ckpt_mu);
		pthread_cond_destroy(&s->ckpt_cv);
		s->ckpt_running = 0;
	}
	sqlite3_close(s->ckpt_db);
	s->ckpt_db = NULL;
}

static int op_begin(store *s);
static int op_end(store *s, int ok);

/* Creates the folder holding path when it is missing (one level). */
static void make_parent(const char *path)
{
	char dir[4096];
	char *slash;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = 0;
	if (mkdir(dir, 0750) < 0 && errno != EEXIST)
		log_event(LOG_WARN, "store_mkdir", "dir=%s error=\"%s\"", dir, strerror(errno));
}

store *store_open(const char *path, int sync_full, char *err, size_t errlen)
{
	store *s = calloc(1, sizeof *s);
	char *msg = NULL;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	make_parent(path);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) {
		snprintf(err, errlen, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 2000);
	/* auto_vacuum first: it only takes on a database without tables, and
	 * lets expired rooms give their pages back (store_reclaim). */
	if (sqlite3_exec(s->db, "PRAGMA auto_vacuum=INCREMENTAL", NULL, NULL, &msg) ||
	    sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) ||
	    sqlite3_exec(s->db, sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL",
	                 NULL, NULL, &msg) ||
	    sqlite3_exec(s->db, schema, NULL, NULL, &msg)) {
		snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		goto fail;
	}
	for (int i = 0; i < Q_COUNT; i++)
		if (sqlite3_prepare_v2(s->db, sql[i], -1, &s->q[i], NULL)) {
			snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
			goto fail;
		}
	if (sqlite3_exec(s->db, "PRAGMA wal_autocheckpoint=0", NULL, NULL, &msg)) {
		snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		goto fail;
	}
	if (checkpointer_start(s, path, sync_full, err, errlen) < 0)
		goto fail;
	return s;
fail:
	store_close(s);
	return NULL;
}

void store_close(store *s)
{
	if (!s)
		return;
	if (s->in_tx && !s->broken)
		store_flush(s);
	checkpointer_stop(s);
	for (int i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(s->q[i]);
	sqlite3_close(s->db);
	free(s);
}

/* Runs a statement that returns no rows and resets it; 0 or -1 (logged). */
static int run(store *s, int q)
{
	int rc = sqlite3_step(s->q[q]);

	sqlite3_reset(s->q[q]);
	sqlite3_clear_bindings(s->q[q]);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=%d error=\"%s\"", q, sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

static void bind_room(sqlite3_stmt *st, const store_room *r)
{
	sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, r->created);
	sqlite3_bind_int64(st, 4, r->updated);
	sqlite3_bind_int64(st, 5, r->game_number);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)r->version);
	for (int i = 0; i < 2; i++)
		if (r->has_tok[i])
			sqlite3_bind_blob(st, 7 + i, r->tok[i], SHA256_LEN, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 7 + i);
	sqlite3_bind_int(st, 9, r->reason);
	sqlite3_bind_int(st, 10, r->winner);
	sqlite3_bind_int(st, 11, r->draw_offer);
	sqlite3_bind_int(st, 12, r->rematch_offer);
}

/* The UPDATE of r alone; 0 or -1. */
static int update(store *s, const store_room *r)
{
	bind_room(s->q[Q_UPDATE], r);
	return run(s, Q_UPDATE);
}

int store_room_insert(store *s, const store_room *r)
{
	if (op_begin(s) < 0)
		return -1;
	bind_room(s->q[Q_INSERT], r);
	return op_end(s, run(s, Q_INSERT) == 0);
}

int store_room_update(store *s, const store_room *r)
{
	if (op_begin(s) < 0)
		return -1;
	return op_end(s, update(s, r) == 0);
}

/* Starts one operation: the batch's transaction if none is open, then a
 * savepoint. Returns 0 or -1. */
static int op_begin(store *s)
{
	if (s->broken)
		return -1;
	if (!s->in_tx) {
		if (run(s, Q_BEGIN) < 0)
			return -1;
		s->in_tx = 1;
	}
	return run(s, Q_SAVE);
}

/* Ends an operation: kept when ok, else undone. Returns 0 or -1. */
static int op_end(store *s, int ok)
{
	if (ok && run(s, Q_RELEASE) == 0)
		return 0;
	run(s, Q_UNDO);
	run(s, Q_RELEASE);
	if (sqlite3_get_autocommit(s->db)) {
		/* SQLite rolled the whole batch back (I/O error, full disk):
		 * earlier operations of this batch are gone too. */
		s->broken = 1;
		log_event(LOG_ERROR, "store_batch_lost", "error=\"%s\"", sqlite3_errmsg(s->db));
	}
	return -1;
}

int store_pending(const store *s)
{
	return s->in_tx;
}

uint64_t store_commits(const store *s)
{
	return s->commits;
}

int store_flush(store *s)
{
	if (!s->in_tx)
		return s->broken ? -1 : 0;
	if (s->broken || run(s, Q_COMMIT) < 0) {
		s->broken = 1;
		if (!sqlite3_get_autocommit(s->db))
			run(s, Q_ROLLBACK);
		s->in_tx = 0;
		return -1;
	}
	s->in_tx = 0;
	s->commits++;
	return 0;
}

int store_move_add(store *s, const store_room *r, int ply, int pit)
{
	int ok;

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(s->q[Q_MOVE], 1, r->id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s->q[Q_MOVE], 2, ply);
	sqlite3_bind_int(s->q[Q_MOVE], 3, pit);
	ok = run(s, Q_MOVE) == 0 && update(s, r) == 0;
	return op_end(s, ok);
}

int store_new_game(store *s, const store_room *r)
{
	int ok;

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(s->q[Q_CLEAR], 1, r->id, -1, SQLITE_STATIC);
	ok = run(s, Q_CLEAR) == 0 && update(s, r) == 0;
	return op_end(s, ok);
}

int store_room_delete(store *s, const char *id)
{
	int ok;

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(s->q[Q_DELETE_MOVES], 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s->q[Q_DELETE], 1, id, -1, SQLITE_STATIC);
	ok = run(s, Q_DELETE_MOVES) == 0 && run(s, Q_DELETE) == 0;
	return op_end(s, ok);
}

void store_reclaim(store *s)
{
	if (store_flush(s) < 0)
		return;
	sqlite3_exec(s->db, "PRAGMA incremental_vacuum", NULL, NULL, NULL);
	sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
}

int store_load(store *s, store_load_fn *fn, void *arg)
{
	sqlite3_stmt *q = s->q[Q_ROOMS], *m = s->q[Q_MOVES];
	uint8_t *pits = NULL;
	int cap = 0, count = 0, rc;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_room r;
		int n = 0;

		memset(&r, 0, sizeof r);
		snprintf(r.id, sizeof r.id, "%s", (const char *)sqlite3_column_text(q, 0));
		snprintf(r.kind, sizeof r.kind, "%s", (const char *)sqlite3_column_text(q, 1));
		r.created = sqlite3_column_int64(q, 2);
		r.updated = sqlite3_column_int64(q, 3);
		r.game_number = (unsigned)sqlite3_column_int64(q, 4);
		r.version = (uint64_t)sqlite3_column_int64(q, 5);
		for (int i = 0; i < 2; i++)
			if (sqlite3_column_bytes(q, 6 + i) == SHA256_LEN) {
				r.has_tok[i] = 1;
				memcpy(r.tok[i], sqlite3_column_blob(q, 6 + i), SHA256_LEN);
			}
		r.reason = sqlite3_column_int(q, 8);
		r.winner = sqlite3_column_int(q, 9);
		r.draw_offer = sqlite3_column_int(q, 10);
		r.rematch_offer = sqlite3_column_int(q, 11);
		sqlite3_bind_text(m, 1, r.id, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(m) == SQLITE_ROW) {
			if (sqlite3_column_int(m, 0) != n)
				break; /* a gap: keep the moves before it */
			if (n == cap) {
				uint8_t *p = realloc(pits, (size_t)(cap ? cap * 2 : 256));

				if (!p)
					break;
				pits = p;
				cap = cap ? cap * 2 : 256;
			}
			pits[n++] = (uint8_t)sqlite3_column_int(m, 1);
		}
		sqlite3_reset(m);
		sqlite3_clear_bindings(m);
		fn(arg, &r, pits, n);
		count++;
	}
	sqlite3_reset(q);
	free(pits);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=load error=\"%s\"", sqlite3_errmsg(s->db));
		return -1;
	}
	return count;
}
