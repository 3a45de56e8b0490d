/* net.c: the libwebsockets side: the HTTP protocol (upgrade checks,
 * /healthz, /metrics), the `oware.v1` WebSocket protocol (reassembly,
 * limits, per-client queues) and the connection teardown. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <time.h>

#include "server/clock.h"
#include "server/iptable.h"
#include "server/log.h"
#include "server/net.h"
#include "server/reasm.h"
#include "server/rooms.h"
#include "server/sha256.h"

/* A message shared by the queues of every recipient; LWS_PRE bytes of
 * headroom before the text. Freed when the last queue lets go. */
typedef struct msgbuf {
	int refs;
	size_t len;
	unsigned char data[]; /* LWS_PRE + len */
} msgbuf;

/* One queued outgoing message: sendable once rooms_committed() >= seq. */
typedef struct qent {
	msgbuf *b;
	uint64_t seq : 63;
	uint64_t state : 1; /* a room's state, superseded by the next one */
} qent;

/* One WebSocket connection: lws's per-session data of `oware.v1`. lws owns
 * the memory (zeroed at connect, freed after LWS_CALLBACK_CLOSED); everything
 * it points to is freed in conn_teardown() at CLOSED. */
typedef struct conn {
	struct lws *wsi;
	room_member m;            /* its place in the rooms (m.ip: counted per address) */
	char addr[64];            /* client address for limits and logs */
	reasm rx;                 /* a message in several chunks, reassembled */
	qent *q;                  /* outgoing ring of qcap entries, grown up to max_queue */
	int qhead, qlen, qcap;
	int close_code;           /* nonzero: close once the queue is drained */
	const char *close_why;    /* a static string */
	int64_t win_start;        /* rate window start (ms) and messages in it */
	int win_count;
	int live;                 /* counted in connections */
	struct conn *all_next, *all_prev; /* in the list of every connection */
	int64_t last_rx;          /* ms of the last frame (or pong) received */
	int64_t choked_since;     /* ms since output waits on a full socket, or 0 */
	int64_t rx_bytes;         /* the socket's bytes received at rx_checked_at */
	int64_t rx_checked_at;    /* ms, or 0 before the first check */
	int ping;                 /* 1: a ping is due, 2: sent, awaiting traffic */
	int probe;                /* round trip: 1: a ping is due, 2: sent at probe_sent */
	struct conn *ready_next, **ready_pprev; /* in the list of connections
	                                         * with messages queued this pass */
	int64_t probe_sent;       /* ms */
	struct relay *relay;      /* its relay to the room's holder, or NULL */
} conn;

static const srv_config *cfg;
static net_stats stats;
static int connections;
static int stopping;
static int64_t start_ms;

static void fd_budget_init(void);
static int64_t rx_bytes(const struct conn *c);
static void relay_client_gone(conn *c);
static void on_destroy(struct lws *wsi);
/* Relays to other servers (several servers): started, ended before the
 * holder's welcome, open now. */
static uint64_t relays_started, relays_failed;
static int relays_open;
static int relay_forward(conn *c, const char *text, size_t len);

static conn *conn_of(room_member *m)
{
	return (conn *)(void *)((char *)m - offsetof(conn, m));
}

/* Every live WebSocket connection, for the keepalive sweep, and where its
 * next slice starts (NULL: a new pass from the head). */
static conn *all_conns, *sweep_at;
/* Connections given messages during this loop pass: net_send_ready()
 * writes them out once the pass's writes are committed. */
static conn *ready_conns;

static void ready_link(conn *c)
{
	if (c->ready_pprev)
		return;
	c->ready_next = ready_conns;
	if (ready_conns)
		ready_conns->ready_pprev = &c->ready_next;
	ready_conns = c;
	c->ready_pprev = &ready_conns;
}

static void ready_unlink(conn *c)
{
	if (!c->ready_pprev)
		return;
	*c->ready_pprev = c->ready_next;
	if (c->ready_next)
		c->ready_next->ready_pprev = c->ready_pprev;
	c->ready_next = NULL;
	c->ready_pprev = NULL;
}

/* ---- outgoing ---- */

static jw msg_out;

/* A shared buffer holding w's text; NULL if w failed or out of memory.
 * The caller holds one reference; msgbuf_put() releases it. */
static msgbuf *msgbuf_text(const char *text, size_t len)
{
	msgbuf *b = malloc(sizeof *b + LWS_PRE + len);

	if (b) {
		b->refs = 1;
		b->len = len;
		memcpy(b->data + LWS_PRE, text, len);
	}
	return b;
}

static msgbuf *msgbuf_from(const jw *w)
{
	return w->oom ? NULL : msgbuf_text(w->buf, w->len);
}

static void msgbuf_put(msgbuf *b)
{
	if (b && --b->refs == 0)
		free(b);
}

static void queue_clear(conn *c)
{
	while (c->qlen) {
		msgbuf_put(c->q[c->qhead].b);
		c->qhead = (c->qhead + 1) % c->qcap;
		c->qlen--;
	}
}

/* Makes room for one more entry in c's ring: most clients never have more
 * than a few messages waiting, so the ring starts small and doubles, in
 * order, up to --max-queue. 0, or -1 when out of memory. */
#define QUEUE_FIRST 4

static int queue_grow(conn *c)
{
	int cap = c->qcap ? c->qcap * 2 : QUEUE_FIRST;
	qent *q;

	if (c->qlen < c->qcap)
		return 0;
	if (cap > cfg->max_queue)
		cap = cfg->max_queue;
	q = malloc((size_t)cap * sizeof *q);
	if (!q)
		return -1;
	for (int i = 0; i < c->qlen; i++)
		q[i] = c->q[(c->qhead + i) % c->qcap];
	free(c->q);
	c->q = q;
	c->qhead = 0;
	c->qcap = cap;
	return 0;
}

/* Closes c with a close code and reason (a static string) once its queue
 * is drained. */
static void conn_close(conn *c, int code, const char *why)
{
	if (c->close_code)
		return;
	c->close_code = code;
	c->close_why = why;
	lws_callback_on_writable(c->wsi);
}

/* Queues one shared buffer for c (taking a reference of its own), to
 * leave once commit seq is done; a full queue drops c as a laggard.
 * Nothing is sent to a connection that is closing. */
static void conn_send_buf(conn *c, msgbuf *b, uint64_t seq, int state)
{
	if (!b || c->close_code || !c->live)
		return;
	if (state && c->qlen >= cfg->max_queue / 2 && c->q[(c->qhead + c->qlen - 1) % c->qcap].state &&
	    (c->q[(c->qhead + c->qlen - 1) % c->qcap].seq >= seq || seq <= rooms_committed())) {
		/* A reader this far behind gets the newest state in place of the
		 * one it has not read yet (a state says all there is): others'
		 * comings and goings never fill its queue. (Not when the new one
		 * waits for a commit the old one does not: a lost batch would
		 * then take both.) */
		qent *tail = &c->q[(c->qhead + c->qlen - 1) % c->qcap];

		b->refs++;
		msgbuf_put(tail->b);
		*tail = (qent){b, seq, 1};
		return;
	}
	if (c->qlen == cfg->max_queue) {
		/* A laggard: drop what it has not read and let it go. */
		stats.dropped_slow++;
		log_limited(LOG_WARN, "client_dropped", c->addr, "reason=slow addr=%s queue=%d", c->addr,
		            c->qlen);
		queue_clear(c);
		conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow");
		/* Its socket may never drain enough for the close frame. */
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 2);
		return;
	}
	if (queue_grow(c) < 0) {
		log_event(LOG_ERROR, "send_failed", "addr=%s error=\"out of memory\"", c->addr);
		conn_close(c, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "out of memory");
		return;
	}
	b->refs++;
	c->q[(c->qhead + c->qlen) % c->qcap] = (qent){b, seq, state};
	c->qlen++;
	ready_link(c);
}

/* Queues the text of w for c to leave once commit seq is done. */
static void conn_send(conn *c, const jw *w, uint64_t seq)
{
	msgbuf *b = msgbuf_from(w);

	if (!b) {
		log_event(LOG_ERROR, "send_failed", "addr=%s error=\"out of memory\"", c->addr);
		return;
	}
	conn_send_buf(c, b, seq, 0);
	msgbuf_put(b);
}

/* Sends an error {code, message} to c and counts it. An error shows no
 * change of a room: it need not wait for a commit. */
static void conn_error(conn *c, int code, const char *message)
{
	if (code > 0 && code < PROTO_E_COUNT)
		stats.errors[code]++;
	log_limited(code == PROTO_E_INTERNAL ? LOG_ERROR : LOG_INFO, "client_error", c->addr,
	            "code=%s room=%s addr=%s", proto_err_code(code), rooms_member_room(&c->m),
	            c->addr);
	jw_reset(&msg_out);
	proto_error_write(&msg_out, code, message);
	conn_send(c, &msg_out, rooms_committed());
}

/* ---- what the rooms call (rooms_io) ---- */

/* Messages from the rooms may show writes not committed yet: they leave
 * after the commit that ends this loop pass. */
static void io_send(room_member *m, const jw *w)
{
	conn_send(conn_of(m), w, rooms_release_seq());
}

static void io_send_all(room_member *first, const jw *w)
{
	msgbuf *b = msgbuf_from(w);
	uint64_t seq = rooms_release_seq();

	if (!b) {
		log_event(LOG_ERROR, "broadcast_failed", "room=%s error=\"out of memory\"",
		          rooms_member_room(first));
		return;
	}
	for (room_member *m = first, *next; m; m = next) {
		next = m->next;
		conn_send_buf(conn_of(m), b, seq, 1);
	}
	msgbuf_put(b);
}

static void io_error(room_member *m, int code, const char *message)
{
	conn_error(conn_of(m), code, message);
}

static void io_close(room_member *m, int code, const char *why)
{
	conn_close(conn_of(m), code, why);
}

/* A clock started for m: a ping ("r") follows what is queued, and its
 * pong gives m's round trip (m->rtt_ms). Browsers answer pings by
 * themselves; a client that delays its pongs gains at most the rules'
 * bound (RULES_LAG_CREDIT_MAX_MS) a move. */
static void io_probe(room_member *m)
{
	conn *c = conn_of(m);

	if (!c->live || c->close_code)
		return;
	c->probe = 1;
	ready_link(c);
}

static int io_relay(room_member *m, const char *addr, const char *key, const proto_msg *join,
                    int64_t deadline);
static void io_retag(uint64_t from, uint64_t to);
static void io_forget(room_member *m);

const rooms_io net_rooms_io = {io_send, io_send_all, io_error, io_close, io_probe,
	net_drop_uncommitted, io_relay, io_retag, io_forget};

/* ---- connection set-up and teardown ---- */

/* The client address: the peer, or with --trust-proxy the last entry of
 * X-Forwarded-For (the one our proxy added). */
