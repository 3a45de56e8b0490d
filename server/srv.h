/* srv.h: the process-wide server state (one event loop, one thread) and the
 * connection type shared by the network layer (net.c) and rooms (room.c). */
#ifndef SRV_SRV_H
#define SRV_SRV_H

#include <stdint.h>
#include <libwebsockets.h>

#include "protocol/message.h"
#include "server/config.h"
#include "server/store.h"

struct room;
struct ipent;

/* A message shared by the queues of every recipient; LWS_PRE bytes of
 * headroom before the text. Freed when the last queue lets go. */
typedef struct msgbuf {
	int refs;
	size_t len;
	unsigned char data[]; /* LWS_PRE + len */
} msgbuf;

/* One queued outgoing message: sendable once store_commits() >= seq. */
typedef struct qent {
	msgbuf *b;
	uint64_t seq;
} qent;

/* One WebSocket connection: lws's per-session data of `oware.v1`. lws owns
 * the memory (zeroed at connect, freed after LWS_CALLBACK_CLOSED); everything
 * it points to is freed by net.c in conn_teardown() at CLOSED. */
typedef struct conn {
	struct lws *wsi;
	struct ipent *ip;         /* counted in the per-address table, or NULL */
	char addr[64];            /* client address for limits and logs */
	struct room *room;        /* NULL until create/join succeeds */
	int seat;                 /* OW_SOUTH, OW_NORTH or -1 (spectator) */
	struct conn *next, *prev; /* in room->conns */
	char *rx;                 /* a message in several chunks, reassembled */
	size_t rxlen, rxcap;
	qent *q;                  /* outgoing ring of qcap entries, grown up to cfg.max_queue */
	int qhead, qlen, qcap;
	int close_code;           /* nonzero: close once the queue is drained */
	char close_why[48];
	int64_t win_start;        /* rate window start (ms) and messages in it */
	int win_count;
	int live;                 /* counted in srv.connections */
	struct conn *all_next, *all_prev; /* in net.c's list of every connection */
	int64_t last_rx;          /* ms of the last frame (or pong) received */
	int ping;                 /* 1: a ping is due, 2: sent, awaiting traffic */
	struct conn *ready_next, **ready_pprev; /* in net.c's list of connections
	                                         * with messages queued this pass */
} conn;

/* Counters for /metrics. */
typedef struct srv_stats {
	uint64_t moves, rooms_created, rooms_expired, games_ended, joins;
	uint64_t errors[PROTO_E_COUNT];
	uint64_t dropped_slow, closed_flood, closed_oversize, refused_origin;
	uint64_t commits, commit_us, commit_max_us; /* group commits and their time */
} srv_stats;

/* Owned by main() for the life of the process. */
struct srv {
	srv_config cfg;
	store *st;
	struct lws_context *ctx;
	int64_t start_ms;
	int connections;
	int stopping;
	int failed;          /* the store failed: stop, exit 1, send nothing more */
	srv_stats stats;
};
extern struct srv srv;

/* The store lost a batch: stops the loop (main exits 1 without sending
 * anything queued; a restart restores the last committed state). */
void srv_fail(void);

/* Commits the store's open batch (at the end of each event loop pass),
 * timing it for /metrics: 0, or -1 when the store failed (see
 * store_flush). */
int srv_flush(void);

/* Monotonic milliseconds. */
int64_t now_ms(void);

/* The writer for the next message to send: emptied, and shared by every
 * message (one is written and queued before the next begins). */
jw *msg_begin(void);
/* Queues the message in w for c; a full queue drops c as a laggard.
 * Nothing is sent to a connection that is closing. */
void conn_send(conn *c, const jw *w);
/* Queues one shared buffer for c (takes a reference of its own). */
void conn_send_buf(conn *c, msgbuf *b);
/* Sends an error {code, message} to c and counts it. */
void conn_error(conn *c, int code, const char *message);
/* Closes c with a close code and reason once its queue is drained. */
void conn_close(conn *c, int code, const char *why);
/* A shared buffer holding w's text; NULL if w failed or out of memory.
 * The caller holds one reference; msgbuf_put() releases it. */
msgbuf *msgbuf_from(const jw *w);
void msgbuf_put(msgbuf *b);

#endif
