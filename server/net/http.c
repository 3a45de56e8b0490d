/* http.c: the vhost's "http" protocol: the gate every connection passes
 * (descriptors, sockets per address), the checks of a WebSocket upgrade,
 * and the routes (/healthz, /metrics, POST /api/rooms, GET /api/events/);
 * static files are files.c's, the routes' bodies metrics.c's and
 * api_rooms.c's, the answers they share respond.c's. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "server/net/api_rooms.h"
#include "server/base/clock.h"
#include "server/net/files.h"
#include "server/net/gate.h"
#include "server/net/http.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/events/events.h"
#include "server/net/metrics.h"
#include "server/net/conn.h"
#include "server/net/relay.h"

/* ---- the gate: descriptors, sockets per address, upgrades ---- */

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
	return !net_cfg->trust_proxy && !net_cfg->unix_path;
}

/* A new connection: 0 to serve it, -1 to close it. It rides on the
 * connection as lws's opaque user data until its end (gate.c), with its
 * address entry when counted. */
static int on_new_client(struct lws *wsi)
{
	char addr[64] = "";
	ipent *ip = NULL;
	int64_t now = now_ms();

	if (counted_at_accept()) {
		lws_get_peer_simple(wsi, addr, sizeof addr);
		ip = ip_get(addr[0] ? addr : "unknown");
		if (!ip)
			return -1;
		if (ip->sockets >= net_cfg->max_sockets_per_ip || now < ip->banned_until) {
			net_counters.refused_conns++;
			log_limited(LOG_DEBUG, "conn_refused", addr, "reason=too_many_sockets addr=%s",
			            addr);
			return -1;
		}
	}
	if (gate_accept(wsi, ip, now) < 0)
		return -1;
	if (ip)
		ip->sockets++;
	return 0;
}

/* Descriptors kept free for the store, the log and lws itself: a
 * connection accepted past the open-files limit less these is closed at
 * once, so that accept() never fails for want of descriptors (which made
 * the loop spin on a listening socket that stays readable). */
#define FD_RESERVE NET_FD_RESERVE
static int fd_budget = 1 << 30;

void http_init(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur > FD_RESERVE * 2)
		fd_budget = (int)rl.rlim_cur - FD_RESERVE;
	gate_init(net_cfg->max_handshakes);
}

/* A connection just accepted on descriptor fd: 0 to keep it, 1 to close. */
static int filter_accept(int fd)
{
	static int64_t last_log;
	static unsigned refused;
	int64_t now;

	if (fd < fd_budget)
		return 0;
	net_counters.refused_fds++;
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

/* Refuses an upgrade with status and a reason; returns 1 (a refusal was
 * sent). */
static int refuse_upgrade(struct lws *wsi, unsigned status, const char *reason, const char *text)
{
	char addr[64];

	net_client_addr(wsi, addr, sizeof addr);
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
		if (!strcmp(t, NET_SUBPROTOCOL))
			ours = 1;
		else if (lws_vhost_name_to_protocol(lws_get_vhost(wsi), t) ||
		         !strcmp(t, RELAY_PROTOCOL))
			return 0;
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
	     !http_origin_allowed(origin, host))) {
		char addr[64], eo[128], eh[128];

		net_counters.refused_origin++;
		net_client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_WARN, "upgrade_refused", addr, "reason=origin origin=\"%s\" length=%d"
		            " host=\"%s\" addr=%s", origin_len < (int)sizeof origin
		            ? log_esc(eo, sizeof eo, origin, 100, 0) : "(too long)", origin_len,
		            log_esc(eh, sizeof eh, host, 100, 0), addr);
		lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, "origin not allowed");
		return 1;
	}
	return 0;
}

/* ---- routes ---- */

#define API_EVENTS_PATH "/api/events/"

/* GET /api/events/<id>[/trf|/csv] (PROTOCOL.md "Exports"). */
static const char *const ev_names[] = {"", "/trf", "/csv"};
static const char *const ev_ctypes[] = {"application/json", "text/plain; charset=utf-8",
                                        "text/csv; charset=utf-8"};

/* The export's answer (rc as events_export's), at once or, read from a
 * store shared by several servers, later from the loop: then its head
 * waits for WRITEABLE, as the rooms' answer does (api_rooms.c). A body
 * sent counts against the address's --event-views-per-ip-per-min. */
