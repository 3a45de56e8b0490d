/* hold_wait.h: several servers (server/CLUSTER.md): messages waiting for
 * what another server may hold (a room, a club event) to be taken from
 * the store, one take per id, each waiting message with its deadline; or
 * relayed to the server that holds it. rooms_hold.c and events_hold.c
 * keep one list each. A member that leaves meanwhile is cleared from its
 * waiter (m NULL). */
#ifndef SRV_HOLD_WAIT_H
#define SRV_HOLD_WAIT_H

#include <stdint.h>

#include "server/rooms/rooms.h"

typedef struct hw_waiter {
	struct hw_waiter *next;
	room_member *m;
	int64_t deadline;       /* ms: relayed or taken again until then */
	proto_msg msg;
} hw_waiter;

typedef struct hw_take {
	struct hw_take *next;
	char id[PROTO_ROOM_MAX + 1];
	int stale;              /* the lease was lost meanwhile: its answer is not ours */
	hw_waiter *waiters;
} hw_take;

/* m's msg waits in *list for id's take, until deadline (ms); m->waiting
 * is set. Returns the take when it is new (the caller starts it in the
 * store), NULL when it was under way; on allocation failure m gets
 * `internal` through io and NULL is returned. */
hw_take *hw_add(hw_take **list, const char *id, room_member *m, const proto_msg *msg,
                int64_t deadline, const rooms_io *io);
/* Takes t out of *list (its answer came); the caller goes through its
 * waiters (hw_next) and frees t. */
void hw_unlink(hw_take **list, hw_take *t);
/* t's next waiter, taken off it (its member's waiting cleared), or NULL;
 * the caller frees it. */
hw_waiter *hw_next(hw_take *t);
/* Relays every waiter of t to the server at addr showing key (io's
 * relay): 1, or 0 when io cannot relay or addr or key is empty. */
int hw_relay(hw_take *t, const rooms_io *io, const char *addr, const char *key, int lease_ms);
/* Every take of *list answers for a lost lease. */
void hw_stale(hw_take *list);
/* m's connection is going: cleared from every waiter. */
void hw_forget(hw_take *list, const room_member *m);

#endif
