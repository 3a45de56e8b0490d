/* relay.h: the client side of relays (several servers; server/CLUSTER.md,
 * "Split routing"): a connection here whose room another server holds is
 * carried over a WebSocket to that holder, each way, message by message. */
#ifndef SRV_RELAY_H
#define SRV_RELAY_H

#include <stdint.h>
#include <libwebsockets.h>

#include "protocol/message.h"

#define RELAY_PROTOCOL "oware-relay" /* ours only: never asked for on upgrade */

struct conn;

/* Relays since start, those that ended before the holder's welcome, and
 * those open now (for /metrics). */
typedef struct relay_stats {
	uint64_t started, failed;
	int open;
} relay_stats;

/* From now on c is relayed to the server at addr ("host:port"), which
 * holds join->room, showing key; join is sent there first. If the relay
 * ends before the holder's welcome, rooms_relay_failed() runs the join
 * again RELAY_RETRY_MS later. The welcome is waited for no longer than
 * the holder's lease left (lease_ms) and a little: a holder that did not
 * answer by then and did not renew its lease gives the room up to a take.
 * 0 (also when c is already relayed or closing: nothing done), or -1
 * when no relay could be started. */
int relay_start(struct conn *c, const char *addr, const char *key, const proto_msg *join,
                int64_t deadline, int lease_ms);
/* A message of c's client, for the holder: before the holder's welcome
 * c gets `not_joined`; a full queue to the holder closes c. Returns 0. */
int relay_forward(struct conn *c, const char *text, size_t len);
/* c (relayed) is going: its relay is ended (and freed once its
 * connection to the holder is). */
void relay_client_gone(struct conn *c);
const relay_stats *relay_get_stats(void);

/* Creates the relays' vhost in ctx (it listens nowhere; its one protocol
 * is RELAY_PROTOCOL, for the connections to holders): 0, or -1. Relays
 * then start; without it relay_start fails. */
int relay_init(struct lws_context *ctx);

#endif
