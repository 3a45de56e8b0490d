/* store_sqlite.c: the store of store.h in SQLite (WAL): rooms and their
 * moves, one prepared statement per query. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "server/store/fault.h"
#include "server/base/log.h"
#include "server/store/store.h"

/* The clock's columns (schema 3): bound as ?16-?22 in every write (after
 * moves' ?13 and the names' ?14-?15), read as columns 15-21 (after the
 * names). */
#define CLOCK_COLS ", clock_kind, clock_days, clock_init_south, clock_init_north," \
	" clock_increment, clock_left_south, clock_left_north"
#define CLOCK_VALS ",?16,?17,?18,?19,?20,?21,?22"
#define CLOCK_SET ", clock_kind=?16, clock_days=?17, clock_init_south=?18," \
	" clock_init_north=?19, clock_increment=?20, clock_left_south=?21, clock_left_north=?22"
#define CLOCK_PARAM 16
#define CLOCK_COLUMN 15
/* The start position (schema 4): bound as ?23, read as column 22. */
#define START_PARAM 23
#define START_COLUMN 22
/* The club event of a board (schema 7): bound as ?24, read as column 23. */
#define EVENT_PARAM 24
#define EVENT_COLUMN 23

enum { Q_BEGIN, Q_COMMIT, Q_ROLLBACK, Q_INSERT, Q_UPDATE, Q_UPDATE_MOVES, Q_DELETE, Q_ROOMS,
       Q_ROOM, Q_CHAT_ADD, Q_CHAT_RECENT, Q_SAVEPOINT, Q_RELEASE, Q_ROLLBACK_TO, Q_EV_INSERT,
       Q_EV_TOUCH, Q_EV_APPEND, Q_EV_DELETE, Q_EVENTS, Q_EVENT, Q_EVENT_LOG, Q_PUSH_ADD,
       Q_PUSH_TRIM, Q_PUSH_DEL, Q_PUSH_LIST, Q_COUNT };

static const char *const sql[Q_COUNT] = {
	[Q_BEGIN] = "BEGIN IMMEDIATE",
	[Q_COMMIT] = "COMMIT",
	[Q_ROLLBACK] = "ROLLBACK",
	[Q_INSERT] = "INSERT INTO rooms (id, kind, created, updated, game_number, version,"
	             " tok_south, tok_north, reason, winner, draw_offer, rematch_offer,"
	             " name_south, name_north" CLOCK_COLS ", start, event)"
	             " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?14,?15" CLOCK_VALS ",?23,?24)",
	[Q_UPDATE] = "UPDATE rooms SET kind=?2, created=?3, updated=?4, game_number=?5,"
	             " version=?6, tok_south=?7, tok_north=?8, reason=?9, winner=?10,"
	             " draw_offer=?11, rematch_offer=?12, name_south=?14, name_north=?15"
	             CLOCK_SET ", start=?23, event=?24 WHERE id=?1",
	[Q_UPDATE_MOVES] = "UPDATE rooms SET kind=?2, created=?3, updated=?4, game_number=?5,"
	                   " version=?6, tok_south=?7, tok_north=?8, reason=?9, winner=?10,"
	                   " draw_offer=?11, rematch_offer=?12, moves=?13, name_south=?14,"
	                   " name_north=?15" CLOCK_SET ", start=?23, event=?24 WHERE id=?1",
	[Q_DELETE] = "DELETE FROM rooms WHERE id=?1",
	[Q_ROOMS] = "SELECT id, kind, created, updated, game_number, version, tok_south,"
	            " tok_north, reason, winner, draw_offer, rematch_offer, moves,"
	            " name_south, name_north" CLOCK_COLS ", start, event FROM rooms",
	[Q_ROOM] = "SELECT id, kind, created, updated, game_number, version, tok_south,"
	           " tok_north, reason, winner, draw_offer, rematch_offer, moves,"
	           " name_south, name_north" CLOCK_COLS ", start, event FROM rooms WHERE id=?1",
	/* The room's next id; the trigger chat_keep drops lines past the last
	 * 100, and the oldest past 16384 bytes of text. */
	[Q_CHAT_ADD] = "INSERT INTO chat (room, id, at, side, name, text)"
	               " SELECT ?1, coalesce(max(id), 0) + 1, ?2, ?3, ?4, ?5 FROM chat"
	               " WHERE room=?1 RETURNING id",
	[Q_CHAT_RECENT] = "SELECT id, at, side, name, text FROM (SELECT id, at, side, name, text"
	                  " FROM chat WHERE room=?1 ORDER BY id DESC LIMIT ?2) ORDER BY id",
	/* ev_append's two statements, all or nothing within the batch. */
	[Q_SAVEPOINT] = "SAVEPOINT ev_append",
	[Q_RELEASE] = "RELEASE ev_append",
	[Q_ROLLBACK_TO] = "ROLLBACK TO ev_append",
	[Q_EV_INSERT] = "INSERT INTO events (id, created, updated, org_tok, settings)"
	                " VALUES (?1,?2,?3,?4,?5)",
	[Q_EV_TOUCH] = "UPDATE events SET updated=?2 WHERE id=?1",
	[Q_EV_APPEND] = "INSERT INTO event_log (event, seq, body, tok) VALUES (?1,?2,?3,?4)",
	/* The trigger event_gone deletes its log. */
	[Q_EV_DELETE] = "DELETE FROM events WHERE id=?1",
	[Q_EVENTS] = "SELECT id, created, updated, org_tok, settings FROM events ORDER BY id",
	[Q_EVENT] = "SELECT id, created, updated, org_tok, settings FROM events WHERE id=?1",
	[Q_EVENT_LOG] = "SELECT seq, body, tok FROM event_log WHERE event=?1 ORDER BY seq",
	/* Web Push (schema 8): a seat keeps its newest STORE_PUSH_PER_SEAT. */
	[Q_PUSH_ADD] = "INSERT INTO push (room, side, game, created, endpoint, p256dh, auth)"
	               " VALUES (?1,?2,?3,?4,?5,?6,?7) ON CONFLICT (room, endpoint) DO UPDATE"
	               " SET side=?2, game=?3, created=?4, p256dh=?6, auth=?7",
	[Q_PUSH_TRIM] = "DELETE FROM push WHERE room=?1 AND side=?2 AND endpoint NOT IN"
	                " (SELECT endpoint FROM push WHERE room=?1 AND side=?2"
	                " ORDER BY created DESC, rowid DESC LIMIT " "4" ")",
	[Q_PUSH_DEL] = "DELETE FROM push WHERE room=?1 AND (?2<0 OR side=?2)"
	               " AND (?3 IS NULL OR endpoint=?3)",
	[Q_PUSH_LIST] = "SELECT side, game, created, endpoint, p256dh, auth FROM push"
	                " WHERE room=?1 ORDER BY rowid",
};
_Static_assert(STORE_PUSH_PER_SEAT == 4, "Q_PUSH_TRIM says 4");

