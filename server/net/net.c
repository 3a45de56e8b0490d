/* net.c: the `oware.v1` WebSocket protocol: connections, their set-up
 * and one teardown, reassembly and limits of what they send, what the
 * rooms reach them with (rooms_io), and the keepalive sweep. Their queues
 * are conn.c's, relays to other servers relay.c's, the HTTP protocol
 * http.c's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "server/base/clock.h"
#include "server/net/api_rooms.h"
#include "server/net/push.h"
#include "server/net/net.h"
#include "server/net/gate.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/events/events.h"
#include "server/net/relay.h"
#include "server/base/sha256.h"

static int connections;

static int64_t rx_bytes(const struct conn *c);

static conn *conn_of(room_member *m)
{
	return (conn *)(void *)((char *)m - offsetof(conn, m));
}

/* Every live WebSocket connection, for the keepalive sweep, and where its
 * next slice starts (NULL: a new pass from the head). */
static conn *all_conns, *sweep_at;


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
		conn_send_buf(conn_of(m), b, seq, QSTATE_ROOM);
	}
	msgbuf_put(b);
}

static void io_error(room_member *m, int code, const char *message)
{
	conn_error(conn_of(m), code, message);
}

static void io_close(room_member *m, int code, const char *why)
{
	conn_close_after(conn_of(m), code, why, rooms_release_seq());
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
	conn_ready_link(c);
}

/* Several servers: m's connection relayed to the room's holder. */
static int io_relay(room_member *m, const char *addr, const char *key, const proto_msg *join,
                    int64_t deadline, int lease_ms)
{
	return relay_start(conn_of(m), addr, key, join, deadline, lease_ms);
}

static void io_forget(room_member *m);

static void *io_share(const jw *w)
{
	return msgbuf_from(w);
}

/* A club event's view: it takes the place of any view still unsent in
 * the queue, whatever the queue's length; the same for a follower's own
 * part (own). */
static void io_send_view(room_member *m, void *shared)
{
	conn_send_buf(conn_of(m), shared, rooms_release_seq(), QSTATE_VIEW);
}

static void io_send_own(room_member *m, void *shared)
{
	conn_send_buf(conn_of(m), shared, rooms_release_seq(), QSTATE_OWN);
}

static void io_unshare(void *shared)
{
	msgbuf_put(shared);
}

/* A lost batch: its messages, and its pushes, are never sent. */
static void io_drop_uncommitted(void)
{
	net_drop_uncommitted();
	push_drop_uncommitted();
	api_push_drop_uncommitted();
}

static void io_retag(uint64_t from, uint64_t to)
{
	conn_retag(from, to);
	api_push_retag(from, to);
}

const rooms_io net_rooms_io = {io_send, io_send_all, io_error, io_close, io_probe,
	io_drop_uncommitted, io_relay, io_retag, io_forget, io_share, io_send_view, io_unshare,
	io_send_own};

