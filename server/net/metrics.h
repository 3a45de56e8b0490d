/* metrics.h: what the server tells about itself over HTTP: /healthz (is
 * the store writing) and /metrics (the Prometheus text of the rooms', the
 * transport's, the store's and the relays' counters). */
#ifndef SRV_METRICS_H
#define SRV_METRICS_H

#include <stddef.h>
#include <libwebsockets.h>

/* Notes the start time for uptimes (main). */
void metrics_init(void);
/* /healthz's JSON into b (at most cap bytes, cut short if longer):
 * its length; *status 200 while the store can write, else 503. */
size_t metrics_healthz(char *b, size_t cap, unsigned *status);
/* /metrics' text into b (at most cap bytes, cut short if longer): its
 * length. */
size_t metrics_text(char *b, size_t cap);
/* 1 when wsi's client may read /metrics (--metrics-from; by default
 * every client). */
int metrics_allowed(struct lws *wsi);

#endif