/* The rows hold these numbers as they are (reason, winner, the offers'
 * sides): pinned where they are written. */
_Static_assert(OW_SOUTH == 0 && OW_NORTH == 1 && OW_NOBODY == -1 && OW_DRAW == 2,
               "persisted sides and winners");
_Static_assert(OW_END_SCORE == 1 && OW_END_REPETITION == 2 && OW_END_MOVE_LIMIT == 3 &&
               OW_END_NO_MOVES == 4 && PROTO_END_RESIGN == 16 && PROTO_END_AGREEMENT == 17 &&
               PROTO_END_ABANDONED == 18 && PROTO_END_ABORTED == 19, "persisted end reasons");
_Static_assert(PROTO_END_TIMEOUT == 20 && PROTO_CLOCK_NONE == 0 && PROTO_CLOCK_REALTIME == 1 &&
               PROTO_CLOCK_CORRESPONDENCE == 2 && PROTO_END_ORGANISER == 21,
               "persisted clock kinds, the timeout and the organiser's end");

/* The moves of a room's current game are a blob in its row, one byte (the
 * pit index of the room's kind: Oware 0-11, Togyz 0-17) per ply: a move
 * rewrites one row of one table, so a batch of
 * moves touches few pages, and the rooms of a busy server stay in SQLite's
 * cache. (Schema version 0 kept them in a table of their own; opening
 * moves them in.) */
#define SCHEMA_VERSION 8
/* Schema 2 (names and chat, issue 14): the seats' names in the rooms'
 * rows (above), and a room's chat lines in a table of their own, whose
 * triggers keep the last 100 of a room and delete them with it (each
 * write stays one statement, atomic by itself).
 * Schema 6 (issue 30): the table has rowids (a line of up to 1.2 KB fits
 * in its page; WITHOUT ROWID spilled each long one to an overflow page,
 * four times its size on disk), and chat_keep also drops a room's oldest
 * lines past 16384 bytes of text (STORE_CHAT_BYTES). */
#define CHAT_TABLE \
	"CREATE TABLE chat (room TEXT NOT NULL, id INTEGER NOT NULL, at INTEGER NOT NULL," \
	" side INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL," \
	" PRIMARY KEY (room, id));"
#define CHAT_TRIGGERS \
	"CREATE TRIGGER chat_keep AFTER INSERT ON chat BEGIN" \
	" DELETE FROM chat WHERE room=new.room AND (id<=new.id-100 OR id<=(SELECT max(id) FROM" \
	" (SELECT id, sum(length(CAST(text AS BLOB))) OVER (ORDER BY id DESC) AS kept" \
	" FROM chat WHERE room=new.room) WHERE kept>16384)); END;" \
	"CREATE TRIGGER chat_gone AFTER DELETE ON rooms BEGIN" \
	" DELETE FROM chat WHERE room=old.id; END;"
#define CHAT_SCHEMA CHAT_TABLE CHAT_TRIGGERS
_Static_assert(STORE_CHAT_KEEP == 100 && STORE_CHAT_BYTES == 16384,
               "the trigger chat_keep keeps 100 lines, 16384 bytes of text");
/* Schema 3 (clocks, issue 13): the clock's columns in the rooms' rows
 * (0 in older rooms: no clock). */
/* Schema 4 (games from a position, issue 15): `start`, the position the
 * room's games start from as Aualé's FEN text (engine/ogn.h), '' for the
 * standard start (so in every older room). */
/* Schema 5 (Togyz Kumalak, issue 20): no new column: `kind` may be
 * "togyz" (its moves are pits 0-17, its `start` the position's JSON as
 * create takes it; see proto_kind's start_text). The number goes up so
 * that an older owared, which would replay those moves as Oware, refuses
 * the database instead. */
/* Schema 7 (club events, issue 41): a room's `event`, the id of the
 * event it is a board of ('' in every older room); an event's row, and
 * the log of its changes in a table of its own (rowids, as chat: a
 * change's text may be long), deleted with it by a trigger. An older
 * owared would serve a board as a room of two friends: it refuses the
 * database instead. */
#define EVENT_SCHEMA \
	"CREATE TABLE events (id TEXT PRIMARY KEY, created INTEGER NOT NULL," \
	" updated INTEGER NOT NULL, org_tok BLOB NOT NULL, settings TEXT NOT NULL);" \
	"CREATE TABLE event_log (event TEXT NOT NULL, seq INTEGER NOT NULL," \
	" body TEXT NOT NULL, tok BLOB, PRIMARY KEY (event, seq));" \
	"CREATE TRIGGER event_gone AFTER DELETE ON events BEGIN" \
	" DELETE FROM event_log WHERE event=old.id; END;"
/* The WAL file is cut back to this size when it starts over. */
#define WAL_KEEP_BYTES "16777216"
/* Schema 8 (issue 53): the seats' Web Push subscriptions, gone with
 * their room, and the server's key pair (VAPID). */
