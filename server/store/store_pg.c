/* store_pg.c: the store of store.h on PostgreSQL, through pg.c (one
 * non-blocking, pipelined connection on the event loop): the same tables
 * and meanings as SQLite's schema 8; a batch is one pipeline segment (one
 * transaction), its commit answered on a later loop pass. Several servers
 * share the database: each room is held by one server's incarnation
 * under a lease, and every write is fenced by it (server/CLUSTER.md). */
#include <ev.h>
#include <stdint.h>
#include <sys/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/log.h"
#include "server/store/pg.h"
#include "protocol/kind.h"
#include "server/store/store.h"

/* The schema's version: the same numbers as SQLite's (store_sqlite.c);
 * PostgreSQL starts at 4 (names, chat, clocks, start position). 6
 * (issue 30): a room's chat keeps 16384 bytes of text at most
 * (STORE_CHAT_BYTES); older rooms' lines are trimmed to it. 7 (club
 * events, issue 41): a room's `event`, the tables `events` and
 * `event_log`. */
#define SCHEMA_VERSION 8
#define SCHEMA_LOCK "7340031"   /* the advisory lock taken while setting up */
#define CLOSE_WAIT_S 5.0        /* the last commit may take this long at close */

#define ROOM_COLS "id, kind, created, updated, game_number, version, tok_south, tok_north," \
	" reason, winner, draw_offer, rematch_offer, moves, name_south, name_north, clock_kind," \
	" clock_days, clock_init_south, clock_init_north, clock_increment, clock_left_south," \
	" clock_left_north, start, event"
/* The last chat line's id of each room read: chat_add numbers from it. */
#define CHAT_LAST ", (SELECT coalesce(max(c.id), 0) FROM chat c WHERE c.room = rooms.id)"
#define NPARAMS 24   /* a room's columns, moves ($13) included; the holder is $25 */
/* "held by incarnation $n", for statements that name their room by id:
 * not as holder = $n, which the planner may answer through the holder
 * index when the statement is prepared on a new, empty table (every
 * room of this server scanned for each write: 0.2 ms a move at 2,000
 * rooms), but as a test the index cannot serve, so the id's key is used. */
#define HELD_BY(n) " holder IS NOT DISTINCT FROM $" n "::bigint"
#define TAKE_RETRY_S 0.25       /* a wanted room is asked for again this often */
#define TAKE_EXTRA_S 3.0        /* ... for the lease time and this much more */
/* "want"'s and "ev_want"'s fourth column: the holder's lease left, ms. */
#define LEASE_LEFT "GREATEST(0, CEIL(EXTRACT(EPOCH FROM i.lease_until - now()) * 1000))::int"

/* Run on every new connection, in one transaction, before the prepared
 * statements: the schema (created by the first server, checked by every
 * one; a newer one is refused, and the error shows in /healthz). */
