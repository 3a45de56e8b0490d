/* api_rooms.h: POST /api/rooms, several rooms at once (PROTOCOL.md, "Your
 * games"): the body read within its deadline, counted as joins of the
 * client's address, and answered with what the rooms' holders may see
 * (rooms_query_start). */
#ifndef SRV_API_ROOMS_H
#define SRV_API_ROOMS_H

#include <stddef.h>
#include <libwebsockets.h>

#include "server/net/respond.h"

#define API_ROOMS_PATH "/api/rooms"
#define API_PUSH_PATH "/api/push"

/* The request line and headers: 0 to read the body within its deadline
 * (a refusal found now is answered once the body was read and dropped),
 * or -1 after an error answered at once (a wrong method, a framing
 * error, no Content-Length) or to hang up unanswered. */
int api_rooms_start(struct lws *wsi, http_req *rq);
/* A chunk of the body (kept, or dropped after a refusal): 0, or -1 to
 * hang up. */
int api_rooms_body(http_req *rq, const void *in, size_t len);
/* The whole body: answered now (-1: hang up once written) or later from
 * the loop (0: the answer waits in rq for WRITEABLE). */
int api_rooms_answer(struct lws *wsi, http_req *rq);
/* GET /api/push: the server's public key for Web Push, answered at once
 * (-1: hang up once written). A POST /api/push goes through
 * api_rooms_start and api_rooms_body as /api/rooms does (rq->push set). */
int api_push_key(struct lws *wsi, http_req *rq);
/* A POST /api/push that kept or cancelled a subscription is answered
 * once the batch that wrote it is committed: after each group commit
 * api_push_release() lets the committed ones be written; a lost batch's
 * become 503 "internal" (api_push_drop_uncommitted); a batch written
 * again moves its answers to the batch from..to (api_push_retag). */
void api_push_release(void);
void api_push_drop_uncommitted(void);
void api_push_retag(uint64_t from, uint64_t to);
/* rq's request ends: its query is cancelled, its deadline and body gone. */
void api_rooms_release(http_req *rq);

#endif