#define PUSH_SCHEMA \
	"CREATE TABLE push (room TEXT NOT NULL, side INTEGER NOT NULL, game INTEGER NOT NULL," \
	" created INTEGER NOT NULL, endpoint TEXT NOT NULL, p256dh TEXT NOT NULL," \
	" auth TEXT NOT NULL, PRIMARY KEY (room, endpoint));" \
	"CREATE TRIGGER push_gone AFTER DELETE ON rooms BEGIN" \
	" DELETE FROM push WHERE room=old.id; END;" \
	"CREATE TABLE keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);"

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS rooms ("
	" id TEXT PRIMARY KEY, kind TEXT NOT NULL, created INTEGER NOT NULL,"
	" updated INTEGER NOT NULL, game_number INTEGER NOT NULL, version INTEGER NOT NULL,"
	" tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL, winner INTEGER NOT NULL,"
	" draw_offer INTEGER NOT NULL, rematch_offer INTEGER NOT NULL,"
	" moves BLOB NOT NULL DEFAULT x'', name_south TEXT NOT NULL DEFAULT '',"
	" name_north TEXT NOT NULL DEFAULT '',"
	" clock_kind INTEGER NOT NULL DEFAULT 0, clock_days INTEGER NOT NULL DEFAULT 0,"
	" clock_init_south INTEGER NOT NULL DEFAULT 0, clock_init_north INTEGER NOT NULL DEFAULT 0,"
	" clock_increment INTEGER NOT NULL DEFAULT 0,"
	" clock_left_south INTEGER NOT NULL DEFAULT 0, clock_left_north INTEGER NOT NULL DEFAULT 0,"
	" start TEXT NOT NULL DEFAULT '', event TEXT NOT NULL DEFAULT ''"
	") WITHOUT ROWID;"
	CHAT_SCHEMA EVENT_SCHEMA PUSH_SCHEMA;

/* Owned by main for the life of the process. Writes accumulate in one
 * open transaction (each a single statement) until sq_flush() commits
 * them together: one sync for all the changes of an event loop pass. */
typedef struct sqlite_store {
	store base; /* first: the store.h interface */
	sqlite3 *db;
	/* The checkpointer: a thread with a connection of its own copies the WAL
	 * into the database file (and syncs it) every CKPT_MS, and at once when
	 * the WAL passes WAL_KICK_FRAMES, so that the event loop never waits
	 * for a checkpoint's syncs; the loop's own commits only append to the
	 * WAL. A checkpoint's sync of the database file slows the WAL's syncs
	 * that overlap it, so there are few of them: at 2,000 moves a second,
	 * one a second instead of five took a move's p99 from about 1.25 ms to
	 * 1.09 (median of seven runs each). Under steady writes that alone never
	 * lets the WAL start over (new frames always follow the checkpoint), so
	 * once it holds WAL_RESTART_FRAMES the loop checkpoints the rest itself
	 * right after a commit: the next write then starts the WAL over. */
	pthread_t ckpt_thread;
	int ckpt_running;
	sqlite3 *ckpt_db;
	pthread_mutex_t ckpt_mu;
	pthread_cond_t ckpt_cv;
	int ckpt_stop;
	sqlite3_stmt *q[Q_COUNT];
	int in_tx;  /* a transaction is open */
	int broken; /* SQLite dropped the open transaction: flushing must fail */
	int wal_frames;   /* frames in the WAL after the last commit */
	int ckpt_kicked;  /* the checkpointer was woken for this WAL's frames */
} sqlite_store;




#define CKPT_MS 1000
#define WAL_RESTART_FRAMES 4096 /* 16 MiB of 4 KiB pages */
#define WAL_KICK_FRAMES (WAL_RESTART_FRAMES / 2)

static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((sqlite_store *)arg)->wal_frames = frames;
	return SQLITE_OK;
}

