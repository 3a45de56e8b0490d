/* respond.h: what every route of the "http" protocol shares, below them
 * all (respond.c): the request's data, its answers and refusals, how its
 * body is framed, and whether its origin is allowed. http.c routes a
 * request to files.c, api_rooms.c or metrics.c, which answer through
 * these and know nothing of http.c. */
#ifndef SRV_NET_RESPOND_H
#define SRV_NET_RESPOND_H

#include <stddef.h>
#include <stdint.h>
#include <libwebsockets.h>

#include "server/events/events.h"
#include "server/rooms/rooms.h"

/* Per-request data of the "http" protocol: lws owns it (zeroed when the
 * request starts); what it points to is freed at its end. */
typedef struct http_req {
	unsigned char *buf; /* a dynamic answer's body: LWS_PRE + len */
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
	/* POST /api/push (the body is read as /api/rooms's): its request
	 * while the room is read from the store. */
	int push;
	rooms_push_req *pushq;
	/* Its answer, ready, waits for the commit of batch commit_seq (a
	 * change is told only once durable, as the rooms' messages are). */
	uint64_t commit_seq;
	struct http_req *held_next;
	/* GET /api/events/<id>: an event read from such a store; then the
	 * answer's type and content-disposition ("" for none). */
	events_query *evq;
	const char *head_ctype;  /* NULL: application/json */
	char disp[96];
	char etag[20];           /* the export's ETag ("" for none) */
	char inm[20];            /* the request's If-None-Match ("" for none or too long) */
	struct ipent *ip;        /* the client's address (its socket counted there) */
	unsigned head_status;    /* 0, or the status of a head still to write */
	int hang_up;
	int in_start;            /* inside rooms_query_start: its answer is written after */
	/* The body's one deadline (API_BODY_DEADLINE_S after the headers),
	 * however it trickles: armed while a body is read. */
	struct lws *wsi;
	lws_sorted_usec_list_t body_sul;
	int body_timer;
} http_req;

/* Sends rq->buf's rq->len bytes (freed) as the whole answer with status
 * and ctype, "Connection: close", "Cache-Control: no-store" and the
 * headers every answer of the API carries (X-Content-Type-Options:
 * nosniff, Content-Security-Policy: default-src 'none'; frame-ancestors
 * 'none', Referrer-Policy: no-referrer). Returns -1: hang up once
 * written. */
int http_respond(struct lws *wsi, http_req *rq, unsigned status, const char *ctype);
/* The same with extra headers: names (with their colon, lower case) and
 * values in pairs, ended by NULL; one that names cache-control, the CSP,
 * the referrer policy or nosniff takes the place of the default. */
int http_respond_with(struct lws *wsi, http_req *rq, unsigned status, const char *ctype,
                      const char *const *extra);
/* Answers status with a small page (rq NULL: lws's own) and hangs up: -1. */
int http_refuse(struct lws *wsi, http_req *rq, unsigned status);
/* The same with extra headers, as http_respond_with (ignored when rq is
 * NULL). */
int http_refuse_with(struct lws *wsi, http_req *rq, unsigned status, const char *const *extra);

/* How a request frames its body (RFC 9112, section 6): FRAME_NONE (no
 * body), FRAME_LENGTH (*len from one Content-Length of digits only),
 * FRAME_CHUNKED (a Transfer-Encoding alone: a body we do not read) or
 * FRAME_BAD: a Content-Length that is not plain digits (a sign, a space,
 * two values, two headers), or one beside a Transfer-Encoding. */
enum { FRAME_NONE, FRAME_LENGTH, FRAME_CHUNKED, FRAME_BAD };
int http_framing(struct lws *wsi, long *len);

/* 1 when origin (an Origin header) may open a WebSocket or POST on a
 * request for host (its Host header): the same host, or --allow-origin. */
int http_origin_allowed(const char *origin, const char *host);

#endif
