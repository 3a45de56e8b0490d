/* conn.h: the bottom of the transport, what all of its files share: the
 * settings and counters, the WebSocket connection with its shared
 * messages and bounded queue, and the client address of a request
 * (conn.c). It knows none of the protocols above it: net.c (`oware.v1`),
 * http.c and what it routes to, relay.c. (net.h is the transport's face
 * to main.c.) */
#ifndef SRV_NET_CONN_H
#define SRV_NET_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <libwebsockets.h>

#include "protocol/jw.h"
#include "server/base/reasm.h"
#include "server/rooms/rooms.h"

#define NET_SUBPROTOCOL "oware.v1"
#define NET_WS_PATH "/ws" /* the only path an upgrade is accepted on */

/* Descriptors kept back from connections (for the store, the log, lws). */
#define NET_FD_RESERVE 32

/* The transport's settings: the flags of docs/running.md that limit
 * connections, requests and files (config.c fills them in srv_config.net). */
typedef struct net_config {
	const char *unix_path;  /* --unix, OW_UNIX: listen on a unix socket instead */
	const char *web_root;   /* --web-root, OW_WEB_ROOT */
	const char *allow_origin; /* --allow-origin, OW_ALLOW_ORIGIN: comma list or "*" */
	const char *metrics_from; /* --metrics-from, OW_METRICS_FROM: comma list; NULL: all */
	int follow_links;       /* --follow-links: serve links leading out of the web root */
	int trust_proxy;        /* --trust-proxy, OW_TRUST_PROXY */
	int max_message;        /* --max-message: bytes */
	int max_msgs_per_sec;   /* --max-msgs-per-sec */
	int max_conns_per_ip;   /* --max-conns-per-ip: WebSockets */
	int max_sockets_per_ip; /* --max-sockets-per-ip: connections of any kind */
	int max_queue;          /* --max-queue: outgoing messages per client */
	int max_connections;    /* --max-connections: in total */
	int max_handshakes;     /* --max-handshakes: request headers read at once */
	int ping_seconds;       /* --ping-seconds: idle before a ping */
	int hangup_seconds;     /* --hangup-seconds: idle before hanging up */
	const ip_budgets *ip;   /* an address's budgets, which POST /api/rooms
	                         * (joins) and GET /api/events/ (views) cost too */
} net_config;

/* A message shared by the queues of every recipient; LWS_PRE bytes of
 * headroom before the text. Freed when the last queue lets go. */
typedef struct msgbuf {
	int refs;
	size_t len;
	unsigned char data[]; /* LWS_PRE + len */
} msgbuf;

/* What a queued message is to the queue: a plain message, a room's state
 * (superseded by the next one), a club event's view, or a follower's own
 * part of it (event_you). */
enum { QSTATE_NONE = 0, QSTATE_ROOM = 1, QSTATE_VIEW = 2, QSTATE_OWN = 3 };

/* One queued outgoing message: sendable once rooms_committed() >= seq. */
typedef struct qent {
	msgbuf *b;
	uint64_t seq : 62;
	uint64_t state : 2; /* QSTATE_*: what a newer message may replace */
} qent;

/* One WebSocket connection: lws's per-session data of `oware.v1`. lws owns
 * the memory (zeroed at connect, freed after LWS_CALLBACK_CLOSED); everything
 * it points to is freed in conn_teardown() at CLOSED. */
typedef struct conn {
	struct lws *wsi;
	room_member m;            /* its place in the rooms (m.ip: counted per address) */
	char addr[48];            /* client address for limits and logs (an IPv6
	                           * address has at most 45 characters as text) */
	reasm rx;                 /* a message in several chunks, reassembled */
	qent *q;                  /* outgoing ring of qcap entries, grown up to max_queue */
	int qhead, qlen, qcap;
	int close_code;           /* nonzero: close once the queue is drained */
	uint64_t close_seq;       /* ... and rooms_answered() reaches this */
	const char *close_why;    /* a static string */
	int64_t win_start;        /* rate window start (ms) and messages in it */
	int win_count;
	uint8_t live;             /* counted in connections */
	uint8_t ping;             /* 1: a ping is due, 2: sent, awaiting traffic */
	uint8_t probe;            /* round trip: 1: a ping is due, 2: sent at probe_sent */
	struct conn *all_next, *all_prev; /* in the list of every connection */
	int64_t last_rx;          /* ms of the last frame (or pong) received */
	int64_t choked_since;     /* ms since output waits on a full socket, or 0 */
	int64_t rx_bytes;         /* the socket's bytes received at rx_checked_at */
	int64_t rx_checked_at;    /* ms, or 0 before the first check */
	struct conn *ready_next, **ready_pprev; /* in the list of connections
	                                         * with messages queued this pass */
	int64_t probe_sent;       /* ms */
	struct relay *relay;      /* its relay to the room's holder, or NULL */
} conn;