static const pg_stmt stmts[] = {
	{NULL, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS owared_schema (version int NOT NULL)", 0},
	{NULL, "DO $$ BEGIN IF (SELECT max(version) FROM owared_schema) > " "8" " THEN"
	       " RAISE EXCEPTION 'the database was made by a newer owared (schema %, this one"
	       " knows 8)', (SELECT max(version) FROM owared_schema); END IF; END $$", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS rooms ("
	       " id text PRIMARY KEY, kind text NOT NULL, created bigint NOT NULL,"
	       " updated bigint NOT NULL, game_number bigint NOT NULL, version bigint NOT NULL,"
	       " tok_south bytea, tok_north bytea, reason int NOT NULL, winner int NOT NULL,"
	       " draw_offer int NOT NULL, rematch_offer int NOT NULL,"
	       " moves bytea NOT NULL DEFAULT '', name_south text NOT NULL DEFAULT '',"
	       " name_north text NOT NULL DEFAULT '',"
	       " clock_kind int NOT NULL DEFAULT 0, clock_days int NOT NULL DEFAULT 0,"
	       " clock_init_south bigint NOT NULL DEFAULT 0, clock_init_north bigint NOT NULL DEFAULT 0,"
	       " clock_increment bigint NOT NULL DEFAULT 0,"
	       " clock_left_south bigint NOT NULL DEFAULT 0, clock_left_north bigint NOT NULL DEFAULT 0,"
	       " start text NOT NULL DEFAULT '')", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS chat (room text NOT NULL, id bigint NOT NULL,"
	       " at bigint NOT NULL, side int NOT NULL, name text NOT NULL, text text NOT NULL,"
	       " PRIMARY KEY (room, id))", 0},
	/* 4 -> 6: each room's chat trimmed to its last 16384 bytes of text. */
	{NULL, "DO $$ BEGIN IF (SELECT max(version) FROM owared_schema) < 6 THEN"
	       " DELETE FROM chat WHERE (room, id) IN (SELECT room, id FROM (SELECT room, id,"
	       " sum(octet_length(text)) OVER (PARTITION BY room ORDER BY id DESC) AS kept"
	       " FROM chat) k WHERE kept > 16384); UPDATE owared_schema SET version = 6;"
	       " END IF; END $$", 0},
	/* 6 -> 7: club events. No room is a board yet; an event's log goes
	 * with it (ON DELETE CASCADE), and a change of an event that is not
	 * there fails its batch. */
	{NULL, "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS event text NOT NULL DEFAULT ''", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS events (id text PRIMARY KEY, created bigint NOT NULL,"
	       " updated bigint NOT NULL, org_tok bytea NOT NULL, settings text NOT NULL,"
	       " holder bigint)", 0},
	{NULL, "ALTER TABLE events ADD COLUMN IF NOT EXISTS holder bigint", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS event_log (event text NOT NULL REFERENCES events (id)"
	       " ON DELETE CASCADE, seq bigint NOT NULL, body text NOT NULL, tok bytea,"
	       " PRIMARY KEY (event, seq))", 0},
	/* 7 -> 8: Web Push (issue 53): the seats' subscriptions, gone with
	 * their room (del), and the servers' one key pair (VAPID). */
	{NULL, "CREATE TABLE IF NOT EXISTS push (room text NOT NULL, side int NOT NULL,"
	       " game bigint NOT NULL, created bigint NOT NULL, endpoint text NOT NULL,"
	       " p256dh text NOT NULL, auth text NOT NULL, PRIMARY KEY (room, endpoint))", 0},
	{NULL, "CREATE TABLE IF NOT EXISTS owared_keys (name text PRIMARY KEY, value text NOT NULL)",
	 0},
	{NULL, "UPDATE owared_schema SET version = 8 WHERE version < 8", 0},
	{NULL, "INSERT INTO owared_schema SELECT " "8"
	       " WHERE NOT EXISTS (SELECT 1 FROM owared_schema)", 0},
	/* Several servers: each start (and each lost lease) of a server is an
	 * incarnation, which holds rooms while its lease lasts. */
	{NULL, "CREATE TABLE IF NOT EXISTS incarnations (id bigserial PRIMARY KEY,"
	       " node text NOT NULL, started timestamptz NOT NULL DEFAULT now(),"
	       " lease_until timestamptz NOT NULL)", 0},
	{NULL, "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS holder bigint", 0},
	/* Where an incarnation takes connections relayed by the others, and
	 * the key they show (server/CLUSTER.md, "Split routing"). */
	{NULL, "ALTER TABLE incarnations ADD COLUMN IF NOT EXISTS relay text", 0},
	{NULL, "ALTER TABLE incarnations ADD COLUMN IF NOT EXISTS relay_key text", 0},
	{NULL, "CREATE INDEX IF NOT EXISTS rooms_holder ON rooms (holder)", 0},
	/* The seats with a connection on the room's holder (bit 1 << side), for
	 * the others' POST /api/rooms; meaningful while its lease lasts. */
	{NULL, "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS present int NOT NULL DEFAULT 0", 0},
	/* A write that finds its room held by another incarnation (or gone)
	 * raises: the whole batch (segment) is rolled back. */
	{NULL, "CREATE OR REPLACE FUNCTION owared_fenced(room text) RETURNS int LANGUAGE plpgsql"
	       " AS $f$ BEGIN RAISE EXCEPTION 'fenced: room % is not held by this server', room;"
	       " END $f$", 0},
	{NULL, "CREATE OR REPLACE FUNCTION owared_ev_fenced(event text) RETURNS int"
	       " LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION"
	       " 'fenced: event % is not held by this server', event; END $f$", 0},
	{NULL, "LISTEN owared_wanted", 0},
	{NULL, "LISTEN owared_ev_wanted", 0},
	{NULL, "LISTEN owared_ev_board", 0},
	{NULL, "LISTEN owared_board_end", 0},
	{"ins", "INSERT INTO rooms (" ROOM_COLS ", holder) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
	        " $9, $10, $11, $12, coalesce($13::bytea, ''::bytea), $14, $15, $16, $17, $18, $19,"
	        " $20, $21, $22, $23, $24, $25::bigint)", NPARAMS + 1},
	/* Moves ($13) NULL: kept as they are. */
	{"upd", "WITH u AS (UPDATE rooms SET kind=$2, created=$3, updated=$4, game_number=$5,"
	        " version=$6, tok_south=$7, tok_north=$8, reason=$9, winner=$10, draw_offer=$11,"
	        " rematch_offer=$12, moves=coalesce($13::bytea, moves), name_south=$14,"
	        " name_north=$15, clock_kind=$16, clock_days=$17, clock_init_south=$18,"
	        " clock_init_north=$19, clock_increment=$20, clock_left_south=$21,"
	        " clock_left_north=$22, start=$23, event=$24 WHERE id=$1 AND" HELD_BY("25")
	        " RETURNING 1)"
	        " SELECT owared_fenced($1) WHERE NOT EXISTS (SELECT 1 FROM u)", NPARAMS + 1},
	{"del", "WITH c AS (DELETE FROM chat WHERE room=$1), p AS (DELETE FROM push WHERE room=$1),"
	        " d AS (DELETE FROM rooms WHERE id=$1"
	        " AND" HELD_BY("2") " RETURNING 1) SELECT owared_fenced($1)"
	        " WHERE NOT EXISTS (SELECT 1 FROM d)", 2},
	/* A room read back after a lost batch: only while it is still ours. */
	{"room", "SELECT " ROOM_COLS CHAT_LAST " FROM rooms WHERE id=$1 AND" HELD_BY("2"), 2},
	/* A room keeps its last 100 lines (STORE_CHAT_KEEP), and of those the
	 * last whose texts take 16384 bytes at most, the new line's included
	 * (STORE_CHAT_BYTES). */
	{"chat_add", "WITH ok AS (SELECT 1 FROM rooms WHERE id=$1 AND" HELD_BY("7") "),"
	             " d AS (DELETE FROM chat WHERE room=$1 AND EXISTS (SELECT 1 FROM ok) AND"
	             " (id <= $2::bigint - 100 OR id <= (SELECT max(id) FROM (SELECT id,"
	             " octet_length($6::text) + sum(octet_length(text)) OVER (ORDER BY id DESC)"
	             " AS kept FROM chat WHERE room=$1) k WHERE kept > 16384))), i AS (INSERT INTO chat (room, id, at, side,"
	             " name, text) SELECT $1, $2::bigint, $3::bigint, $4::int, $5::text, $6::text"
	             " FROM ok RETURNING 1) SELECT owared_fenced($1)"
	             " WHERE NOT EXISTS (SELECT 1 FROM i)", 7},
	{"incarnate", "INSERT INTO incarnations (node, lease_until, relay, relay_key) VALUES ($1,"
	              " now() + make_interval(secs => $2::int), $3, $4) RETURNING id", 4},
	{"relay_set", "UPDATE incarnations SET relay = $2, relay_key = $3 WHERE id = $1::bigint", 3},
	{"renew", "UPDATE incarnations SET lease_until = now() + make_interval(secs => $2::int)"
	          " WHERE id = $1::bigint AND lease_until > now() RETURNING id", 2},
	/* At start: the rooms of this node's former incarnations are its own
	 * again at once (a restart need not wait for their leases); former
	 * incarnations holding nothing go. */
	{"take_mine", "UPDATE rooms SET holder = $1::bigint, present = 0 WHERE holder IN (SELECT id FROM"
	              " incarnations WHERE node = $2 AND id <> $1::bigint) RETURNING " ROOM_COLS
	              CHAT_LAST, 2},
	{"ev_take_mine", "UPDATE events SET holder = $1::bigint WHERE holder IN (SELECT id FROM"
	                 " incarnations WHERE node = $2 AND id <> $1::bigint)", 2},
	{"forget_mine", "DELETE FROM incarnations i WHERE node = $2 AND id <> $1::bigint AND NOT"
	                " EXISTS (SELECT 1 FROM rooms r WHERE r.holder = i.id) AND NOT EXISTS"
	                " (SELECT 1 FROM events e WHERE e.holder = i.id)", 2},
	/* A room nobody holds, or whose holder's lease ran out, or held by
	 * this node's former self, becomes this incarnation's. */
	{"take", "UPDATE rooms SET holder = $2::bigint, present = 0 WHERE id = $1 AND (holder IS NULL OR"
	         " holder = $2::bigint OR holder IN (SELECT id FROM incarnations WHERE node = $3) OR"
	         " NOT EXISTS (SELECT 1 FROM incarnations i WHERE i.id = rooms.holder AND"
	         " i.lease_until > now())) RETURNING " ROOM_COLS CHAT_LAST, 3},
	/* Rooms nobody holds (a dead server's, that nobody joined since),
	 * idle since before $2: taken, at most 100 a time, so that the
	 * server's expiry sees them. */
	{"take_idle", "UPDATE rooms SET holder = $1::bigint, present = 0 WHERE id IN (SELECT r.id"
	              " FROM rooms r"
	              " WHERE r.updated < $2::bigint AND (r.holder IS NULL OR NOT EXISTS (SELECT 1"
	              " FROM incarnations i WHERE i.id = r.holder AND i.lease_until > now()))"
	              " LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING " ROOM_COLS CHAT_LAST, 2},
	/* Held by another, live server: it is asked to give the room up, and
	 * where it takes relayed connections is read. */
	{"want", "SELECT pg_notify('owared_wanted', r.id), i.relay, i.relay_key, " LEASE_LEFT " FROM rooms r"
	         " LEFT JOIN incarnations i ON i.id = r.holder WHERE r.id = $1 AND"
	         " r.holder IS DISTINCT FROM $2::bigint", 2},
	{"release", "UPDATE rooms SET holder = NULL, present = 0 WHERE id = $1 AND"
	            HELD_BY("2"), 2},
	/* Not fenced: a room held by another is its business. */
	{"presence", "UPDATE rooms SET present = $2::int WHERE id = $1 AND" HELD_BY("3"), 3},
	/* Any server's room, as stored, with its seats connected on a live
	 * holder; the chat column is unused (0). */
	{"peek", "SELECT " ROOM_COLS ", 0, CASE WHEN EXISTS (SELECT 1 FROM incarnations i WHERE"
	         " i.id = rooms.holder AND i.lease_until > now()) THEN present ELSE 0 END"
	         " FROM rooms WHERE id = $1", 1},
	/* A clean stop ends the lease now: the others may take its rooms at
	 * once, and the same node, restarted, takes back what nobody took. */
	{"retire", "UPDATE incarnations SET lease_until = now() WHERE id = $1::bigint", 1},
	{"chat_recent", "SELECT id, at, side, name, text FROM (SELECT id, at, side, name, text"
	                " FROM chat WHERE room=$1 ORDER BY id DESC LIMIT $2) l ORDER BY id", 2},
	/* Club events, held as rooms are (server/CLUSTER.md, "Club events"):
	 * every write is fenced by the event's holder, an insert makes the
	 * event its creator's. */
	{"ev_ins", "INSERT INTO events (id, created, updated, org_tok, settings, holder)"
	           " VALUES ($1, $2, $3, $4, $5, $6::bigint)", 6},
	{"ev_app", "WITH u AS (UPDATE events SET updated = $2 WHERE id = $1 AND" HELD_BY("6")
	           " RETURNING 1), i AS (INSERT INTO event_log (event, seq, body, tok) SELECT $1,"
	           " $3::bigint, $4::text, $5::bytea FROM u RETURNING 1) SELECT owared_ev_fenced($1)"
	           " WHERE NOT EXISTS (SELECT 1 FROM i)", 6},
	{"ev_del", "WITH d AS (DELETE FROM events WHERE id = $1 AND" HELD_BY("2") " RETURNING 1)"
	           " SELECT owared_ev_fenced($1) WHERE NOT EXISTS (SELECT 1 FROM d)", 2},
	/* Events then their changes as one list: each event's row (k = 0)
	 * followed by its changes (k = 1) in seq order; those this
	 * incarnation holds ($1: all of them in a store of one server). */
	{"ev_all", "SELECT 0 AS k, id, created, updated, org_tok, settings, 0 AS seq FROM events"
	           " WHERE" HELD_BY("1") " UNION ALL SELECT 1, l.event, 0, 0, l.tok, l.body, l.seq"
	           " FROM event_log l JOIN events e ON e.id = l.event WHERE e.holder IS NOT"
	           " DISTINCT FROM $1::bigint ORDER BY 2, 1, 7", 1},
	/* One event: $2 NULL reads it whoever holds it. */
	{"ev_one", "SELECT 0 AS k, id, created, updated, org_tok, settings, 0 AS seq FROM events"
	           " WHERE id = $1 AND ($2::bigint IS NULL OR holder = $2::bigint) UNION ALL SELECT"
	           " 1, l.event, 0, 0, l.tok, l.body, l.seq FROM event_log l JOIN events e ON e.id ="
	           " l.event WHERE l.event = $1 AND ($2::bigint IS NULL OR e.holder = $2::bigint)"
	           " ORDER BY 2, 1, 7", 2},
	/* As take and want for a room. */
	{"ev_take", "UPDATE events SET holder = $2::bigint WHERE id = $1 AND (holder IS NULL OR"
	            " holder = $2::bigint OR holder IN (SELECT id FROM incarnations WHERE node = $3)"
	            " OR NOT EXISTS (SELECT 1 FROM incarnations i WHERE i.id = events.holder AND"
	            " i.lease_until > now())) RETURNING id", 3},
	{"ev_want", "SELECT pg_notify('owared_ev_wanted', e.id), i.relay, i.relay_key, " LEASE_LEFT " FROM events e"
	            " LEFT JOIN incarnations i ON i.id = e.holder WHERE e.id = $1 AND"
	            " e.holder IS DISTINCT FROM $2::bigint", 2},
	{"ev_release", "UPDATE events SET holder = NULL WHERE id = $1 AND" HELD_BY("2"), 2},
	/* Web Push: not fenced (the holder of the room writes them; a stale
	 * one is harmless: it is sent to only by the holder, for its game). */
	{"push_add", "INSERT INTO push (room, side, game, created, endpoint, p256dh, auth) VALUES"
	             " ($1, $2::int, $3::bigint, $4::bigint, $5, $6, $7) ON CONFLICT (room, endpoint)"
	             " DO UPDATE SET side = $2::int, game = $3::bigint, created = $4::bigint,"
	             " p256dh = $6, auth = $7", 7},
	{"push_trim", "DELETE FROM push WHERE room = $1 AND side = $2::int AND endpoint NOT IN"
	              " (SELECT endpoint FROM push WHERE room = $1 AND side = $2::int"
	              " ORDER BY created DESC, endpoint LIMIT 4)", 2},
	{"push_del", "DELETE FROM push WHERE room = $1 AND ($2::int < 0 OR side = $2::int) AND"
	             " ($3::text IS NULL OR endpoint = $3::text)", 3},
	{"push_list", "SELECT side, game, created, endpoint, p256dh, auth FROM push WHERE room = $1"
	              " ORDER BY created, endpoint", 1},
	{"push_key", "WITH i AS (INSERT INTO owared_keys (name, value) VALUES ('vapid', $1)"
	             " ON CONFLICT (name) DO NOTHING RETURNING value) SELECT value FROM i UNION ALL"
	             " SELECT value FROM owared_keys WHERE name = 'vapid'", 1},
	/* A board's game ended here: the event's holder hears of it at the
	 * commit. */
	{"ev_board", "SELECT pg_notify('owared_ev_board', $1)", 1},
	/* The other way: an event's result for a board whose room another
	 * server may hold; that server hears of it at the commit. */
	{"board_end", "SELECT pg_notify('owared_board_end', $1)", 1},
	/* Events nobody live holds, unchanged since before $2, taken (at most
	 * 100 at a time) so that this server's expiry sees them; read as
	 * ev_all reads. */
	{"ev_take_idle", "WITH t AS (UPDATE events SET holder = $1::bigint WHERE id IN (SELECT e.id"
	                 " FROM events e WHERE e.updated < $2::bigint AND (e.holder IS NULL OR NOT"
	                 " EXISTS (SELECT 1 FROM incarnations i WHERE i.id = e.holder AND"
	                 " i.lease_until > now())) LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING id,"
	                 " created, updated, org_tok, settings) SELECT 0 AS k, id, created, updated,"
	                 " org_tok, settings, 0 AS seq FROM t UNION ALL SELECT 1, l.event, 0, 0, l.tok,"
	                 " l.body, l.seq FROM event_log l JOIN t ON t.id = l.event ORDER BY 2, 1, 7", 2},
};
_Static_assert(SCHEMA_VERSION == 8, "the set-up statements say 8");
_Static_assert(STORE_PUSH_PER_SEAT == 4, "push_trim keeps 4");
_Static_assert(STORE_CHAT_KEEP == 100 && STORE_CHAT_BYTES == 16384,
               "chat_add keeps 100 lines, 16384 bytes of text");

/* The last chat id of each room read (chat_add numbers the next one):
 * a chained hash by room id. */
typedef struct chat_last {
	struct chat_last *next;
	uint64_t last;
	char id[ROOM_ID_LEN + 1];
} chat_last;

/* Owned by main for the life of the process. */
typedef struct pg_store {
	store base;                /* first: the store.h interface */
	struct ev_loop *loop;
	pg *p;
	int open;                  /* writes sent since the last sync (the open batch) */
	int broken;                /* the open segment lost a statement: its flush fails */
	int closing;               /* answers no longer reach the rooms */
	int was_up;
	int ever_up;               /* connected once: a new connection resumes */
	chat_last **chat;          /* nchat buckets */
	unsigned nchat, chats;
	/* Leases: */
	char node[128];            /* this server's name */
	int lease_s;
	char me[24];               /* this incarnation's id, "" while it has none */
	unsigned gen;              /* counts incarnations (stale answers are ignored) */
	int incarnating, renewing;
	ev_tstamp lease_ok_until;  /* the lease surely lasts until then (local time) */
	ev_timer renew_timer;
	char relay[96];            /* where this server takes relayed connections, or "" */
	store_events ev;
	struct take_ctx *takes;    /* takes waiting to ask again */
	struct ev_take_ctx *ev_takes; /* the same, of events */
} pg_store;

/* ---- chat ids ---- */

static unsigned chat_hash(const pg_store *s, const char *id)
{
	uint32_t h = 2166136261u;

	while (*id)
		h = (h ^ (unsigned char)*id++) * 16777619u;
	return h & (s->nchat - 1);
}

static chat_last **chat_find(pg_store *s, const char *id)
{
	chat_last **pp = &s->chat[chat_hash(s, id)];

	while (*pp && strcmp((*pp)->id, id))
		pp = &(*pp)->next;
	return pp;
}

/* Notes the last chat id of room id (on allocation failure the room's
 * next line gets a taken id: its batch fails and the room is read back). */
static void chat_set(pg_store *s, const char *id, uint64_t last)
{
	chat_last **pp, *e;

	if (s->chats >= s->nchat) {
		unsigned old = s->nchat;
		chat_last **t = calloc((size_t)old * 2, sizeof *t);

		if (t) {
			chat_last **o = s->chat;

			s->chat = t;
			s->nchat = old * 2;
			for (unsigned b = 0; b < old; b++)
				while (o[b]) {
					chat_last *x = o[b];
					unsigned nb = chat_hash(s, x->id);

					o[b] = x->next;
					x->next = t[nb];
					t[nb] = x;
				}
			free(o);
		}
	}
	pp = chat_find(s, id);
	if (*pp) {
		(*pp)->last = last;
		return;
	}
	e = malloc(sizeof *e);
	if (!e)
		return;
	e->next = NULL;
	e->last = last;
	snprintf(e->id, sizeof e->id, "%s", id);
	*pp = e;
	s->chats++;
}

static void chat_forget(pg_store *s, const char *id)
{
	chat_last **pp = chat_find(s, id), *e = *pp;

	if (!e)
		return;
	*pp = e->next;
	free(e);
	s->chats--;
}

/* ---- values ---- */

static const char hexdig[] = "0123456789abcdef";

/* bytea's hex text of n bytes (\x...) into a heap string, or NULL. */
static char *hex_new(const uint8_t *b, int n)
{
	char *t = malloc((size_t)n * 2 + 3);

	if (!t)
		return NULL;
	t[0] = '\\';
	t[1] = 'x';
	for (int i = 0; i < n; i++) {
		t[2 + 2 * i] = hexdig[b[i] >> 4];
		t[3 + 2 * i] = hexdig[b[i] & 15];
	}
	t[2 + 2 * n] = 0;
	return t;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes bytea's hex text into out (at most max bytes): the count, or -1. */
static int hex_read(const char *t, uint8_t *out, int max)
{
	int n = 0;

	if (t[0] != '\\' || t[1] != 'x')
		return -1;
	for (t += 2; t[0] && t[1]; t += 2) {
		int hi = hexval(t[0]), lo = hexval(t[1]);

		if (hi < 0 || lo < 0 || n == max)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	return *t ? -1 : n;
}

/* The text parameters of a room's row: vals points into p (and into r,
 * which must outlive the call that sends them); moves NULL: none ($13). */
typedef struct room_params {
	const char *vals[NPARAMS + 1];
	char num[NPARAMS][24];
	char tok[2][2 * SHA256_LEN + 3];
	char start[PROTO_START_TEXT]; /* the kind's text of the start position */
} room_params;

static void params_fill(room_params *p, const room_rec *r, const char *moves)
{
	static const int nums[] = {3, 4, 5, 6, 9, 10, 11, 12, 16, 17, 18, 19, 20, 21, 22};
	long long v[NPARAMS + 1] = {0};

	v[3] = r->created;
	v[4] = r->updated;
	v[5] = r->game_number;
	v[6] = (long long)r->version;
	v[9] = r->reason;
	v[10] = r->winner;
	v[11] = r->draw_offer;
	v[12] = r->rematch_offer;
	v[16] = r->clock_kind;
	v[17] = r->clock_days;
	v[18] = r->clock_initial[0];
	v[19] = r->clock_initial[1];
	v[20] = r->clock_increment;
	v[21] = r->clock_left[0];
	v[22] = r->clock_left[1];
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		snprintf(p->num[nums[i] - 1], sizeof p->num[0], "%lld", v[nums[i]]);
		p->vals[nums[i] - 1] = p->num[nums[i] - 1];
	}
	p->vals[0] = r->id;
	p->vals[1] = r->kind;
	for (int i = 0; i < 2; i++) {
		p->vals[6 + i] = NULL;
		if (r->has_tok[i]) {
			char *h = hex_new(r->tok[i], SHA256_LEN);

			if (h) {
				memcpy(p->tok[i], h, sizeof p->tok[i]);
				free(h);
				p->vals[6 + i] = p->tok[i];
			}
		}
	}
	p->vals[12] = moves;
	p->vals[13] = r->name[0];
	p->vals[14] = r->name[1];
	p->start[0] = 0;
	if (r->has_start) {
		const proto_kind *k = proto_kind_find(r->kind);

		if (k)
			k->start_text(&r->start, p->start);
	}
	p->vals[22] = p->start;
	p->vals[23] = r->event;
	p->vals[24] = NULL; /* the holder: set by the caller */
}

/* This incarnation's id as a parameter: NULL while it has none (a write
 * then fails: it holds nothing). */
static const char *me(const pg_store *s)
{
	return s->me[0] ? s->me : NULL;
}

/* One row of a rooms query (ROOM_COLS, CHAT_LAST) into r and its moves
 * (pits, at most max): the number of moves, or -1 when the row is bad. */
static int row_read(pg_store *s, const PGresult *res, int row, room_rec *r, uint8_t *pits,
                    int max, int note_chat)
{
	int n;

	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", PQgetvalue(res, row, 0));
	snprintf(r->kind, sizeof r->kind, "%s", PQgetvalue(res, row, 1));
	r->created = strtoll(PQgetvalue(res, row, 2), NULL, 10);
	r->updated = strtoll(PQgetvalue(res, row, 3), NULL, 10);
	r->game_number = (unsigned)strtoul(PQgetvalue(res, row, 4), NULL, 10);
	r->version = strtoull(PQgetvalue(res, row, 5), NULL, 10);
	for (int i = 0; i < 2; i++)
		if (!PQgetisnull(res, row, 6 + i) &&
		    hex_read(PQgetvalue(res, row, 6 + i), r->tok[i], SHA256_LEN) == SHA256_LEN)
			r->has_tok[i] = 1;
	r->reason = atoi(PQgetvalue(res, row, 8));
	r->winner = atoi(PQgetvalue(res, row, 9));
	r->draw_offer = atoi(PQgetvalue(res, row, 10));
	r->rematch_offer = atoi(PQgetvalue(res, row, 11));
	n = hex_read(PQgetvalue(res, row, 12), pits, max);
	snprintf(r->name[0], sizeof r->name[0], "%s", PQgetvalue(res, row, 13));
	snprintf(r->name[1], sizeof r->name[1], "%s", PQgetvalue(res, row, 14));
	r->clock_kind = atoi(PQgetvalue(res, row, 15));
	r->clock_days = atoi(PQgetvalue(res, row, 16));
	r->clock_initial[0] = strtoll(PQgetvalue(res, row, 17), NULL, 10);
	r->clock_initial[1] = strtoll(PQgetvalue(res, row, 18), NULL, 10);
	r->clock_increment = strtoll(PQgetvalue(res, row, 19), NULL, 10);
	r->clock_left[0] = strtoll(PQgetvalue(res, row, 20), NULL, 10);
	r->clock_left[1] = strtoll(PQgetvalue(res, row, 21), NULL, 10);
	if (PQgetlength(res, row, 22) > 0) {
		const char *text = PQgetvalue(res, row, 22);
		const proto_kind *k = proto_kind_find(r->kind);

		/* As SQLite's: a text this server did not write is the standard
		 * start, and the moves stop where the engine refuses them; an
		 * unknown kind is refused by rooms.c. */
		if (k && k->start_read(text, &r->start) == 0)
			r->has_start = 1;
		else
			log_event(LOG_ERROR, "store_bad_start", "room=%s", r->id);
	}
	snprintf(r->event, sizeof r->event, "%s", PQgetvalue(res, row, 23));
	if (note_chat)
		chat_set(s, r->id, strtoull(PQgetvalue(res, row, 24), NULL, 10));
	if (n < 0)
		log_event(LOG_ERROR, "store_bad_moves", "room=%s", r->id);
	return n;
}

/* Logs event with fields (may be "") and PostgreSQL's error text, its
 * lines, quotes and any value it quotes escaped (server/base/log.h), so that it
 * stays one field of one line. */
static void log_pg_error(const char *event, const char *fields, const char *err)
{
	char e[512];

	log_event(LOG_ERROR, event, "%s%serror=\"%s\"", fields, *fields ? " " : "",
	          log_esc(e, sizeof e, err, strlen(err), 1));
}

/* A statement's error, or that the connection went before its answer. */
static const char *res_error(const PGresult *res)
{
	return res ? PQresultErrorMessage(res) : "connection lost";
}

/* ---- writes ---- */

/* Sends one write into the open segment: 0, or -1 (logged), after which
 * the segment's flush fails when it held earlier statements. */
static int send_write(pg_store *s, const char *name, int n, const char *const *vals)
{
	if (pg_exec(s->p, name, n, vals, NULL, NULL) < 0) {
		log_event(LOG_ERROR, "store_error", "query=%s error=\"%s\"", name,
		          pg_up(s->p) ? "send failed" : "PostgreSQL is not connected");
		if (s->open)
			s->broken = 1;
		return -1;
	}
	s->open = 1;
	return 0;
}

static int pgs_insert(store *base, const room_rec *r)
{
	pg_store *s = (pg_store *)base;
	room_params p;
	int rc;

	params_fill(&p, r, NULL);
	p.vals[NPARAMS] = me(s);
	rc = send_write(s, "ins", NPARAMS + 1, p.vals);
	if (rc == 0)
		chat_set(s, r->id, 0);
	return rc;
}

static int pgs_update(store *base, const room_rec *r)
{
	room_params p;

	params_fill(&p, r, NULL);
	p.vals[NPARAMS] = me((pg_store *)base);
	return send_write((pg_store *)base, "upd", NPARAMS + 1, p.vals);
}

static int pgs_update_moves(store *base, const room_rec *r, const uint8_t *pits, int n)
{
	room_params p;
	char *moves = hex_new(pits, n);
	int rc;

	if (!moves) {
		log_event(LOG_ERROR, "store_error", "query=upd error=\"out of memory\"");
		return -1;
	}
	params_fill(&p, r, moves);
	p.vals[NPARAMS] = me((pg_store *)base);
	rc = send_write((pg_store *)base, "upd", NPARAMS + 1, p.vals);
	free(moves);
	return rc;
}

static int pgs_remove(store *base, const char *id)
{
	pg_store *s = (pg_store *)base;
	const char *vals[2] = {id, me(s)};
	int rc = send_write(s, "del", 2, vals);

	if (rc == 0)
		chat_forget(s, id);
	return rc;
}

static int pgs_chat_add(store *base, const char *id, store_chat *c)
{
	pg_store *s = (pg_store *)base;
	chat_last **pp = chat_find(s, id);
	uint64_t next = (*pp ? (*pp)->last : 0) + 1;
	char nid[24], at[24], side[8];
	const char *vals[7] = {id, nid, at, side, c->name, c->text, me(s)};

	snprintf(nid, sizeof nid, "%llu", (unsigned long long)next);
	snprintf(at, sizeof at, "%lld", (long long)c->at);
	snprintf(side, sizeof side, "%d", c->side);
	if (send_write(s, "chat_add", 7, vals) < 0)
		return -1;
	chat_set(s, id, next);
	c->id = next;
	return 0;
}

static int pgs_pending(const store *base)
{
	return ((const pg_store *)base)->open;
}

/* ---- commits ---- */

typedef struct flush_ctx {
	pg_store *s;
	store_done_fn *done;
	void *arg;
} flush_ctx;

static void synced(void *arg, int ok, const char *err)
{
	flush_ctx *f = arg;

	const char *fence = err ? strstr(err, "fenced: room ") : NULL;
	int rc = ok ? 0 : -1;

	if (!ok && !f->s->closing) {
		log_pg_error("store_batch_lost", "", err && *err ? err : "unknown");
		if (err && strstr(err, "fenced: "))
			f->s->base.batches_fenced++;
		if (fence) {
			/* "fenced: room ID is not held by this server" */
			size_t n = strcspn(fence + 13, " ");

			if (n && n < sizeof f->s->base.fenced) {
				memcpy(f->s->base.fenced, fence + 13, n);
				f->s->base.fenced[n] = 0;
				rc = STORE_FENCED;
			}
		}
	}
	if (f->done && !f->s->closing)
		f->done(f->arg, rc);
	free(f);
}

static void pgs_flush(store *base, store_done_fn *done, void *arg)
{
	pg_store *s = (pg_store *)base;
	flush_ctx *f;

	if (!s->open && !s->broken) {
		if (done)
			done(arg, 0);
		return;
	}
	s->open = 0;
	if (s->broken) {
		/* A statement of the segment never left: nothing of it may count.
		 * (The connection is being dropped with it, uncommitted.) */
		s->broken = 0;
		log_event(LOG_ERROR, "store_batch_lost", "error=\"a statement could not be sent\"");
		if (done)
			done(arg, -1);
		return;
	}
	f = malloc(sizeof *f);
	if (f) {
		*f = (flush_ctx){s, done, arg};
		if (pg_sync(s->p, synced, f) == 0)
			return;
		free(f);
	}
	log_event(LOG_ERROR, "store_batch_lost", "error=\"%s\"",
	          f ? "PostgreSQL is not connected" : "out of memory");
	if (done)
		done(arg, -1);
}

/* Writes wait for their commit's answer; the probe only says whether the
 * connection is up (a failed batch is never left open). */
static int pgs_probe(store *base)
{
	return pg_up(((pg_store *)base)->p) ? 0 : -1;
}

/* PostgreSQL's autovacuum gives space back by itself. */
static void pgs_reclaim(store *base)
{
	(void)base;
}

static int pgs_reachable(const store *base)
{
	return pg_up(((const pg_store *)base)->p);
}

/* ---- reads ---- */

/* A read joins the open batch, which it sees (answered before the
 * batch's commit); with no batch open, it is a segment of its own, sent
 * at once: reads alone make no commit. */
static void read_sent(pg_store *s)
{
	/* A failed sync drops the connection: the read's callback is told. */
	if (!s->open)
		pg_sync(s->p, NULL, NULL);
}

typedef struct read_ctx {
	pg_store *s;
	store_load_fn *load;
	store_chat_fn *chat;
	store_push_fn *push;
	store_done_fn *done;
	void *arg;
	int rc;                 /* rows, or -1 */
	int answered;
} read_ctx;

static void rooms_read(void *arg, const PGresult *res)
{
	read_ctx *q = arg;
	uint8_t *pits;
	int n, count = 0;

	q->answered = 1;
	if (q->s->closing) {
		free(q);
		return;
	}
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		log_pg_error("store_error", "query=load", res_error(res));
		q->rc = -1;
		goto out;
	}
	n = PQntuples(res);
	for (int i = 0; i < n; i++) {
		room_rec r;
		int len = PQgetlength(res, i, 12) / 2 + 1;
		int k;

		pits = malloc((size_t)len);
		if (!pits) {
			log_event(LOG_ERROR, "store_error", "query=load error=\"out of memory\"");
			q->rc = -1;
			goto out;
		}
		k = row_read(q->s, res, i, &r, pits, len, 1);
		q->load(q->arg, &r, k > 0 ? pits : NULL, k > 0 ? k : 0);
		free(pits);
		count++;
	}
	q->rc = count;
out:
	if (q->done)
		q->done(q->arg, q->rc);
	if (q->done)
		free(q); /* else the waiter of pgs_load frees it */
}

static void pgs_load_room(store *base, const char *id, store_load_fn *fn, store_done_fn *done,
                          void *arg)
{
	pg_store *s = (pg_store *)base;
	read_ctx *q = calloc(1, sizeof *q);
	const char *vals[2] = {id, me(s)};

	if (!q || pg_exec(s->p, "room", 2, vals, rooms_read, q) < 0) {
		free(q);
		if (done)
			done(arg, -1);
		return;
	}
	*q = (read_ctx){.s = s, .load = fn, .done = done, .arg = arg};
	read_sent(s);
}

/* The wake-up of a loop that waits (at start-up and at close). */
static void wake(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
}

typedef struct load_done {
	int synced, ok;
} load_done;

static void load_synced(void *arg, int ok, const char *err)
{
	load_done *d = arg;

	(void)err;
	d->synced = 1;
	d->ok = ok;
}

/* Runs the loop until the pipeline's sync of d answers (at start-up,
 * before the server listens): 1 when it succeeded. */
static int wait_synced(pg_store *s, const load_done *d)
{
	ev_timer t;

	ev_timer_init(&t, wake, 0.1, 0.1);
	ev_timer_start(s->loop, &t);
	while (!d->synced)
		ev_run(s->loop, EVRUN_ONCE);
	ev_timer_stop(s->loop, &t);
	return d->ok;
}

/* At start-up, before the server listens: takes back the rooms of this
 * node's former incarnations (the others come when joined, by take), and
 * waits for the answer. */
static int pgs_load(store *base, store_load_fn *fn, void *arg)
{
	pg_store *s = (pg_store *)base;
	read_ctx *q = calloc(1, sizeof *q);
	load_done d = {0, 0};
	int rc;

	if (!q)
		return -1;
	*q = (read_ctx){.s = s, .load = fn, .arg = arg, .rc = -1};
	{
		const char *vals[2] = {s->me, s->node};

		if (!s->me[0] || pg_exec(s->p, "take_mine", 2, vals, rooms_read, q) < 0 ||
		    pg_exec(s->p, "forget_mine", 2, vals, NULL, NULL) < 0 ||
		    pg_sync(s->p, load_synced, &d) < 0) {
			free(q);
			return -1;
		}
	}
	rc = wait_synced(s, &d) && q->answered ? q->rc : -1;
	free(q);
	return rc;
}

static void chat_read(void *arg, const PGresult *res)
{
	read_ctx *q = arg;
	int n, rc = -1;

	if (q->s->closing) {
		free(q);
		return;
	}
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK) {
		n = PQntuples(res);
		for (int i = 0; i < n; i++) {
			store_chat c;

			memset(&c, 0, sizeof c);
			c.id = strtoull(PQgetvalue(res, i, 0), NULL, 10);
			c.at = strtoll(PQgetvalue(res, i, 1), NULL, 10);
			c.side = atoi(PQgetvalue(res, i, 2));
			snprintf(c.name, sizeof c.name, "%s", PQgetvalue(res, i, 3));
			snprintf(c.text, sizeof c.text, "%s", PQgetvalue(res, i, 4));
			q->chat(q->arg, &c);
		}
		rc = n;
	} else
		log_pg_error("store_error", "query=chat", res_error(res));
	if (q->done)
		q->done(q->arg, rc);
	free(q);
}

static void pgs_chat_recent(store *base, const char *id, int max, store_chat_fn *fn,
                            store_done_fn *done, void *arg)
{
	pg_store *s = (pg_store *)base;
	read_ctx *q = calloc(1, sizeof *q);
	char lim[16];
	const char *vals[2] = {id, lim};

	snprintf(lim, sizeof lim, "%d", max);
	if (!q || pg_exec(s->p, "chat_recent", 2, vals, chat_read, q) < 0) {
		free(q);
		if (done)
			done(arg, -1);
		return;
	}
	*q = (read_ctx){.s = s, .chat = fn, .done = done, .arg = arg};
	read_sent(s);
}

/* ---- Web Push ---- */

static int pgs_push_add(store *base, const store_push_sub *p)
{
	pg_store *s = (pg_store *)base;
	char side[8], game[24], created[24];
	const char *vals[7] = {p->room, side, game, created, p->endpoint, p->p256dh, p->auth};

	snprintf(side, sizeof side, "%d", p->side);
	snprintf(game, sizeof game, "%u", p->game);
	snprintf(created, sizeof created, "%lld", (long long)p->created);
	if (send_write(s, "push_add", 7, vals) < 0)
		return -1;
	return send_write(s, "push_trim", 2, vals);
}

static int pgs_push_del(store *base, const char *id, int side, const char *endpoint)
{
	char sd[8];
	const char *vals[3] = {id, sd, endpoint};

	snprintf(sd, sizeof sd, "%d", side);
	return send_write((pg_store *)base, "push_del", 3, vals);
}

static void push_read(void *arg, const PGresult *res)
{
	read_ctx *q = arg;
	int n, rc = -1;

	q->answered = 1;
	if (q->s->closing) {
		free(q);
		return;
	}
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK) {
		n = PQntuples(res);
		for (int i = 0; i < n; i++) {
			store_push_sub p;

			memset(&p, 0, sizeof p);
			p.side = atoi(PQgetvalue(res, i, 0));
			p.game = (unsigned)strtoul(PQgetvalue(res, i, 1), NULL, 10);
			p.created = strtoll(PQgetvalue(res, i, 2), NULL, 10);
			snprintf(p.endpoint, sizeof p.endpoint, "%s", PQgetvalue(res, i, 3));
			snprintf(p.p256dh, sizeof p.p256dh, "%s", PQgetvalue(res, i, 4));
			snprintf(p.auth, sizeof p.auth, "%s", PQgetvalue(res, i, 5));
			q->push(q->arg, &p);
		}
		rc = n;
	} else
		log_pg_error("store_error", "query=push_list", res_error(res));
	if (q->done)
		q->done(q->arg, rc);
	free(q);
}

static void pgs_push_list(store *base, const char *id, store_push_fn *fn, store_done_fn *done,
                          void *arg)
{
	pg_store *s = (pg_store *)base;
	read_ctx *q = calloc(1, sizeof *q);
	const char *vals[1] = {id};

	if (!q || pg_exec(s->p, "push_list", 1, vals, push_read, q) < 0) {
		free(q);
		if (done)
			done(arg, -1);
		return;
	}
	*q = (read_ctx){.s = s, .push = fn, .done = done, .arg = arg};
	read_sent(s);
}

typedef struct key_read_ctx {
	char *out;
	size_t cap;
	int rc;
} key_read_ctx;

static void key_read(void *arg, const PGresult *res)
{
	key_read_ctx *k = arg;

	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0 &&
	    snprintf(k->out, k->cap, "%s", PQgetvalue(res, 0, 0)) < (int)k->cap)
		k->rc = 0;
	else
		log_pg_error("store_error", "query=push_key", res_error(res));
}

/* At start-up, before the rooms are read: waits for the answer. */
static int pgs_push_key(store *base, const char *fresh, char *out, size_t cap)
{
	pg_store *s = (pg_store *)base;
	key_read_ctx k = {out, cap, -1};
	load_done d = {0, 0};
	const char *vals[1] = {fresh};

	if (pg_exec(s->p, "push_key", 1, vals, key_read, &k) < 0 ||
	    pg_sync(s->p, load_synced, &d) < 0)
		return -1;
	return wait_synced(s, &d) ? k.rc : -1;
}

typedef struct peek_ctx {
	pg_store *s;
	store_peek_fn *fn;
	store_done_fn *done;
	void *arg;
} peek_ctx;

static void peek_read(void *arg, const PGresult *res)
{
	peek_ctx *q = arg;
	int rc = -1;

	if (q->s->closing) {
		free(q);
		return;
	}
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK) {
		rc = PQntuples(res) > 0;
		if (rc) {
			room_rec r;
			int len = PQgetlength(res, 0, 12) / 2 + 1;
			uint8_t *pits = malloc((size_t)len);

			if (pits) {
				int k = row_read(q->s, res, 0, &r, pits, len, 0);

				q->fn(q->arg, &r, k > 0 ? pits : NULL, k > 0 ? k : 0,
				      atoi(PQgetvalue(res, 0, 25)) & 3);
				free(pits);
			} else
				rc = -1;
		}
	} else
		log_pg_error("store_error", "query=peek", res_error(res));
	q->done(q->arg, rc);
	free(q);
}

static void pgs_peek(store *base, const char *id, store_peek_fn *fn, store_done_fn *done,
                     void *arg)
{
	pg_store *s = (pg_store *)base;
	peek_ctx *q = malloc(sizeof *q);
	const char *vals[1] = {id};

	if (!q || pg_exec(s->p, "peek", 1, vals, peek_read, q) < 0) {
		free(q);
		done(arg, -1);
		return;
	}
	*q = (peek_ctx){s, fn, done, arg};
	read_sent(s);
}

static int pgs_presence(store *base, const char *id, int seats)
{
	pg_store *s = (pg_store *)base;
	char num[8];
	const char *vals[3] = {id, num, me(s)};

	if (!s->me[0])
		return 0; /* it holds nothing */
	snprintf(num, sizeof num, "%d", seats);
	return send_write(s, "presence", 3, vals);
}

/* ---- club events ---- */

static int pgs_ev_insert(store *base, const store_event *e)
{
	pg_store *s = (pg_store *)base;
	char created[24], updated[24], tok[2 * SHA256_LEN + 3];
	char *h = hex_new(e->org_tok, SHA256_LEN);
	const char *vals[6] = {e->id, created, updated, tok, e->settings ? e->settings : "",
	                       me(s)};

	if (!h) {
		log_event(LOG_ERROR, "store_error", "query=ev_ins error=\"out of memory\"");
		return -1;
	}
	memcpy(tok, h, sizeof tok);
	free(h);
	snprintf(created, sizeof created, "%lld", (long long)e->created);
	snprintf(updated, sizeof updated, "%lld", (long long)e->updated);
	return send_write(s, "ev_ins", 6, vals);
}

static int pgs_ev_append(store *base, const char *id, int64_t updated,
                         const store_event_change *c)
{
	pg_store *s = (pg_store *)base;
	char when[24], seq[24], tok[2 * SHA256_LEN + 3];
	const char *vals[6] = {id, when, seq, c->body ? c->body : "", NULL, me(s)};

	if (c->has_tok) {
		char *h = hex_new(c->tok, SHA256_LEN);

		if (!h) {
			log_event(LOG_ERROR, "store_error", "query=ev_app error=\"out of memory\"");
			return -1;
		}
		memcpy(tok, h, sizeof tok);
		free(h);
		vals[4] = tok;
	}
	snprintf(when, sizeof when, "%lld", (long long)updated);
	snprintf(seq, sizeof seq, "%lld", (long long)c->seq);
	return send_write(s, "ev_app", 6, vals);
}

static int pgs_ev_remove(store *base, const char *id)
{
	pg_store *s = (pg_store *)base;
	const char *vals[2] = {id, me(s)};

	return send_write(s, "ev_del", 2, vals);
}

typedef struct ev_read_ctx {
	pg_store *s;
	store_event_fn *fn;
	store_event_change_fn *ch;
	store_done_fn *done;
	void *arg;
	int rc;                 /* events, or -1 */
	int answered;
} ev_read_ctx;

/* The rows of ev_all or ev_one: fn for each event, ch for each change of
 * it (the rows come in that order). */
static void events_read(void *arg, const PGresult *res)
{
	ev_read_ctx *q = arg;
	store_event e;
	int n, count = 0;

	q->answered = 1;
	if (q->s->closing) {
		if (q->done)
			free(q);
		return;
	}
	q->rc = -1;
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		log_pg_error("store_error", "query=ev_load", res_error(res));
		goto out;
	}
	n = PQntuples(res);
	memset(&e, 0, sizeof e);
	for (int i = 0; i < n; i++) {
		const char *id = PQgetvalue(res, i, 1);

		if (PQgetvalue(res, i, 0)[0] == '0') {
			memset(&e, 0, sizeof e);
			snprintf(e.id, sizeof e.id, "%s", id);
			e.created = strtoll(PQgetvalue(res, i, 2), NULL, 10);
			e.updated = strtoll(PQgetvalue(res, i, 3), NULL, 10);
			if (hex_read(PQgetvalue(res, i, 4), e.org_tok, SHA256_LEN) != SHA256_LEN)
				log_event(LOG_ERROR, "store_bad_token", "event=%s", e.id);
			e.settings = PQgetvalue(res, i, 5);
			if (q->fn)
				q->fn(q->arg, &e);
			count++;
		} else if (!strcmp(id, e.id)) {
			store_event_change c;

			memset(&c, 0, sizeof c);
			c.seq = strtoll(PQgetvalue(res, i, 6), NULL, 10);
			c.body = PQgetvalue(res, i, 5);
			if (!PQgetisnull(res, i, 4) &&
			    hex_read(PQgetvalue(res, i, 4), c.tok, SHA256_LEN) == SHA256_LEN)
				c.has_tok = 1;
			if (q->ch)
				q->ch(q->arg, e.id, &c);
		}
	}
	q->rc = count;
out:
	if (q->done) {
		q->done(q->arg, q->rc);
		free(q);
	} /* else the waiter of pgs_ev_load frees it */
}