static void client_addr(struct lws *wsi, char *out, size_t outlen)
{
	static int warned_xff;
	int n;

	if (cfg->unix_path && !cfg->trust_proxy) {
		snprintf(out, outlen, "unix");
		return;
	}
	if (cfg->trust_proxy) {
		/* The whole header, however long: its last entry is our proxy's. */
		n = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
		if (n > 0) {
			char *xff = malloc((size_t)n + 1), *p;

			if (xff && lws_hdr_copy(wsi, xff, n + 1, WSI_TOKEN_X_FORWARDED_FOR) == n) {
				p = strrchr(xff, ',');
				p = p ? p + 1 : xff;
				while (*p == ' ')
					p++;
				/* Escaped: the address is written to the log. */
				log_esc(out, outlen, p, strcspn(p, " "), 0);
			} else
				out[0] = 0;
			free(xff);
			if (out[0])
				return;
		}
		/* Loud once (a misconfigured proxy), then quiet. */
		log_event(warned_xff ? LOG_DEBUG : LOG_WARN, "no_forwarded_for",
		          "--trust-proxy is set but the request has no X-Forwarded-For;"
		          " using the peer address (is the proxy setting it?)");
		warned_xff = 1;
	}
	out[0] = 0;
	lws_get_peer_simple(wsi, out, outlen);
	if (!out[0])
		snprintf(out, outlen, "unknown");
}

/* A connection relayed by another server shows the key of this server's
 * store (relay=) and its client's address (client=): 1 when it is one,
 * with the client's address in c->addr; -1 for a wrong key; 0 for a
 * connection of a client. */
static int relayed_in(conn *c, struct lws *wsi)
{
	char arg[80];
	const char *v = lws_get_urlarg_by_name(wsi, "relay=", arg, sizeof arg);
	const char *key = rooms_get_store()->relay_key;

	if (!v)
		return 0;
	if (!key[0] || strlen(v) != strlen(key) ||
	    !sha256_equal((const uint8_t *)v, (const uint8_t *)key, strlen(key)))
		return -1;
	v = lws_get_urlarg_by_name(wsi, "client=", arg, sizeof arg);
	log_esc(c->addr, sizeof c->addr, v ? v : "relay", strlen(v ? v : "relay"), 0);
	c->m.relay_in = 1;
	/* Its socket was counted against the relaying server's address at
	 * accept: a server relays many clients, each counted under its own
	 * address from now on. */
	on_destroy(wsi);
	return 1;
}

static int conn_open(conn *c, struct lws *wsi)
{
	memset(c, 0, sizeof *c);
	c->wsi = wsi;
	c->m.seat = RULES_SPECTATOR;
	switch (relayed_in(c, wsi)) {
	case -1:
		log_limited(LOG_WARN, "conn_refused", "relay", "reason=relay_key");
		return -1;
	case 0:
		client_addr(wsi, c->addr, sizeof c->addr);
	}
	c->m.addr = c->addr;
	c->m.ip = ip_get(c->addr);
	if (!c->m.ip) {
		log_event(LOG_ERROR, "conn_refused", "addr=%s error=\"out of memory\"", c->addr);
		return -1;
	}
	c->m.ip->conns++;
	c->live = 1;
	connections++;
	c->last_rx = now_ms();
	c->rx_bytes = rx_bytes(c); /* weighed from the start */
	c->rx_checked_at = c->last_rx;
	c->all_next = all_conns;
	if (all_conns)
		all_conns->all_prev = c;
	all_conns = c;
	if (now_ms() < c->m.ip->banned_until) { /* behind a proxy: found only now */
		stats.refused_conns++;
		log_limited(LOG_DEBUG, "conn_refused", c->addr, "reason=flooded addr=%s", c->addr);
		return -1;
	}
	if (connections > cfg->max_connections || c->m.ip->conns > cfg->max_conns_per_ip) {
		int total = connections > cfg->max_connections;

		log_limited(LOG_WARN, "conn_refused", c->addr, "reason=%s addr=%s",
		            total ? "max_connections" : "too_many_connections", c->addr);
		conn_error(c, PROTO_E_TOO_MANY_CONNECTIONS, total
		           ? "the server holds its maximum of connections"
		           : "too many connections from this address");
		conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many connections");
		return 0;
	}
	log_event(LOG_DEBUG, "conn_open", "addr=%s", c->addr);
	return 0;
}

/* The one teardown of a connection (at LWS_CALLBACK_CLOSED). */
static void conn_teardown(conn *c)
{
	if (!c->live)
		return;
	if (c->relay)
		relay_client_gone(c);
	rooms_leave(&c->m);
	ready_unlink(c);
	queue_clear(c);
	free(c->q);
	c->q = NULL;
	c->qcap = 0;
	reasm_free(&c->rx);
	if (c->m.ip)
		c->m.ip->conns--;
	if (sweep_at == c)
		sweep_at = c->all_next;
	if (c->all_prev)
		c->all_prev->all_next = c->all_next;
	else
		all_conns = c->all_next;
	if (c->all_next)
		c->all_next->all_prev = c->all_prev;
	c->all_next = c->all_prev = NULL;
	c->live = 0;
	connections--;
	log_event(LOG_DEBUG, "conn_closed", "addr=%s", c->addr);
}

/* ---- incoming ---- */

/* Counts one message against the per-second limit: 0 to handle it, 1 to
 * drop it, -1 to close the connection (a flood). */
static int rate_check(conn *c)
{
	int64_t now = now_ms();
	int limit = cfg->max_msgs_per_sec;

	if (now - c->win_start >= 1000) {
		c->win_start = now;
		c->win_count = 0;
	}
	c->win_count++;
	if (c->win_count <= limit)
		return 0;
	if (c->win_count == limit + 1) {
		conn_error(c, PROTO_E_RATE_LIMITED, "too many messages per second");
		return 1;
	}
	return c->win_count > 2 * limit ? -1 : 1;
}

static void handle_message(conn *c, const char *text, size_t len)
{
	proto_msg m;
	char err[128];
	int rc = proto_msg_parse(text, len, &m, err, sizeof err);

	if (rc) {
		conn_error(c, rc, err);
		return;
	}
	rooms_handle(&c->m, &m);
}

/* Sets the close frame's code and reason (lws wants writable memory). */
static void close_with(struct lws *wsi, int code, const char *why)
{
	unsigned char buf[64];
	size_t n = strlen(why) < sizeof buf ? strlen(why) : sizeof buf;

	memcpy(buf, why, n);
	lws_close_reason(wsi, (enum lws_close_status)code, buf, n);
}

/* A flood closes its connection. A second flood from the same address
 * within FLOOD_REPEAT_MS of the last one closes new connections from the
 * address at once for FLOOD_BAN_MS: a flooder that comes straight back
 * costs nothing more, while one flood does not shut out everyone behind
 * the same NAT address or IPv6 /64. */
#define FLOOD_BAN_MS 10000
#define FLOOD_REPEAT_MS 60000

static void flood_ban(conn *c)
{
	ipent *ip = c->m.ip;
	int64_t now = now_ms();

	if (!ip)
		return;
	if (ip->last_flood && now - ip->last_flood < FLOOD_REPEAT_MS)
		ip->banned_until = now + FLOOD_BAN_MS;
	ip->last_flood = now;
}

/* Closes a flooding c after what is queued (the rate_limited error). */
static void flood_close(conn *c)
{
	flood_ban(c);
	stats.closed_flood++;
	log_limited(LOG_WARN, "client_dropped", c->addr, "reason=flood addr=%s", c->addr);
	conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "message flood");
}

/* One whole message: counted against the rate limit, then handled. */
static void dispatch(conn *c, const char *text, size_t len)
{
	switch (rate_check(c)) {
	case -1:
		flood_close(c);
		break;
	case 1:
		break;
	default:
		if (c->relay)
			relay_forward(c, text, len);
		else
			handle_message(c, text, len);
	}
}

