/* gate.h: the sockets whose request headers are still being read, oldest
 * first. Each holds one of lws's --max-handshakes header buffers (16 KiB),
 * or waits for one: a pool every newcomer shares, which a stranger must
 * not be able to fill. So:
 * - a socket that has sent no byte GATE_FIRST_BYTE_MS after its accept is
 *   closed;
 * - when the pool is full, a newcomer makes every socket silent for
 *   GATE_EVICT_SILENT_MS or more go, else the oldest of an address holding
 *   more than its share (a sixteenth of the pool, GATE_SHARE_DIV) held as
 *   long, else the one that spoke and has read its head the longest, for
 *   GATE_EVICT_SLOW_MS or more; unless the newcomer's own address holds
 *   more than its share:
 *   then it waits its turn, as one address's burst of connections always
 *   did.
 * Behind a proxy (not counted by address) the share plays no part. The
 * pool's size is lws's, set from --max-handshakes (main.c). */
#ifndef SRV_GATE_H
#define SRV_GATE_H

#include <stdint.h>
#include <libwebsockets.h>

#include "server/base/iptable.h"

#define GATE_SHARE_DIV 16
#define GATE_FIRST_BYTE_MS 2000
#define GATE_EVICT_SILENT_MS 500
#define GATE_EVICT_SLOW_MS 1000 /* a socket still sending its headers after this trickles */
#define GATE_SCAN 64 /* holders looked at for one over its share */

/* Counters for /metrics. */
typedef struct gate_stats {
	uint64_t cut_silent;    /* no byte within GATE_FIRST_BYTE_MS */
	uint64_t evicted;       /* made way for a newcomer in a full pool */
} gate_stats;

/* The pool's size (--max-handshakes); before any accept. */
void gate_init(int pool);
/* A socket just accepted, counted against ip (NULL: not counted by
 * address); in a full pool an older holder may be closed for it. Returns
 * 0 to serve it (it rides on wsi as lws's opaque user data until
 * gate_gone), or -1 to close it at once: out of memory. */
int gate_accept(struct lws *wsi, ipent *ip, int64_t now);
/* wsi's request headers are read (a request, or an upgrade): it leaves
 * the queue. Any later call for it does nothing. */
void gate_headers_done(struct lws *wsi);
/* The address wsi's socket counts against (sockets), or NULL. */
ipent *gate_ip(struct lws *wsi);
/* wsi's socket no longer counts against its address (its sockets); it
 * stays in the queue. */
void gate_uncount(struct lws *wsi);
/* wsi's end (WSI_DESTROY): out of the queue, uncounted, freed. */
void gate_gone(struct lws *wsi);
/* Closes the queue's silent sockets past GATE_FIRST_BYTE_MS; called often
 * (each keepalive tick). */
void gate_tick(int64_t now);
/* Sockets in the queue, and the counters. */
int gate_reading(void);
const gate_stats *gate_get_stats(void);

#endif
