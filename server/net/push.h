/* push.h: Web Push's sender (issue 53; PROTOCOL.md "Push"): the server's
 * key pair (VAPID) kept in the store, and each push an HTTP POST made by
 * libwebsockets' client on the event loop, never a blocking call. */
#ifndef SRV_PUSH_H
#define SRV_PUSH_H

#include <libwebsockets.h>

#include "server/store/store.h"

/* A subscription is sent at most this many pushes in an hour by one
 * server (--push-per-hour); a push a service answers 429 or 5xx (or that
 * cannot connect) is tried PUSH_TRIES times in all, after the Retry-After
 * it gives (PUSH_RETRY_DEFAULT_S when none, at most PUSH_RETRY_MAX_S);
 * PUSH_JOBS_MAX pushes wait or travel at once, more are dropped. */
#define PUSH_TRIES 3
#define PUSH_RETRY_DEFAULT_S 60
#define PUSH_RETRY_MAX_S 3600
#define PUSH_JOBS_MAX 256
/* A push is kept by its service for PUSH_TTL_S (the TTL header: a
 * correspondence move waits days; the service keeps it until the device
 * is online, at most this long) and sent with Urgency: normal. */
#define PUSH_TTL_S 86400

typedef struct push_config {
	int on;                  /* --push on|off */
	const char *contact;     /* --push-contact: VAPID's sub (mailto: or https:) */
	const char *allow;       /* --push-allow: the push services' hosts */
	int loopback;            /* test build only: a fake push service on the loopback,
	                          * over http: too */
	int per_hour;            /* --push-per-hour */
} push_config;

typedef struct push_stats {
	uint64_t sent;           /* pushes a service took (2xx) */
	uint64_t gone;           /* subscriptions dropped: 404 or 410 */
	uint64_t retried;        /* 429, 5xx or no connection: tried again later */
	uint64_t failed;         /* given up: other answers, or out of tries */
	uint64_t capped;         /* not sent: the subscription's hourly cap */
	uint64_t refused;        /* not sent: the endpoint reached a refused address */
	uint64_t dropped;        /* not sent: PUSH_JOBS_MAX reached, or out of memory */
} push_stats;

/* At start-up, over st (kept): the key pair the store holds (made now
 * and kept there at the first start; on several servers, the one they
 * share), its public key (base64url) into pub (cap bytes, at least 88).
 * 0, or -1 after logging why. */
int push_keys_load(store *st, const push_config *cfg, char *pub, size_t cap);
/* The sender's own vhost in ctx (no listener): 0, or -1. */
int push_init(struct lws_context *ctx);
/* rooms_push_fn (rooms.h): sends json to each subscription of room's
 * game on side, then, when last, deletes the room's subscriptions; held
 * until the change that made it is committed (push_release). */
void push_send(const char *room, unsigned game, int side, const char *json, size_t len,
               int last);
/* After each pass's commit: the pushes whose changes are now committed
 * are sent. */
void push_release(void);
/* A lost batch: the pushes of its changes are dropped, never sent. */
void push_drop_uncommitted(void);
/* Shutdown: pushes waiting or travelling are dropped. */
void push_stop(void);
const push_stats *push_get_stats(void);

#endif
