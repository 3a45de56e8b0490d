/* iptable.h: per client address counters (connections, rooms created and
 * joins in the current minute, rooms held) in a chained hash table, for
 * the per-address limits. IPv6 addresses count by their /64. Networks
 * (an IPv4 /24, an IPv6 /48) have entries of their own, apart, for the
 * per-network budget of rooms held. */
#ifndef SRV_IPTABLE_H
#define SRV_IPTABLE_H

#include <stdint.h>

/* One address sends at most IP_CHAT_BURST chat lines in any window of
 * the rooms' chat (ROOMS_CHAT_WINDOW_MS, 10 s), over all its seats. */
#define IP_CHAT_BURST 20

/* The budgets of one client address a minute that the layers above
 * charge to its ipent: set once from the flags (server/config.c), owned
 * by the server's configuration, read through a pointer by each layer. */
typedef struct ip_budgets {
	int rooms_per_min;           /* --rooms-per-ip-per-min: rooms and events created */
	int joins_per_min;           /* --joins-per-ip-per-min: joins, event follows and
	                              * entries, POST /api/rooms */
	int64_t views_per_min;       /* --event-views-per-ip-per-min: bytes of event views
	                              * and exports (0: no limit) */
} ip_budgets;

typedef struct ipent {
	char addr[64];
	int conns;           /* open WebSocket connections */
	int sockets;         /* open TCP connections of any kind (net.c) */
	int handshakes;      /* of them, reading their request headers (gate.c) */
	int64_t room_window; /* start (ms) of the minute counted in rooms */
	int rooms;           /* rooms created in that minute */
	int64_t join_window; /* start (ms) of the minute counted in joins */
	int joins;           /* joins in that minute */
	int rooms_held;      /* rooms created from here that still exist */
	int events_held;     /* club events created from here that still exist */
	int64_t banned_until; /* ms: a flood came from here; new connections wait */
	int64_t chat_last;   /* ms of the last chat line counted (for ip_sweep) */
	uint32_t chat_at[IP_CHAT_BURST]; /* when its last chat lines were sent (ms
	                      * modulo 2^32; 0: none), a ring (see ring_allow) */
	uint8_t chat_next;   /* the oldest of chat_at */
	int64_t hist_window; /* start (ms) of the minute counted in hist_bytes */
	int64_t hist_bytes;  /* bytes of chat_history sent there in that minute */
	int64_t last_flood;  /* ms of the last flood from here, or 0 (net.c) */
	int64_t file_window; /* start (ms) of the minute counted in file_bytes */
	int64_t file_bytes;  /* bytes of large static files sent in it (net.c) */
	int64_t view_window; /* start (ms) of the minute counted in view_bytes */
	int64_t view_bytes;  /* bytes of club events' views sent there in it:
	                      * answers to event_watch and exports */
	int64_t push_window; /* start (ms) of the minute counted in pushes */
	int pushes;          /* Web Push subscribe messages in that minute */
	struct ipent *next;
} ipent;

/* The entry of addr (an IPv6 address: of its /64), created with zero
 * counts when missing; NULL when out of memory. Entries live until
 * ip_sweep() finds them idle. */
ipent *ip_get(const char *addr);
/* The entry of addr's network: an IPv4 address's /24 (an IPv4-mapped
 * IPv6 one's too), an IPv6 address's /48, anything else as it is; apart
 * from the addresses' entries (its key starts with "net "). Created,
 * lives and goes as ip_get's; NULL when out of memory. */
ipent *ip_net_get(const char *addr);
/* Counts a room created from e at now; returns 0, or -1 when e already
 * created `limit` rooms in the current minute. */
int ip_room_allow(ipent *e, int64_t now, int limit);
/* Counts a join from e at now; returns 0, or -1 when e already joined
 * `limit` times in the current minute. */
int ip_join_allow(ipent *e, int64_t now, int limit);
/* Counts a Web Push subscription from e at now; returns 0, or -1 when e
 * already subscribed `limit` times in the current minute. */
int ip_push_allow(ipent *e, int64_t now, int limit);
/* Counts n joins from e at now, all or none: 0, or -1 (nothing counted)
 * when fewer than n are left of `limit` in the current minute. */
int ip_join_allow_n(ipent *e, int64_t now, int limit, int n);
/* A ring of n times (ms modulo 2^32; 0: unused) whose oldest is at
 * *next: 0 and now noted when fewer than n of them lie within window ms
 * before now, else -1 (nothing noted). ring_undo() takes back the last
 * one noted. */
int ring_allow(uint32_t *ring, uint8_t *next, int n, int64_t now, int64_t window);
void ring_undo(uint32_t *ring, uint8_t *next, int n);
/* Counts a chat line from e at now against IP_CHAT_BURST in window ms:
 * 0, or -1 (nothing counted). */
int ip_chat_allow(ipent *e, int64_t now, int64_t window);
/* Bytes of chat_history e may still be sent in the current minute,
 * out of limit a minute. */
int64_t ip_history_left(ipent *e, int64_t now, int64_t limit);
/* Counts n bytes of chat_history sent to e (after ip_history_left). */
void ip_history_count(ipent *e, int64_t n);
/* Bytes of club events' views e may still be sent in the current minute,
 * out of limit a minute (0: no limit, INT64_MAX left). */
int64_t ip_view_left(ipent *e, int64_t now, int64_t limit);
/* Counts n bytes of views sent to e (after ip_view_left). */
void ip_view_count(ipent *e, int64_t n);
/* Frees entries with no connection and nothing counted in the last minute. */
void ip_sweep(int64_t now);
/* Frees every entry. */
void ip_free_all(void);

#endif
