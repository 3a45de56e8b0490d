/* respond.c: the answers every route of the "http" protocol shares
 * (respond.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/net/conn.h"
#include "server/net/respond.h"

/* 1 when origin (an Origin header) may open a WebSocket on a request for
 * host (its Host header). */
int http_origin_allowed(const char *origin, const char *host)
{
	const char *list = net_cfg->allow_origin, *p = strstr(origin, "://");
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

/* 1 when extra (pairs, NULL ended) names header name. */
static int names(const char *const *extra, const char *name)
{
	for (; extra && extra[0]; extra += 2)
		if (!strcmp(extra[0], name))
			return 1;
	return 0;
}

/* Sends rq->buf's rq->len bytes as the whole answer with status, head
 * and body at once (lws sends first what the socket did not take), with
 * "Connection: close": the connection ends after it. A request pipelined
 * behind it is thus never answered (nor cut): its client, told of the
 * close, sends it again on a new connection. (Keeping the connection
 * open is not safe in lws 4.1.6: a pipelined request may stall, a POST
 * gets its own head as its body.) Returns -1: hang up once written. */
int http_respond_with(struct lws *wsi, http_req *rq, unsigned status, const char *ctype,
                      const char *const *extra)
{
	/* What every answer of the API carries, as the static files do: its
	 * JSON holds names and titles as typed, never to be run or framed. */
	static const char *const common[] = {
		"cache-control:", "no-store",
		"x-content-type-options:", "nosniff",
		"content-security-policy:", "default-src 'none'; frame-ancestors 'none'",
		"referrer-policy:", "no-referrer",
		NULL
	};
	unsigned char hdr[LWS_PRE + 2048], *start = hdr + LWS_PRE, *p = start,
	              *end = hdr + sizeof hdr - 1;
	int bad = lws_add_http_common_headers(wsi, status, ctype, rq->len, &p, end) ||
	          lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
	                                       (const unsigned char *)"close", 5, &p, end);

	for (const char *const *h = common; !bad && h[0]; h += 2)
		if (!names(extra, h[0]))
			bad = lws_add_http_header_by_name(wsi, (const unsigned char *)h[0],
			                                  (const unsigned char *)h[1], (int)strlen(h[1]),
			                                  &p, end);

	for (; !bad && extra && extra[0]; extra += 2)
		bad = lws_add_http_header_by_name(wsi, (const unsigned char *)extra[0],
		                                  (const unsigned char *)extra[1],
		                                  (int)strlen(extra[1]), &p, end);
	if (!bad && !lws_finalize_write_http_header(wsi, start, &p, end))
		lws_write(wsi, rq->buf + LWS_PRE, rq->len, LWS_WRITE_HTTP_FINAL);
	free(rq->buf);
	rq->buf = NULL;
	return -1;
}

int http_respond(struct lws *wsi, http_req *rq, unsigned status, const char *ctype)
{
	return http_respond_with(wsi, rq, status, ctype, NULL);
}

/* Answers with an error status (a small page, like lws's own) and hangs
 * up, as http_respond() does (its "Connection: close" tells a client not to
 * send on this connection again): -1. */
int http_refuse(struct lws *wsi, http_req *rq, unsigned status)
{
	return http_refuse_with(wsi, rq, status, NULL);
}

int http_refuse_with(struct lws *wsi, http_req *rq, unsigned status, const char *const *extra)
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
	return http_respond_with(wsi, rq, status, "text/html", extra);
}

int http_framing(struct lws *wsi, long *len)
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