static void *checkpointer(void *arg)
{
	sqlite_store *s = arg;
	struct timespec until;

	pthread_mutex_lock(&s->ckpt_mu);
	while (!s->ckpt_stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += CKPT_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
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
static int checkpointer_start(sqlite_store *s, const char *path, int sync_full, char *err, size_t errlen)
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

static void checkpointer_stop(sqlite_store *s)
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

/* The integer result of a one-value query, or -1. */
static long long query_int(sqlite_store *s, const char *q)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Schema 0 -> 1: each room's moves (from the first ply up to any gap) go
 * into its row; the moves table goes. 0, or -1 (the caller rolls back). */
static int migrate_0(sqlite_store *s)
{
	sqlite3_stmt *rooms = NULL, *moves = NULL, *set = NULL;
	uint8_t pits[1024];
	int rc = -1;

	if (sqlite3_exec(s->db, "ALTER TABLE rooms ADD COLUMN moves BLOB NOT NULL DEFAULT x''",
	                 NULL, NULL, NULL) ||
	    sqlite3_prepare_v2(s->db, "SELECT id FROM rooms", -1, &rooms, NULL) ||
	    sqlite3_prepare_v2(s->db, "SELECT ply, pit FROM moves WHERE room=?1 ORDER BY ply",
	                       -1, &moves, NULL) ||
	    sqlite3_prepare_v2(s->db, "UPDATE rooms SET moves=?2 WHERE id=?1", -1, &set, NULL))
		goto out;
	while (sqlite3_step(rooms) == SQLITE_ROW) {
		int n = 0;

		sqlite3_bind_value(moves, 1, sqlite3_column_value(rooms, 0));
		while (sqlite3_step(moves) == SQLITE_ROW && n < (int)sizeof pits &&
		       sqlite3_column_int(moves, 0) == n)
			pits[n++] = (uint8_t)sqlite3_column_int(moves, 1);
		sqlite3_reset(moves);
		sqlite3_bind_value(set, 1, sqlite3_column_value(rooms, 0));
		sqlite3_bind_blob(set, 2, pits, n, SQLITE_STATIC);
		if (sqlite3_step(set) != SQLITE_DONE)
			goto out;
		sqlite3_reset(set);
	}
	if (sqlite3_exec(s->db, "DROP TABLE moves", NULL, NULL, NULL) == SQLITE_OK)
		rc = 0;
out:
	sqlite3_finalize(rooms);
	sqlite3_finalize(moves);
	sqlite3_finalize(set);
	return rc;
}

/* Schema 1 -> 2: names (empty) in the rooms' rows, and the chat table.
 * 0, or -1 (the caller rolls back). */
static int migrate_names_chat(sqlite_store *s)
{
	return sqlite3_exec(s->db,
	                    "ALTER TABLE rooms ADD COLUMN name_south TEXT NOT NULL DEFAULT '';"
	                    "ALTER TABLE rooms ADD COLUMN name_north TEXT NOT NULL DEFAULT '';"
	                    CHAT_SCHEMA, NULL, NULL, NULL) ? -1 : 0;
}
/* Schema 2 -> 3: the clock's columns; every existing room has no clock.
 * 0, or -1 (the caller rolls back). */
static int migrate_clocks(sqlite_store *s)
{
	static const char *const cols[] = {"clock_kind", "clock_days", "clock_init_south",
		"clock_init_north", "clock_increment", "clock_left_south", "clock_left_north"};
	char q[128];

	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		snprintf(q, sizeof q, "ALTER TABLE rooms ADD COLUMN %s INTEGER NOT NULL DEFAULT 0",
		         cols[i]);
		if (sqlite3_exec(s->db, q, NULL, NULL, NULL))
			return -1;
	}
	return 0;
}

/* Schema 3 -> 4: the start position; every existing room starts from
 * the standard start. 0, or -1 (the caller rolls back). */
static int migrate_start(sqlite_store *s)
{
	return sqlite3_exec(s->db, "ALTER TABLE rooms ADD COLUMN start TEXT NOT NULL DEFAULT ''",
	                    NULL, NULL, NULL) ? -1 : 0;
}

/* Schema 5 -> 6: the chat table rebuilt with rowids, its lines copied,
 * then each room's trimmed to its last 16384 bytes of text.
 * 0, or -1 (the caller rolls back). */
static int migrate_chat_rowid(sqlite_store *s)
{
	return sqlite3_exec(s->db,
	                    "DROP TRIGGER IF EXISTS chat_keep; DROP TRIGGER IF EXISTS chat_gone;"
	                    "ALTER TABLE chat RENAME TO chat_old;"
	                    CHAT_TABLE
	                    "INSERT INTO chat (room, id, at, side, name, text)"
	                    " SELECT room, id, at, side, name, text FROM chat_old ORDER BY room, id;"
	                    "DROP TABLE chat_old;"
	                    "DELETE FROM chat WHERE rowid IN (SELECT rowid FROM (SELECT rowid,"
	                    " sum(length(CAST(text AS BLOB))) OVER (PARTITION BY room ORDER BY id DESC)"
	                    " AS kept FROM chat) WHERE kept>16384);"
	                    CHAT_TRIGGERS, NULL, NULL, NULL) ? -1 : 0;
}

/* Schema 6 -> 7: no room is a board of an event yet; the events' tables.
 * 0, or -1 (the caller rolls back). */
static int migrate_events(sqlite_store *s)
{
	return sqlite3_exec(s->db, "ALTER TABLE rooms ADD COLUMN event TEXT NOT NULL DEFAULT '';"
	                    EVENT_SCHEMA, NULL, NULL, NULL) ? -1 : 0;
}

/* Schema 7 -> 8: Web Push's tables. 0, or -1 (the caller rolls back). */
static int migrate_push(sqlite_store *s)
{
	return sqlite3_exec(s->db, PUSH_SCHEMA, NULL, NULL, NULL) ? -1 : 0;
}

/* Brings an existing database of schema version up to SCHEMA_VERSION,
 * step by step: 0, or -1. */
static int migrate(sqlite_store *s, long long version)
{
	if (version < 1 && migrate_0(s) < 0)
		return -1;
	if (version < 2 && migrate_names_chat(s) < 0)
		return -1;
	if (version < 3 && migrate_clocks(s) < 0)
		return -1;
	if (version < 4 && migrate_start(s) < 0)
		return -1;
	if (version < 6 && migrate_chat_rowid(s) < 0)
		return -1;
	if (version < 7 && migrate_events(s) < 0)
		return -1;
	if (version < 8 && migrate_push(s) < 0)
		return -1;
	return 0;
}

/* Creates the tables of a new database, or brings an older one up to
 * SCHEMA_VERSION, in one transaction: 0, or -1 with the reason in err. A
 * current database is only read: a store on a full disk still opens. */
static int schema_setup(sqlite_store *s, const char *path, char *err, size_t errlen)
{
	long long version = query_int(s, "PRAGMA user_version");
	int fresh = query_int(s, "SELECT count(*) FROM sqlite_master WHERE name='rooms'") == 0;
	char set[64];
	int rc = -1;

	if (version == SCHEMA_VERSION && !fresh)
		return 0;
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
		return -1;
	}
	version = query_int(s, "PRAGMA user_version");
	fresh = query_int(s, "SELECT count(*) FROM sqlite_master WHERE name='rooms'") == 0;
	if (version > SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: made by a newer owared (schema %lld; this one knows %d)",
		         path, version, SCHEMA_VERSION);
		goto out;
	}
	snprintf(set, sizeof set, "PRAGMA user_version=%d", SCHEMA_VERSION);
	if ((fresh ? sqlite3_exec(s->db, schema, NULL, NULL, NULL) : migrate(s, version)) ||
	    sqlite3_exec(s->db, set, NULL, NULL, NULL) ||
	    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL)) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
		goto out;
	}
	if (!fresh && version < SCHEMA_VERSION)
		log_event(LOG_INFO, "store_migrated", "from=%lld to=%d", version, SCHEMA_VERSION);
	rc = 0;