/* Every event (id NULL): at start-up, waiting for the answer as load
 * does, in a segment of its own (so never with a batch open: -1). One
 * event: a read joining the open batch as load_room's, answered later
 * from the loop. */
static int pgs_ev_load(store *base, const char *id, store_event_fn *fn,
                       store_event_change_fn *ch, store_done_fn *done, void *arg)
{
	pg_store *s = (pg_store *)base;
	ev_read_ctx *q = calloc(1, sizeof *q);
	const char *vals[2] = {id, me(s)};
	load_done d = {0, 0};
	int rc;

	if (id) {
		if (!q || !s->me[0] || pg_exec(s->p, "ev_one", 2, vals, events_read, q) < 0) {
			free(q);
			if (done)
				done(arg, -1);
			return 0;
		}
		*q = (ev_read_ctx){.s = s, .fn = fn, .ch = ch, .done = done, .arg = arg, .rc = -1};
		read_sent(s);
		return 0;
	}
	if (!q)
		return -1;
	if (s->open) {
		log_event(LOG_ERROR, "store_error", "query=ev_load error=\"a batch is open\"");
		free(q);
		return -1;
	}
	*q = (ev_read_ctx){.s = s, .fn = fn, .ch = ch, .arg = arg, .rc = -1};
	/* This node's former incarnations' events are its own again at once,
	 * as their rooms are (load); a former incarnation left holding
	 * nothing goes. */
	vals[0] = s->me;
	vals[1] = s->node;
	if (!s->me[0] || pg_exec(s->p, "ev_take_mine", 2, vals, NULL, NULL) < 0 ||
	    pg_exec(s->p, "ev_all", 1, vals, events_read, q) < 0 ||
	    pg_exec(s->p, "forget_mine", 2, vals, NULL, NULL) < 0 ||
	    pg_sync(s->p, load_synced, &d) < 0) {
		free(q);
		return -1;
	}
	rc = wait_synced(s, &d) && q->answered ? q->rc : -1;
	free(q);
	return rc;
}

