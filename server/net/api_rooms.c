/* api_rooms.c: POST /api/rooms over HTTP (PROTOCOL.md, "Your games"):
 * framing, origin, size and deadline of the body, the joins it costs its
 * address, and the JSON answer, at once or from the loop. The rooms'
 * side (what each link's holder may see) is rooms_query_start's. Also
 * GET and POST /api/push (PROTOCOL.md "Push from your games"): the key,
 * and a seat's subscription, its body read as /api/rooms's; the rooms'
 * side is rooms_push_start's. */
#include <stdlib.h>
#include <string.h>

#include "server/net/api_rooms.h"
#include "server/base/clock.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/net/conn.h"

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
	net_client_addr(wsi, addr, sizeof addr);
	log_limited(LOG_INFO, "api_refused", addr, "code=%s status=%u addr=%s", code, status, addr);
}

/* An error answer (the connection closes after it). */
static int api_error(struct lws *wsi, http_req *rq, unsigned status, const char *code,
                     const char *message)
{
	jw w;
	int rc;

	static const char *const allow_post[] = {"allow:", "POST", NULL};

	jw_init(&w);
	api_error_text(wsi, &w, status, code, message);
	rc = api_body(rq, &status, &w) < 0 ? -1
	     : http_respond_with(wsi, rq, status, "application/json",
	                         status == HTTP_STATUS_METHOD_NOT_ALLOWED ? allow_post : NULL);
	jw_free(&w);
	return rc;
}

