/* gate.c: the queue of sockets whose request headers are being read, and
 * what keeps a stranger from filling lws's pool of header buffers (the
 * rules are in gate.h). Two lists, oldest first: the sockets not yet known
 * to have sent a byte, and those that did. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "server/base/clock.h"
#include "server/net/gate.h"

enum { GQ_NONE, GQ_SILENT, GQ_SPOKE };

/* One socket, from its accept to its end (lws's opaque user data). */
typedef struct gate_sock {
	struct lws *wsi;
	ipent *ip;               /* its address's entry (sockets), or NULL */
	int64_t at;              /* accepted, ms */
	int queue;               /* GQ_*: where it waits, or GQ_NONE */
	struct gate_sock *prev, *next;
} gate_sock;

static struct gate_list {
	gate_sock *head, *tail;
} lists[3];
static int pool = 256, reading;
static gate_stats stats;
/* A newcomer within its share found the pool full: evict() runs from a
 * timer at once (closing sockets inside the newcomer's accept is not). */
static lws_sorted_usec_list_t evict_sul;
static struct lws_context *evict_ctx;
static int evict_due;

void gate_init(int size)
{
	pool = size > 0 ? size : 1;
}

static void unlink_q(gate_sock *g)
{
	struct gate_list *l = &lists[g->queue];

	if (g->queue == GQ_NONE)
		return;
	if (g->prev)
		g->prev->next = g->next;
	else
		l->head = g->next;
	if (g->next)
		g->next->prev = g->prev;
	else
		l->tail = g->prev;
	g->prev = g->next = NULL;
	g->queue = GQ_NONE;
	reading--;
	if (g->ip)
		g->ip->handshakes--;
}

/* Appends g (out of any queue) to queue q, youngest last. */
static void append(gate_sock *g, int q)
{
	struct gate_list *l = &lists[q];

	g->queue = q;
	g->prev = l->tail;
	g->next = NULL;
	if (l->tail)
		l->tail->next = g;
	else
		l->head = g;
	l->tail = g;
	reading++;
	if (g->ip)
		g->ip->handshakes++;
}

/* 1 when the kernel has received no byte on g's socket; 0 when it has,
 * or when that cannot be told (not TCP). */
static int silent(const gate_sock *g)
{
	struct tcp_info ti;
	socklen_t len = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(lws_get_socket_fd(g->wsi), IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof ti.tcpi_bytes_received)
		return 0;
	return ti.tcpi_bytes_received == 0;
}

/* Out of the queue and closed now: its header buffer goes to the oldest
 * socket waiting for one. (Not later: a timeout lws sets when it hands a
 * waiting socket a buffer would replace a kill scheduled for it.) Only
 * from the loop's timers, never inside another socket's callback. */
