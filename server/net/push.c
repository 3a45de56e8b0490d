/* push.c: Web Push's sender (issue 53): the VAPID key pair kept in the
 * store, a push per subscription encrypted (RFC 8291) and signed (RFC
 * 8292) by base/webpush.c, and sent by libwebsockets' HTTP client on the
 * event loop from a vhost of its own; the answers acted on (404/410 drop
 * the subscription, 429/5xx back off), an hourly cap per subscription. */
#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/base/webpush.h"
#include "server/net/push.h"
#include "server/rooms/rooms.h"

#define PUSH_PROTOCOL "owared-push"
#define CAP_SLOTS 1024          /* subscriptions counted for the hourly cap */
#define ORIGINS 32              /* push services remembered for their back-off */
#define HOUR_MS 3600000
#ifndef PUSH_CA_FILE
#define PUSH_CA_FILE "/etc/ssl/certs/ca-certificates.crt"
#endif

/* One push to one subscription: owned by the list of jobs from its
 * creation until its connection ended for the last time. */
typedef struct push_job {
	struct push_job *next, *prev;
	struct lws *wsi;             /* its connection, NULL when none */
	int connecting;              /* inside lws_client_connect_via_info */
	int ended;                   /* the connection ended while connecting */
	int tries;
	int status;                  /* the answer's HTTP status, 0 for none */
	int refused;                 /* the peer's address is one never sent to */
	int written;                 /* the body was written */
	int retry_after;             /* seconds the answer asked for, or -1 */
	int resolving;               /* its host is being resolved (resolver thread) */
	uint64_t serial;             /* names it to the resolver's answer */
	char addr[INET6_ADDRSTRLEN]; /* the address resolved and checked, or "" */
	lws_sorted_usec_list_t again;
	char room[ROOM_ID_LEN + 1];
	int side;
	char endpoint[STORE_PUSH_URL_MAX + 1];
	char host[WEBPUSH_HOST_MAX + 1];
	char origin[WEBPUSH_URL_MAX + 1];
	int blen;
	uint8_t body[LWS_PRE + WEBPUSH_BODY_MAX];
} push_job;

/* A push_send waiting for its change's commit (seq), then for the
 * room's subscriptions from the store. */
typedef struct push_req {
	struct push_req *next;       /* in the queue of those awaiting their commit */
	uint64_t seq;                /* rooms_release_seq() when it was made */
	char room[ROOM_ID_LEN + 1];
	unsigned game;
	int side, last;
	size_t len;
	char json[];
} push_req;

static push_config pcfg;
static store *pst;
static push_req *held, **held_tail = &held; /* awaiting their commits, in order */
static webpush_key *vapid;
static struct lws_context *pctx;
static struct lws_vhost *pvhost;
static push_job *jobs;
static int njobs;
static push_stats counts;
static int stopping;

/* The resolver: libwebsockets 4.1.6 as Debian builds it resolves a
 * client's host with a blocking getaddrinfo(), so names are resolved on
 * a thread of their own, one at a time, and the loop connects to the
 * address found (checked first: never one a push must not go to), the
 * name kept for the Host header, TLS's SNI and the certificate. The
 * thread hands answers back under rmu and wakes the loop with
 * lws_cancel_service() (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
typedef struct resolve_q {
	struct resolve_q *next;
	push_job *job;               /* compared, never followed, off the loop */
	uint64_t serial;
	int rc;                      /* 0, or -1: no address, or only refused ones */
	char host[WEBPUSH_HOST_MAX + 1];
	char addr[INET6_ADDRSTRLEN];
} resolve_q;

static pthread_mutex_t rmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rcv = PTHREAD_COND_INITIALIZER;
static resolve_q *rtodo, *rdone;  /* under rmu */
static int rthread_on;
static uint64_t serials;

static struct {
	uint64_t h;                  /* FNV-1a of the endpoint; 0: free */
	int64_t window;              /* start (ms) of the hour counted */
	int n;
} caps[CAP_SLOTS];

