/* pg.h: one PostgreSQL connection driven by a libev loop, never blocking
 * it: connecting, sending and reading all happen when the socket is
 * ready. Statements are pipelined; a sync ends a segment, which PostgreSQL
 * runs as one transaction (an error in it rolls the whole segment back and
 * aborts its later statements). A lost connection is made again by
 * itself, with a growing pause, and every statement and sync still waiting
 * then gets its callback with a failure (whether the server committed a
 * segment whose answer was lost cannot be known: the caller reads back).
 *
 * Knows nothing of rooms: the store built on it decides what to send. */
#ifndef SRV_PG_H
#define SRV_PG_H

#include <libpq-fe.h>

struct ev_loop;
typedef struct pg pg;

/* A statement's result: res is PGRES_TUPLES_OK, PGRES_COMMAND_OK, an error
 * (PGRES_FATAL_ERROR, PGRES_PIPELINE_ABORTED), or NULL when the connection
 * was lost before it. res belongs to pg (valid during the call only). */
typedef void pg_result_fn(void *arg, const PGresult *res);
/* The end of a segment: ok is 1 when every statement in it succeeded and
 * PostgreSQL committed it, 0 when it was rolled back or its answer lost;
 * err says why (valid during the call only). */
typedef void pg_sync_fn(void *arg, int ok, const char *err);
/* The connection came up (up = 1, prepared statements ready) or went
 * down (0). */
typedef void pg_state_fn(void *arg, int up);

/* A prepared statement, made on every new connection before it is up; or,
 * with no name, a statement run once on every new connection before the
 * prepared ones are made (all unnamed ones in one transaction: the schema
 * they refer to). */
typedef struct pg_stmt {
	const char *name;        /* NULL: run at set-up */
	const char *sql;
	int nparams;
} pg_stmt;

/* Starts connecting to conninfo (a libpq connection string or URI) on
 * loop; stmts (n, kept by reference: static storage) are prepared on each
 * connection. on_state is told of every change. NULL when out of memory;
 * a bad conninfo is reported by pg_error and retried like a lost server. */
pg *pg_new(struct ev_loop *loop, const char *conninfo, const pg_stmt *stmts, int n,
           pg_state_fn *on_state, void *arg);
/* A notification (LISTEN, in a set-up statement) on channel with its
 * payload (both valid during the call only); not those the connection
 * sent itself. */
typedef void pg_notify_fn(void *arg, const char *channel, const char *payload);
/* Sets who hears notifications (NULL: nobody). */
void pg_set_notify(pg *p, pg_notify_fn *fn, void *arg);

/* Closes the connection (pending callbacks get failures first) and frees.
 * Callbacks must not call it. */
void pg_free(pg *p);
/* 1 when connected with its statements prepared. */
int pg_up(const pg *p);
/* The last error seen, or "" (for logs and /healthz). */
const char *pg_error(const pg *p);

/* Queues the prepared statement name with n text parameters (copied by
 * libpq; NULL values are SQL NULL); fn (may be NULL) gets its result. 0, or
 * -1 when the connection is not up or the send failed (fn not called;
 * the connection is then dropped from the loop, and with it the segment). */
int pg_exec(pg *p, const char *name, int n, const char *const *vals, pg_result_fn *fn, void *arg);
/* Ends the current segment; fn gets its outcome. 0 or -1 as pg_exec. */
int pg_sync(pg *p, pg_sync_fn *fn, void *arg);
/* Items (statements and syncs) sent and not yet answered. */
int pg_pending(const pg *p);

#endif
