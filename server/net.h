/* net.h: the libwebsockets protocols of the server: "http" (static files
 * through mounts, upgrade checks, /healthz, /metrics) and `oware.v1`. */
#ifndef SRV_NET_H
#define SRV_NET_H

#include <libwebsockets.h>

#define NET_SUBPROTOCOL "oware.v1"

/* The vhost's protocol list, "http" first, terminated. */
extern const struct lws_protocols net_protocols[];

#endif