/* ---- connection set-up and teardown ---- */


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
	gate_uncount(wsi);
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
		net_client_addr(wsi, c->addr, sizeof c->addr);
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
		net_counters.refused_conns++;
		log_limited(LOG_DEBUG, "conn_refused", c->addr, "reason=flooded addr=%s", c->addr);
		return -1;
	}
	if (connections > net_cfg->max_connections || c->m.ip->conns > net_cfg->max_conns_per_ip) {
		int total = connections > net_cfg->max_connections;

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
	events_leave(&c->m);
	rooms_leave(&c->m);
	conn_ready_unlink(c);
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
	int limit = net_cfg->max_msgs_per_sec;

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
	if (PROTO_MSG_IS_EVENT(m.type))
		events_handle(&c->m, &m);
	else if (c->m.watch && (m.type == PROTO_MSG_CREATE || m.type == PROTO_MSG_JOIN))
		conn_error(c, PROTO_E_ALREADY_JOINED, "this connection follows an event");
	else
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
 * the same NAT address or IPv6 /64. The ban also closes the address's
 * WebSockets open before it: none of them can flood again and renew it,
 * which kept a neighbour out for as long as idle sockets took turns. */
#define FLOOD_BAN_MS 10000
#define FLOOD_REPEAT_MS 60000

static void flood_ban(conn *c)
{
	ipent *ip = c->m.ip;
	int64_t now = now_ms();
	int closed = 0;

	if (!ip)
		return;
	if (ip->last_flood && now - ip->last_flood < FLOOD_REPEAT_MS) {
		ip->banned_until = now + FLOOD_BAN_MS;
		for (conn *o = all_conns; o; o = o->all_next)
			if (o != c && o->m.ip == ip && !o->close_code) {
				conn_close(o, LWS_CLOSE_STATUS_POLICY_VIOLATION, "message flood");
				closed++;
			}
		log_limited(LOG_WARN, "flood_ban", c->addr, "addr=%s seconds=%d closed=%d", c->addr,
		            FLOOD_BAN_MS / 1000, closed);
	}
	ip->last_flood = now;
}

/* Closes a flooding c after what is queued (the rate_limited error). */
static void flood_close(conn *c)
{
	flood_ban(c);
	net_counters.closed_flood++;
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
	                  (size_t)net_cfg->max_message, &msg, &msglen)) {
	case REASM_DONE:
		dispatch(c, msg, msglen);
		return 0;
	case REASM_TOO_LARGE:
		net_counters.closed_oversize++;
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



static void io_forget(room_member *m)
{
	conn_drop_uncommitted(conn_of(m), rooms_committed());
}

static int on_writeable(conn *c, struct lws *wsi)
{
	if (net_stopping && !c->close_code) {
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
			conn_ready_link(c);
			return 0;
		}
		if (conn_write_head(c) < 0)
			return -1;
		if (c->qlen || c->close_code || c->probe == 1)
			lws_callback_on_writable(wsi);
		return 0;
	}
	if (c->probe == 1 && !c->close_code && !net_stopping) {
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
		if (c->close_seq > rooms_answered() && !net_stopping) {
			conn_ready_link(c); /* net_send_ready() closes it then */
			return 0;
		}
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

static int net_ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
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

void net_init(const net_config *c)
{
	conn_init(c);
}

void net_stop(void)
{
	net_stopping = 1;
}

int net_connections(void)
{
	return connections;
}

void net_free(void)
{
	conn_free();
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
#define KEEPALIVE_MIN_PINGS 32 /* pings a tick allowed at least */

static int64_t rx_budget_per_s(void)
{
	return (int64_t)net_cfg->max_msgs_per_sec * 2 * (net_cfg->max_message + 14) + 65536;
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
	int64_t now = now_ms(), ping = (int64_t)net_cfg->ping_seconds * 1000,
	        hangup = (int64_t)net_cfg->hangup_seconds * 1000;
	int64_t slice, pings;
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
	/* Pings at twice their mean rate at most (every connection once per
	 * --ping-seconds), and at least KEEPALIVE_MIN_PINGS: connections that
	 * fell silent together (opened in one burst) are pinged over a few
	 * seconds, not all in one pass. One due waits for a pass or two. */
	pings = 2 * (int64_t)connections * tick_ms / (ping > 0 ? ping : 1);
	if (pings < KEEPALIVE_MIN_PINGS)
		pings = KEEPALIVE_MIN_PINGS;
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
				net_counters.closed_flood++;
				drop(c, "flood", "message flood", "bytes", bytes - c->rx_bytes);
				lws_rx_flow_control(c->wsi, 0);
				lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
				continue;
			}
			c->rx_bytes = bytes;
			c->rx_checked_at = now;
		}
		if (c->choked_since && now - c->choked_since >= hangup) {
			net_counters.dropped_slow++;
			drop(c, "slow", "too slow", "ms", now - c->choked_since);
		}
		else if (idle >= hangup && c->ping) { /* pinged (or the ping stuck), still silent */
			net_counters.dropped_idle++;
			drop(c, "idle", "idle", "ms", idle);
		}
		else if (idle >= ping && c->ping == 0 && pings > 0) {
			c->ping = 1;
			pings--;
			lws_callback_on_writable(c->wsi);
		}
	}
}

const struct lws_protocols net_protocol = {
	NET_SUBPROTOCOL, net_ws_callback, sizeof(conn), 512, 0, NULL, 16384
};
