/* conn.c: what every file of the transport shares: the settings and the
 * counters, the shared message buffers, each connection's bounded queue
 * (released by the rooms' commits) and its writing, closes and errors,
 * and the client address of a request. It calls nothing of the
 * transport above it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/log.h"
#include "server/net/conn.h"

const net_config *net_cfg;
net_stats net_counters;
int net_stopping;

/* Connections given messages during this loop pass: net_send_ready()
 * writes them out once the pass's writes are committed. */
static conn *ready_conns;

void conn_ready_link(conn *c)
{
	if (c->ready_pprev)
		return;
	c->ready_next = ready_conns;
	if (ready_conns)
		ready_conns->ready_pprev = &c->ready_next;
	ready_conns = c;
	c->ready_pprev = &ready_conns;
}

void conn_ready_unlink(conn *c)
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

void conn_init(const net_config *cfg)
{
	net_cfg = cfg;
	jw_init(&msg_out);
}

void conn_free(void)
{
	jw_free(&msg_out);
}

/* A shared buffer holding w's text; NULL if w failed or out of memory.
 * The caller holds one reference; msgbuf_put() releases it. */
msgbuf *msgbuf_text(const char *text, size_t len)
{
	msgbuf *b = malloc(sizeof *b + LWS_PRE + len);

	if (b) {
		b->refs = 1;
		b->len = len;
		memcpy(b->data + LWS_PRE, text, len);
	}
	return b;
}

msgbuf *msgbuf_from(const jw *w)
{
	return w->oom ? NULL : msgbuf_text(w->buf, w->len);
}

void msgbuf_put(msgbuf *b)
{
	if (b && --b->refs == 0)
		free(b);
}

void queue_clear(conn *c)
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
	if (cap > net_cfg->max_queue)
		cap = net_cfg->max_queue;
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
void conn_close(conn *c, int code, const char *why)
{
	if (c->close_code)
		return;
	c->close_code = code;
	c->close_why = why;
	lws_callback_on_writable(c->wsi);
}

/* As conn_close, once batch seq is answered too (committed or lost):
 * a close that follows a change (a room or event given up) leaves after
 * it. */
void conn_close_after(conn *c, int code, const char *why, uint64_t seq)
{
	if (c->close_code)
		return;
	c->close_seq = seq;
	conn_close(c, code, why);
}

/* Takes out of c's queue the unsent message of kind state (a club
 * event's view or a follower's own part), if one waits: a newer one
 * always stands for it. The messages after it keep their order. (Every
 * message in the queue is unsent: conn_write_head takes the head out
 * before lws writes it.) An event's followers are closed when a batch is
 * lost (events.c batch_lost), so the newer one waiting for a later commit
 * than the older never leaves the follower with neither. */
static void queue_drop_kind(conn *c, int state)
{
	int kept = 0;

	for (int i = 0; i < c->qlen; i++) {
		qent e = c->q[(c->qhead + i) % c->qcap];

		if (e.state == (uint64_t)state)
			msgbuf_put(e.b);
		else
			c->q[(c->qhead + kept++) % c->qcap] = e;
	}
	c->qlen = kept;
}

/* Queues one shared buffer for c (taking a reference of its own), to
 * leave once commit seq is done; a full queue drops c as a laggard.
 * Nothing is sent to a connection that is closing. */
void conn_send_buf(conn *c, msgbuf *b, uint64_t seq, int state)
{
	if (!b || c->close_code || !c->live)
		return;
	if (state == QSTATE_VIEW || state == QSTATE_OWN)
		queue_drop_kind(c, state);
	if (state == QSTATE_ROOM && c->qlen >= net_cfg->max_queue / 2 &&
	    c->q[(c->qhead + c->qlen - 1) % c->qcap].state == QSTATE_ROOM &&
	    (c->q[(c->qhead + c->qlen - 1) % c->qcap].seq >= seq || seq <= rooms_committed())) {
		/* A reader this far behind gets the newest state in place of the
		 * one it has not read yet (a state says all there is): others'
		 * comings and goings never fill its queue. (Not when the new one
		 * waits for a commit the old one does not: a lost batch would
		 * then take both.) */
		qent *tail = &c->q[(c->qhead + c->qlen - 1) % c->qcap];

		b->refs++;
		msgbuf_put(tail->b);
		*tail = (qent){b, seq, QSTATE_ROOM};
		return;
	}
	if (c->qlen == net_cfg->max_queue) {
		/* A laggard: drop what it has not read and let it go. */
		net_counters.dropped_slow++;
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
	conn_ready_link(c);
}

/* Queues the text of w for c to leave once commit seq is done. */
void conn_send(conn *c, const jw *w, uint64_t seq)
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
void conn_error(conn *c, int code, const char *message)
{
	if (code > 0 && code < PROTO_E_COUNT)
		net_counters.errors[code]++;
	log_limited(code == PROTO_E_INTERNAL ? LOG_ERROR : LOG_INFO, "client_error", c->addr,
	            "code=%s room=%s addr=%s", proto_err_code(code), rooms_member_room(&c->m),
	            c->addr);
	jw_reset(&msg_out);
	proto_error_write(&msg_out, code, message);
	conn_send(c, &msg_out, rooms_committed());
}

/* The client address: the peer, or with --trust-proxy the last entry of
 * X-Forwarded-For (the one our proxy added). */
void net_client_addr(struct lws *wsi, char *out, size_t outlen)
{
	static int warned_xff;
	int n;

	if (net_cfg->unix_path && !net_cfg->trust_proxy) {
		snprintf(out, outlen, "unix");
		return;
	}
	if (net_cfg->trust_proxy) {
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

/* Writes the message at the head of c's queue and drops it from the
 * queue: 0, or -1 when the socket failed. */
int conn_write_head(conn *c)
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
	uint64_t done = rooms_committed(), answered = rooms_answered();
	conn *waiting = NULL;

	while (ready_conns) {
		conn *c = ready_conns;

		conn_ready_unlink(c);
		if (!c->live)
			continue;
		if (!net_stopping && !c->close_code && c->ping != 1)
			while (c->qlen && c->q[c->qhead].seq <= done && !lws_send_pipe_choked(c->wsi))
				if (conn_write_head(c) < 0) {
					/* The socket is gone; lws closes it on its next turn. */
					queue_clear(c);
					lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
					break;
				}
		if (!net_stopping && ((c->qlen && c->q[(c->qhead + c->qlen - 1) % c->qcap].seq > done) ||
		                      (!c->qlen && c->close_code && c->close_seq > answered))) {
			c->ready_next = waiting; /* relinked below */
			waiting = c;
			if (c->ping == 1 || (c->qlen && c->q[c->qhead].seq <= done))
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
		conn_ready_link(c);
	}
}

/* Drops from c's queue every message waiting for a commit that failed. */
void conn_drop_uncommitted(conn *c, uint64_t done)
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
		conn_drop_uncommitted(c, done);
}

/* Every message waiting for a commit still unanswered is queued on a
 * connection of the ready list (net_send_ready keeps them there). */
void conn_retag(uint64_t from, uint64_t to)
{
	for (conn *c = ready_conns; c; c = c->ready_next)
		for (int i = 0; i < c->qlen; i++) {
			qent *e = &c->q[(c->qhead + i) % c->qcap];

			if (e->seq >= from)
				e->seq = to;
		}
}