out:
	if (rc < 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int sq_commit(sqlite_store *s);

static void sq_close(store *base)
{
	sqlite_store *s = (sqlite_store *)base;

	if (!s)
		return;
	if (s->in_tx && !s->broken)
		sq_commit(s);
	checkpointer_stop(s);
	for (int i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(s->q[i]);
	sqlite3_close(s->db);
	free(s);
}

/* Runs a statement that returns no rows and resets it; 0 or -1 (logged
 * unless quiet). */
static int run_q(sqlite_store *s, int q, int quiet)
{
	int rc = sqlite3_step(s->q[q]);

	sqlite3_reset(s->q[q]);
	sqlite3_clear_bindings(s->q[q]);
	if (rc != SQLITE_DONE) {
		if (!quiet)
			log_event(LOG_ERROR, "store_error", "query=%d error=\"%s\"", q,
			          sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

static int run(sqlite_store *s, int q)
{
	return run_q(s, q, 0);
}

static void bind_room(sqlite3_stmt *st, const room_rec *r)
{
	char start[PROTO_START_TEXT] = ""; /* copied by SQLite (TRANSIENT) */
	const proto_kind *k = proto_kind_find(r->kind);

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
	sqlite3_bind_text(st, 14, r->name[0], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 15, r->name[1], -1, SQLITE_STATIC);
	sqlite3_bind_int(st, CLOCK_PARAM, r->clock_kind);
	sqlite3_bind_int(st, CLOCK_PARAM + 1, r->clock_days);
	sqlite3_bind_int64(st, CLOCK_PARAM + 2, r->clock_initial[0]);
	sqlite3_bind_int64(st, CLOCK_PARAM + 3, r->clock_initial[1]);
	sqlite3_bind_int64(st, CLOCK_PARAM + 4, r->clock_increment);
	sqlite3_bind_int64(st, CLOCK_PARAM + 5, r->clock_left[0]);
	sqlite3_bind_int64(st, CLOCK_PARAM + 6, r->clock_left[1]);
	if (r->has_start && k)
		k->start_text(&r->start, start);
	sqlite3_bind_text(st, START_PARAM, start, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, EVENT_PARAM, r->event, -1, SQLITE_STATIC);
}

/* Starts one operation (a single statement, atomic by itself): opens the
 * batch's transaction if none is. Returns 0 or -1. */
static int op_begin(sqlite_store *s)
{
	if (s->broken)
		return -1;
	if (!s->in_tx) {
		if (run(s, Q_BEGIN) < 0)
			return -1;
		s->in_tx = 1;
	}
	return 0;
}

/* Runs the statement q bound for one operation and ends it: a failed
 * statement leaves nothing behind, unless SQLite dropped the whole batch.
 * Returns 0 or -1. */
static int op_run(sqlite_store *s, int q)
{
	if (fault_hit("write")) {
		sqlite3_reset(s->q[q]);
		sqlite3_clear_bindings(s->q[q]);
		log_event(LOG_ERROR, "store_error", "query=%d error=\"injected fault\"", q);
		return -1;
	}
	if (run(s, q) == 0)
		return 0;
	if (sqlite3_get_autocommit(s->db)) {
		/* SQLite rolled the whole batch back (I/O error, full disk):
		 * earlier operations of this batch are gone too. */
		s->broken = 1;
		log_event(LOG_ERROR, "store_batch_lost", "error=\"%s\"", sqlite3_errmsg(s->db));
	}
	return -1;
}

static int sq_insert(store *base, const room_rec *r)
{
	sqlite_store *s = (sqlite_store *)base;

	if (op_begin(s) < 0)
		return -1;
	bind_room(s->q[Q_INSERT], r);
	return op_run(s, Q_INSERT);
}

static int sq_update(store *base, const room_rec *r)
{
	sqlite_store *s = (sqlite_store *)base;

	if (op_begin(s) < 0)
		return -1;
	bind_room(s->q[Q_UPDATE], r);
	return op_run(s, Q_UPDATE);
}

static int sq_update_moves(store *base, const room_rec *r, const uint8_t *pits, int n)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *st = s->q[Q_UPDATE_MOVES];

	if (op_begin(s) < 0)
		return -1;
	bind_room(st, r);
	sqlite3_bind_blob(st, 13, n ? (const void *)pits : "", n, SQLITE_STATIC);
	return op_run(s, Q_UPDATE_MOVES);
}

static int sq_remove(store *base, const char *id)
{
	sqlite_store *s = (sqlite_store *)base;

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(s->q[Q_DELETE], 1, id, -1, SQLITE_STATIC);
	return op_run(s, Q_DELETE);
}

static int sq_pending(const store *base)
{
	return ((const sqlite_store *)base)->in_tx;
}

/* Commits the open batch; on failure rolls back what is left of it so
 * that the store takes writes again. */
static int commit(sqlite_store *s, int quiet)
{
	if (!s->broken && !fault_hit("commit") && run_q(s, Q_COMMIT, quiet) == 0) {
		s->in_tx = 0;
		return 0;
	}
	if (!sqlite3_get_autocommit(s->db))
		run_q(s, Q_ROLLBACK, quiet);
	s->in_tx = 0;
	s->broken = 0;
	return -1;
}

/* Commits the open batch: 0, or -1 when it is lost (rolled back). */
static int sq_commit(sqlite_store *s)
{
	if (!s->in_tx)
		return s->broken ? (s->broken = 0, -1) : 0;
	if (commit(s, 0) < 0) {
		log_event(LOG_ERROR, "store_batch_lost", "error=\"the commit failed: %s\"",
		          sqlite3_errmsg(s->db));
		return -1;
	}
	if (s->wal_frames < WAL_KICK_FRAMES) {
		s->ckpt_kicked = 0;
	} else if (!s->ckpt_kicked && s->ckpt_running) {
		/* Writes faster than a checkpoint a CKPT_MS: one now, so that the
		 * rest left to the loop below stays short. */
		s->ckpt_kicked = 1;
		pthread_mutex_lock(&s->ckpt_mu);
		pthread_cond_signal(&s->ckpt_cv);
		pthread_mutex_unlock(&s->ckpt_mu);
	}
	if (s->wal_frames >= WAL_RESTART_FRAMES) {
		/* Mostly copied by the checkpointer already; BUSY (it is at work)
		 * just means trying again after the next commit. */
		sqlite3_wal_checkpoint_v2(s->db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		s->wal_frames = 0;
	}
	return 0;
}

/* SQLite commits at once: done is told before this returns. */
static void sq_flush(store *base, store_done_fn *done, void *arg)
{
	int rc = sq_commit((sqlite_store *)base);

	if (done)
		done(arg, rc);
}

/* Rewrites the schema version in the file's header: a write of one page,
 * committed and synced like any batch. */
static int sq_probe(store *base)
{
	sqlite_store *s = (sqlite_store *)base;
	char set[64];

	if (s->in_tx)
		return 0; /* a batch is open: the next flush tells */
	snprintf(set, sizeof set, "PRAGMA user_version=%d", SCHEMA_VERSION);
	if (run_q(s, Q_BEGIN, 1) < 0)
		return -1;
	s->in_tx = 1;
	if (sqlite3_exec(s->db, set, NULL, NULL, NULL) != SQLITE_OK) {
		commit(s, 1);
		return -1;
	}
	return commit(s, 1);
}

static void sq_reclaim(store *base)
{
	sqlite_store *s = (sqlite_store *)base;

	if (sq_commit(s) < 0)
		return;
	/* No checkpoint here: a TRUNCATE checkpoint stalled the event loop for
	 * 70-100 ms under load. The checkpointer's passive checkpoints let the
	 * WAL start over, and journal_size_limit then cuts the file back. */
	sqlite3_exec(s->db, "PRAGMA incremental_vacuum", NULL, NULL, NULL);
}

/* Steps q (bound) and calls fn for each room: the count, or -1. */
static int load_rows(sqlite_store *s, sqlite3_stmt *q, store_load_fn *fn, void *arg)
{
	int count = 0, rc;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		room_rec r;

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
		for (int i = 0; i < 2; i++)
			if (sqlite3_column_text(q, 13 + i))
				snprintf(r.name[i], sizeof r.name[i], "%s",
				         (const char *)sqlite3_column_text(q, 13 + i));
		r.clock_kind = sqlite3_column_int(q, CLOCK_COLUMN);
		r.clock_days = sqlite3_column_int(q, CLOCK_COLUMN + 1);
		r.clock_initial[0] = sqlite3_column_int64(q, CLOCK_COLUMN + 2);
		r.clock_initial[1] = sqlite3_column_int64(q, CLOCK_COLUMN + 3);
		r.clock_increment = sqlite3_column_int64(q, CLOCK_COLUMN + 4);
		r.clock_left[0] = sqlite3_column_int64(q, CLOCK_COLUMN + 5);
		r.clock_left[1] = sqlite3_column_int64(q, CLOCK_COLUMN + 6);
		if (sqlite3_column_bytes(q, START_COLUMN) > 0) {
			const char *text = (const char *)sqlite3_column_text(q, START_COLUMN);
			const proto_kind *k = proto_kind_find(r.kind);

			/* A text this server did not write: the standard start, and
			 * the moves stop where the engine refuses them (rooms.c). An
			 * unknown kind is refused there. */
			if (k && k->start_read(text, &r.start) == 0)
				r.has_start = 1;
			else
				log_event(LOG_ERROR, "store_bad_start", "room=%s", r.id);
		}
		if (sqlite3_column_text(q, EVENT_COLUMN))
			snprintf(r.event, sizeof r.event, "%s",
			         (const char *)sqlite3_column_text(q, EVENT_COLUMN));
		fn(arg, &r, sqlite3_column_blob(q, 12), sqlite3_column_bytes(q, 12));
		count++;
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=load error=\"%s\"", sqlite3_errmsg(s->db));
		return -1;
	}
	return count;
}

static int sq_load(store *base, store_load_fn *fn, void *arg)
{
	sqlite_store *s = (sqlite_store *)base;

	return load_rows(s, s->q[Q_ROOMS], fn, arg);
}

static void sq_load_room(store *base, const char *id, store_load_fn *fn, store_done_fn *done,
                         void *arg)
{
	sqlite_store *s = (sqlite_store *)base;
	int rc;

	sqlite3_bind_text(s->q[Q_ROOM], 1, id, -1, SQLITE_TRANSIENT);
	rc = load_rows(s, s->q[Q_ROOM], fn, arg);
	if (done)
		done(arg, rc);
}

static int sq_chat_add(store *base, const char *id, store_chat *c)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *st = s->q[Q_CHAT_ADD];
	int rc;

	if (op_begin(s) < 0)
		return -1;
	if (fault_hit("write")) {
		log_event(LOG_ERROR, "store_error", "query=%d error=\"injected fault\"", Q_CHAT_ADD);
		return -1;
	}
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->at);
	sqlite3_bind_int(st, 3, c->side);
	sqlite3_bind_text(st, 4, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		c->id = (uint64_t)sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE && c->id)
		return 0;
	log_event(LOG_ERROR, "store_error", "query=%d error=\"%s\"", Q_CHAT_ADD, sqlite3_errmsg(s->db));
	if (sqlite3_get_autocommit(s->db)) {
		s->broken = 1;
		log_event(LOG_ERROR, "store_batch_lost", "error=\"%s\"", sqlite3_errmsg(s->db));
	}
	return -1;
}

static void sq_chat_recent(store *base, const char *id, int max, store_chat_fn *fn,
                           store_done_fn *done, void *arg)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *q = s->q[Q_CHAT_RECENT];
	int count = 0, rc;

	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 2, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_chat c;

		memset(&c, 0, sizeof c);
		c.id = (uint64_t)sqlite3_column_int64(q, 0);
		c.at = sqlite3_column_int64(q, 1);
		c.side = sqlite3_column_int(q, 2);
		snprintf(c.name, sizeof c.name, "%s", (const char *)sqlite3_column_text(q, 3));
		snprintf(c.text, sizeof c.text, "%s", (const char *)sqlite3_column_text(q, 4));
		fn(arg, &c);
		count++;
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=chat error=\"%s\"", sqlite3_errmsg(s->db));
		count = -1;
	}
	if (done)
		done(arg, count);
}

