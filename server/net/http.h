/* http.h: the vhost's "http" protocol: the gate every connection passes
 * (descriptor and per-address socket budgets), WebSocket upgrade checks,
 * the routes /healthz, /metrics and POST /api/rooms, and the static files
 * lws serves through the mounts (files.h adds to them). */
#ifndef SRV_HTTP_H
#define SRV_HTTP_H

#include <stddef.h>
#include <libwebsockets.h>

#include "server/net/respond.h"

/* Sets up the descriptor budget from the open-files limit and the gate
 * (main, after net_init). */
void http_init(void);
/* The "http" protocol, protocols[0] of the server's vhost (per-session
 * data: an http_req): every plain HTTP request and every connection's
 * accept and end. */
extern const struct lws_protocols http_protocol;

#endif
