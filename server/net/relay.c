/* relay.c: relays to other servers (several servers; server/CLUSTER.md,
 * "Split routing"): the client connection to a room's holder, its queue
 * of the client's messages, the holder's messages passed back, and the
 * join run again when the holder does not answer. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/net/conn.h"
#include "server/events/events.h"
#include "server/net/relay.h"

/* A client here whose room another live server holds (and keeps: a
 * player of it is connected there) is relayed: this server opens a
 * WebSocket to the holder, sends the client's join and then every
 * message the client sends, and passes back every message the holder
 * sends. The holder knows the connection as relayed by the key of its
 * store in the URL, and the client's address from it. */
#define RELAY_WELCOME_MS 3000 /* the holder's first answer, at most (less near
                              * the join's deadline, not under 500 ms) */
#define RELAY_RETRY_MS 250    /* a relay ended before the welcome: again after */
#define RELAY_LEASE_SLACK_MS 250 /* waited past the holder's lease left */
#define RELAY_OUT_MAX 64      /* messages waiting for the holder's socket */
#define RELAY_MSG_MAX (1 << 20) /* the longest message taken from the holder */

typedef struct relay {
	struct relay *next, *prev; /* every relay */
	conn *c;                   /* the client's connection, NULL once gone */
	struct lws *wsi;           /* to the holder; NULL when none (yet, or now) */
	int answered;              /* the holder sent a message */
	int welcomed;              /* ... and its welcome */
	int established;           /* the holder answered the WebSocket handshake */
	int close_code;            /* the holder's close code, 0 for none */
	int connecting, ended;
	int64_t deadline;          /* the join is relayed or taken again until then */
	int64_t wait_until;        /* the holder's first answer waited for, at most */
	msgbuf *out[RELAY_OUT_MAX]; /* to the holder, in order */
	int ohead, olen;
	reasm rx;
	lws_sorted_usec_list_t wait, again;
	proto_msg join;
} relay;

static relay *relays;
static relay_stats counts;
/* The relays' own vhost, which listens nowhere: its only protocol is the
 * relays', so that every event of a relay's connection, before and after
 * lws binds it, reaches relay_callback and no other. */
static struct lws_vhost *relay_vhost;

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
	counts.open--;
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
	if (PROTO_MSG_IS_EVENT(join->type))
		events_relay_failed(&c->m, join, deadline);
	else
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
		counts.failed++;
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
	int64_t now = now_ms();

	/* A holder whose loop answered the handshake is alive, only slow (a
	 * loaded machine): its answer is waited for to the full bound, not
	 * only to its lease's end. */
	if (r->wsi && r->established && now < r->wait_until) {
		lws_sul_schedule(lws_get_context(r->wsi), 0, &r->wait, relay_timeout,
		                 (r->wait_until - now) * LWS_US_PER_MS);
		return;
	}
	if (r->wsi)
		lws_set_timeout(r->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	else
		relay_end(r);
}

void relay_client_gone(conn *c)
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
int relay_forward(conn *c, const char *text, size_t len)
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

/* The holder's URL path for a client at addr: its room (or event: arg
 * "event"), the key of the holder's store and the client's address,
 * escaped. */
static void relay_path(char *out, size_t cap, const char *arg, const char *id, const char *key,
                       const char *addr)
{
	char enc[3 * 64]; /* a conn's addr, escaped */
	int n = 0;

	for (const char *p = addr; *p && n < (int)sizeof enc - 4; p++)
		n += isalnum((unsigned char)*p) || strchr(".:-_", *p)
		     ? snprintf(enc + n, 2, "%c", *p) : snprintf(enc + n, 4, "%%%02X", (unsigned char)*p);
	enc[n] = 0;
	snprintf(out, cap, NET_WS_PATH "?%s=%s&relay=%s&client=%s", arg, id, key, enc);
}

/* The client's join as the holder is sent it first (a reference for the
 * caller), or NULL out of memory. */
static msgbuf *join_text(const proto_msg *join)
{
	msgbuf *b;
	jw w;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "type");
	if (PROTO_MSG_IS_EVENT(join->type)) {
		/* A follower's first message: event_watch or event_join. */
		jw_str(&w, join->type == PROTO_MSG_EVENT_JOIN ? "event_join" : "event_watch");
		jw_key(&w, "event");
		jw_str(&w, join->event);
	} else {
		jw_str(&w, "join");
		jw_key(&w, "room");
		jw_str(&w, join->room);
	}
	if (join->token[0]) {
		jw_key(&w, "token");
		jw_str(&w, join->token);
	}
	if (join->has_name) {
		jw_key(&w, "name");
		if (join->name[0])
			jw_str(&w, join->name);
		else
			jw_null(&w);
	}
	jw_obj_end(&w);
	b = msgbuf_from(&w);
	jw_free(&w);
	return b;
}

