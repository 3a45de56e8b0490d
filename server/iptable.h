/* iptable.h: per client address counters (connections, rooms created and
 * joins in the current minute, rooms held) in a chained hash table, for
 * the per-address limits. IPv6 addresses count by their /64. */
#ifndef SRV_IPTABLE_H
#define SRV_IPTABLE_H

#include <stdint.h>

typedef struct ipent {
	char addr[64];
	int conns;           /* open WebSocket connections */
	int sockets;         /* open TCP connections of any kind (net.c) */
	int64_t room_window; /* start (ms) of the minute counted in rooms */
	int rooms;           /* rooms created in that minute */
	int64_t join_window; /* start (ms) of the minute counted in joins */
	int joins;           /* joins in that minute */
	int rooms_held;      /* rooms created from here that still exist */
	int64_t banned_until; /* ms: a flood came from here; new connections wait */
	int64_t last_flood;  /* ms of the last flood from here, or 0 (net.c) */
	int64_t file_window; /* start (ms) of the minute counted in file_bytes */
	int64_t file_bytes;  /* bytes of large static files sent in it (net.c) */
	struct ipent *next;
} ipent;

/* The entry of addr (an IPv6 address: of its /64), created with zero
 * counts when missing; NULL when out of memory. Entries live until
 * ip_sweep() finds them idle. */
ipent *ip_get(const char *addr);
/* Counts a room created from e at now; returns 0, or -1 when e already
 * created `limit` rooms in the current minute. */
int ip_room_allow(ipent *e, int64_t now, int limit);
/* Counts a join from e at now; returns 0, or -1 when e already joined
 * `limit` times in the current minute. */
int ip_join_allow(ipent *e, int64_t now, int limit);
/* Counts n joins from e at now, all or none: 0, or -1 (nothing counted)
 * when fewer than n are left of `limit` in the current minute. */
int ip_join_allow_n(ipent *e, int64_t now, int limit, int n);
/* Frees entries with no connection and nothing counted in the last minute. */
void ip_sweep(int64_t now);
/* Frees every entry. */
void ip_free_all(void);

#endif