/* The holder's lease left (ms) in an answer of "want" or "ev_want". */
static int lease_left(const PGresult *res)
{
	return PQgetisnull(res, 0, 3) ? 0 : atoi(PQgetvalue(res, 0, 3));
}

/* An event taken: "ev_take", then "ev_one" (the event's rows, which
 * count only when the take did), then "ev_want" (asks a live holder to
 * give it up: the take is asked again every TAKE_RETRY_S until the lease
 * time plus TAKE_EXTRA_S). */
typedef struct ev_take_ctx {
	ev_read_ctx q;             /* first: the read's own */
	struct ev_take_ctx *next;  /* in s->ev_takes while waiting to ask again */
	char id[STORE_EVENT_ID_LEN + 1];
	int taken;
	store_where_fn *where;
	ev_tstamp until;
	ev_timer retry;
} ev_take_ctx;

static void ev_take_send(ev_take_ctx *t);

static void ev_take_finish(ev_take_ctx *t, int rc)
{
	if (t->q.done)
		t->q.done(t->q.arg, rc);
	free(t);
}

static void ev_take_retry(struct ev_loop *loop, ev_timer *w, int revents)
{
	ev_take_ctx *t = w->data;
	ev_take_ctx **pp = &t->q.s->ev_takes;

	(void)loop;
	(void)revents;
	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
	ev_take_send(t);
}