static void cut(gate_sock *g)
{
	unlink_q(g);
	lws_set_timeout(g->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

/* The first silent socket of the queue held at least ms, found silent
 * (those found to have spoken move to their list), or NULL. */
static gate_sock *oldest_silent(int64_t now, int64_t ms)
{
	gate_sock *g;

	while ((g = lists[GQ_SILENT].head) && now - g->at >= ms) {
		if (silent(g))
			return g;
		unlink_q(g);
		append(g, GQ_SPOKE);
	}
	return NULL;
}

static int share(void)
{
	return (pool + GATE_SHARE_DIV - 1) / GATE_SHARE_DIV;
}

/* The oldest socket of the queue held at least ms whose address holds
 * more than its share, among the first GATE_SCAN of each list, or NULL. */
static gate_sock *oldest_over_share(int64_t now, int64_t ms)
{
	gate_sock *best = NULL;

	for (int q = GQ_SILENT; q <= GQ_SPOKE; q++) {
		gate_sock *g = lists[q].head;

		for (int k = 0; g && k < GATE_SCAN && now - g->at >= ms; g = g->next, k++)
			if (g->ip && g->ip->handshakes > share() && (!best || g->at < best->at)) {
				best = g;
				break;
			}
	}
	return best;
}

/* The socket that has spoken and still reads its headers the longest,
 * held at least ms, among the first GATE_SCAN, or NULL. (A browser sends
 * its headers at once; one still sending them a second later trickles.) */
static gate_sock *oldest_slow(int64_t now, int64_t ms)
{
	gate_sock *best = NULL, *g = lists[GQ_SPOKE].head;

	for (int k = 0; g && k < GATE_SCAN; g = g->next, k++)
		if (now - g->at >= ms && (!best || g->at < best->at))
			best = g;
	return best;
}

/* The pool is full and a newcomer within its address's share came (one
 * over its share waits its turn, as one address's burst of connections
 * does): every silent socket held GATE_EVICT_SILENT_MS or more goes
 * (holders free their buffer; those still waiting for one would otherwise
 * be served before the newcomer), else the oldest of an address over its
 * share held as long, else the one that spoke and has read its headers
 * for GATE_EVICT_SLOW_MS or more the longest. */
static void evict(int64_t now)
{
	gate_sock *g;
	uint64_t before = stats.evicted;

	while ((g = oldest_silent(now, GATE_EVICT_SILENT_MS))) {
		stats.evicted++;
		cut(g);
	}
	if (stats.evicted == before && (g = oldest_over_share(now, GATE_EVICT_SILENT_MS))) {
		stats.evicted++;
		cut(g);
	}
	if (stats.evicted == before && (g = oldest_slow(now, GATE_EVICT_SLOW_MS))) {
		stats.evicted++;
		cut(g);
	}
}

/* A newcomer came when nothing could go yet (the tricklers all younger
 * than GATE_EVICT_SLOW_MS): eviction is tried again every
 * GATE_RETRY_MS, GATE_RETRIES times, rather than at the next newcomer. */
#define GATE_RETRY_MS 100
#define GATE_RETRIES 20
static int evict_tries;

static void evict_now(lws_sorted_usec_list_t *sul)
{
	uint64_t before = stats.evicted;

	evict_due = 0;
	if (reading < pool)
		return;
	evict(now_ms());
	if (stats.evicted == before && evict_tries-- > 0) {
		evict_due = 1;
		lws_sul_schedule(evict_ctx, 0, sul, evict_now, (lws_usec_t)GATE_RETRY_MS * 1000);
	}
}

int gate_accept(struct lws *wsi, ipent *ip, int64_t now)
{
	gate_sock *g = calloc(1, sizeof *g);

	if (!g)
		return -1;
	g->wsi = wsi;
	g->ip = ip;
	g->at = now;
	lws_set_opaque_user_data(wsi, g);
	append(g, GQ_SILENT);
	if (reading > pool && !(ip && ip->handshakes > share()) && !evict_due) {
		evict_due = 1;
		evict_tries = GATE_RETRIES;
		evict_ctx = lws_get_context(wsi);
		lws_sul_schedule(evict_ctx, 0, &evict_sul, evict_now, 0);
	}
	return 0;
}

/* A socket's opaque user data: its gate_sock while it reads its headers;
 * after that only its address entry, tagged by the low bit (a connection
 * keeps no more than it did before the gate), or NULL. */
_Static_assert(_Alignof(ipent) > 1, "the tag bit of an address entry's pointer");

static gate_sock *sock_of(struct lws *wsi)
{
	uintptr_t v = (uintptr_t)lws_get_opaque_user_data(wsi);

	return v & 1 ? NULL : (gate_sock *)v;
}

static ipent *tagged_ip(struct lws *wsi)
{
	uintptr_t v = (uintptr_t)lws_get_opaque_user_data(wsi);

	return v & 1 ? (ipent *)(v & ~(uintptr_t)1) : NULL;
}

void gate_headers_done(struct lws *wsi)
{
	gate_sock *g = sock_of(wsi);

	if (!g)
		return;
	unlink_q(g);
	lws_set_opaque_user_data(wsi, g->ip ? (void *)((uintptr_t)g->ip | 1) : NULL);
	free(g);
}

ipent *gate_ip(struct lws *wsi)
{
	gate_sock *g = sock_of(wsi);

	return g ? g->ip : tagged_ip(wsi);
}

void gate_uncount(struct lws *wsi)
{
	gate_sock *g = sock_of(wsi);
	ipent *ip = tagged_ip(wsi);

	if (ip) {
		ip->sockets--;
		lws_set_opaque_user_data(wsi, NULL);
		return;
	}
	if (!g || !g->ip)
		return;
	if (g->queue != GQ_NONE)
		g->ip->handshakes--;
	g->ip->sockets--;
	g->ip = NULL;
}

void gate_gone(struct lws *wsi)
{
	gate_sock *g = sock_of(wsi);

	gate_uncount(wsi);
	if (!g)
		return;
	unlink_q(g);
	lws_set_opaque_user_data(wsi, NULL);
	free(g);
}

void gate_tick(int64_t now)
{
	gate_sock *g;

	while ((g = oldest_silent(now, GATE_FIRST_BYTE_MS))) {
		stats.cut_silent++;
		cut(g);
	}
}

int gate_reading(void)
{
	return reading;
}

const gate_stats *gate_get_stats(void)
{
	return &stats;
}