int relay_start(conn *c, const char *addr, const char *key, const proto_msg *join,
                int64_t deadline, int lease_ms)
{
	struct lws_client_connect_info i;
	char host[96], path[384];
	int port;
	relay *r;

	if (c->relay || !c->live || c->close_code)
		return 0;
	if (!relay_vhost) {
		log_event(LOG_ERROR, "relay_failed", "room=%s error=\"no relay vhost\"", join->room);
		return -1;
	}
	if (relay_addr(addr, host, sizeof host, &port) < 0) {
		log_event(LOG_ERROR, "relay_failed", "room=%s error=\"bad relay address\"", join->room);
		return -1;
	}
	if (!(r = calloc(1, sizeof *r)))
		return -1;
	relay_path(path, sizeof path, PROTO_MSG_IS_EVENT(join->type) ? "event" : "room",
	           PROTO_MSG_IS_EVENT(join->type) ? join->event : join->room, key, c->addr);
	r->c = c;
	r->join = *join;
	r->deadline = deadline;
	r->next = relays;
	if (relays)
		relays->prev = r;
	relays = r;
	counts.open++;
	counts.started++;
	c->relay = r;
	relay_queue(r, join_text(join));
	memset(&i, 0, sizeof i);
	i.context = lws_get_context(c->wsi);
	i.vhost = relay_vhost;
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
		/* Within the join's deadline (rooms_relay_failed then answers),
		 * and the holder's lease: once it ran out unrenewed, the room is
		 * taken rather than waited for (a paused holder accepts the
		 * connection and never answers its handshake). */
		int64_t now = now_ms(), full = deadline - now, wait;

		full = full > RELAY_WELCOME_MS ? RELAY_WELCOME_MS : full < 500 ? 500 : full;
		wait = (int64_t)lease_ms + RELAY_LEASE_SLACK_MS;
		wait = wait < 500 ? 500 : wait > full ? full : wait;
		r->wait_until = now + full;
		lws_sul_schedule(i.context, 0, &r->wait, relay_timeout, wait * LWS_US_PER_MS);
	}
	log_event(LOG_DEBUG, "relay_started", "room=%s to=%s addr=%s", join->room, addr, c->addr);
	return 0;
}

/* A message of the holder, to the client. */

/* What a relayed message is to the client's queue: an event's view or a
 * follower's own part replaces an older one unsent there too (the
 * holder writes both with "type" first). */
static int relayed_kind(const char *msg, size_t len)
{
	if (len > 16 && !memcmp(msg, "{\"type\":\"event\",", 16))
		return QSTATE_VIEW;
	if (len > 20 && !memcmp(msg, "{\"type\":\"event_you\",", 20))
		return QSTATE_OWN;
	return QSTATE_NONE;
}

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
	/* A room's welcome, or an event's first answer (event_welcome, or the
	 * event for a watch). */
	if (!r->welcomed && ((msglen > 17 && !memcmp(msg, "{\"type\":\"welcome\"", 17)) ||
	                     (msglen > 14 && !memcmp(msg, "{\"type\":\"event", 14))))
		r->welcomed = 1;
	if (!r->c)
		return 0;
	b = msgbuf_text(msg, msglen);
	if (!b)
		return -1;
	conn_send_buf(r->c, b, rooms_committed(), relayed_kind(msg, msglen));
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
		r->established = 1;
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

const relay_stats *relay_get_stats(void)
{
	return &counts;
}

static const struct lws_protocols relay_protocol = {
	RELAY_PROTOCOL, relay_callback, 0, 4096, 0, NULL, 0
};

int relay_init(struct lws_context *ctx)
{
	static const struct lws_protocols *protocols[] = {&relay_protocol, NULL};
	/* No validity timers, as on the server's vhost: the holder's
	 * keepalive is its own. */
	static const lws_retry_bo_t retry;
	struct lws_context_creation_info info;

	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.vhost_name = "oware-relay";
	info.pprotocols = protocols;
	info.retry_and_idle_policy = &retry;
	relay_vhost = lws_create_vhost(ctx, &info);
	return relay_vhost ? 0 : -1;
}