static void ev_taken_read(void *arg, const PGresult *res)
{
	ev_take_ctx *t = arg;

	if (t->q.s->closing)
		return; /* ev_wanted_read frees it */
	t->taken = res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
}

static void ev_take_rows(void *arg, const PGresult *res)
{
	ev_take_ctx *t = arg;
	store_done_fn *done = t->q.done;

	if (t->q.s->closing || !t->taken)
		return;
	t->q.done = NULL; /* events_read calls no done, frees nothing */
	events_read(&t->q, res);
	t->q.done = done;
	if (t->q.rc != 1)
		t->taken = -1;
}

static void ev_wanted_read(void *arg, const PGresult *res)
{
	ev_take_ctx *t = arg;
	pg_store *s = t->q.s;

	if (s->closing) {
		free(t);
		return;
	}
	if (t->taken) {
		ev_take_finish(t, t->taken > 0 ? STORE_TAKEN : -1);
		return;
	}
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		ev_take_finish(t, -1);
		return;
	}
	if (PQntuples(res) == 0) {
		ev_take_finish(t, STORE_NONE);
		return;
	}
	if (t->where && !PQgetisnull(res, 0, 1) && !PQgetisnull(res, 0, 2) &&
	    t->where(t->q.arg, PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2), lease_left(res))) {
		ev_take_finish(t, STORE_ELSEWHERE);
		return;
	}
	if (ev_time() + TAKE_RETRY_S > t->until) {
		log_event(LOG_WARN, "take_failed", "event=%s error=\"still held by another server\"",
		          t->id);
		ev_take_finish(t, -1);
		return;
	}
	t->next = s->ev_takes;
	s->ev_takes = t;
	ev_timer_init(&t->retry, ev_take_retry, TAKE_RETRY_S, 0);
	t->retry.data = t;
	ev_timer_start(s->loop, &t->retry);
}