static struct {
	char origin[WEBPUSH_URL_MAX + 1];
	int64_t until;               /* ms: no push to it before */
} backoff[ORIGINS];

int push_keys_load(store *st, const push_config *cfg, char *pub, size_t cap)
{
	char fresh[WEBPUSH_KEY_TEXT_LEN], kept[STORE_PUSH_KEY_TEXT];
	webpush_key *k = NULL;

	pcfg = *cfg;
	pst = st;
	if (!st->ops->push_key) {
		log_event(LOG_ERROR, "push_key_failed", "error=\"the store keeps no key\"");
		return -1;
	}
	if (webpush_key_new(&k) < 0 || webpush_key_write(k, fresh, sizeof fresh) < 0) {
		log_event(LOG_ERROR, "push_key_failed", "error=\"%s\"", webpush_error());
		webpush_key_free(k);
		return -1;
	}
	webpush_key_free(k);
	k = NULL;
	if (st->ops->push_key(st, fresh, kept, sizeof kept) < 0 ||
	    webpush_key_read(&k, kept, strlen(kept)) < 0 ||
	    webpush_key_point_b64(k, pub, cap) < 0) {
		log_event(LOG_ERROR, "push_key_failed", "error=\"%s\"", k ? webpush_error()
		          : "the store's key cannot be read");
		webpush_key_free(k);
		return -1;
	}
	explicit_bzero(fresh, sizeof fresh);
	explicit_bzero(kept, sizeof kept);
	webpush_key_free(vapid);
	vapid = k;
	log_event(LOG_INFO, "push_on", "key=%s contact=\"%s\"", pub, pcfg.contact);
	return 0;
}

const push_stats *push_get_stats(void)
{
	return &counts;
}

/* ---- the hourly cap, and the services' back-off ---- */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h ? h : 1;
}

/* Counts a push to endpoint at now: 0, or -1 past --push-per-hour. */
static int cap_allow(const char *endpoint, int64_t now)
{
	uint64_t h = fnv1a(endpoint);
	unsigned i = (unsigned)(h % CAP_SLOTS), pick = i;

	for (unsigned k = 0; k < 8; k++) {
		unsigned j = (i + k) % CAP_SLOTS;

		if (caps[j].h == h) {
			pick = j;
			break;
		}
		/* a free slot, or the one counting the oldest hour, is taken */
		if (!caps[j].h || caps[j].window < caps[pick].window)
			pick = j;
	}
	if (caps[pick].h != h || now - caps[pick].window >= HOUR_MS) {
		caps[pick].h = h;
		caps[pick].window = now;
		caps[pick].n = 0;
	}
	if (caps[pick].n >= pcfg.per_hour)
		return -1;
	caps[pick].n++;
	return 0;
}

/* When pushes to origin may go again (ms), 0 when now. */
static int64_t backoff_until(const char *origin)
{
	for (int i = 0; i < ORIGINS; i++)
		if (!strcmp(backoff[i].origin, origin))
			return backoff[i].until;
	return 0;
}

static void backoff_set(const char *origin, int64_t until)
{
	int pick = 0;

	for (int i = 0; i < ORIGINS; i++) {
		if (!strcmp(backoff[i].origin, origin)) {
			pick = i;
			break;
		}
		if (backoff[i].until < backoff[pick].until)
			pick = i;
	}
	snprintf(backoff[pick].origin, sizeof backoff[pick].origin, "%s", origin);
	if (until > backoff[pick].until || strcmp(backoff[pick].origin, origin))
		backoff[pick].until = until;
}

/* ---- jobs ---- */

static void job_free(push_job *j)
{
	lws_sul_cancel(&j->again);
	if (j->prev)
		j->prev->next = j->next;
	else
		jobs = j->next;
	if (j->next)
		j->next->prev = j->prev;
	njobs--;
	explicit_bzero(j->body, sizeof j->body);
	free(j);
}