/* ---- club events ---- */

static int sq_ev_insert(store *base, const store_event *e)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *st = s->q[Q_EV_INSERT];

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(st, 1, e->id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, e->created);
	sqlite3_bind_int64(st, 3, e->updated);
	sqlite3_bind_blob(st, 4, e->org_tok, SHA256_LEN, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, e->settings ? e->settings : "", -1, SQLITE_STATIC);
	return op_run(s, Q_EV_INSERT);
}

/* Two statements (the event's time, its log's new row) under a savepoint:
 * a failure of either, or an event that is not there, leaves nothing of
 * the change in the batch. */
static int sq_ev_append(store *base, const char *id, int64_t updated,
                        const store_event_change *c)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *touch = s->q[Q_EV_TOUCH], *add = s->q[Q_EV_APPEND];
	int rc;

	if (op_begin(s) < 0 || run(s, Q_SAVEPOINT) < 0)
		return -1;
	sqlite3_bind_text(touch, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(touch, 2, updated);
	rc = op_run(s, Q_EV_TOUCH);
	if (rc == 0 && sqlite3_changes(s->db) == 0) {
		log_event(LOG_ERROR, "store_error", "query=%d error=\"no event %s\"", Q_EV_TOUCH, id);
		rc = -1;
	}
	if (rc == 0) {
		sqlite3_bind_text(add, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(add, 2, c->seq);
		sqlite3_bind_text(add, 3, c->body ? c->body : "", -1, SQLITE_STATIC);
		if (c->has_tok)
			sqlite3_bind_blob(add, 4, c->tok, SHA256_LEN, SQLITE_STATIC);
		else
			sqlite3_bind_null(add, 4);
		rc = op_run(s, Q_EV_APPEND);
	}
	if (rc == 0 && run(s, Q_RELEASE) == 0)
		return 0;
	/* Unless SQLite dropped the whole batch (then s->broken), only this
	 * change is undone. */
	if (!sqlite3_get_autocommit(s->db) && run(s, Q_ROLLBACK_TO) == 0)
		run(s, Q_RELEASE);
	return -1;
}

static int sq_ev_remove(store *base, const char *id)
{
	sqlite_store *s = (sqlite_store *)base;

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(s->q[Q_EV_DELETE], 1, id, -1, SQLITE_STATIC);
	return op_run(s, Q_EV_DELETE);
}

/* Steps q (bound) and calls fn for each event, then ch for each change of
 * it: the number of events, or -1. */
static int event_rows(sqlite_store *s, sqlite3_stmt *q, store_event_fn *fn,
                      store_event_change_fn *ch, void *arg)
{
	sqlite3_stmt *log = s->q[Q_EVENT_LOG];
	int count = 0, rc, lrc = SQLITE_DONE;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_event e;

		memset(&e, 0, sizeof e);
		snprintf(e.id, sizeof e.id, "%s", (const char *)sqlite3_column_text(q, 0));
		e.created = sqlite3_column_int64(q, 1);
		e.updated = sqlite3_column_int64(q, 2);
		if (sqlite3_column_bytes(q, 3) == SHA256_LEN)
			memcpy(e.org_tok, sqlite3_column_blob(q, 3), SHA256_LEN);
		else
			log_event(LOG_ERROR, "store_bad_token", "event=%s", e.id);
		e.settings = (const char *)sqlite3_column_text(q, 4);
		if (!e.settings)
			e.settings = "";
		if (fn)
			fn(arg, &e);
		count++;
		sqlite3_bind_text(log, 1, e.id, -1, SQLITE_TRANSIENT);
		while ((lrc = sqlite3_step(log)) == SQLITE_ROW) {
			store_event_change c;

			memset(&c, 0, sizeof c);
			c.seq = sqlite3_column_int64(log, 0);
			c.body = (const char *)sqlite3_column_text(log, 1);
			if (!c.body)
				c.body = "";
			if (sqlite3_column_bytes(log, 2) == SHA256_LEN) {
				c.has_tok = 1;
				memcpy(c.tok, sqlite3_column_blob(log, 2), SHA256_LEN);
			}
			if (ch)
				ch(arg, e.id, &c);
		}
		sqlite3_reset(log);
		sqlite3_clear_bindings(log);
		if (lrc != SQLITE_DONE)
			break;
	}
	if (lrc != SQLITE_DONE)
		rc = lrc;
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=ev_load error=\"%s\"", sqlite3_errmsg(s->db));
		return -1;
	}
	return count;
}