static int on_receive(conn *c, struct lws *wsi, const void *in, size_t len)
{
	int last = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
	const char *msg;
	size_t msglen;

	if (!c->live || c->close_code)
		return 0;
	c->last_rx = now_ms();
	c->ping = 0;
	switch (reasm_add(&c->rx, in, len, lws_is_first_fragment(wsi), last,
	                  (size_t)cfg->max_message, &msg, &msglen)) {
	case REASM_DONE:
		dispatch(c, msg, msglen);
		return 0;
	case REASM_TOO_LARGE:
		stats.closed_oversize++;
		log_limited(LOG_WARN, "client_dropped", c->addr, "reason=oversize addr=%s", c->addr);
		close_with(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too large");
		return -1;
	case REASM_NOMEM:
		return -1;
	}
	/* An empty fragment costs a callback like a message: a stream of them
	 * counts as a flood. */
	if (!len && rate_check(c) < 0)
		flood_close(c);
	return 0;
}

/* Writes the message at the head of c's queue and drops it from the
 * queue: 0, or -1 when the socket failed. */
static int write_head(conn *c)
{
	msgbuf *b = c->q[c->qhead].b;
	int n, ok;

	c->qhead = (c->qhead + 1) % c->qcap;
	c->qlen--;
	n = lws_write(c->wsi, b->data + LWS_PRE, b->len, LWS_WRITE_TEXT);
	ok = n >= (int)b->len;
	msgbuf_put(b);
	return ok ? 0 : -1;
}

/* Writes what the pass queued, once committed, straight to each socket
 * that can take it. Asking lws for a WRITEABLE callback instead
 * costs two epoll_ctl calls and a loop turn per message; it stays the
 * way for the rest: a socket that is full (lws then also holds any part
 * of a frame the kernel did not take), a ping due, a close, a shutdown.
 * A connection with messages waiting for a commit still unanswered (a
 * store that answers later) stays in the list for the next pass, where
 * net_drop_uncommitted() finds it too. */
void net_send_ready(void)
{
	uint64_t done = rooms_committed();
	conn *waiting = NULL;

	while (ready_conns) {
		conn *c = ready_conns;

		ready_unlink(c);
		if (!c->live)
			continue;
		if (!stopping && !c->close_code && c->ping != 1)
			while (c->qlen && c->q[c->qhead].seq <= done && !lws_send_pipe_choked(c->wsi))
				if (write_head(c) < 0) {
					/* The socket is gone; lws closes it on its next turn. */
					queue_clear(c);
					lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
					break;
				}
		if (c->qlen && c->q[(c->qhead + c->qlen - 1) % c->qcap].seq > done && !stopping) {
			c->ready_next = waiting; /* relinked below */
			waiting = c;
			if (c->ping == 1 || c->q[c->qhead].seq <= done)
				lws_callback_on_writable(c->wsi);
			continue;
		}
		if (c->qlen || c->close_code || c->ping == 1 || c->probe == 1)
			lws_callback_on_writable(c->wsi);
	}
	while (waiting) {
		conn *c = waiting;

		waiting = c->ready_next;
		c->ready_next = NULL;
		ready_link(c);
	}
}

/* Drops from c's queue every message waiting for a commit that failed. */
static void drop_uncommitted(conn *c, uint64_t done)
{
	int kept = 0;

	for (int i = 0; i < c->qlen; i++) {
		qent e = c->q[(c->qhead + i) % c->qcap];

		if (e.seq > done)
			msgbuf_put(e.b);
		else
			c->q[(c->qhead + kept++) % c->qcap] = e;
	}
	c->qlen = kept;
}

void net_drop_uncommitted(void)
{
	uint64_t done = rooms_committed();

	for (conn *c = ready_conns; c; c = c->ready_next)
		drop_uncommitted(c, done);
}

/* Every message waiting for a commit still unanswered is queued on a
 * connection of the ready list (net_send_ready keeps them there). */
static void io_retag(uint64_t from, uint64_t to)
{
	for (conn *c = ready_conns; c; c = c->ready_next)
		for (int i = 0; i < c->qlen; i++) {
			qent *e = &c->q[(c->qhead + i) % c->qcap];

			if (e->seq >= from)
				e->seq = to;
		}
}

static void io_forget(room_member *m)
{
	drop_uncommitted(conn_of(m), rooms_committed());
}

static int on_writeable(conn *c, struct lws *wsi)
{
	if (stopping && !c->close_code) {
		queue_clear(c);
		conn_close(c, LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down");
	}
	if (c->ping == 1 && !c->close_code) {
		/* A payload: lws 4.1.6 hides empty pongs from the callback. */
		unsigned char ping[LWS_PRE + 2] = {0};

		ping[LWS_PRE] = 'k';
		c->ping = 2;
		if (lws_write(wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 1)
			return -1;
		if (c->qlen || c->probe == 1)
			lws_callback_on_writable(wsi);
		return 0;
	}
	if (c->qlen) {
		if (c->q[c->qhead].seq > rooms_committed()) {
			/* Not durable yet: net_send_ready() sends it once its commit
			 * is confirmed (no WRITEABLE until then: it would spin). */
			ready_link(c);
			return 0;
		}
		if (write_head(c) < 0)
			return -1;
		if (c->qlen || c->close_code || c->probe == 1)
			lws_callback_on_writable(wsi);
		return 0;
	}
	if (c->probe == 1 && !c->close_code && !stopping) {
		/* After the state that started the clock: the round trip. */
		unsigned char ping[LWS_PRE + 2] = {0};

		ping[LWS_PRE] = 'r';
		c->probe = 2;
		c->probe_sent = now_ms();
		if (lws_write(wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 1)
			return -1;
		return 0;
	}
	if (c->close_code) {
		close_with(wsi, c->close_code, c->close_why);
		return -1;
	}
	return 0;
}

/* A close frame from the client: a code RFC 6455 does not allow on the
 * wire (lws 4.1.6 lets codes of 5000 and over through) is answered with
 * 1002 and the connection ends. 0 to let lws answer the close. */
static int peer_close(struct lws *wsi, const unsigned char *in, size_t len)
{
	int code;

	if (len < 2)
		return 0;
	code = in[0] << 8 | in[1];
	if (code < 5000)
		return 0;
	close_with(wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, "bad close code");
	return -1;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                       void *user, void *in, size_t len)
{
	conn *c = user;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		return conn_open(c, wsi);
	case LWS_CALLBACK_RECEIVE:
		return on_receive(c, wsi, in, len);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		return peer_close(wsi, in, len);
	case LWS_CALLBACK_RECEIVE_PONG:
		if (c->live && !c->close_code) {
			c->last_rx = now_ms();
			c->ping = 0;
			if (c->probe == 2 && len == 1 && *(const char *)in == 'r') {
				int64_t rtt = c->last_rx - c->probe_sent;

				c->m.rtt_ms = rtt > 60000 ? 60000 : (int)rtt;
				c->probe = 0;
			}
			if (rate_check(c) < 0) /* pongs are frames like any other */
				flood_close(c);
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!c->live)
			return -1;
		return on_writeable(c, wsi);
	case LWS_CALLBACK_CLOSED:
		conn_teardown(c);
		return 0;
	default:
		return 0;
	}
}

/* ---- relays (several servers; server/CLUSTER.md, "Split routing") ---- */

/* A client here whose room another live server holds (and keeps: a
 * player of it is connected there) is relayed: this server opens a
 * WebSocket to the holder, sends the client's join and then every
 * message the client sends, and passes back every message the holder
 * sends. The holder knows the connection as relayed by the key of its
 * store in the URL, and the client's address from it. */
#define RELAY_WELCOME_MS 3000 /* the holder's first answer, at most (less near
                              * the join's deadline, not under 500 ms) */
#define RELAY_RETRY_MS 250    /* a relay ended before the welcome: again after */
#define RELAY_OUT_MAX 64      /* messages waiting for the holder's socket */
#define RELAY_MSG_MAX (1 << 20) /* the longest message taken from the holder */
#define RELAY_PROTOCOL "oware-relay" /* ours only: never asked for on upgrade */

typedef struct relay {
	struct relay *next, *prev; /* every relay */
	conn *c;                   /* the client's connection, NULL once gone */
	struct lws *wsi;           /* to the holder; NULL when none (yet, or now) */
	int answered;              /* the holder sent a message */
	int welcomed;              /* ... and its welcome */
	int close_code;            /* the holder's close code, 0 for none */
	int connecting, ended;
	int64_t deadline;          /* the join is relayed or taken again until then */
	msgbuf *out[RELAY_OUT_MAX]; /* to the holder, in order */
	int ohead, olen;
	reasm rx;
	lws_sorted_usec_list_t wait, again;
	proto_msg join;
} relay;

static relay *relays;

/* The relay that is p, or else the one whose connection is wsi. */
static relay *relay_find(void *p, const struct lws *wsi)
{
	for (relay *r = relays; r; r = r->next)
		if (r == p)
			return r;
	for (relay *r = relays; r; r = r->next)
		if (r->wsi == wsi)
			return r;
	return NULL;
}

static void relay_free(relay *r)
{
	lws_sul_cancel(&r->wait);
	lws_sul_cancel(&r->again);
	if (r->prev)
		r->prev->next = r->next;
	else
		relays = r->next;
	if (r->next)
		r->next->prev = r->prev;
	while (r->olen) {
		msgbuf_put(r->out[r->ohead]);
		r->ohead = (r->ohead + 1) % RELAY_OUT_MAX;
		r->olen--;
	}
	reasm_free(&r->rx);
	relays_open--;
	free(r);
}

/* RELAY_RETRY_MS after a relay ended unanswered: the client's join runs
 * again here (the room is taken, or relayed to whoever holds it now). */
static void relay_again(lws_sorted_usec_list_t *sul)
{
	relay *r = lws_container_of(sul, relay, again);
	conn *c = r->c;
	proto_msg *join = malloc(sizeof *join);
	int64_t deadline = r->deadline;

	if (join)
		*join = r->join;
	c->relay = NULL;
	relay_free(r);
	if (!join) {
		conn_error(c, PROTO_E_INTERNAL, "out of memory; try again");
		return;
	}
	rooms_relay_failed(&c->m, join, deadline);
	free(join);
}

/* The connection to the holder ended (closed, failed, or given up). */
static void relay_end(relay *r)
{
	conn *c = r->c;

	r->wsi = NULL;
	r->ended = 1;
	lws_sul_cancel(&r->wait);
	if (r->connecting)
		return; /* io_relay goes on */
	if (!c) {
		relay_free(r);
		return;
	}
	if (!r->welcomed && (!r->close_code || r->close_code == ROOMS_CLOSE_MOVED)) {
		/* Not there (any more), or not answering: the join again, soon. */
		relays_failed++;
		lws_sul_schedule(lws_get_context(c->wsi), 0, &r->again, relay_again,
		                 RELAY_RETRY_MS * LWS_US_PER_MS);
		return;
	}
	/* The holder closed the room's connection: the client follows (a
	 * code it may send, or "moved": it comes back through the routing). */
	if (r->close_code >= 1000 && r->close_code < 5000 && r->close_code != 1005 &&
	    r->close_code != 1006)
		conn_close(c, r->close_code, r->close_code == ROOMS_CLOSE_MOVED ? "moved"
		           : "closed by the room's server");
	else
		conn_close(c, ROOMS_CLOSE_MOVED, "moved");
}

/* The holder did not answer in time: its connection is given up. */
static void relay_timeout(lws_sorted_usec_list_t *sul)
{
	relay *r = lws_container_of(sul, relay, wait);

	if (r->wsi)
		lws_set_timeout(r->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	else
		relay_end(r);
}

static void relay_client_gone(conn *c)
{
	relay *r = c->relay;

	c->relay = NULL;
	r->c = NULL;
	lws_sul_cancel(&r->again);
	if (r->wsi)
		lws_set_timeout(r->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	else if (!r->connecting)
		relay_free(r);
}

static int relay_queue(relay *r, msgbuf *b)
{
	if (!b || r->olen == RELAY_OUT_MAX) {
		msgbuf_put(b);
		return -1;
	}
	r->out[(r->ohead + r->olen++) % RELAY_OUT_MAX] = b;
	if (r->wsi && !r->connecting)
		lws_callback_on_writable(r->wsi);
	return 0;
}

/* A message of the client, to the holder. */
static int relay_forward(conn *c, const char *text, size_t len)
{
	relay *r = c->relay;
	msgbuf *b;

	if (!r->welcomed) {
		conn_error(c, PROTO_E_NOT_JOINED, "the room is being reached on another server;"
		           " wait for the welcome");
		return 0;
	}
	if (!r->wsi)
		return 0; /* closing */
	b = msgbuf_text(text, len);
	if (relay_queue(r, b) < 0) {
		log_limited(LOG_WARN, "client_dropped", c->addr, "reason=relay_full addr=%s", c->addr);
		queue_clear(c);
		conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow");
	}
	return 0;
}

/* "host:port" or "[v6]:port" into host and port: 0, or -1. */
static int relay_addr(const char *addr, char *host, size_t cap, int *port)
{
	const char *colon = strrchr(addr, ':');
	size_t n;

	if (!colon || (*port = atoi(colon + 1)) <= 0 || *port > 65535)
		return -1;
	n = (size_t)(colon - addr);
	if (n >= 2 && addr[0] == '[' && addr[n - 1] == ']') {
		addr++;
		n -= 2;
	}
	if (!n || n >= cap)
		return -1;
	memcpy(host, addr, n);
	host[n] = 0;
	return 0;
}

static int io_relay(room_member *m, const char *addr, const char *key, const proto_msg *join,
                    int64_t deadline)
{
	conn *c = conn_of(m);
	struct lws_client_connect_info i;
	char host[96], path[384], enc[3 * sizeof c->addr];
	int port, n = 0;
	relay *r;

	if (c->relay || !c->live || c->close_code)
		return 0;
	if (relay_addr(addr, host, sizeof host, &port) < 0) {
		log_event(LOG_ERROR, "relay_failed", "room=%s error=\"bad relay address\"", join->room);
		return -1;
	}
	if (!(r = calloc(1, sizeof *r)))
		return -1;
	for (const char *p = c->addr; *p && n < (int)sizeof enc - 4; p++)
		n += isalnum((unsigned char)*p) || strchr(".:-_", *p)
		     ? snprintf(enc + n, 2, "%c", *p) : snprintf(enc + n, 4, "%%%02X", (unsigned char)*p);
	enc[n] = 0;
	snprintf(path, sizeof path, NET_WS_PATH "?room=%s&relay=%s&client=%s", join->room, key, enc);
	r->c = c;
	r->join = *join;
	r->deadline = deadline;
	r->next = relays;
	if (relays)
		relays->prev = r;
	relays = r;
	relays_open++;
	relays_started++;
	c->relay = r;
	jw_reset(&msg_out);
	jw_obj(&msg_out);
	jw_key(&msg_out, "type");
	jw_str(&msg_out, "join");
	jw_key(&msg_out, "room");
	jw_str(&msg_out, join->room);
	if (join->token[0]) {
		jw_key(&msg_out, "token");
		jw_str(&msg_out, join->token);
	}
	if (join->has_name) {
		jw_key(&msg_out, "name");
		if (join->name[0])
			jw_str(&msg_out, join->name);
		else
			jw_null(&msg_out);
	}
	jw_obj_end(&msg_out);
	relay_queue(r, msgbuf_from(&msg_out));
	memset(&i, 0, sizeof i);
	i.context = lws_get_context(c->wsi);
	i.vhost = lws_get_vhost(c->wsi);
	i.address = host;
	i.port = port;
	i.path = path;
	i.host = host;
	i.protocol = NET_SUBPROTOCOL;
	i.local_protocol_name = RELAY_PROTOCOL;
	i.userdata = r;
	r->connecting = 1;
	r->wsi = lws_client_connect_via_info(&i);
	r->connecting = 0;
	if (r->ended || !r->wsi) {
		r->wsi = NULL;
		r->ended = 0;
		relay_end(r);
	} else {
		/* Within the join's deadline (rooms_relay_failed then answers). */
		int64_t wait = deadline - now_ms();

		wait = wait > RELAY_WELCOME_MS ? RELAY_WELCOME_MS : wait < 500 ? 500 : wait;
		lws_sul_schedule(i.context, 0, &r->wait, relay_timeout, wait * LWS_US_PER_MS);
	}
	log_event(LOG_DEBUG, "relay_started", "room=%s to=%s addr=%s", join->room, addr, c->addr);
	return 0;
}

/* A message of the holder, to the client. */
static int relay_receive(relay *r, struct lws *wsi, const void *in, size_t len)
{
	int last = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
	const char *msg;
	size_t msglen;
	msgbuf *b;

	switch (reasm_add(&r->rx, in, len, lws_is_first_fragment(wsi), last, RELAY_MSG_MAX,
	                  &msg, &msglen)) {
	case REASM_DONE:
		break;
	case REASM_MORE:
		return 0;
	default:
		return -1;
	}
	if (!r->answered) {
		r->answered = 1;
		lws_sul_cancel(&r->wait);
	}
	if (!r->welcomed && msglen > 17 && !memcmp(msg, "{\"type\":\"welcome\"", 17))
		r->welcomed = 1;
	if (!r->c)
		return 0;
	b = msgbuf_text(msg, msglen);
	if (!b)
		return -1;
	conn_send_buf(r->c, b, rooms_committed(), 0);
	msgbuf_put(b);
	return 0;
}

static int relay_callback(struct lws *wsi, enum lws_callback_reasons reason,
                          void *user, void *in, size_t len)
{
	relay *r = relay_find(user, wsi);
	int n;

	if (!r)
		return reason == LWS_CALLBACK_CLIENT_RECEIVE || reason == LWS_CALLBACK_CLIENT_WRITEABLE
		       ? -1 : 0;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		r->wsi = wsi;
		if (r->olen)
			lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		return relay_receive(r, wsi, in, len);
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		if (!r->olen)
			return r->c ? 0 : -1;
		n = lws_write(wsi, r->out[r->ohead]->data + LWS_PRE, r->out[r->ohead]->len,
		              LWS_WRITE_TEXT);
		msgbuf_put(r->out[r->ohead]);
		r->ohead = (r->ohead + 1) % RELAY_OUT_MAX;
		r->olen--;
		if (n < 0)
			return -1;
		if (r->olen)
			lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (len >= 2)
			r->close_code = ((const unsigned char *)in)[0] << 8 | ((const unsigned char *)in)[1];
		return 0;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
	case LWS_CALLBACK_CLIENT_CLOSED:
	case LWS_CALLBACK_WSI_DESTROY:
		/* The first of them that comes ends it (a connection given up
		 * while it connects may only be destroyed). */
		if (r->wsi == wsi || (r->connecting && !r->ended))
			relay_end(r);
		return 0;
	default:
		return 0;
	}
}


void net_init(const srv_config *c)
{
	cfg = c;
	fd_budget_init();
	start_ms = now_ms();
	jw_init(&msg_out);
}

void net_stop(void)
{
	stopping = 1;
}

int net_connections(void)
{
	return connections;
}

void net_free(void)
{
	jw_free(&msg_out);
}

/* Drops c with a policy close, whether or not its socket drains (2 s at
 * most). what=value says why in the log line. */
static void drop(conn *c, const char *reason, const char *why, const char *what, int64_t value)
{
	log_limited(LOG_INFO, "client_dropped", c->addr, "reason=%s addr=%s %s=%lld", reason,
	            c->addr, what, (long long)value);
	queue_clear(c);
	conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, why);
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 2);
}

/* How often a connection's received bytes are weighed, and how many a
 * second it may send: its messages at the rate limit, twice over, plus
 * 64 KiB for control frames. Pings are answered inside lws and reach no
 * callback: a flood of them shows only in the socket's byte count, and
 * costs the server CPU in proportion to those bytes. */
#define RX_CHECK_MS 30000 /* a backstop: a flood makes the server busy */
#define RX_CHECK_BUSY_MS 200
#define RX_CHECKS_CALM 128 /* at most this many a pass when calm: no burst */
#define KEEPALIVE_MIN_SLICE 16 /* connections a tick at least */

static int64_t rx_budget_per_s(void)
{
	return (int64_t)cfg->max_msgs_per_sec * 2 * (cfg->max_message + 14) + 65536;
}

/* Bytes the kernel has received on c's socket, or -1 (not TCP). */
static int64_t rx_bytes(const conn *c)
{
	struct tcp_info ti;
	socklen_t len = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(lws_get_socket_fd(c->wsi), IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof ti.tcpi_bytes_received)
		return -1;
	return (int64_t)ti.tcpi_bytes_received;
}

/* 1 when the process used over half a core since the last call (a
 * flooding connection takes a whole one): then every connection's bytes
 * are weighed at each sweep, so that a flood is found within a fraction
 * of a second, while a calm server weighs few (each is a system call). */
static int busy(int64_t now)
{
	static int64_t last_wall, last_cpu;
	struct rusage ru;
	int64_t cpu, dw, dc;
	int b;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	cpu = (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	dw = now - last_wall;
	dc = cpu - last_cpu;
	b = last_wall && dw > 0 && dc * 2 > dw;
	last_wall = now;
	last_cpu = cpu;
	return b;
}

void net_keepalive(int64_t period_ms, int64_t tick_ms)
{
	/* One pass's settings, fixed when it starts: the server's load is
	 * weighed then, over the whole pass before. */
	static int64_t pass_period, rx_every;
	static int checks;
	int64_t now = now_ms(), ping = (int64_t)cfg->ping_seconds * 1000,
	        hangup = (int64_t)cfg->hangup_seconds * 1000;
	int64_t slice;
	conn *c;

	if (!sweep_at) {
		int is_busy = busy(now);

		pass_period = is_busy ? RX_CHECK_BUSY_MS : period_ms;
		rx_every = is_busy ? RX_CHECK_BUSY_MS : RX_CHECK_MS;
		checks = is_busy ? INT32_MAX : RX_CHECKS_CALM;
		sweep_at = all_conns;
	}
	/* Every connection once a pass, a slice at each tick: no tick grows
	 * with the connections held (as Redis's clientsCron). */
	slice = ((int64_t)connections * tick_ms + pass_period - 1) / pass_period;
	if (slice < KEEPALIVE_MIN_SLICE)
		slice = KEEPALIVE_MIN_SLICE;
	for (c = sweep_at; c && slice-- > 0; c = sweep_at) {
		int64_t idle = now - c->last_rx;

		sweep_at = c->all_next;
		if (c->close_code)
			continue;
		/* Output waiting (ours, or a ping due) on a socket that takes
		 * none: the client does not read. */
		if ((c->qlen || c->ping == 1) && lws_send_pipe_choked(c->wsi)) {
			if (!c->choked_since)
				c->choked_since = now;
		} else
			c->choked_since = 0;
		if (now - c->rx_checked_at >= rx_every && checks-- > 0) {
			int64_t bytes = rx_bytes(c);

			if (bytes >= 0 && c->rx_bytes >= 0 &&
			    bytes - c->rx_bytes > rx_budget_per_s() * (now - c->rx_checked_at) / 1000) {
				/* Not one byte more: a flood is not read while it closes. */
				flood_ban(c);
				stats.closed_flood++;
				drop(c, "flood", "message flood", "bytes", bytes - c->rx_bytes);
				lws_rx_flow_control(c->wsi, 0);
				lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
				continue;
			}
			c->rx_bytes = bytes;
			c->rx_checked_at = now;
		}
		if (c->choked_since && now - c->choked_since >= hangup) {
			stats.dropped_slow++;
			drop(c, "slow", "too slow", "ms", now - c->choked_since);
		}
		else if (idle >= hangup && c->ping) { /* pinged (or the ping stuck), still silent */
			stats.dropped_idle++;
			drop(c, "idle", "idle", "ms", idle);
		}
		else if (idle >= ping && c->ping == 0) {
			c->ping = 1;
			lws_callback_on_writable(c->wsi);
		}
	}
}

/* ---- HTTP: upgrade checks, /healthz, /metrics ---- */

/* Per-request data of the HTTP protocol: a dynamic response body. */
typedef struct http_req {
	unsigned char *buf; /* LWS_PRE + len */
	size_t len;
	/* POST /api/rooms: its body, gathered. */
	char *body;
	size_t body_len, body_want;
	struct api_refusal {
		unsigned status;     /* 0: none */
		const char *code, *message;
	} refused;               /* found before the body: answered after it */
	/* Rooms being read from a store shared by several servers; then the
	 * answer's status, its head to write when WRITEABLE comes. */
	rooms_query *query;
	unsigned head_status;    /* 0, or the status of a head still to write */
	int hang_up;
	int in_start;            /* inside rooms_query_start: its answer is written after */
	/* The body's one deadline (API_BODY_DEADLINE_S after the headers),
	 * however it trickles: armed while a body is read. */
	struct lws *wsi;
	lws_sorted_usec_list_t body_sul;
	int body_timer;
} http_req;

/* Every connection accepted from an address counts against
 * --max-sockets-per-ip from its accept to its close, WebSocket or plain
 * HTTP (a slow client that never sends a request, an idle keep-alive
 * one): past it a connection is closed at once. (WebSockets alone also
 * count against --max-conns-per-ip, in conn_open.) Behind a proxy
 * (--trust-proxy, or a unix socket) the peer is the proxy, which keeps its
 * own limits: nothing is counted here. */
/* 1 when the address of connections is the TCP peer's. */
static int counted_at_accept(void)
{
	return !cfg->trust_proxy && !cfg->unix_path;
}

/* A new connection: 0 to serve it, -1 to close it. Its address entry
 * rides on the connection as lws's opaque user data until its end. */
static int on_new_client(struct lws *wsi)
{
	char addr[64] = "";
	ipent *ip;

	if (!counted_at_accept())
		return 0;
	lws_get_peer_simple(wsi, addr, sizeof addr);
	ip = ip_get(addr[0] ? addr : "unknown");
	if (!ip)
		return -1;
	lws_set_opaque_user_data(wsi, ip);
	ip->sockets++;
	if (ip->sockets <= cfg->max_sockets_per_ip && now_ms() >= ip->banned_until)
		return 0;
	stats.refused_conns++;
	log_limited(LOG_DEBUG, "conn_refused", addr, "reason=too_many_sockets addr=%s", addr);
	return -1; /* WSI_DESTROY follows and uncounts it */
}

/* Any connection's end. */
static void on_destroy(struct lws *wsi)
{
	ipent *ip = lws_get_opaque_user_data(wsi);

	if (ip) {
		ip->sockets--;
		lws_set_opaque_user_data(wsi, NULL);
	}
}

/* Descriptors kept free for the store, the log and lws itself: a
 * connection accepted past the open-files limit less these is closed at
 * once, so that accept() never fails for want of descriptors (which made
 * the loop spin on a listening socket that stays readable). */
#define FD_RESERVE NET_FD_RESERVE
static int fd_budget = 1 << 30;

static void fd_budget_init(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur > FD_RESERVE * 2)
		fd_budget = (int)rl.rlim_cur - FD_RESERVE;
}

/* A connection just accepted on descriptor fd: 0 to keep it, 1 to close. */
static int filter_accept(int fd)
{
	static int64_t last_log;
	static unsigned refused;
	int64_t now;

	if (fd < fd_budget)
		return 0;
	stats.refused_fds++;
	refused++;
	now = now_ms();
	if (now - last_log >= 10000) { /* a line every 10 s at most */
		log_event(LOG_WARN, "conn_refused", "reason=descriptors refused=%u fd=%d"
		          " budget=%d (raise the open-files limit)", refused, fd, fd_budget);
		last_log = now;
		refused = 0;
	}
	return 1;
}

/* 1 when origin (an Origin header) may open a WebSocket on a request for
 * host (its Host header). */
static int origin_allowed(const char *origin, const char *host)
{
	const char *list = cfg->allow_origin, *p = strstr(origin, "://");
	size_t olen = strlen(origin);

	while (olen && origin[olen - 1] == '/')
		olen--;
	if (p && host[0] && !strcasecmp(p + 3, host))
		return 1;
	while (list && *list) {
		size_t n = strcspn(list, ",");
		const char *e = list;
		size_t m = n;

		while (m && isspace((unsigned char)*e)) {
			e++;
			m--;
		}
		while (m && (isspace((unsigned char)e[m - 1]) || e[m - 1] == '/'))
			m--;
		if ((m == 1 && *e == '*') || (m == olen && !strncasecmp(e, origin, m)))
			return 1;
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* Refuses an upgrade with status and a reason; returns 1 (a refusal was
 * sent). */
static int refuse_upgrade(struct lws *wsi, unsigned status, const char *reason, const char *text)
{
	char addr[64];

	client_addr(wsi, addr, sizeof addr);
	log_limited(LOG_INFO, "upgrade_refused", addr, "reason=%s addr=%s", reason, addr);
	lws_return_http_status(wsi, status, text);
	return 1;
}

/* 1 when the request's Sec-WebSocket-Protocol list binds the upgrade to
 * oware.v1: lws binds it to the first listed name that is a protocol of
 * the vhost, so oware.v1 must be listed and no other protocol of ours
 * ("http", whose callback would take the socket outside every limit). */
static int binds_oware(struct lws *wsi)
{
	char list[256];
	int ours = 0;

	if (lws_hdr_copy(wsi, list, sizeof list, WSI_TOKEN_PROTOCOL) <= 0)
		return 0;
	for (char *save = NULL, *t = strtok_r(list, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save))
		for (const struct lws_protocols *p = net_protocols; p->name; p++)
			if (!strcmp(t, p->name)) {
				if (strcmp(p->name, NET_SUBPROTOCOL))
					return 0;
				ours = 1;
			}
	return ours;
}

/* 1 when the header Sec-WebSocket-Key is what RFC 6455 asks: 16 bytes in
 * base64, 24 characters ending in "==". */
static int key_valid(struct lws *wsi)
{
	char key[64];
	int n = lws_hdr_copy(wsi, key, sizeof key, WSI_TOKEN_KEY);

	if (n != 24 || key[22] != '=' || key[23] != '=')
		return 0;
	for (int i = 0; i < 22; i++)
		if (!isalnum((unsigned char)key[i]) && key[i] != '+' && key[i] != '/')
			return 0;
	return 1;
}

/* 0 to let an upgrade go on; >0 after a refusal was sent; <0 to hang up. */
static int confirm_upgrade(struct lws *wsi, const char *what)
{
	char origin[256], host[256], uri[16], version[8];
	int origin_len;

	if (!what || strcmp(what, "websocket"))
		return -1; /* h2c over plain HTTP hangs curl in 4.1.6: refuse it */
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, NET_WS_PATH))
		return refuse_upgrade(wsi, HTTP_STATUS_NOT_FOUND, "path",
		                      "WebSockets are served on " NET_WS_PATH " only");
	if (lws_hdr_copy(wsi, version, sizeof version, WSI_TOKEN_VERSION) <= 0 ||
	    strcmp(version, "13") || !key_valid(wsi))
		return refuse_upgrade(wsi, HTTP_STATUS_BAD_REQUEST, "handshake",
		                      "a WebSocket handshake of RFC 6455 (version 13) required");
	if (!binds_oware(wsi))
		return refuse_upgrade(wsi, HTTP_STATUS_BAD_REQUEST, "subprotocol",
		                      "WebSocket subprotocol oware.v1 required");
	if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
		host[0] = 0;
	/* Non-browser clients send no Origin; browsers always do. One that is
	 * present is checked whatever its length (too long: refused). */
	origin_len = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
	if (origin_len > 0 &&
	    (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) != origin_len ||
	     !origin_allowed(origin, host))) {
		char addr[64], eo[128], eh[128];

		stats.refused_origin++;
		client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_WARN, "upgrade_refused", addr, "reason=origin origin=\"%s\" length=%d"
		            " host=\"%s\" addr=%s", origin_len < (int)sizeof origin
		            ? log_esc(eo, sizeof eo, origin, 100, 0) : "(too long)", origin_len,
		            log_esc(eh, sizeof eh, host, 100, 0), addr);
		lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, "origin not allowed");
		return 1;
	}
	return 0;
}

