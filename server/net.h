/* net.h: the libwebsockets protocols of the server: "http" (static files
 * through mounts, upgrade checks, /healthz, /metrics) and `oware.v1`. */
#ifndef SRV_NET_H
#define SRV_NET_H

#include <libwebsockets.h>

#define NET_SUBPROTOCOL "oware.v1"

/* The vhost's protocol list, "http" first, terminated. */
extern const struct lws_protocols net_protocols[];

/* Keepalive, run every second or faster: pings a connection silent for
 * --ping-seconds, and hangs up one that stays silent after that ping for
 * up to --hangup-seconds in all. (Not lws's
 * retry_and_idle_policy: 4.1.6 re-inserts that per-connection timer into
 * one sorted list on every frame, O(connections) each time, which took
 * most of the CPU at 20,000 connections.) */
void net_keepalive(void);

/* Writes out the messages queued during this loop pass; run after the
 * pass's commit (srv_flush). */
void net_send_ready(void);

#endif