/* The body of a request took too long: the connection ends, unanswered. */
static void body_late(lws_sorted_usec_list_t *sul)
{
	http_req *rq = lws_container_of(sul, http_req, body_sul);
	char addr[64];

	rq->body_timer = 0;
	net_client_addr(rq->wsi, addr, sizeof addr);
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
int api_rooms_start(struct lws *wsi, http_req *rq)
{
	char origin[256], host[256];
	int origin_len = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
	long want;

	memset(&rq->refused, 0, sizeof rq->refused);
	if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) <= 0)
		return api_error(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, "bad_method",
		                 "POST a JSON body");
	switch (http_framing(wsi, &want)) {
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
	     !http_origin_allowed(origin, host))) {
		net_counters.refused_origin++;
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
int api_rooms_body(http_req *rq, const void *in, size_t len)
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

/* The HTTP status of an error code of POST /api/push. */
static unsigned push_status(int code)
{
	switch (code) {
	case PROTO_E_BAD_MESSAGE:
		return HTTP_STATUS_BAD_REQUEST;
	case PROTO_E_NO_ROOM:
		return HTTP_STATUS_NOT_FOUND;
	case PROTO_E_BAD_TOKEN:
	case PROTO_E_PUSH_REFUSED:
		return HTTP_STATUS_FORBIDDEN;
	case PROTO_E_GAME_OVER:
		return HTTP_STATUS_CONFLICT;
	case PROTO_E_RATE_LIMITED:
		return 429;
	default:
		return HTTP_STATUS_SERVICE_UNAVAILABLE;
	}
}

/* POST /api/push answers waiting for the commit of their change. */
static http_req *held;

static void push_unhold(http_req *rq)
{
	for (http_req **pp = &held; *pp; pp = &(*pp)->held_next)
		if (*pp == rq) {
			*pp = rq->held_next;
			break;
		}
	rq->held_next = NULL;
	rq->commit_seq = 0;
}

void api_push_release(void)
{
	uint64_t done = rooms_committed();

	for (http_req *rq = held, *next; rq; rq = next) {
		next = rq->held_next;
		if (rq->commit_seq <= done) {
			push_unhold(rq);
			lws_callback_on_writable(rq->wsi);
		}
	}
}

/* The rooms' answer to a POST /api/push, at once or later from the loop;
 * a change kept or cancelled is answered once its batch is committed. */
static void api_push_done(void *arg, int code, const char *message)
{
	struct lws *wsi = arg;
	http_req *rq = lws_wsi_user(wsi);
	int later = !rq->in_start;
	unsigned status = code ? push_status(code) : HTTP_STATUS_OK;
	jw w;

	rq->pushq = NULL;
	jw_init(&w);
	if (code)
		api_error_text(wsi, &w, status, proto_err_code(code), message ? message : "");
	else {
		jw_obj(&w);
		jw_key(&w, "push");
		jw_str(&w, rq->push == 2 ? "cancel" : "subscribe");
		jw_obj_end(&w);
	}
	if (code == PROTO_E_RATE_LIMITED)
		net_counters.errors[PROTO_E_RATE_LIMITED]++;
	if (api_body(rq, &status, &w) < 0)
		rq->hang_up = 1;
	else
		rq->head_status = status;
	if (!code && !rq->hang_up && rooms_release_seq() > rooms_committed()) {
		rq->commit_seq = rooms_release_seq();
		rq->held_next = held;
		held = rq;
	} else if (later) {
		if (rq->hang_up)
			lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		else
			lws_callback_on_writable(wsi);
	}
	jw_free(&w);
}

void api_push_drop_uncommitted(void)
{
	uint64_t done = rooms_committed();

	for (http_req *rq = held, *next; rq; rq = next) {
		next = rq->held_next;
		if (rq->commit_seq <= done)
			continue;
		push_unhold(rq);
		api_push_done(rq->wsi, PROTO_E_INTERNAL,
		              "the store cannot save it now; nothing changed");
	}
}

void api_push_retag(uint64_t from, uint64_t to)
{
	for (http_req *rq = held; rq; rq = rq->held_next)
		if (rq->commit_seq >= from)
			rq->commit_seq = to;
}

/* The whole body of a POST /api/push: a seat's subscription kept or
 * cancelled without joining (rooms_push_start). */
static int api_push_answer(struct lws *wsi, http_req *rq)
{
	static proto_msg msg;
	proto_room_ref ref;
	char err[128], addr[64];
	unsigned status;
	ipent *ip;
	int rc;

	rc = proto_push_req_parse(rq->body, rq->body_len, &ref, &msg, err, sizeof err);
	free(rq->body);
	rq->body = NULL;
	if (rc < 0)
		return api_error(wsi, rq, HTTP_STATUS_BAD_REQUEST, "bad_request", err);
	net_client_addr(wsi, addr, sizeof addr);
	ip = ip_get(addr);
	if (!ip)
		return -1;
	rq->push = msg.action == PROTO_ACT_CANCEL ? 2 : 1;
	rq->hang_up = 0;
	rq->in_start = 1;
	rq->pushq = rooms_push_start(&ref, &msg, ip, api_push_done, wsi);
	rq->in_start = 0;
	if (rq->hang_up)
		return -1;
	if (rq->pushq || !rq->head_status || rq->commit_seq)
		return 0; /* answered later, from the loop */
	status = rq->head_status;
	rq->head_status = 0;
	return http_respond(wsi, rq, status, "application/json");
}

int api_push_key(struct lws *wsi, http_req *rq)
{
	unsigned status = HTTP_STATUS_OK;
	jw w;
	int rc;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "push_key");
	jw_str(&w, rooms_push_key()); /* null: --push off */
	jw_obj_end(&w);
	rc = api_body(rq, &status, &w) < 0 ? -1 : http_respond(wsi, rq, status, "application/json");
	jw_free(&w);
	return rc;
}

/* The whole body: every entry counts as a join of the client's address
 * (all or none), then each room is answered as its link holder sees it. */
int api_rooms_answer(struct lws *wsi, http_req *rq)
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
	if (rq->push)
		return api_push_answer(wsi, rq);
	n = proto_rooms_query_parse(rq->body, rq->body_len, refs, ROOMS_QUERY_MAX, err, sizeof err);
	free(rq->body);
	rq->body = NULL;
	if (n < 0)
		return api_error(wsi, rq, HTTP_STATUS_BAD_REQUEST, "bad_request", err);
	net_client_addr(wsi, addr, sizeof addr);
	ip = ip_get(addr);
	if (!ip)
		return -1;
	if (ip_join_allow_n(ip, now_ms(), net_cfg->ip->joins_per_min, n ? n : 1) < 0) {
		net_counters.errors[PROTO_E_RATE_LIMITED]++;
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
	return http_respond(wsi, rq, status, "application/json");
}

void api_rooms_release(http_req *rq)
{
	if (rq->query) {
		rooms_query_cancel(rq->query);
		rq->query = NULL;
	}
	if (rq->pushq) {
		rooms_push_cancel(rq->pushq);
		rq->pushq = NULL;
	}
	if (rq->commit_seq)
		push_unhold(rq);
	body_timer_stop(rq);
	free(rq->body);
	rq->body = NULL;
}