/* Appends to a bounded text buffer; returns the new length. */
static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n >= cap)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k >= cap ? cap - 1 : n + (size_t)k;
}

/* /healthz: 200 while the store can write, 503 while it cannot. */
static size_t healthz(char *b, size_t cap, unsigned *status)
{
	const store *st = rooms_get_store();
	int ok = rooms_get_stats()->store_ok;

	*status = ok ? HTTP_STATUS_OK : HTTP_STATUS_SERVICE_UNAVAILABLE;
	return add(b, cap, 0, "{\"ok\":%s,\"store\":\"%s\",\"store_kind\":\"%s\","
	           "\"store_reachable\":%s,\"rooms\":%d,\"connections\":%d,"
	           "\"uptime\":%lld}\n", ok ? "true" : "false", ok ? "ok" : "failing", st->kind,
	           st->ops->reachable(st) ? "true" : "false",
	           rooms_count(), connections, (long long)((now_ms() - start_ms) / 1000));
}

static size_t metrics(char *b, size_t cap)
{
	const net_stats *s = &stats;
	const rooms_stats *rs = rooms_get_stats();
	size_t n = 0;

	n = add(b, cap, n, "# HELP oware_rooms Rooms held.\n# TYPE oware_rooms gauge\n"
	        "oware_rooms %d\n", rooms_count());
	n = add(b, cap, n, "# HELP oware_connections Open WebSocket connections.\n"
	        "# TYPE oware_connections gauge\noware_connections %d\n", connections);
	n = add(b, cap, n, "# HELP oware_uptime_seconds Seconds since start.\n"
	        "# TYPE oware_uptime_seconds gauge\noware_uptime_seconds %lld\n",
	        (long long)((now_ms() - start_ms) / 1000));
	n = add(b, cap, n, "# HELP oware_moves_total Moves accepted.\n"
	        "# TYPE oware_moves_total counter\noware_moves_total %llu\n",
	        (unsigned long long)rs->moves);
	n = add(b, cap, n, "# HELP oware_rooms_created_total Rooms created.\n"
	        "# TYPE oware_rooms_created_total counter\noware_rooms_created_total %llu\n",
	        (unsigned long long)rs->rooms_created);
	n = add(b, cap, n, "# HELP oware_rooms_expired_total Rooms expired.\n"
	        "# TYPE oware_rooms_expired_total counter\noware_rooms_expired_total %llu\n",
	        (unsigned long long)rs->rooms_expired);
	n = add(b, cap, n, "# HELP oware_rooms_evicted_total Rooms removed to make way when the"
	        " table was full.\n# TYPE oware_rooms_evicted_total counter\n"
	        "oware_rooms_evicted_total %llu\n", (unsigned long long)rs->rooms_evicted);
	n = add(b, cap, n, "# HELP oware_games_ended_total Games ended.\n"
	        "# TYPE oware_games_ended_total counter\noware_games_ended_total %llu\n",
	        (unsigned long long)rs->games_ended);
	n = add(b, cap, n, "# HELP oware_joins_total Successful joins.\n"
	        "# TYPE oware_joins_total counter\noware_joins_total %llu\n",
	        (unsigned long long)rs->joins);
	n = add(b, cap, n, "# HELP oware_chat_lines_total Chat lines sent.\n"
	        "# TYPE oware_chat_lines_total counter\noware_chat_lines_total %llu\n",
	        (unsigned long long)rs->chat_lines);
	n = add(b, cap, n, "# HELP oware_errors_total Error messages sent, by code.\n"
	        "# TYPE oware_errors_total counter\n");
	for (int e = 1; e < PROTO_E_COUNT; e++)
		n = add(b, cap, n, "oware_errors_total{code=\"%s\"} %llu\n", proto_err_code(e),
		        (unsigned long long)s->errors[e]);
	n = add(b, cap, n, "# HELP oware_clients_dropped_total Connections dropped, by reason.\n"
	        "# TYPE oware_clients_dropped_total counter\n"
	        "oware_clients_dropped_total{reason=\"slow\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"flood\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"oversize\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"idle\"} %llu\n",
	        (unsigned long long)s->dropped_slow, (unsigned long long)s->closed_flood,
	        (unsigned long long)s->closed_oversize, (unsigned long long)s->dropped_idle);
	n = add(b, cap, n, "# HELP oware_connections_refused_total Connections closed at once,"
	        " by reason.\n# TYPE oware_connections_refused_total counter\n"
	        "oware_connections_refused_total{reason=\"per_address\"} %llu\n"
	        "oware_connections_refused_total{reason=\"descriptors\"} %llu\n",
	        (unsigned long long)s->refused_conns, (unsigned long long)s->refused_fds);
	n = add(b, cap, n, "# HELP oware_store_commits_total Group commits of the store.\n"
	        "# TYPE oware_store_commits_total counter\noware_store_commits_total %llu\n"
	        "# HELP oware_store_commit_seconds_total Time spent committing (syncing).\n"
	        "# TYPE oware_store_commit_seconds_total counter\n"
	        "oware_store_commit_seconds_total %.6f\n"
	        "# HELP oware_store_commit_max_seconds Longest commit since start.\n"
	        "# TYPE oware_store_commit_max_seconds gauge\noware_store_commit_max_seconds %.6f\n",
	        (unsigned long long)rs->commits, (double)rs->commit_us / 1e6,
	        (double)rs->commit_max_us / 1e6);
	n = add(b, cap, n, "# HELP oware_store_commits_failed_total Group commits that failed (their"
	        " changes were rolled back).\n# TYPE oware_store_commits_failed_total counter\n"
	        "oware_store_commits_failed_total %llu\n"
	        "# HELP oware_store_ok 1 while the store can write, 0 while changes are refused.\n"
	        "# TYPE oware_store_ok gauge\noware_store_ok %d\n",
	        (unsigned long long)rs->commits_failed, rs->store_ok);
	n = add(b, cap, n, "# HELP oware_store_info The store in use (label store: sqlite or"
	        " postgresql).\n# TYPE oware_store_info gauge\noware_store_info{store=\"%s\"} 1\n"
	        "# HELP oware_store_reachable 1 while the store's database answers.\n"
	        "# TYPE oware_store_reachable gauge\noware_store_reachable %d\n",
	        rooms_get_store()->kind, rooms_get_store()->ops->reachable(rooms_get_store()));
	n = add(b, cap, n, "# HELP oware_leases_renewed_total Renewals of this server's lease on its"
	        " rooms (PostgreSQL).\n# TYPE oware_leases_renewed_total counter\n"
	        "oware_leases_renewed_total %llu\n"
	        "# HELP oware_leases_lost_total Leases this server lost (its rooms all dropped).\n"
	        "# TYPE oware_leases_lost_total counter\noware_leases_lost_total %llu\n"
	        "# HELP oware_rooms_taken_total Rooms this server took over from the database.\n"
	        "# TYPE oware_rooms_taken_total counter\noware_rooms_taken_total %llu\n"
	        "# HELP oware_rooms_released_total Rooms this server gave up to another.\n"
	        "# TYPE oware_rooms_released_total counter\noware_rooms_released_total %llu\n"
	        "# HELP oware_batches_fenced_total Commits refused because a room written was held"
	        " by another server (nothing of them kept).\n"
	        "# TYPE oware_batches_fenced_total counter\noware_batches_fenced_total %llu\n",
	        (unsigned long long)rooms_get_store()->leases_renewed,
	        (unsigned long long)rooms_get_store()->leases_lost,
	        (unsigned long long)rooms_get_store()->rooms_taken,
	        (unsigned long long)rooms_get_store()->rooms_released,
	        (unsigned long long)rooms_get_store()->batches_fenced);
	n = add(b, cap, n, "# HELP oware_relays_total Connections this server relayed to the server"
	        " holding their room (PostgreSQL).\n# TYPE oware_relays_total counter\n"
	        "oware_relays_total %llu\n"
	        "# HELP oware_relays_failed_total Relays that ended before the holder's welcome"
	        " (the join was taken or relayed again).\n"
	        "# TYPE oware_relays_failed_total counter\noware_relays_failed_total %llu\n"
	        "# HELP oware_relays_open Relays open now.\n# TYPE oware_relays_open gauge\n"
	        "oware_relays_open %d\n", (unsigned long long)relays_started,
	        (unsigned long long)relays_failed, relays_open);
	n = add(b, cap, n, "# HELP oware_batches_rewritten_total Commits refused for a room another"
	        " server held whose other rooms' changes were written again at once (PostgreSQL).\n"
	        "# TYPE oware_batches_rewritten_total counter\noware_batches_rewritten_total %llu\n"
	        "# HELP oware_rooms_fenced_total Rooms dropped because another server held them when"
	        " written.\n# TYPE oware_rooms_fenced_total counter\noware_rooms_fenced_total %llu\n",
	        (unsigned long long)rs->batches_rewritten, (unsigned long long)rs->rooms_fenced);
	n = add(b, cap, n, "# HELP oware_upgrades_refused_total WebSocket upgrades refused for their Origin.\n"
	        "# TYPE oware_upgrades_refused_total counter\noware_upgrades_refused_total %llu\n",
	        (unsigned long long)s->refused_origin);
	return n;
}