/* Reads on the batch's own connection, so its writes are seen; every
 * callback (done included, for one event) runs before the return. */
static int sq_ev_load(store *base, const char *id, store_event_fn *fn, store_event_change_fn *ch,
                      store_done_fn *done, void *arg)
{
	sqlite_store *s = (sqlite_store *)base;
	int rc;

	if (!id)
		return event_rows(s, s->q[Q_EVENTS], fn, ch, arg);
	sqlite3_bind_text(s->q[Q_EVENT], 1, id, -1, SQLITE_TRANSIENT);
	rc = event_rows(s, s->q[Q_EVENT], fn, ch, arg);
	if (done)
		done(arg, rc);
	return 0;
}

/* ---- Web Push ---- */

static int sq_push_add(store *base, const store_push_sub *p)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *st = s->q[Q_PUSH_ADD], *tr = s->q[Q_PUSH_TRIM];

	if (op_begin(s) < 0 || run(s, Q_SAVEPOINT) < 0)
		return -1;
	sqlite3_bind_text(st, 1, p->room, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, p->side);
	sqlite3_bind_int64(st, 3, p->game);
	sqlite3_bind_int64(st, 4, p->created);
	sqlite3_bind_text(st, 5, p->endpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, p->p256dh, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, p->auth, -1, SQLITE_STATIC);
	sqlite3_bind_text(tr, 1, p->room, -1, SQLITE_STATIC);
	sqlite3_bind_int(tr, 2, p->side);
	if (op_run(s, Q_PUSH_ADD) < 0 || op_run(s, Q_PUSH_TRIM) < 0) {
		sqlite3_reset(tr);
		sqlite3_clear_bindings(tr);
		if (!sqlite3_get_autocommit(s->db) && run(s, Q_ROLLBACK_TO) == 0)
			run(s, Q_RELEASE);
		return -1;
	}
	return run(s, Q_RELEASE);
}