static void ev_take_send(ev_take_ctx *t)
{
	pg_store *s = t->q.s;
	const char *vals[3] = {t->id, s->me, s->node};

	t->taken = 0;
	if (!s->me[0] || pg_exec(s->p, "ev_take", 3, vals, ev_taken_read, t) < 0) {
		ev_take_finish(t, -1);
		return;
	}
	/* Once "ev_take" is sent the chain ends in ev_wanted_read (a lost
	 * connection answers each statement with NULL). */
	if (pg_exec(s->p, "ev_one", 2, vals, ev_take_rows, t) < 0 ||
	    pg_exec(s->p, "ev_want", 2, vals, ev_wanted_read, t) < 0)
		t->taken = -1;
	read_sent(s);
}

static void pgs_ev_take(store *base, const char *id, store_event_fn *fn,
                        store_event_change_fn *ch, store_done_fn *done, store_where_fn *where,
                        void *arg)
{
	pg_store *s = (pg_store *)base;
	ev_take_ctx *t = calloc(1, sizeof *t);

	if (!t) {
		done(arg, -1);
		return;
	}
	t->q = (ev_read_ctx){.s = s, .fn = fn, .ch = ch, .done = done, .arg = arg, .rc = -1};
	snprintf(t->id, sizeof t->id, "%s", id);
	t->where = where;
	t->until = ev_time() + s->lease_s + TAKE_EXTRA_S;
	ev_take_send(t);
}