/* 1 when the client may read /metrics (--metrics-from; by default all). */
static int metrics_allowed(struct lws *wsi)
{
	char addr[64];
	const char *list = cfg->metrics_from;
	size_t n = 0;

	if (!list)
		return 1;
	client_addr(wsi, addr, sizeof addr);
	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		while (n && isspace((unsigned char)*list)) {
			list++;
			n--;
		}
		if (n == strlen(addr) && !strncmp(list, addr, n))
			return 1;
	}
	return 0;
}

/* 1 when uri names a file that a symbolic link puts outside the web root
 * (refused unless --follow-links). */
static int leaves_root(const char *uri)
{
	static char root[PATH_MAX];
	char path[PATH_MAX], real[PATH_MAX];
	size_t rn;

	if (cfg->follow_links || !uri || uri[0] != '/')
		return 0;
	if (!root[0] && !realpath(cfg->web_root, root))
		return 0;
	if (snprintf(path, sizeof path, "%s%s%s", cfg->web_root, uri,
	             uri[strlen(uri) - 1] == '/' ? "index.html" : "") >= (int)sizeof path ||
	    !realpath(path, real))
		return 0; /* no such file: lws answers 404 itself */
	rn = strlen(root);
	return strncmp(real, root, rn) || (real[rn] != '/' && real[rn] != 0);
}