static push_job *job_find(void *p, const struct lws *wsi)
{
	for (push_job *j = jobs; j; j = j->next)
		if (j == p)
			return j;
	for (push_job *j = jobs; j; j = j->next)
		if (j->wsi == wsi)
			return j;
	return NULL;
}

static void job_connect(push_job *j);

static void job_again(lws_sorted_usec_list_t *sul)
{
	push_job *j = lws_container_of(sul, push_job, again);

	job_connect(j);
}

/* Starts j after delay_ms. */
static void job_later(push_job *j, int64_t delay_ms)
{
	lws_sul_schedule(pctx, 0, &j->again, job_again, (lws_usec_t)delay_ms * LWS_US_PER_MS);
}

/* j's connection ended: what its answer asks for. */
static void job_end(push_job *j)
{
	int s = j->status;
	int64_t wait;

	j->wsi = NULL;
	if (stopping) {
		job_free(j);
		return;
	}
	if (s >= 200 && s < 300) {
		counts.sent++;
		log_event(LOG_DEBUG, "push_sent", "room=%s side=%d status=%d", j->room, j->side, s);
	} else if (s == 404 || s == 410 || j->refused) {
		counts.gone += !j->refused;
		counts.refused += j->refused;
		log_event(LOG_INFO, "push_gone", "room=%s side=%d status=%d host=%s%s", j->room, j->side,
		          s, j->host, j->refused ? " refused_address=1" : "");
		if (pst->ops->push_del(pst, j->room, j->side, j->endpoint) < 0)
			log_event(LOG_WARN, "push_gone_kept", "room=%s", j->room);
	} else if ((s == 429 || s >= 500 || s == 0) && ++j->tries < PUSH_TRIES) {
		wait = j->retry_after >= 0 ? j->retry_after : PUSH_RETRY_DEFAULT_S;
		wait = (wait < 1 ? 1 : wait > PUSH_RETRY_MAX_S ? PUSH_RETRY_MAX_S : wait) * 1000;
		if (s)
			backoff_set(j->origin, now_ms() + wait);
		counts.retried++;
		log_event(LOG_INFO, "push_retry", "room=%s status=%d host=%s after_ms=%lld", j->room, s,
		          j->host, (long long)wait);
		j->status = 0;
		j->retry_after = -1;
		j->written = 0;
		j->addr[0] = 0;
		job_later(j, wait);
		return;
	} else {
		counts.failed++;
		log_event(LOG_WARN, "push_failed", "room=%s status=%d host=%s", j->room, s, j->host);
	}
	job_free(j);
}

/* The resolver thread: the first address of each name that a push may
 * go to. */
static void *resolver(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rmu);
	for (;;) {
		resolve_q *q;
		struct addrinfo hints, *res = NULL;

		while (!rtodo)
			pthread_cond_wait(&rcv, &rmu);
		q = rtodo;
		rtodo = q->next;
		pthread_mutex_unlock(&rmu);
		memset(&hints, 0, sizeof hints);
		hints.ai_socktype = SOCK_STREAM;
		q->rc = -1;
		if (getaddrinfo(q->host, NULL, &hints, &res) == 0) {
			for (struct addrinfo *a = res; a && q->rc < 0; a = a->ai_next)
				if (!webpush_addr_refused(a->ai_addr, pcfg.loopback) &&
				    getnameinfo(a->ai_addr, a->ai_addrlen, q->addr, sizeof q->addr, NULL, 0,
				                NI_NUMERICHOST) == 0)
					q->rc = 0;
			freeaddrinfo(res);
		}
		pthread_mutex_lock(&rmu);
		q->next = rdone;
		rdone = q;
		if (pctx)
			lws_cancel_service(pctx);
	}
	return NULL;
}

