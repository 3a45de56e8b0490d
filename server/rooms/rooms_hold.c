/* rooms_hold.c: several servers on one store (server/CLUSTER.md): joins
 * waiting for their room to be taken, relayed to the server that holds
 * it, rooms given up when wanted elsewhere, all dropped when the lease is
 * lost (rooms_shell.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/rooms/hold_wait.h"
#include "server/base/log.h"
#include "server/rooms/rooms_shell.h"

/* Joins waiting for their room to be taken from the database. */
static hw_take *takes;
static hold_join_fn *join_found;
static void (*lease_lost_fn)(void);

void hold_init(hold_join_fn *fn)
{
	join_found = fn;
}

static void taken(void *arg, int rc)
{
	hw_take *t = arg;
	room *r = room_find(t->id);

	hw_unlink(&takes, t);
	if (rc == STORE_TAKEN && !t->stale)
		log_event(LOG_INFO, "room_taken", "room=%s", t->id);
	for (hw_waiter *w; (w = hw_next(t)); free(w)) {
		if (!w->m)
			continue;
		if (t->stale)
			shell_io.error(w->m, PROTO_E_INTERNAL, "this server lost its hold on its rooms"
			         " while taking this one; join again");
		else if (r)
			join_found(w->m, r, &w->msg);
		else if (rc == STORE_ELSEWHERE)
			; /* relayed (relay_to) */
		else if (rc == STORE_NONE || rc == STORE_TAKEN) /* TAKEN: not restorable
			                                          * (restore_failed) */
			shell_io.error(w->m, PROTO_E_NO_ROOM, "no room has that id (or it expired)");
		else
			shell_io.error(w->m, PROTO_E_INTERNAL, "the room cannot be taken over now (the"
			         " store fails, or another server still holds it); try again");
	}
	free(t);
}

/* A room taken: into the table (the take's arg is not a count), unless
 * the lease was lost since the take was asked (it would be held by the
 * former incarnation: every write fenced). */
static void restore_taken(void *arg, const room_rec *rec, const uint8_t *pits, int n)
{
	const hw_take *t = arg;

	if (!t || !t->stale)
		room_restore_one(NULL, rec, pits, n);
}

/* The store found t's room held by another live server, which takes
 * relayed connections at addr: its waiters are relayed there rather than
 * waiting for it to give the room up (a player of the room connected
 * there keeps it there; server/CLUSTER.md, "Split routing"). */
static int relay_to(void *arg, const char *addr, const char *key, int lease_ms)
{
	return hw_relay(arg, &shell_io, addr, key, lease_ms);
}

/* m waits for room msg->room, which this server does not hold, to be
 * taken from the store (or relayed to its holder) until deadline (ms). */
void hold_wait(room_member *m, const proto_msg *msg, int64_t deadline)
{
	hw_take *t = hw_add(&takes, msg->room, m, msg, deadline, &shell_io);

	if (t)
		shell_store->ops->take(shell_store, t->id, restore_taken, taken, relay_to, t);
}

void rooms_relay_failed(room_member *m, const proto_msg *join, int64_t deadline)
{
	if (m->room || m->waiting)
		return;
	if (now_ms() >= deadline) {
		shell_io.error(m, PROTO_E_INTERNAL, "the server that holds the room cannot be reached"
		         " now; join again");
		return;
	}
	hold_wait(m, join, deadline);
}

/* Closes r's members with 4002 "moved" (they come back through the
 * routing to the server that holds it next) and frees it. */
static void room_moved(room *r)
{
	while (r->members) {
		room_member *m = r->members;

		member_detach(m);
		shell_io.close(m, ROOMS_CLOSE_MOVED, "moved");
	}
	room_free(r);
}

/* The lease is lost: no room is this server's any more. Writes in flight
 * are fenced and fail; what they would have shown is dropped with them. */
void hold_lost(void *arg)
{
	int n = rooms_count();

	(void)arg;
	rooms_drop_each(room_moved);
	hw_stale(takes);
	batch_forget();
	log_event(LOG_WARN, "rooms_dropped", "rooms=%d reason=lease_lost", n);
	if (lease_lost_fn)
		lease_lost_fn();
}

void rooms_on_lease_lost(void (*fn)(void))
{
	lease_lost_fn = fn;
}

int rooms_store_ok(void)
{
	return !shell_stopping && shell_stats.store_ok;
}

/* 1 when a player of r is connected here directly (not relayed). */
static int direct_player(const room *r)
{
	for (int i = 0; i < 2; i++)
		if (r->seat_member[i] && !r->seat_member[i]->relay_in)
			return 1;
	return 0;
}

/* Another server wants room id: unless a player of it is connected here
 * directly, given up in the open batch, its members sent there. Released even when it is not in the table (a release that
 * was lost with its batch leaves the room held here). */
void hold_wanted(void *arg, const char *id)
{
	room *r = room_find(id);

	(void)arg;
	if (shell_stopping || !shell_stats.store_ok)
		return;
	if (r && direct_player(r)) {
		/* Kept: the other server relays its members here. */
		log_event(LOG_DEBUG, "room_kept", "room=%s", id);
		return;
	}
	if (shell_store->ops->release(shell_store, id) < 0)
		return;
	if (r) {
		log_event(LOG_INFO, "room_released", "room=%s members=%d", id,
		          (int)(r->rr.present[0] + r->rr.present[1] + r->rr.spectators));
		shell_store->rooms_released++;
		room_moved(r);
	}
}

/* A player of r left: when none is connected here directly any more and
 * a member is relayed here by another server, r is given up as if that
 * server wanted it (it did, when it relayed), its members sent there: the
 * room goes where the routing sends its players. May free r. */
void hold_player_left(room *r)
{
	int relayed = 0;

	if (!shell_store->ops->release || direct_player(r))
		return;
	for (room_member *m = r->members; m; m = m->next)
		relayed |= m->relay_in;
	if (relayed)
		hold_wanted(NULL, r->rr.rec.id);
}

void hold_idle_taken(void *arg, int rc)
{
	(void)arg;
	if (rc > 0) {
		shell_store->rooms_taken += (uint64_t)rc;
		log_event(LOG_INFO, "rooms_taken_idle", "rooms=%d", rc);
	}
}

void hold_forget_member(room_member *m)
{
	hw_forget(takes, m);
}