static void events_ready(void *arg, int rc, jw *w, const char *etag)
{
	static const char none[] = "{\"error\":\"no_event\"}";
	static const char oom[] = "{\"error\":\"internal\"}";
	struct lws *wsi = arg;
	http_req *rq = lws_wsi_user(wsi);
	const char *body = w->buf;
	size_t len = w->len;

	rq->evq = NULL;
	if (rc == 0 && w->oom)
		rc = -2;
	rq->etag[0] = 0;
	if (rc >= 0 && etag && strlen(etag) < sizeof rq->etag)
		memcpy(rq->etag, etag, strlen(etag) + 1);
	if (rc < 0) {
		body = rc == -1 ? none : oom;
		len = strlen(body);
		rq->head_ctype = ev_ctypes[0];
		rq->disp[0] = 0;
	}
	if (rc == 1)
		len = 0;
	free(rq->buf);
	rq->len = len;
	if (!(rq->buf = malloc(LWS_PRE + len + 1)))
		rq->hang_up = 1;
	else {
		if (len)
			memcpy(rq->buf + LWS_PRE, body, len);
		rq->head_status = rc == 0 ? HTTP_STATUS_OK : rc == 1 ? HTTP_STATUS_NOT_MODIFIED
		                  : rc == -1 ? HTTP_STATUS_NOT_FOUND : HTTP_STATUS_INTERNAL_SERVER_ERROR;
		if (rq->ip)
			ip_view_count(rq->ip, (int64_t)len);
	}
	if (!rq->in_start) {
		if (rq->hang_up)
			lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		else
			lws_callback_on_writable(wsi);
	}
}

/* The head and body of an answer ready (rq->head_status). An export
 * with its ETag may be kept, asked again with If-None-Match (304). */
static int respond_ready(struct lws *wsi, http_req *rq)
{
	const char *extra[7] = {NULL};
	unsigned status = rq->head_status;
	int n = 0;

	rq->head_status = 0;
	if (rq->disp[0]) {
		extra[n++] = "content-disposition:";
		extra[n++] = rq->disp;
	}
	if (rq->etag[0]) {
		extra[n++] = "etag:";
		extra[n++] = rq->etag;
		extra[n++] = "cache-control:";
		extra[n++] = "no-cache";
	}
	return http_respond_with(wsi, rq, status, rq->head_ctype ? rq->head_ctype
	                         : "application/json", extra);
}

/* 1 when the address of wsi was sent its --event-views-per-ip-per-min
 * this minute: the request is answered 429 rate_limited (Retry-After:
 * 60) and counts nothing. Else 0, with rq->ip set to count the answer. */
static int views_spent(struct lws *wsi, http_req *rq)
{
	char addr[64];

	net_client_addr(wsi, addr, sizeof addr);
	rq->ip = ip_get(addr);
	return rq->ip && ip_view_left(rq->ip, now_ms(), net_cfg->ip->views_per_min) <= 0;
}

static int events_route(struct lws *wsi, http_req *rq, const char *rest)
{
	static const char *const retry[] = {"retry-after:", "60", NULL};
	static const char limited[] = "{\"error\":\"rate_limited\",\"message\":"
	                              "\"too many event views sent to this address; wait a minute\"}";
	char id[ROOM_ID_LEN + 1];
	size_t n = strcspn(rest, "/");
	int what = -1;

	if (views_spent(wsi, rq)) {
		if (!(rq->buf = malloc(LWS_PRE + sizeof limited)))
			return -1;
		memcpy(rq->buf + LWS_PRE, limited, sizeof limited - 1);
		rq->len = sizeof limited - 1;
		return http_respond_with(wsi, rq, 429, "application/json",
		                         retry);
	}
	if (n <= ROOM_ID_LEN) {
		memcpy(id, rest, n);
		id[n] = 0;
		for (int i = 0; i < 3; i++)
			if (!strcmp(rest + n, ev_names[i]))
				what = i;
	}
	if (what < 0) {
		jw none;

		jw_init(&none);
		rq->in_start = 1;
		events_ready(wsi, -1, &none, NULL);
		rq->in_start = 0;
		return rq->hang_up ? -1 : respond_ready(wsi, rq);
	}
	rq->head_ctype = ev_ctypes[what];
	rq->disp[0] = 0;
	if (what)
		snprintf(rq->disp, sizeof rq->disp, "attachment; filename=\"%s.%s\"", id,
		         ev_names[what] + 1);
	if (lws_hdr_copy(wsi, rq->inm, sizeof rq->inm, WSI_TOKEN_HTTP_IF_NONE_MATCH) <= 0)
		rq->inm[0] = 0;
	rq->hang_up = 0;
	rq->in_start = 1;
	rq->evq = events_export_start(id, what, rq->inm[0] ? rq->inm : NULL, events_ready, wsi);
	rq->in_start = 0;
	if (rq->hang_up)
		return -1;
	if (rq->evq || !rq->head_status)
		return 0; /* answered later, from the loop */
	return respond_ready(wsi, rq);
}

/* A request other than GET (a POST of /api/rooms or /api/push went to
 * api_rooms.c):
 * HEAD of a path no file answers gets its 404 without a body; a route
 * gets 405 naming the method it answers. */