/* Counters of the transport for /metrics. */
typedef struct net_stats {
	uint64_t errors[PROTO_E_COUNT]; /* error messages sent, by code */
	uint64_t dropped_slow, dropped_idle, closed_flood, closed_oversize, refused_origin;
	uint64_t refused_conns; /* HTTP connections over --max-conns-per-ip */
	uint64_t refused_fds;   /* connections closed for want of descriptors */
} net_stats;

/* The transport's settings, from conn_init (not owned), the counters,
 * and whether the server is shutting down (net_stop). */
extern const net_config *net_cfg;
extern net_stats net_counters;
extern int net_stopping;

/* Sets the settings up (kept, not copied); conn_free releases. */
void conn_init(const net_config *cfg);
void conn_free(void);

/* A new shared buffer holding text (one reference, the caller's), or
 * NULL when out of memory. */
msgbuf *msgbuf_text(const char *text, size_t len);
/* The same with w's text; NULL also when w ran out of memory. */
msgbuf *msgbuf_from(const jw *w);
/* Releases one reference (b may be NULL); the last frees b. */
void msgbuf_put(msgbuf *b);

/* Drops every message of c's queue. */
void queue_clear(conn *c);
/* Closes c with code and why (a static string) once its queue is drained;
 * a second close is ignored. */
void conn_close(conn *c, int code, const char *why);
/* ... and once rooms_answered() reaches seq. */
void conn_close_after(conn *c, int code, const char *why, uint64_t seq);
/* Queues b for c (c takes a reference of its own) to leave once commit
 * seq is confirmed; state QSTATE_ROOM: b is a room's state, which a newer
 * one may replace unread once the queue is half full; QSTATE_VIEW and
 * QSTATE_OWN: a club event's view, or a follower's own part of it, which
 * always takes the place of an older one of its kind still unsent (that
 * one leaves the queue, the new one goes to its end): a follower never
 * holds more than one of each. A full queue drops c as a laggard;
 * nothing is queued on a closing connection. */
void conn_send_buf(conn *c, msgbuf *b, uint64_t seq, int state);
/* Queues the text of w for c to leave once commit seq is confirmed. */
void conn_send(conn *c, const jw *w, uint64_t seq);
/* Sends the error {code, message} to c at once (no commit to wait for),
 * counted by code and logged. */
void conn_error(conn *c, int code, const char *message);

/* The client address of wsi into out (at most outlen bytes, NUL ended):
 * the peer's, or with --trust-proxy the last entry of X-Forwarded-For;
 * "unix" on a unix socket without it; "unknown" when there is none. */
void net_client_addr(struct lws *wsi, char *out, size_t outlen);

/* Puts c in the list of connections with messages queued this pass (once),
 * or takes it out. */
void conn_ready_link(conn *c);
void conn_ready_unlink(conn *c);
/* Writes the message at the head of c's queue and drops it from the
 * queue: 0, or -1 when the socket failed. */
int conn_write_head(conn *c);
/* Drops from c's queue every message waiting for a commit after done. */
void conn_drop_uncommitted(conn *c, uint64_t done);
/* Messages waiting for commit from or later now wait for commit to
 * (rooms_io.retag). */
void conn_retag(uint64_t from, uint64_t to);

/* Writes out the messages queued during this loop pass; run after the
 * pass's commit (rooms_flush). */
void net_send_ready(void);
/* The pass's commit failed: drops every queued message that waited for
 * it (before rooms_rollback() queues what replaces them). */
void net_drop_uncommitted(void);

#endif
