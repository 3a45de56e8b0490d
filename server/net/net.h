/* net.h: the transport's face to main.c: the `oware.v1` WebSocket
 * protocol (connections, reassembly, limits, per-client queues), which
 * hands checked messages to the rooms, set up, swept, flushed once per
 * loop pass and stopped. The vhost's other protocols are http.h's (files,
 * upgrade checks, /healthz, /metrics, POST /api/rooms) and relay.h's (the
 * client side of relays to other servers). */
#ifndef SRV_NET_H
#define SRV_NET_H

#include <stdint.h>
#include <libwebsockets.h>

#include "protocol/message.h"
#include "server/net/conn.h"
#include "server/rooms/rooms.h"

/* The `oware.v1` protocol of the server's vhost (per-session data: a
 * connection of net.c's). */
extern const struct lws_protocols net_protocol;
/* What the rooms reach connections with (rooms_init). */
extern const rooms_io net_rooms_io;

/* Sets up the `oware.v1` protocol with the transport's settings (kept,
 * not copied). */
void net_init(const net_config *cfg);
/* Shutdown: each connection gets a "going away" close at its next
 * writeable callback, with nothing more from its queue. */
void net_stop(void);
/* Releases what net_init set up. */
void net_free(void);
/* Open WebSocket connections. */
int net_connections(void);

/* Keepalive, called every tick_ms: pings a connection silent for
 * --ping-seconds, and hangs up one that stays silent after that ping for
 * up to --hangup-seconds in all; also drops readers that do not read and
 * byte floods. Each call handles a slice of the connections, so that every
 * one is seen once per period_ms (200 ms while the server is busy: a flood
 * is caught faster) and no call grows with the connections held. (Not
 * lws's retry_and_idle_policy: 4.1.6 re-inserts that per-connection timer
 * into one sorted list on every frame, O(connections) each time, which
 * took most of the CPU at 20,000 connections.) */
void net_keepalive(int64_t period_ms, int64_t tick_ms);

#endif
