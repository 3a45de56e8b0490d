/* net_int.h: what the transport's files share and nothing else includes:
 * the WebSocket connection and its shared messages, the settings and the
 * counters, and the few functions of net.c that relay.c, http.c,
 * api_rooms.c, files.c and metrics.c call. (net.h is the transport's
 * face to main.c.) */
#ifndef SRV_NET_INT_H
#define SRV_NET_INT_H

#include <stddef.h>
#include <stdint.h>
#include <libwebsockets.h>

#include "protocol/jw.h"
#include "server/config.h"
#include "server/net/net.h"
#include "server/base/reasm.h"
#include "server/rooms/rooms.h"

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

/* The server's settings, from net_init (not owned), and the counters. */
extern const srv_config *net_cfg;
extern net_stats net_counters;

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
/* Queues b for c (c takes a reference of its own) to leave once commit
 * seq is confirmed; state QSTATE_ROOM: b is a room's state, which a newer
 * one may replace unread once the queue is half full; QSTATE_VIEW and
 * QSTATE_OWN: a club event's view, or a follower's own part of it, which
 * always takes the place of an older one of its kind still unsent (that
 * one leaves the queue, the new one goes to its end): a follower never
 * holds more than one of each. A full queue drops c as a laggard;
 * nothing is queued on a closing connection. */
void conn_send_buf(conn *c, msgbuf *b, uint64_t seq, int state);
/* Sends the error {code, message} to c at once (no commit to wait for),
 * counted by code and logged. */
void conn_error(conn *c, int code, const char *message);

/* The client address of wsi into out (at most outlen bytes, NUL ended):
 * the peer's, or with --trust-proxy the last entry of X-Forwarded-For;
 * "unix" on a unix socket without it; "unknown" when there is none. */
void net_client_addr(struct lws *wsi, char *out, size_t outlen);

#endif
