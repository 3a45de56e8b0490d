/* iptable.c: the per-address counters behind --max-conns-per-ip and
 * --rooms-per-ip-per-min. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/iptable.h"

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

ipent *ip_get(const char *addr)
{
	unsigned b = hash(addr);
	ipent *e;

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

int ip_room_allow(ipent *e, int64_t now, int limit)
{
	if (now - e->room_window >= MINUTE_MS) {
		e->room_window = now;
		e->rooms = 0;
	}
	if (e->rooms >= limit)
		return -1;
	e->rooms++;
	return 0;
}

void ip_sweep(int64_t now)
{
	for (int b = 0; b < IP_BUCKETS; b++) {
		ipent **pp = &buckets[b];

		while (*pp) {
			ipent *e = *pp;

			if (e->conns == 0 && now - e->room_window >= MINUTE_MS) {
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