/* Asks the resolver for j's host: 0, or -1. */
static int resolve_start(push_job *j)
{
	resolve_q *q = calloc(1, sizeof *q);
	pthread_t t;

	if (!q)
		return -1;
	pthread_mutex_lock(&rmu);
	if (!rthread_on) {
		if (pthread_create(&t, NULL, resolver, NULL)) {
			pthread_mutex_unlock(&rmu);
			free(q);
			return -1;
		}
		pthread_detach(t);
		rthread_on = 1;
	}
	q->job = j;
	q->serial = j->serial = ++serials;
	snprintf(q->host, sizeof q->host, "%s", j->host);
	q->next = rtodo;
	rtodo = q;
	j->resolving = 1;
	pthread_cond_signal(&rcv);
	pthread_mutex_unlock(&rmu);
	return 0;
}

static void job_connect(push_job *j);

/* On the loop: the resolver's answers, to the jobs still waiting. */
static void resolve_answers(void)
{
	resolve_q *q;

	pthread_mutex_lock(&rmu);
	q = rdone;
	rdone = NULL;
	pthread_mutex_unlock(&rmu);
	while (q) {
		resolve_q *next = q->next;

		for (push_job *j = jobs; j; j = j->next)
			if (j == q->job && j->serial == q->serial && j->resolving) {
				j->resolving = 0;
				if (q->rc < 0) {
					/* No address, or only refused ones: as a refused peer
					 * when it resolved there, else as no connection. */
					j->refused = 0;
					j->status = 0;
					log_event(LOG_INFO, "push_unresolved", "host=%s", j->host);
					job_end(j);
				} else {
					snprintf(j->addr, sizeof j->addr, "%s", q->addr);
					job_connect(j);
				}
				break;
			}
		free(q);
		q = next;
	}
}

static void job_connect(push_job *j)
{
	struct lws_client_connect_info i;
	char path[WEBPUSH_URL_MAX + 1], hostport[WEBPUSH_HOST_MAX + 10];
	int64_t until = backoff_until(j->origin), now = now_ms();
	int port = webpush_endpoint_target(j->endpoint, path, sizeof path);

	if (until > now) { /* the service asked us to wait */
		job_later(j, until - now);
		return;
	}
	if (port < 0) {
		counts.failed++;
		job_free(j);
		return;
	}
	if (!j->addr[0]) {
		struct in6_addr a6;

		if ((inet_pton(AF_INET, j->host, &a6) == 1 || inet_pton(AF_INET6, j->host, &a6) == 1) &&
		    strlen(j->host) < sizeof j->addr)
			memcpy(j->addr, j->host, strlen(j->host) + 1);
		else {
			if (resolve_start(j) < 0) {
				counts.dropped++;
				job_free(j);
			}
			return;
		}
	}
	memset(&i, 0, sizeof i);
	i.ssl_connection = strncmp(j->endpoint, "https:", 6) ? 0 : LCCSCF_USE_SSL;
	i.context = pctx;
	i.vhost = pvhost;
	i.address = j->addr;
	i.port = port;
	i.path = path;
	/* The Host header names the port when it is not the scheme's (a push
	 * service is on 443: TLS's SNI and the certificate see the name). */
	if (port != (i.ssl_connection ? 443 : 80) &&
	    snprintf(hostport, sizeof hostport, strchr(j->host, ':') ? "[%s]:%d" : "%s:%d",
	             j->host, port) < (int)sizeof hostport)
		i.host = hostport;
	else
		i.host = j->host;
	i.origin = j->host;
	i.method = "POST";
	i.alpn = "http/1.1";
	i.protocol = NULL;
	i.local_protocol_name = PUSH_PROTOCOL;
	i.userdata = j;
	j->connecting = 1;
	j->ended = 0;
	j->wsi = lws_client_connect_via_info(&i);
	j->connecting = 0;
	if (!j->wsi || j->ended)
		job_end(j);
}

/* The body of one push to sub: 0, or -1. */
static int job_body(push_job *j, const store_push_sub *p, const char *json, size_t len)
{
	webpush_sub sub;
	int n;

	if (webpush_sub_parse(&sub, p->p256dh, p->auth) < 0)
		return -1;
	n = webpush_encrypt(&sub, (const uint8_t *)json, len, NULL, NULL, j->body + LWS_PRE,
	                    WEBPUSH_BODY_MAX);
	if (n < 0)
		return -1;
	j->blen = n;
	return 0;
}