/* Sends rq->buf's rq->len bytes as the whole answer with status, head
 * and body at once (lws sends first what the socket did not take), with
 * "Connection: close": the connection ends after it. A request pipelined
 * behind it is thus never answered (nor cut): its client, told of the
 * close, sends it again on a new connection. (Keeping the connection
 * open is not safe in lws 4.1.6: a pipelined request may stall, a POST
 * gets its own head as its body.) Returns -1: hang up once written. */
static int respond(struct lws *wsi, http_req *rq, unsigned status, const char *ctype)
{
	unsigned char hdr[LWS_PRE + 1024], *start = hdr + LWS_PRE, *p = start,
	              *end = hdr + sizeof hdr - 1;

	if (!lws_add_http_common_headers(wsi, status, ctype, rq->len, &p, end) &&
	    !lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
	                                  (const unsigned char *)"no-store", 8, &p, end) &&
	    !lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
	                                  (const unsigned char *)"close", 5, &p, end) &&
	    !lws_finalize_write_http_header(wsi, start, &p, end))
		lws_write(wsi, rq->buf + LWS_PRE, rq->len, LWS_WRITE_HTTP_FINAL);
	free(rq->buf);
	rq->buf = NULL;
	return -1;
}

/* Answers with an error status (a small page, like lws's own) and hangs
 * up, as respond() does (its "Connection: close" tells a client not to
 * send on this connection again): -1. */
static int refuse(struct lws *wsi, http_req *rq, unsigned status)
{
	int n;

	if (!rq) {
		lws_return_http_status(wsi, status, NULL);
		return -1;
	}
	free(rq->buf);
	rq->buf = malloc(LWS_PRE + 128);
	if (!rq->buf)
		return -1;
	n = snprintf((char *)rq->buf + LWS_PRE, 128,
	             "<html><head><title>%u</title></head><body><h1>%u</h1></body></html>\n",
	             status, status);
	rq->len = (size_t)n;
	return respond(wsi, rq, status, "text/html");
}

/* ---- POST /api/rooms: several rooms at once (PROTOCOL.md, "Your games") ---- */

#define API_ROOMS_PATH "/api/rooms"
#define API_BODY_MAX 16384 /* 50 entries of the longest ids and tokens fit */
#define API_DISCARD_MAX (1 << 20) /* a longer body is not even read: hang up */
#define API_BODY_DEADLINE_S 5 /* the whole body, from the end of the headers */

/* Makes the text of w (or, if it failed, an internal error) the answer's
 * body, status changed to match: 0, or -1 out of memory. */
static int api_body(http_req *rq, unsigned *status, const jw *w)
{
	const char *text = w->oom ? "{\"error\":\"internal\"}" : w->buf;
	size_t len = w->oom ? strlen(text) : w->len;

	if (w->oom)
		*status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
	free(rq->buf);
	rq->buf = malloc(LWS_PRE + len);
	if (!rq->buf)
		return -1;
	memcpy(rq->buf + LWS_PRE, text, len);
	rq->len = len;
	return 0;
}

/* An error {"error": code, "message": message} into w (logged). */
static void api_error_text(struct lws *wsi, jw *w, unsigned status, const char *code,
                           const char *message)
{
	char addr[64];

	jw_obj(w);
	jw_key(w, "error");
	jw_str(w, code);
	jw_key(w, "message");
	jw_str(w, message);
	jw_obj_end(w);
	client_addr(wsi, addr, sizeof addr);
	log_limited(LOG_INFO, "api_refused", addr, "code=%s status=%u addr=%s", code, status, addr);
}

/* An error answer (the connection closes after it). */
static int api_error(struct lws *wsi, http_req *rq, unsigned status, const char *code,
                     const char *message)
{
	jw w;
	int rc;

	jw_init(&w);
	api_error_text(wsi, &w, status, code, message);
	rc = api_body(rq, &status, &w) < 0 ? -1 : respond(wsi, rq, status, "application/json");
	jw_free(&w);
	return rc;
}

/* How a request frames its body (RFC 9112, section 6): FRAME_NONE (no
 * body), FRAME_LENGTH (*len from one Content-Length of digits only),
 * FRAME_CHUNKED (a Transfer-Encoding alone: a body we do not read) or
 * FRAME_BAD: a Content-Length that is not plain digits (a sign, a space,
 * two values, two headers), or one beside a Transfer-Encoding. */
enum { FRAME_NONE, FRAME_LENGTH, FRAME_CHUNKED, FRAME_BAD };

static int framing(struct lws *wsi, long *len)
{
	char num[24];
	int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
	int te = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0;

	*len = 0;
	if (n <= 0)
		return te ? FRAME_CHUNKED : FRAME_NONE;
	if (te || n > 10 || lws_hdr_copy(wsi, num, sizeof num, WSI_TOKEN_HTTP_CONTENT_LENGTH) != n)
		return FRAME_BAD;
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)num[i]))
			return FRAME_BAD;
	*len = strtol(num, NULL, 10);
	return FRAME_LENGTH;
}