static int sq_push_del(store *base, const char *id, int side, const char *endpoint)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *st = s->q[Q_PUSH_DEL];

	if (op_begin(s) < 0)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, side);
	if (endpoint)
		sqlite3_bind_text(st, 3, endpoint, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	return op_run(s, Q_PUSH_DEL);
}

static void sq_push_list(store *base, const char *id, store_push_fn *fn, store_done_fn *done,
                         void *arg)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *q = s->q[Q_PUSH_LIST];
	int count = 0, rc;

	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_push_sub p;

		memset(&p, 0, sizeof p);
		snprintf(p.room, sizeof p.room, "%s", id);
		p.side = sqlite3_column_int(q, 0);
		p.game = (unsigned)sqlite3_column_int64(q, 1);
		p.created = sqlite3_column_int64(q, 2);
		snprintf(p.endpoint, sizeof p.endpoint, "%s", (const char *)sqlite3_column_text(q, 3));
		snprintf(p.p256dh, sizeof p.p256dh, "%s", (const char *)sqlite3_column_text(q, 4));
		snprintf(p.auth, sizeof p.auth, "%s", (const char *)sqlite3_column_text(q, 5));
		fn(arg, &p);
		count++;
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE) {
		log_event(LOG_ERROR, "store_error", "query=push error=\"%s\"", sqlite3_errmsg(s->db));
		count = -1;
	}
	if (done)
		done(arg, count);
}

/* At start-up, before any batch: its own transaction. */
static int sq_push_key(store *base, const char *fresh, char *out, size_t cap)
{
	sqlite_store *s = (sqlite_store *)base;
	sqlite3_stmt *q = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(s->db, "INSERT INTO keys (name, value) VALUES ('vapid', ?1)"
	                       " ON CONFLICT (name) DO UPDATE SET value=value RETURNING value",
	                       -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_text(q, 1, fresh, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW &&
		    snprintf(out, cap, "%s", (const char *)sqlite3_column_text(q, 0)) < (int)cap &&
		    sqlite3_step(q) == SQLITE_DONE)
			rc = 0;
	}
	if (rc < 0)
		log_event(LOG_ERROR, "store_error", "query=push_key error=\"%s\"",
		          sqlite3_errmsg(s->db));
	sqlite3_finalize(q);
	return rc;
}

/* An open file always answers; failing writes show in flush and probe. */
static int sq_reachable(const store *base)
{
	(void)base;
	return 1;
}

static const store_ops sqlite_ops = {
	.insert = sq_insert,
	.update = sq_update,
	.update_moves = sq_update_moves,
	.remove = sq_remove,
	.pending = sq_pending,
	.flush = sq_flush,
	.probe = sq_probe,
	.reclaim = sq_reclaim,
	.load = sq_load,
	.load_room = sq_load_room,
	.close = sq_close,
	.chat_add = sq_chat_add,
	.chat_recent = sq_chat_recent,
	.reachable = sq_reachable,
	.ev_insert = sq_ev_insert,
	.ev_append = sq_ev_append,
	.ev_remove = sq_ev_remove,
	.ev_load = sq_ev_load,
	.push_add = sq_push_add,
	.push_del = sq_push_del,
	.push_list = sq_push_list,
	.push_key = sq_push_key,
};

store *store_sqlite_open(const char *path, int sync_full, char *err, size_t errlen)
{
	sqlite_store *s = calloc(1, sizeof *s);
	char *msg = NULL;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->base.ops = &sqlite_ops;
	s->base.kind = "sqlite";
	make_parent(path);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) {
		snprintf(err, errlen, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 2000);
	/* auto_vacuum first: it only takes on a database without tables, and
	 * lets expired rooms give their pages back (reclaim). Setting it
	 * writes, so only when it is not set yet (2: incremental). */
	if ((query_int(s, "PRAGMA auto_vacuum") != 2 &&
	     sqlite3_exec(s->db, "PRAGMA auto_vacuum=INCREMENTAL", NULL, NULL, &msg)) ||
	    sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) ||
	    sqlite3_exec(s->db, sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL",
	                 NULL, NULL, &msg)) {
		snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		goto fail;
	}
	if (schema_setup(s, path, err, errlen) < 0)
		goto fail;
	for (int i = 0; i < Q_COUNT; i++)
		if (sqlite3_prepare_v2(s->db, sql[i], -1, &s->q[i], NULL)) {
			snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
			goto fail;
		}
	/* Replaces SQLite's own checkpoints after commits (wal_autocheckpoint). */
	sqlite3_wal_hook(s->db, wal_hook, s);
	if (sqlite3_exec(s->db, "PRAGMA journal_size_limit=" WAL_KEEP_BYTES, NULL, NULL, &msg)) {
		snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		goto fail;
	}
	if (checkpointer_start(s, path, sync_full, err, errlen) < 0)
		goto fail;
	return &s->base;
fail:
	sq_close(&s->base);
	return NULL;
}