/* Not fenced, as a room's. */
static int pgs_ev_release(store *base, const char *id)
{
	pg_store *s = (pg_store *)base;
	const char *vals[2] = {id, me(s)};

	return s->me[0] ? send_write(s, "ev_release", 2, vals) : 0;
}

static void pgs_ev_peek(store *base, const char *id, store_event_fn *fn,
                        store_event_change_fn *ch, store_done_fn *done, void *arg)
{
	pg_store *s = (pg_store *)base;
	ev_read_ctx *q = calloc(1, sizeof *q);
	const char *vals[2] = {id, NULL};

	if (!q || pg_exec(s->p, "ev_one", 2, vals, events_read, q) < 0) {
		free(q);
		done(arg, -1);
		return;
	}
	*q = (ev_read_ctx){.s = s, .fn = fn, .ch = ch, .done = done, .arg = arg, .rc = -1};
	read_sent(s);
}

static void pgs_ev_take_idle(store *base, int64_t before, store_event_fn *fn,
                             store_event_change_fn *ch, store_done_fn *done, void *arg)
{
	pg_store *s = (pg_store *)base;
	ev_read_ctx *q = calloc(1, sizeof *q);
	char when[24];
	const char *vals[2] = {s->me, when};

	snprintf(when, sizeof when, "%lld", (long long)before);
	if (!q || !s->me[0] || pg_exec(s->p, "ev_take_idle", 2, vals, events_read, q) < 0) {
		free(q);
		done(arg, -1);
		return;
	}
	*q = (ev_read_ctx){.s = s, .fn = fn, .ch = ch, .done = done, .arg = arg, .rc = -1};
	read_sent(s);
}

static int pgs_ev_board(store *base, const char *id)
{
	const char *vals[1] = {id};

	return send_write((pg_store *)base, "ev_board", 1, vals);
}

static int pgs_board_end(store *base, const char *id)
{
	const char *vals[1] = {id};

	return send_write((pg_store *)base, "board_end", 1, vals);
}

/* ---- leases ---- */

static void incarnate(pg_store *s);

/* This server's lease ran out (or PostgreSQL says so): every room it
 * held may be another's now; the rooms drop them all, and a new
 * incarnation follows. */
static void lease_lost(pg_store *s, const char *why)
{
	if (!s->me[0])
		return;
	log_event(LOG_ERROR, "lease_lost", "store=postgresql node=%s incarnation=%s error=\"%s\"",
	          s->node, s->me, why);
	s->me[0] = 0;
	s->gen++;
	s->base.leases_lost++;
	if (s->ev.lost)
		s->ev.lost(s->ev.arg);
	if (pg_up(s->p))
		incarnate(s);
}

typedef struct lease_ctx {
	pg_store *s;
	unsigned gen;
	ev_tstamp sent;
} lease_ctx;

static lease_ctx *lease_ctx_new(pg_store *s)
{
	lease_ctx *c = malloc(sizeof *c);

	if (c)
		*c = (lease_ctx){s, s->gen, ev_time()};
	return c;
}

static void incarnated(void *arg, const PGresult *res)
{
	lease_ctx *c = arg;
	pg_store *s = c->s;

	if (!s->closing) {
		s->incarnating = 0;
		if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		    c->gen == s->gen && !s->me[0]) {
			snprintf(s->me, sizeof s->me, "%s", PQgetvalue(res, 0, 0));
			s->lease_ok_until = c->sent + s->lease_s;
			s->gen++;
			log_event(LOG_INFO, "lease_taken", "store=postgresql node=%s incarnation=%s"
			          " lease=%d", s->node, s->me, s->lease_s);
		} else if (!res || PQresultStatus(res) != PGRES_TUPLES_OK)
			log_pg_error("lease_failed", "store=postgresql", res_error(res));
	}
	free(c);
}

/* Registers a new incarnation (its own segment). */
static void incarnate(pg_store *s)
{
	char lease[16];
	const char *vals[4] = {s->node, lease, s->relay[0] ? s->relay : NULL,
	                       s->relay[0] ? s->base.relay_key : NULL};
	lease_ctx *c;

	if (s->incarnating || s->me[0] || s->closing)
		return;
	c = lease_ctx_new(s);
	snprintf(lease, sizeof lease, "%d", s->lease_s);
	if (!c || pg_exec(s->p, "incarnate", 4, vals, incarnated, c) < 0) {
		free(c);
		return;
	}
	s->incarnating = 1;
	read_sent(s);
}

static void renewed(void *arg, const PGresult *res)
{
	lease_ctx *c = arg;
	pg_store *s = c->s;

	if (!s->closing)
		s->renewing = 0;
	if (!s->closing && c->gen == s->gen) {
		if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
			/* Counted from the sending: PostgreSQL's lease ends later. */
			s->lease_ok_until = c->sent + s->lease_s;
			s->base.leases_renewed++;
		} else if (res && PQresultStatus(res) == PGRES_TUPLES_OK)
			lease_lost(s, "it had expired when its renewal arrived");
	}
	free(c);
}

/* Every third of the lease: renews it, or finds it lost. A renewal joins
 * an open batch (committed with it) or is a segment of its own. */
static void renew_tick(struct ev_loop *loop, ev_timer *w, int revents)
{
	pg_store *s = w->data;
	char lease[16];
	const char *vals[2] = {s->me, lease};
	lease_ctx *c;

	(void)loop;
	(void)revents;
	if (s->me[0] && ev_time() >= s->lease_ok_until)
		lease_lost(s, "not renewed in time");
	if (!pg_up(s->p))
		return;
	if (!s->me[0]) {
		incarnate(s);
		return;
	}
	if (s->renewing)
		return;
	c = lease_ctx_new(s);
	snprintf(lease, sizeof lease, "%d", s->lease_s);
	if (!c || pg_exec(s->p, "renew", 2, vals, renewed, c) < 0) {
		free(c);
		return;
	}
	s->renewing = 1;
	read_sent(s);
}

/* ---- takes, releases, wanted rooms ---- */

typedef struct take_ctx {
	pg_store *s;
	struct take_ctx *next;     /* in s->takes while waiting to ask again */
	char id[ROOM_ID_LEN + 1];
	store_load_fn *fn;
	store_done_fn *done;
	store_where_fn *where;
	void *arg;
	int taken, answered, want_failed;
	ev_tstamp until;           /* asks again until then */
	ev_timer retry;
} take_ctx;

static void take_send(take_ctx *t);

static void take_finish(take_ctx *t, int rc)
{
	if (rc == STORE_TAKEN)
		t->s->base.rooms_taken++;
	if (t->done)
		t->done(t->arg, rc);
	free(t);
}

static void take_retry(struct ev_loop *loop, ev_timer *w, int revents)
{
	take_ctx *t = w->data;
	take_ctx **pp = &t->s->takes;

	(void)loop;
	(void)revents;
	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
	take_send(t);
}

/* The answer of "want", after that of "take". */
static void want_read(void *arg, const PGresult *res)
{
	take_ctx *t = arg;
	pg_store *s = t->s;

	if (s->closing) {
		free(t);
		return;
	}
	if (t->taken) {
		take_finish(t, STORE_TAKEN);
		return;
	}
	if (!t->answered || !res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		take_finish(t, -1);
		return;
	}
	if (PQntuples(res) == 0) {
		take_finish(t, STORE_NONE);
		return;
	}
	/* Another live server holds it and was asked to give it up. */
	if (t->where && !PQgetisnull(res, 0, 1) && !PQgetisnull(res, 0, 2) &&
	    t->where(t->arg, PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2), lease_left(res))) {
		take_finish(t, STORE_ELSEWHERE);
		return;
	}
	if (ev_time() + TAKE_RETRY_S > t->until) {
		log_event(LOG_WARN, "take_failed", "room=%s error=\"still held by another server\"",
		          t->id);
		take_finish(t, -1);
		return;
	}
	t->answered = t->taken = 0;
	t->next = s->takes;
	s->takes = t;
	ev_timer_init(&t->retry, take_retry, TAKE_RETRY_S, 0);
	t->retry.data = t;
	ev_timer_start(s->loop, &t->retry);
}

static void take_read(void *arg, const PGresult *res)
{
	take_ctx *t = arg;
	pg_store *s = t->s;

	if (s->closing)
		return; /* want_read (or the lost connection) frees it */
	t->answered = res && PQresultStatus(res) == PGRES_TUPLES_OK;
	if (t->answered && PQntuples(res) == 1) {
		room_rec r;
		int len = PQgetlength(res, 0, 12) / 2 + 1;
		uint8_t *pits = malloc((size_t)len);

		if (pits) {
			int k = row_read(s, res, 0, &r, pits, len, 1);

			t->fn(t->arg, &r, k > 0 ? pits : NULL, k > 0 ? k : 0);
			t->taken = 1;
			free(pits);
		} else
			t->answered = 0;
	}
	if (t->want_failed) {
		if (t->taken)
			take_finish(t, STORE_TAKEN);
		else
			take_finish(t, -1);
	}
}

static void take_send(take_ctx *t)
{
	pg_store *s = t->s;
	const char *vals[3] = {t->id, s->me, s->node};

	if (!s->me[0] || pg_exec(s->p, "take", 3, vals, take_read, t) < 0) {
		take_finish(t, -1);
		return;
	}
	if (pg_exec(s->p, "want", 2, vals, want_read, t) < 0)
		t->want_failed = 1; /* take_read ends it (the connection is going) */
	read_sent(s);
}

static void pgs_take(store *base, const char *id, store_load_fn *fn, store_done_fn *done,
                     store_where_fn *where, void *arg)
{
	pg_store *s = (pg_store *)base;
	take_ctx *t = calloc(1, sizeof *t);

	if (!t) {
		if (done)
			done(arg, -1);
		return;
	}
	t->s = s;
	snprintf(t->id, sizeof t->id, "%s", id);
	t->fn = fn;
	t->done = done;
	t->where = where;
	t->arg = arg;
	t->until = ev_time() + s->lease_s + TAKE_EXTRA_S;
	take_send(t);
}