/* A subscription read for req: a push to it, if it is of req's seat and
 * game, and within its hourly cap. */
static void on_sub(void *arg, const store_push_sub *p)
{
	push_req *q = arg;
	push_job *j;

	if (stopping || p->side != q->side || p->game != q->game)
		return;
	if (cap_allow(p->endpoint, now_ms()) < 0) {
		counts.capped++;
		return;
	}
	if (njobs >= PUSH_JOBS_MAX || !(j = calloc(1, sizeof *j))) {
		counts.dropped++;
		return;
	}
	snprintf(j->room, sizeof j->room, "%s", p->room[0] ? p->room : q->room);
	j->side = p->side;
	j->retry_after = -1;
	snprintf(j->endpoint, sizeof j->endpoint, "%s", p->endpoint);
	if (webpush_endpoint_check(p->endpoint, pcfg.allow, pcfg.loopback, j->host,
	                           sizeof j->host) < 0 ||
	    webpush_origin(p->endpoint, j->origin, sizeof j->origin) < 0 ||
	    job_body(j, p, q->json, q->len) < 0) {
		/* Kept under other settings (--push-allow changed): not sent. */
		log_event(LOG_WARN, "push_skipped", "room=%s error=\"%s\"", q->room, webpush_error());
		counts.failed++;
		free(j);
		return;
	}
	j->next = jobs;
	if (jobs)
		jobs->prev = j;
	jobs = j;
	njobs++;
	job_connect(j);
}

static void on_list(void *arg, int rc)
{
	push_req *q = arg;

	if (rc < 0)
		log_event(LOG_WARN, "push_not_read", "room=%s", q->room);
	if (q->last && !stopping && pst->ops->push_del(pst, q->room, -1, NULL) < 0)
		log_event(LOG_WARN, "push_subscriptions_kept", "room=%s", q->room);
	free(q);
}

void push_send(const char *room_id, unsigned game, int side, const char *json, size_t len,
               int last)
{
	push_req *q;

	if (!vapid || !pvhost || stopping || len > WEBPUSH_PLAIN_MAX)
		return;
	q = malloc(sizeof *q + len + 1);
	if (!q) {
		counts.dropped++;
		return;
	}
	snprintf(q->room, sizeof q->room, "%s", room_id);
	q->game = game;
	q->side = side;
	q->last = last;
	q->len = len;
	memcpy(q->json, json, len);
	q->json[len] = 0;
	q->seq = rooms_release_seq();
	q->next = NULL;
	*held_tail = q;
	held_tail = &q->next;
}

/* What happened is told only once it is durable, as the rooms' messages
 * are: the pushes whose changes are committed go to the store for their
 * subscriptions; those of a lost batch are dropped (push_drop_uncommitted). */
void push_release(void)
{
	uint64_t done = rooms_committed();

	while (held && held->seq <= done) {
		push_req *q = held;

		held = q->next;
		if (!held)
			held_tail = &held;
		pst->ops->push_list(pst, q->room, on_sub, on_list, q);
	}
}

void push_drop_uncommitted(void)
{
	uint64_t done = rooms_committed();
	push_req **pp = &held;

	while (*pp) {
		push_req *q = *pp;

		if (q->seq > done) {
			*pp = q->next;
			free(q);
		} else
			pp = &q->next;
	}
	held_tail = pp;
}

/* ---- the connection ---- */

/* The request's headers: the peer checked first (a name may resolve to
 * an address no push goes to: nothing is sent there). 0, or -1. */
