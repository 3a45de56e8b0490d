/* iptable.c: the per-address counters behind --max-conns-per-ip and
 * --rooms-per-ip-per-min, and the per-network ones behind
 * --max-rooms-per-net. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "server/base/iptable.h"

#define IP_BUCKETS 4096
#define MINUTE_MS 60000

static ipent *buckets[IP_BUCKETS];

static unsigned hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % IP_BUCKETS;
}

/* The key an address is counted under: an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64), an IPv4-mapped one as IPv4,
 * anything else as it is. */
static void ip_key(const char *addr, char *out, size_t outlen)
{
	struct in6_addr a6;
	char text[INET6_ADDRSTRLEN];

	if (strchr(addr, ':') && inet_pton(AF_INET6, addr, &a6) == 1) {
		static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

		if (!memcmp(a6.s6_addr, mapped, sizeof mapped)) {
			inet_ntop(AF_INET, a6.s6_addr + 12, text, sizeof text);
			snprintf(out, outlen, "%s", text);
			return;
		}
		memset(a6.s6_addr + 8, 0, 8);
		inet_ntop(AF_INET6, &a6, text, sizeof text);
		snprintf(out, outlen, "%s/64", text);
		return;
	}
	snprintf(out, outlen, "%s", addr);
}

/* The key of addr's network: "net " and its /24 (IPv4, IPv4-mapped
 * IPv6) or /48 (IPv6), or "net " and addr when it is neither. */
static void net_key(const char *addr, char *out, size_t outlen)
{
	struct in6_addr a6;
	struct in_addr a4;
	char text[INET6_ADDRSTRLEN];
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (strchr(addr, ':') && inet_pton(AF_INET6, addr, &a6) == 1) {
		if (!memcmp(a6.s6_addr, mapped, sizeof mapped)) {
			memcpy(&a4, a6.s6_addr + 12, 4);
		} else {
			memset(a6.s6_addr + 6, 0, 10);
			inet_ntop(AF_INET6, &a6, text, sizeof text);
			snprintf(out, outlen, "net %s/48", text);
			return;
		}
	} else if (inet_pton(AF_INET, addr, &a4) != 1) {
		snprintf(out, outlen, "net %s", addr);
		return;
	}
	((uint8_t *)&a4)[3] = 0;
	inet_ntop(AF_INET, &a4, text, sizeof text);
	snprintf(out, outlen, "net %s/24", text);
}

/* The entry keyed addr, created with zero counts when missing. */
static ipent *entry(const char *addr)
{
	unsigned b;
	ipent *e;

	b = hash(addr);

	for (e = buckets[b]; e; e = e->next)
		if (!strcmp(e->addr, addr))
			return e;
	e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	snprintf(e->addr, sizeof e->addr, "%s", addr);
	e->next = buckets[b];
	buckets[b] = e;
	return e;
}

ipent *ip_get(const char *addr_text)
{
	char addr[sizeof ((ipent *)0)->addr];

	ip_key(addr_text, addr, sizeof addr);
	return entry(addr);
}

ipent *ip_net_get(const char *addr_text)
{
	char addr[sizeof ((ipent *)0)->addr];

	net_key(addr_text, addr, sizeof addr);
	return entry(addr);
}

/* Counts one event in a window of a minute: 0, or -1 over limit. */
static int window_allow(int64_t *window, int *count, int64_t now, int limit)
{
	if (now - *window >= MINUTE_MS) {
		*window = now;
		*count = 0;
	}
	if (*count >= limit)
		return -1;
	(*count)++;
	return 0;
}

int ip_room_allow(ipent *e, int64_t now, int limit)
{
	return window_allow(&e->room_window, &e->rooms, now, limit);
}

int ip_join_allow(ipent *e, int64_t now, int limit)
{
	return window_allow(&e->join_window, &e->joins, now, limit);
}

int ip_push_allow(ipent *e, int64_t now, int limit)
{
	return window_allow(&e->push_window, &e->pushes, now, limit);
}

int ip_join_allow_n(ipent *e, int64_t now, int limit, int n)
{
	if (now - e->join_window >= MINUTE_MS) {
		e->join_window = now;
		e->joins = 0;
	}
	if (e->joins + n > limit)
		return -1;
	e->joins += n;
	return 0;
}

int ring_allow(uint32_t *ring, uint8_t *next, int n, int64_t now, int64_t window)
{
	uint32_t *oldest = &ring[*next], t = (uint32_t)now;

	/* Unsigned differences stay right across the wrap of 2^32 ms. */
	if (*oldest && t - *oldest < (uint32_t)window)
		return -1;
	*oldest = t ? t : 1;
	*next = (uint8_t)((*next + 1) % n);
	return 0;
}

void ring_undo(uint32_t *ring, uint8_t *next, int n)
{
	*next = (uint8_t)((*next + n - 1) % n);
	ring[*next] = 0;
}

int ip_chat_allow(ipent *e, int64_t now, int64_t window)
{
	if (ring_allow(e->chat_at, &e->chat_next, IP_CHAT_BURST, now, window) < 0)
		return -1;
	e->chat_last = now;
	return 0;
}

int64_t ip_history_left(ipent *e, int64_t now, int64_t limit)
{
	if (now - e->hist_window >= MINUTE_MS) {
		e->hist_window = now;
		e->hist_bytes = 0;
	}
	return e->hist_bytes < limit ? limit - e->hist_bytes : 0;
}

void ip_history_count(ipent *e, int64_t n)
{
	e->hist_bytes += n;
}

int64_t ip_view_left(ipent *e, int64_t now, int64_t limit)
{
	if (limit <= 0)
		return INT64_MAX;
	if (now - e->view_window >= MINUTE_MS) {
		e->view_window = now;
		e->view_bytes = 0;
	}
	return e->view_bytes < limit ? limit - e->view_bytes : 0;
}

void ip_view_count(ipent *e, int64_t n)
{
	e->view_bytes += n;
}

void ip_sweep(int64_t now)
{
	for (int b = 0; b < IP_BUCKETS; b++) {
		ipent **pp = &buckets[b];

		while (*pp) {
			ipent *e = *pp;

			if (e->conns == 0 && e->sockets == 0 && e->rooms_held == 0 && e->events_held == 0 && now >= e->banned_until && now - e->room_window >= MINUTE_MS &&
			    now - e->join_window >= MINUTE_MS && now - e->chat_last >= MINUTE_MS &&
			    now - e->hist_window >= MINUTE_MS && now - e->last_flood >= MINUTE_MS &&
			    now - e->view_window >= MINUTE_MS && now - e->push_window >= MINUTE_MS) {
				*pp = e->next;
				free(e);
			} else
				pp = &e->next;
		}
	}
}

void ip_free_all(void)
{
	for (int b = 0; b < IP_BUCKETS; b++)
		while (buckets[b]) {
			ipent *e = buckets[b];

			buckets[b] = e->next;
			free(e);
		}
}