static int not_get(struct lws *wsi, http_req *rq)
{
	static const char *const allow_get[] = {"allow:", "GET", NULL};
	static const char *const allow_post[] = {"allow:", "POST", NULL};
	static const char *const allow_get_post[] = {"allow:", "GET, POST", NULL};
	static const enum lws_token_indexes methods[] = {
		WSI_TOKEN_HEAD_URI, WSI_TOKEN_POST_URI, WSI_TOKEN_PUT_URI, WSI_TOKEN_PATCH_URI,
		WSI_TOKEN_DELETE_URI, WSI_TOKEN_OPTIONS_URI,
	};
	char uri[64] = "";
	size_t i;

	for (i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (lws_hdr_total_length(wsi, methods[i]) > 0) {
			if (lws_hdr_copy(wsi, uri, sizeof uri, methods[i]) <= 0)
				uri[0] = 0;
			break;
		}
	if (!strcmp(uri, API_ROOMS_PATH))
		return http_refuse_with(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, allow_post);
	if (!strcmp(uri, API_PUSH_PATH))
		return http_refuse_with(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, allow_get_post);
	if (i == 0 && strcmp(uri, "/healthz") && strcmp(uri, "/metrics") &&
	    strncmp(uri, API_EVENTS_PATH, strlen(API_EVENTS_PATH))) {
		if (!(rq->buf = malloc(LWS_PRE)))
			return -1;
		rq->len = 0;
		return http_respond(wsi, rq, HTTP_STATUS_NOT_FOUND, "text/html");
	}
	return http_refuse_with(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, allow_get);
}

static int http_request(struct lws *wsi, http_req *rq, const void *in)
{
	char uri[64];
	const char *ctype;
	size_t cap = 16384;
	unsigned status = HTTP_STATUS_OK;

	if (rq->query || rq->evq || rq->buf || rq->body)
		return -1; /* pipelined behind an answer still to come: hang up before it starts */
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_POST_URI) > 0 && !strcmp(uri, API_ROOMS_PATH))
		return api_rooms_start(wsi, rq);
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_POST_URI) > 0 && !strcmp(uri, API_PUSH_PATH)) {
		int rc = api_rooms_start(wsi, rq);

		rq->push = 1; /* its body is read as /api/rooms's, answered by api_push */
		return rc;
	}
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
		return not_get(wsi, rq);
	/* A path too long for uri is none of the routes: it names no file. */
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0)
		uri[0] = 0;
	if (!strcmp(uri, API_ROOMS_PATH))
		return api_rooms_start(wsi, rq);
	if (!strcmp(uri, API_PUSH_PATH))
		return api_push_key(wsi, rq);
	if (!strncmp(uri, API_EVENTS_PATH, strlen(API_EVENTS_PATH)))
		return events_route(wsi, rq, uri + strlen(API_EVENTS_PATH));
	rq->buf = malloc(LWS_PRE + cap);
	if (!rq->buf)
		return -1;
	if (!strcmp(uri, "/healthz")) {
		ctype = "application/json";
		rq->len = metrics_healthz((char *)rq->buf + LWS_PRE, cap, &status);
	} else if (!strcmp(uri, "/metrics") && !metrics_allowed(wsi)) {
		free(rq->buf);
		rq->buf = NULL;
		return http_refuse(wsi, rq, HTTP_STATUS_FORBIDDEN);
	} else if (!strcmp(uri, "/metrics")) {
		ctype = "text/plain; version=0.0.4";
		rq->len = metrics_text((char *)rq->buf + LWS_PRE, cap);
	} else {
		char eu[256], addr[64];

		net_client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_DEBUG, "http_unknown", addr, "uri=\"%s\" addr=%s",
		            log_esc(eu, sizeof eu, in, 60, 0), addr);
		free(rq->buf);
		rq->buf = NULL;
		return files_not_found(wsi, rq, in);
	}
	return http_respond(wsi, rq, status, ctype);
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len)
{
	http_req *rq = user;
	int n;

	switch (reason) {
	case LWS_CALLBACK_ADD_HEADERS:
		return files_add_headers(wsi, in);
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
		return filter_accept((int)(intptr_t)in);
	case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
		return on_new_client(wsi);
	case LWS_CALLBACK_WSI_DESTROY:
		gate_gone(wsi);
		break;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		gate_headers_done(wsi);
		return confirm_upgrade(wsi, in);
	case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
		gate_headers_done(wsi);
		if (strcmp(in, API_ROOMS_PATH) && strcmp(in, API_PUSH_PATH) && http_framing(wsi, &(long){0}) != FRAME_NONE) {
			/* Only POST /api/rooms and /api/push have a body (JSON). */
			char addr[64];

			net_client_addr(wsi, addr, sizeof addr);
			log_limited(LOG_INFO, "http_refused", addr, "reason=framing addr=%s", addr);
			http_refuse(wsi, rq, HTTP_STATUS_BAD_REQUEST);
			return 1;
		}
		if (files_filter(wsi, rq, in))
			return 1;
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
		if (rq && rq->head_status && rq->buf && !rq->commit_seq)
			return respond_ready(wsi, rq) < 0 ? -1 : 0; /* an answer from the loop */
		break;
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
	case LWS_CALLBACK_CLOSED_HTTP:
		if (rq) {
			api_rooms_release(rq);
			if (rq->evq)
				events_export_cancel(rq->evq);
			rq->evq = NULL;
			free(rq->buf);
			rq->buf = NULL;
		}
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

const struct lws_protocols http_protocol = {
	"http", http_callback, sizeof(http_req), 0, 0, NULL, 0
};