static int job_headers(push_job *j, struct lws *wsi, unsigned char **p, unsigned char *end)
{
	char auth[1024], num[24];
	struct sockaddr_storage sa;
	socklen_t salen = sizeof sa;
	int fd = (int)lws_get_socket_fd(wsi);

	if (fd < 0 || getpeername(fd, (struct sockaddr *)&sa, &salen) < 0 ||
	    webpush_addr_refused((struct sockaddr *)&sa, pcfg.loopback)) {
		j->refused = 1;
		return -1;
	}
	if (webpush_vapid_header(vapid, j->endpoint, pcfg.contact, (int64_t)time(NULL), 12 * 3600,
	                         auth, sizeof auth) < 0) {
		log_event(LOG_ERROR, "push_vapid_failed", "error=\"%s\"", webpush_error());
		return -1;
	}
	snprintf(num, sizeof num, "%d", PUSH_TTL_S);
	if (lws_add_http_header_by_name(wsi, (const unsigned char *)"authorization:",
	                                (const unsigned char *)auth, (int)strlen(auth), p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"ttl:",
	                                (const unsigned char *)num, (int)strlen(num), p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"urgency:",
	                                (const unsigned char *)"normal", 6, p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"content-encoding:",
	                                (const unsigned char *)"aes128gcm", 9, p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"content-type:",
	                                (const unsigned char *)"application/octet-stream", 24,
	                                p, end) ||
	    lws_add_http_header_content_length(wsi, (lws_filepos_t)j->blen, p, end))
		return -1;
	lws_client_http_body_pending(wsi, 1);
	lws_callback_on_writable(wsi);
	return 0;
}

static int push_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                         void *in, size_t len)
{
	push_job *j = job_find(user, wsi);
	char buf[LWS_PRE + 1024], *px = buf + LWS_PRE;
	int n = (int)sizeof buf - LWS_PRE;

	if (reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED) {
		resolve_answers();
		return 0;
	}
	if (!j)
		return 0;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
		return job_headers(j, wsi, (unsigned char **)in, *(unsigned char **)in + len);
	case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
		if (j->written)
			return 0;
		j->written = 1;
		lws_client_http_body_pending(wsi, 0);
		return lws_write(wsi, j->body + LWS_PRE, (size_t)j->blen, LWS_WRITE_HTTP_FINAL) < 0
		       ? -1 : 0;
	case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
		j->status = (int)lws_http_client_http_response(wsi);
		if (lws_hdr_copy(wsi, px, n, WSI_TOKEN_HTTP_RETRY_AFTER) > 0)
			j->retry_after = atoi(px) > 0 ? atoi(px) : -1; /* a date: the default */
		return 0;
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
		return lws_http_client_read(wsi, &px, &n) < 0 ? -1 : 0;
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
		return 0; /* the service's explanation, unused */
	case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
		return -1; /* one request a connection */
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
	case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
	case LWS_CALLBACK_WSI_DESTROY:
		/* The first of them ends it. */
		if (j->connecting)
			j->ended = 1;
		else if (j->wsi == wsi)
			job_end(j);
		return 0;
	default:
		return 0;
	}
}

static const struct lws_protocols push_protocol = {
	PUSH_PROTOCOL, push_callback, 0, 4096, 0, NULL, 0
};

int push_init(struct lws_context *ctx)
{
	static const struct lws_protocols *protocols[] = {&push_protocol, NULL};
	struct lws_context_creation_info info;

	pctx = ctx;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.vhost_name = "oware-push";
	info.pprotocols = protocols;
	/* The system's certificate authorities verify the push services
	 * (Debian's bundle: lws's own default path is not the system's). */
	info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.client_ssl_ca_filepath = PUSH_CA_FILE;
	pvhost = lws_create_vhost(ctx, &info);
	return pvhost ? 0 : -1;
}

void push_stop(void)
{
	stopping = 1;
	while (held) {
		push_req *q = held;

		held = q->next;
		free(q);
	}
	held_tail = &held;
	while (jobs) {
		push_job *j = jobs;

		if (j->wsi) {
			/* job_end frees it from the callback, now or later */
			lws_set_timeout(j->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_SYNC);
			if (jobs == j && j->wsi)
				job_free(j);
		} else
			job_free(j);
	}
	webpush_key_free(vapid);
	vapid = NULL;
}