static void pgs_take_idle(store *base, int64_t before, store_load_fn *fn, store_done_fn *done,
                          void *arg)
{
	pg_store *s = (pg_store *)base;
	read_ctx *q = calloc(1, sizeof *q);
	char when[24];
	const char *vals[2] = {s->me, when};

	snprintf(when, sizeof when, "%lld", (long long)before);
	if (!q || !s->me[0] || pg_exec(s->p, "take_idle", 2, vals, rooms_read, q) < 0) {
		free(q);
		if (done)
			done(arg, -1);
		return;
	}
	*q = (read_ctx){.s = s, .load = fn, .done = done, .arg = arg};
	read_sent(s);
}

/* Not fenced: a room another server holds already is given up anyway. */
static int pgs_release(store *base, const char *id)
{
	pg_store *s = (pg_store *)base;
	const char *vals[2] = {id, me(s)};

	if (!s->me[0])
		return 0; /* it holds nothing */
	if (send_write(s, "release", 2, vals) < 0)
		return -1;
	chat_forget(s, id);
	return 0;
}

/* Sent at once when this incarnation has its id (else with the next
 * incarnate); not in a batch, so it is never fenced. */
static void pgs_set_relay(store *base, const char *addr)
{
	pg_store *s = (pg_store *)base;
	const char *vals[3] = {s->me, addr, s->base.relay_key};

	snprintf(s->relay, sizeof s->relay, "%s", addr);
	if (s->me[0] && pg_up(s->p) && pg_exec(s->p, "relay_set", 3, vals, NULL, NULL) == 0)
		read_sent(s);
}

/* Fields left NULL keep what an earlier call set (the rooms set theirs,
 * then the events theirs). */
static void pgs_set_events(store *base, const store_events *ev)
{
	store_events *to = &((pg_store *)base)->ev;

	if (ev->lost)
		to->lost = ev->lost;
	if (ev->wanted)
		to->wanted = ev->wanted;
	if (ev->ev_wanted)
		to->ev_wanted = ev->ev_wanted;
	if (ev->ev_board)
		to->ev_board = ev->ev_board;
	if (ev->board_end)
		to->board_end = ev->board_end;
	if (ev->resumed)
		to->resumed = ev->resumed;
	if (ev->arg)
		to->arg = ev->arg;
}

static void on_notify(void *arg, const char *channel, const char *payload)
{
	pg_store *s = arg;
	void (*fn)(void *, const char *) = NULL;

	if (s->closing)
		return;
	if (!strcmp(channel, "owared_wanted"))
		fn = s->ev.wanted;
	else if (!strcmp(channel, "owared_ev_wanted"))
		fn = s->ev.ev_wanted;
	else if (!strcmp(channel, "owared_ev_board"))
		fn = s->ev.ev_board;
	else if (!strcmp(channel, "owared_board_end"))
		fn = s->ev.board_end;
	if (fn)
		fn(s->ev.arg, payload);
}

/* ---- the connection ---- */

static void on_state(void *arg, int up)
{
	pg_store *s = arg;

	if (!up && s->open)
		s->broken = 1; /* the open segment went with the connection */
	if (!up)
		s->incarnating = s->renewing = 0; /* their answers were failures */
	if (up && !s->me[0])
		incarnate(s);
	if (up && !s->was_up)
		log_event(LOG_INFO, "store_connected", "store=postgresql");
	else if (!up)
		log_pg_error("store_disconnected", "store=postgresql", pg_error(s->p));
	s->was_up = up;
	/* Notifications sent while it was down were lost. */
	if (up && s->ever_up && !s->closing && s->ev.resumed)
		s->ev.resumed(s->ev.arg);
	s->ever_up |= up;
}

static void pgs_close(store *base)
{
	pg_store *s = (pg_store *)base;
	ev_timer t;

	if (!s)
		return;
	/* The rooms are gone by now (main.c frees them first): a read or a
	 * take answered while the last commit is waited for must not call
	 * back into them. */
	s->closing = 1;
	if (s->p && s->me[0] && !s->broken && pg_up(s->p)) {
		const char *vals[1] = {s->me};

		if (pg_exec(s->p, "retire", 1, vals, NULL, NULL) == 0)
			s->open = 1;
	}
	if (s->p && s->open && !s->broken) {
		load_done d = {0, 0};
		ev_tstamp until = ev_time() + CLOSE_WAIT_S;

		s->open = 0;
		if (pg_sync(s->p, load_synced, &d) == 0) {
			ev_timer_init(&t, wake, 0.1, 0.1);
			ev_timer_start(s->loop, &t);
			while (!d.synced && ev_time() < until)
				ev_run(s->loop, EVRUN_ONCE);
			ev_timer_stop(s->loop, &t);
			if (!d.synced || !d.ok)
				log_event(LOG_ERROR, "store_batch_lost", "error=\"the last commit failed\"");
		}
	}
	ev_timer_stop(s->loop, &s->renew_timer);
	while (s->takes) {
		take_ctx *tk = s->takes;

		s->takes = tk->next;
		ev_timer_stop(s->loop, &tk->retry);
		free(tk);
	}
	while (s->ev_takes) {
		ev_take_ctx *tk = s->ev_takes;

		s->ev_takes = tk->next;
		ev_timer_stop(s->loop, &tk->retry);
		free(tk);
	}
	pg_free(s->p);
	for (unsigned b = 0; b < s->nchat; b++)
		while (s->chat[b]) {
			chat_last *e = s->chat[b];

			s->chat[b] = e->next;
			free(e);
		}
	free(s->chat);
	free(s);
}

static const store_ops pg_ops = {
	.insert = pgs_insert,
	.update = pgs_update,
	.update_moves = pgs_update_moves,
	.remove = pgs_remove,
	.pending = pgs_pending,
	.flush = pgs_flush,
	.probe = pgs_probe,
	.reclaim = pgs_reclaim,
	.load = pgs_load,
	.load_room = pgs_load_room,
	.close = pgs_close,
	.chat_add = pgs_chat_add,
	.chat_recent = pgs_chat_recent,
	.reachable = pgs_reachable,
	.take = pgs_take,
	.take_idle = pgs_take_idle,
	.release = pgs_release,
	.set_events = pgs_set_events,
	.peek = pgs_peek,
	.presence = pgs_presence,
	.set_relay = pgs_set_relay,
	.ev_insert = pgs_ev_insert,
	.ev_append = pgs_ev_append,
	.ev_remove = pgs_ev_remove,
	.ev_load = pgs_ev_load,
	.ev_take = pgs_ev_take,
	.ev_release = pgs_ev_release,
	.ev_board = pgs_ev_board,
	.board_end = pgs_board_end,
	.ev_peek = pgs_ev_peek,
	.ev_take_idle = pgs_ev_take_idle,
	.push_add = pgs_push_add,
	.push_del = pgs_push_del,
	.push_list = pgs_push_list,
	.push_key = pgs_push_key,
};

/* 16 random bytes in hex. */
static void relay_key_new(char out[33])
{
	uint8_t raw[16];
	size_t got = 0;

	while (got < sizeof raw) {
		ssize_t k = getrandom(raw + got, sizeof raw - got, 0);

		if (k > 0)
			got += (size_t)k;
	}
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

store *store_pg_open(struct ev_loop *loop, const char *conninfo, const char *node,
                     int lease_s, double wait_s, char *err, size_t errlen)
{
	pg_store *s = calloc(1, sizeof *s);
	ev_timer t;
	ev_tstamp until = ev_time() + wait_s;

	if (!s || !(s->chat = calloc(1024, sizeof *s->chat))) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->nchat = 1024;
	s->base.ops = &pg_ops;
	s->base.kind = "postgresql";
	/* PostgreSQL flushes each segment's commit to disk in turn, so every
	 * segment sent while one is being flushed costs a flush of its own:
	 * with one in flight the writes made meanwhile wait in the open batch
	 * and share the next flush (at 2,000 moves a second here, quiet: p99
	 * 1.7-1.9 ms against 3.2-3.5 with 64 in flight; with the cores busy,
	 * flushes slow: p50 1.7 ms against 100). */
	s->base.max_inflight = 1;
	s->loop = loop;
	snprintf(s->node, sizeof s->node, "%s", node);
	s->lease_s = lease_s;
	relay_key_new(s->base.relay_key);
	ev_timer_init(&s->renew_timer, renew_tick, lease_s / 3.0, lease_s / 3.0);
	s->renew_timer.data = s;
	s->p = pg_new(loop, conninfo, stmts, (int)(sizeof stmts / sizeof stmts[0]), on_state, s);
	if (!s->p) {
		snprintf(err, errlen, "out of memory");
		pgs_close(&s->base);
		return NULL;
	}
	pg_set_notify(s->p, on_notify, s);
	/* Before the server listens: the rooms are read from it next, under
	 * this server's lease. A database of a newer schema is refused at once. */
	ev_timer_init(&t, wake, 0.1, 0.1);
	ev_timer_start(loop, &t);
	while ((!pg_up(s->p) || !s->me[0]) && ev_time() < until &&
	       !strstr(pg_error(s->p), "newer owared"))
		ev_run(loop, EVRUN_ONCE);
	ev_timer_stop(loop, &t);
	ev_timer_start(loop, &s->renew_timer);
	if (!pg_up(s->p) || !s->me[0]) {
		snprintf(err, errlen, "PostgreSQL: %s", *pg_error(s->p) ? pg_error(s->p)
		         : "no connection");
		pgs_close(&s->base);
		return NULL;
	}
	log_event(LOG_INFO, "store_open", "store=postgresql node=%s incarnation=%s schema=%d"
	          " lease=%d", node, s->me, SCHEMA_VERSION, lease_s);
	return &s->base;
}
