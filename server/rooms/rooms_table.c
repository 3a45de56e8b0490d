/* rooms_table.c: the bottom of the rooms' shell: the table of rooms by
 * id (find, insert, walk, free), a room's members detached, rooms read
 * back from the store, and the state the shell's files share. It calls
 * nothing of rooms.c, rooms_batch.c or rooms_hold.c but through the hooks
 * rooms_init hands it (rooms_shell.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/rooms/rooms_shell.h"

const rules_limits *shell_lim;
store *shell_store;
rooms_io shell_io;
rooms_stats shell_stats;
int shell_stopping;

/* Chained buckets, a power of two of them, grown with the rooms. */
static room **table;
static unsigned nbuckets;
static int nrooms;
static table_hooks hooks;

static unsigned id_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & (nbuckets - 1);
}

/* Doubles the buckets once there are more rooms than buckets, so chains
 * stay short and memory follows the rooms actually held. On allocation
 * failure the table keeps its size (longer chains, still correct). */
static void grow(void)
{
	unsigned old = nbuckets;
	room **t = calloc((size_t)old * 2, sizeof *t);

	if (!t)
		return;
	nbuckets = old * 2;
	for (unsigned b = 0; b < old; b++)
		while (table[b]) {
			room *r = table[b];
			unsigned nb = id_hash(r->rr.rec.id);

			table[b] = r->hnext;
			r->hnext = t[nb];
			t[nb] = r;
		}
	free(table);
	table = t;
}

room *room_find(const char *id)
{
	for (room *r = table[id_hash(id)]; r; r = r->hnext)
		if (!strcmp(r->rr.rec.id, id))
			return r;
	return NULL;
}

void room_insert(room *r)
{
	unsigned b;

	if ((unsigned)nrooms >= nbuckets && nbuckets < (1u << 24))
		grow();
	b = id_hash(r->rr.rec.id);
	r->hnext = table[b];
	table[b] = r;
	nrooms++;
}
int table_init(const table_hooks *h)
{
	hooks = *h;
	nbuckets = 1024;
	nrooms = 0;
	table = calloc(nbuckets, sizeof *table);
	return table ? 0 : -1;
}

void table_free(void)
{
	for (unsigned b = 0; table && b < nbuckets; b++)
		while (table[b])
			room_free(table[b]);
	free(table);
	table = NULL;
}

unsigned table_buckets(void)
{
	return nbuckets;
}

room *table_bucket(unsigned b)
{
	return table[b];
}

int rooms_count(void)
{
	return nrooms;
}

void member_detach(room_member *m)
{
	room *r = m->room;

	if (!r)
		return;
	if (m->prev)
		m->prev->next = m->next;
	else
		r->members = m->next;
	if (m->next)
		m->next->prev = m->prev;
	if (m->seat >= 0 && r->seat_member[m->seat] == m)
		r->seat_member[m->seat] = NULL;
	m->room = NULL;
	m->next = m->prev = NULL;
}

/* The one teardown of a room: out of the table, its members detached,
 * out of the shell's lists (hooks.removed), freed. */
void room_free(room *r)
{
	room **pp = &table[id_hash(r->rr.rec.id)];

	while (*pp && *pp != r)
		pp = &(*pp)->hnext;
	if (*pp) {
		*pp = r->hnext;
		nrooms--;
	}
	while (r->members)
		member_detach(r->members);
	if (r->owner)
		r->owner->rooms_held--;
	if (r->owner_net)
		r->owner_net->rooms_held--;
	hooks.removed(r);
	rules_room_free(&r->rr);
	free(r);
}

void rooms_drop_each(void (*fn)(room *r))
{
	for (unsigned b = 0; b < nbuckets; b++)
		while (table[b])
			fn(table[b]);
}

void room_restore_one(void *arg, const room_rec *rec, const uint8_t *pits, int n)
{
	room *r;
	int *count = arg, rc, bad;

	if (room_find(rec->id))
		return;
	r = calloc(1, sizeof *r);
	if (!r) {
		log_event(LOG_ERROR, "restore_failed", "room=%s error=\"out of memory\"", rec->id);
		return;
	}
	rc = rules_restore(&r->rr, rec, pits, n, now_ms(), &bad);
	if (rc < 0) {
		free(r);
		log_event(LOG_ERROR, "restore_failed", "room=%s error=\"%s\"", rec->id,
		          rc == RULES_E_NOMEM ? "out of memory" : "unknown kind");
		return;
	}
	if (bad >= 0)
		log_event(LOG_ERROR, "restore_bad_move", "room=%s ply=%d", rec->id, bad);
	r->deadline = -1;
	room_insert(r);
	hooks.added(r);
	if (count)
		(*count)++;
}

int room_seats_connected(const rules_room *rr)
{
	return (rr->present[0] ? 1 : 0) | (rr->present[1] ? 2 : 0);
}