/* The body of a request took too long: the connection ends, unanswered. */
static void body_late(lws_sorted_usec_list_t *sul)
{
	http_req *rq = lws_container_of(sul, http_req, body_sul);
	char addr[64];

	rq->body_timer = 0;
	client_addr(rq->wsi, addr, sizeof addr);
	log_limited(LOG_INFO, "http_dropped", addr, "reason=body_timeout seconds=%d addr=%s",
	            API_BODY_DEADLINE_S, addr);
	lws_set_timeout(rq->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

static void body_timer_stop(http_req *rq)
{
	if (rq->body_timer)
		lws_sul_cancel(&rq->body_sul);
	rq->body_timer = 0;
}

/* The request line and headers of a POST /api/rooms: 0 to read its
 * body within API_BODY_DEADLINE_S (a refusal found now is answered once
 * the body was read and dropped), or -1 after an error answered at once
 * (a framing error, no Content-Length) or to hang up unanswered. */
static int api_rooms_start(struct lws *wsi, http_req *rq)
{
	char origin[256], host[256];
	int origin_len = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
	long want;

	memset(&rq->refused, 0, sizeof rq->refused);
	if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) <= 0)
		return api_error(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, "bad_method",
		                 "POST a JSON body");
	switch (framing(wsi, &want)) {
	case FRAME_BAD:
		return api_error(wsi, rq, HTTP_STATUS_BAD_REQUEST, "bad_request",
		                 "one Content-Length of digits only, and no Transfer-Encoding");
	case FRAME_NONE:
	case FRAME_CHUNKED: /* a chunked body is not read */
		return api_error(wsi, rq, HTTP_STATUS_LENGTH_REQUIRED, "bad_request",
		                 "a Content-Length is required");
	}
	if (want > API_DISCARD_MAX)
		return -1; /* not read, not answered */
	rq->body_want = (size_t)want;
	rq->body_len = 0;
	if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
		host[0] = 0;
	if (origin_len > 0 &&
	    (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) != origin_len ||
	     !origin_allowed(origin, host))) {
		stats.refused_origin++;
		rq->refused = (struct api_refusal){HTTP_STATUS_FORBIDDEN, "bad_origin",
		                                   "origin not allowed"};
	} else if (want == 0 || want > API_BODY_MAX)
		rq->refused = (struct api_refusal){want ? HTTP_STATUS_REQ_ENTITY_TOO_LARGE
		                                   : HTTP_STATUS_BAD_REQUEST,
		                                   want ? "too_large" : "bad_request",
		                                   "the body must have 1 to 16384 bytes"};
	else {
		rq->body = malloc((size_t)want);
		if (!rq->body)
			return -1;
	}
	if (want) {
		rq->wsi = wsi;
		rq->body_timer = 1;
		lws_sul_schedule(lws_get_context(wsi), 0, &rq->body_sul, body_late,
		                 (lws_usec_t)API_BODY_DEADLINE_S * LWS_US_PER_SEC);
	}
	return 0;
}

/* A chunk of the body (kept, or dropped after a refusal): 0, or -1 to
 * hang up. */
static int api_rooms_body(http_req *rq, const void *in, size_t len)
{
	if (len > rq->body_want - rq->body_len)
		return -1; /* more than its Content-Length said */
	if (!rq->body_len && len >= 5 && !memcmp(in, "POST ", 5))
		/* lws 4.1.6 hands a POST pipelined behind another request its own
		 * request line as the body: close before any answer starts (a
		 * JSON body never begins so). */
		return -1;
	if (rq->body)
		memcpy(rq->body + rq->body_len, in, len);
	rq->body_len += len;
	return 0;
}

/* The rooms' answer (NULL: the store could not be read), at once or,
 * when the rooms were read from the store, later from the loop: then the
 * answer waits for WRITEABLE, as every write does. */
static void api_rooms_ready(void *arg, const jw *w)
{
	struct lws *wsi = arg;
	http_req *rq = lws_wsi_user(wsi);
	int later = !rq->in_start;
	unsigned status = HTTP_STATUS_OK;
	jw e;

	rq->query = NULL;
	jw_init(&e);
	if (!w) {
		status = HTTP_STATUS_SERVICE_UNAVAILABLE;
		api_error_text(wsi, &e, status, "internal", "the database cannot be read now; try again");
		w = &e;
	}
	if (api_body(rq, &status, w) < 0)
		rq->hang_up = 1;
	else
		rq->head_status = status; /* written by the caller, or at WRITEABLE */
	if (later) {
		if (rq->hang_up)
			lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		else
			lws_callback_on_writable(wsi);
	}
	jw_free(&e);
}

/* The whole body: every entry counts as a join of the client's address
 * (all or none), then each room is answered as its link holder sees it. */
static int api_rooms_answer(struct lws *wsi, http_req *rq)
{
	static proto_room_ref refs[ROOMS_QUERY_MAX];
	char err[128], addr[64];
	unsigned status;
	ipent *ip;
	int n;

	body_timer_stop(rq);
	if (rq->refused.status)
		return api_error(wsi, rq, rq->refused.status, rq->refused.code, rq->refused.message);
	if (!rq->body)
		return -1;
	n = proto_rooms_query_parse(rq->body, rq->body_len, refs, ROOMS_QUERY_MAX, err, sizeof err);
	free(rq->body);
	rq->body = NULL;
	if (n < 0)
		return api_error(wsi, rq, HTTP_STATUS_BAD_REQUEST, "bad_request", err);
	client_addr(wsi, addr, sizeof addr);
	ip = ip_get(addr);
	if (!ip)
		return -1;
	if (ip_join_allow_n(ip, now_ms(), cfg->joins_per_ip_per_min, n ? n : 1) < 0) {
		stats.errors[PROTO_E_RATE_LIMITED]++;
		return api_error(wsi, rq, 429, "rate_limited",
		                 "too many joins from this address; wait a minute");
	}
	log_event(LOG_DEBUG, "api_rooms", "rooms=%d addr=%s", n, addr);
	rq->hang_up = 0;
	rq->in_start = 1;
	rq->query = rooms_query_start(refs, n, api_rooms_ready, wsi);
	rq->in_start = 0;
	if (rq->hang_up)
		return -1;
	if (rq->query || !rq->head_status)
		return 0; /* answered later, from the loop */
	status = rq->head_status;
	rq->head_status = 0;
	return respond(wsi, rq, status, "application/json");
}

/* The client's own page for a path that names nothing (web/404.html, in
 * English and Spanish: docs/running.md, "Static files"), sent with status
 * 404. Its links lead home from any depth: a <base> goes right after its
 * <head>, with one "../" for each "/" in uri (the path as lws gives it,
 * without its first "/"), which also holds behind a proxy that strips a
 * prefix. refuse()'s small page when the file cannot be read. */
#define NOT_FOUND_PAGE "404.html"
#define NOT_FOUND_MAX 16384
static int not_found(struct lws *wsi, http_req *rq, const char *uri)
{
	static const char mark[] = "<head>";
	char path[PATH_MAX], *page = NULL, *at;
	size_t depth = 0, n = 0, cut, blen, len = 0;
	FILE *f;

	for (const char *c = uri; *c; c++)
		depth += *c == '/';
	if (snprintf(path, sizeof path, "%s/" NOT_FOUND_PAGE, cfg->web_root) < (int)sizeof path &&
	    (f = fopen(path, "rb"))) {
		page = malloc(NOT_FOUND_MAX + 1);
		if (page)
			n = fread(page, 1, NOT_FOUND_MAX + 1, f);
		fclose(f);
	}
	if (!page || n == 0 || n > NOT_FOUND_MAX) {
		free(page);
		return refuse(wsi, rq, HTTP_STATUS_NOT_FOUND);
	}
	page[n] = 0;
	at = strstr(page, mark);
	cut = at ? (size_t)(at - page) + sizeof mark - 1 : 0;
	blen = sizeof "<base href=\"./\">" - 1 + 3 * depth;
	rq->buf = malloc(LWS_PRE + n + blen + 1);
	if (!rq->buf) {
		free(page);
		return -1;
	}
	{
		char *o = (char *)rq->buf + LWS_PRE;

		memcpy(o, page, cut);
		len = cut;
		len += (size_t)sprintf(o + len, "<base href=\"./");
		for (size_t i = 0; i < depth; i++, len += 3)
			memcpy(o + len, "../", 3);
		memcpy(o + len, "\">", 2);
		len += 2;
		memcpy(o + len, page + cut, n - cut);
		len += n - cut;
	}
	free(page);
	rq->len = len;
	return respond(wsi, rq, HTTP_STATUS_NOT_FOUND, "text/html; charset=utf-8");
}

static int http_request(struct lws *wsi, http_req *rq, const void *in)
{
	char uri[64];
	const char *ctype;
	size_t cap = 16384;
	unsigned status = HTTP_STATUS_OK;

	if (rq->query || rq->buf || rq->body)
		return -1; /* pipelined behind an answer still to come: hang up before it starts */
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_POST_URI) > 0 && !strcmp(uri, API_ROOMS_PATH))
		return api_rooms_start(wsi, rq);
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0)
		return refuse(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED);
	if (!strcmp(uri, API_ROOMS_PATH))
		return api_rooms_start(wsi, rq);
	rq->buf = malloc(LWS_PRE + cap);
	if (!rq->buf)
		return -1;
	if (!strcmp(uri, "/healthz")) {
		ctype = "application/json";
		rq->len = healthz((char *)rq->buf + LWS_PRE, cap, &status);
	} else if (!strcmp(uri, "/metrics") && !metrics_allowed(wsi)) {
		free(rq->buf);
		rq->buf = NULL;
		return refuse(wsi, rq, HTTP_STATUS_FORBIDDEN);
	} else if (!strcmp(uri, "/metrics")) {
		ctype = "text/plain; version=0.0.4";
		rq->len = metrics((char *)rq->buf + LWS_PRE, cap);
	} else {
		char eu[256], addr[64];

		client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_DEBUG, "http_unknown", addr, "uri=\"%s\" addr=%s",
		            log_esc(eu, sizeof eu, in, 60, 0), addr);
		free(rq->buf);
		rq->buf = NULL;
		return not_found(wsi, rq, in);
	}
	return respond(wsi, rq, status, ctype);
}

/* ---- static files: precompressed copies, a byte budget for large ones ---- */

/* The codings of a precompressed copy, in the order they are preferred. */
enum { ENC_NONE, ENC_GZIP, ENC_BR };

/* What the request lws is serving a file for accepts and asks for (set for
 * each request in FILTER_HTTP_CONNECTION, read by gz_open() and
 * add_headers() in the same call): the codings its Accept-Encoding accepts
 * (1 << ENC_GZIP, 1 << ENC_BR), whether its URL is under /v/ (a name that
 * changes with the content: long-lived caching), and the coding of the
 * copy gz_open() opened. */
static unsigned enc_accepted;
static int file_immutable, file_module;
static int file_sent_enc;
static lws_fop_fd_t (*plat_open)(const struct lws_plat_file_ops *, const char *, const char *,
                                 lws_fop_flags_t *);

/* The codings the Accept-Encoding header accepts (RFC 9110, 12.5.3), as
 * bits 1 << ENC_*: "gzip" (or "x-gzip"), "br", each with a q above 0, or,
 * for one not named, "*" with a q above 0. */
static unsigned accepted_codings(struct lws *wsi)
{
	char ae[512];
	int star = 0, gz = -1, br = -1;

	if (lws_hdr_copy(wsi, ae, sizeof ae, WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
		return 0;
	for (char *save = NULL, *t = strtok_r(ae, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *semi = strchr(t, ';'), *q;
		size_t n;
		int ok = 1;

		while (*t == ' ' || *t == '\t')
			t++;
		n = semi ? (size_t)(semi - t) : strlen(t);
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		if (semi && (q = strstr(semi, "q=")) && strtod(q + 2, NULL) <= 0)
			ok = 0;
		if ((n == 4 && !strncasecmp(t, "gzip", 4)) || (n == 6 && !strncasecmp(t, "x-gzip", 6)))
			gz = ok;
		else if (n == 2 && !strncasecmp(t, "br", 2))
			br = ok;
		else if (n == 1 && *t == '*')
			star = ok;
	}
	return ((gz >= 0 ? gz : star) ? 1u << ENC_GZIP : 0) | ((br >= 0 ? br : star) ? 1u << ENC_BR : 0);
}

/* 1 when the request's Sec-Fetch-Dest is "script" (a module or a classic
 * script of a page, not a worker, not a fetch). */
static int is_dest_script(struct lws *wsi)
{
	char d[16];

	return lws_hdr_custom_copy(wsi, d, sizeof d, "sec-fetch-dest:", 15) == 6 &&
	       !strcasecmp(d, "script");
}

/* A file's compressed copy, when it should be served in its place: the
 * preferred one of path + ".br" and path + ".gz" that the client accepts
 * and that is a regular file at least as new as path. Returns its ENC_*
 * (ENC_NONE: the file itself), the copy's name in cp and its stat in cst. */
static int copy_fresh(const char *path, unsigned accepted, char *cp, size_t cap, struct stat *cst)
{
	static const struct { int enc; const char *ext; } copies[] = {
		{ENC_BR, ".br"}, {ENC_GZIP, ".gz"},
	};
	struct stat st;

	if (!accepted || stat(path, &st) || !S_ISREG(st.st_mode))
		return ENC_NONE;
	for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
		if ((accepted & 1u << copies[i].enc) &&
		    snprintf(cp, cap, "%s%s", path, copies[i].ext) < (int)cap && !stat(cp, cst) &&
		    S_ISREG(cst->st_mode) && cst->st_mtime >= st.st_mtime)
			return copies[i].enc;
	return ENC_NONE;
}

/* lws's file open, for the files of the web root: a client that accepts
 * br or gzip gets file.br or file.gz when there is a fresh one (lws then
 * sends it with its own length and ETag; Content-Encoding: gzip is lws's,
 * Content-Encoding: br add_headers()'s). */
static lws_fop_fd_t gz_open(const struct lws_plat_file_ops *fops, const char *filename,
                            const char *vpath, lws_fop_flags_t *flags)
{
	char cp[PATH_MAX];
	struct stat cst;
	unsigned accepted = enc_accepted;
	int enc;

	enc_accepted = 0;
	file_sent_enc = ENC_NONE;
	enc = copy_fresh(filename, accepted, cp, sizeof cp, &cst);
	if (enc != ENC_NONE) {
		lws_fop_fd_t fd = plat_open(fops, cp, vpath, flags);

		if (fd) {
			/* lws's own test of Accept-Encoding is a search for "gzip". */
			if (enc == ENC_GZIP)
				*flags |= LWS_FOP_FLAG_COMPR_ACCEPTABLE_GZIP | LWS_FOP_FLAG_COMPR_IS_GZIP;
			fd->flags = *flags;
			file_sent_enc = enc;
			return fd;
		}
	}
	return plat_open(fops, filename, vpath, flags);
}

void net_files_init(struct lws_context *ctx)
{
	struct lws_plat_file_ops *fops = lws_get_fops(ctx);

	plat_open = fops->LWS_FOP_OPEN;
	fops->LWS_FOP_OPEN = gz_open;
}

/* Static files this large count against a budget of bytes a minute per
 * address (web/oware.egdb is 1.35 MB, 0.77 MB compressed). */
#define FILE_BIG (64 * 1024)
#define FILE_BYTES_PER_MIN ((int64_t)32 << 20)
#define FILE_WINDOW_MS 60000

/* A GET of a file of the web root: counts what it will send when it is
 * a large one (nothing for a 304: the ETag asked for is lws's for the
 * copy to be sent). 0 to serve it, 1 when its address spent its budget. */
static int file_budget(struct lws *wsi, const char *uri)
{
	char path[PATH_MAX], cp[PATH_MAX], etag[40], inm[64], addr[64];
	struct stat st, cst;
	ipent *ip;
	int64_t now;

	if (uri[0] != '/' ||
	    snprintf(path, sizeof path, "%s%s%s", cfg->web_root, uri,
	             uri[strlen(uri) - 1] == '/' ? "index.html" : "") >= (int)sizeof path ||
	    stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size < FILE_BIG)
		return 0;
	if (copy_fresh(path, enc_accepted, cp, sizeof cp, &cst) != ENC_NONE)
		st = cst; /* the compressed copy is sent */
	snprintf(etag, sizeof etag, "%08llX%08lX", (unsigned long long)st.st_size,
	         (unsigned long)st.st_mtime);
	if (lws_hdr_copy(wsi, inm, sizeof inm, WSI_TOKEN_HTTP_IF_NONE_MATCH) > 0 &&
	    !strcmp(inm, etag))
		return 0;
	client_addr(wsi, addr, sizeof addr);
	ip = ip_get(addr);
	if (!ip)
		return 1;
	now = now_ms();
	if (now - ip->file_window >= FILE_WINDOW_MS) {
		ip->file_window = now;
		ip->file_bytes = 0;
	}
	if (ip->file_bytes + st.st_size > FILE_BYTES_PER_MIN) {
		log_limited(LOG_INFO, "http_refused", addr, "reason=file_budget bytes=%lld addr=%s",
		            (long long)ip->file_bytes, addr);
		return 1;
	}
	ip->file_bytes += st.st_size;
	return 0;
}

/* Headers added to every static file: the room id travels in page URLs,
 * so no Referer carries it away; no MIME sniffing; no framing; and the
 * client's strict Content-Security-Policy (no inline code; the engine's
 * WebAssembly needs 'wasm-unsafe-eval'), also in index.html's meta tag.
 * A brotli copy says so; a file under /v/ (its URL changes with its
 * content, web/part.mk) may be kept a year without asking again (lws then
 * adds no Cache-Control of its own). A file under /v/ asked for as a
 * script (Sec-Fetch-Dest: script: one of the page's modules) goes without
 * the headers that only a page or a worker reads (CSP, Referrer-Policy,
 * X-Frame-Options): 300 bytes less for each of the 40 modules a first
 * visit loads. Workers are asked for as "worker", a service worker's
 * fetches as "empty": they get them all (no file of the client is both a
 * module and a worker, so the answers need no Vary on it). */
static int add_headers(struct lws *wsi, struct lws_process_html_args *args)
{
	static const struct { const char *name, *value; int module; } h[] = {
		{"vary:", "Accept-Encoding", 1}, /* a compressed copy for some clients */
		{"content-security-policy:",
		 "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
		 "img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
		 "base-uri 'none'; form-action 'self'; frame-ancestors 'none'", 0},
		{"referrer-policy:", "no-referrer", 0},
		{"x-content-type-options:", "nosniff", 1},
		{"x-frame-options:", "DENY", 0},
	};
	static const char immutable[] = "public, max-age=31536000, immutable";
	unsigned char **p = (unsigned char **)&args->p;
	unsigned char *end = (unsigned char *)args->p + args->max_len;
	int sent_enc = file_sent_enc;

	file_sent_enc = ENC_NONE;
	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
		if ((h[i].module || !file_module) &&
		    lws_add_http_header_by_name(wsi, (const unsigned char *)h[i].name,
		                                (const unsigned char *)h[i].value,
		                                (int)strlen(h[i].value), p, end))
			return 1;
	if (sent_enc == ENC_BR &&
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_ENCODING,
	                                 (const unsigned char *)"br", 2, p, end))
		return 1;
	if (file_immutable &&
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
	                                (const unsigned char *)immutable,
	                                (int)sizeof immutable - 1, p, end))
		return 1;
	return 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len)
{
	http_req *rq = user;
	int n;

	switch (reason) {
	case LWS_CALLBACK_ADD_HEADERS:
		return add_headers(wsi, in);
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
		return filter_accept((int)(intptr_t)in);
	case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
		return on_new_client(wsi);
	case LWS_CALLBACK_WSI_DESTROY:
		on_destroy(wsi);
		if (relays) /* a relay's connection, before its protocol was bound */
			relay_callback(wsi, reason, user, in, len);
		break;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		/* A relay that failed before its protocol was bound. */
		return relay_callback(wsi, reason, user, in, len);
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return confirm_upgrade(wsi, in);
	case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
		if (strcmp(in, API_ROOMS_PATH) && framing(wsi, &(long){0}) != FRAME_NONE) {
			/* Only POST /api/rooms has a body (it answers in JSON). */
			char addr[64];

			client_addr(wsi, addr, sizeof addr);
			log_limited(LOG_INFO, "http_refused", addr, "reason=framing addr=%s", addr);
			refuse(wsi, rq, HTTP_STATUS_BAD_REQUEST);
			return 1;
		}
		enc_accepted = accepted_codings(wsi);
		file_immutable = !strncmp(in, "/v/", 3);
		file_module = file_immutable && is_dest_script(wsi);
		if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 && file_budget(wsi, in)) {
			refuse(wsi, rq, 429);
			return 1;
		}
		if (leaves_root(in)) {
			char eu[256], addr[64];

			client_addr(wsi, addr, sizeof addr);
			log_limited(LOG_WARN, "http_refused", addr, "reason=link uri=\"%s\" addr=%s",
			            log_esc(eu, sizeof eu, in, 100, 0), addr);
			refuse(wsi, rq, HTTP_STATUS_NOT_FOUND);
			return 1;
		}
		break;
	case LWS_CALLBACK_ESTABLISHED:
	case LWS_CALLBACK_RECEIVE:
		/* A WebSocket bound to this protocol escaped confirm_upgrade. */
		log_limited(LOG_WARN, "upgrade_refused", "-", "reason=protocol");
		return -1;
	case LWS_CALLBACK_HTTP:
		n = http_request(wsi, rq, in);
		return n < 0 ? -1 : 0;
	case LWS_CALLBACK_HTTP_BODY:
		return rq ? api_rooms_body(rq, in, len) : -1;
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		return rq && api_rooms_answer(wsi, rq) < 0 ? -1 : 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (rq && rq->head_status && rq->buf) {
			/* An answer that came from the loop. */
			unsigned status = rq->head_status;

			rq->head_status = 0;
			return respond(wsi, rq, status, "application/json") < 0 ? -1 : 0;
		}
		break;
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
	case LWS_CALLBACK_CLOSED_HTTP:
		if (rq && rq->query) {
			rooms_query_cancel(rq->query);
			rq->query = NULL;
		}
		if (rq) {
			body_timer_stop(rq);
			free(rq->buf);
			rq->buf = NULL;
			free(rq->body);
			rq->body = NULL;
		}
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

const struct lws_protocols net_protocols[] = {
	{"http", http_callback, sizeof(http_req), 0, 0, NULL, 0},
	{NET_SUBPROTOCOL, ws_callback, sizeof(conn), 512, 0, NULL, 16384},
	{RELAY_PROTOCOL, relay_callback, 0, 4096, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0}
};
