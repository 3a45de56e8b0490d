/* room.h: private game rooms: the table of rooms by id, the actions of
 * PROTOCOL.md checked against the engine, persistence through the store,
 * state broadcast, abandonment timers and expiry. */
#ifndef SRV_ROOM_H
#define SRV_ROOM_H

#include <stdint.h>

#include "engine/oware.h"
#include "protocol/message.h"
#include "server/srv.h"
#include "server/store.h"

/* A room. Owned by the room table from creation (or restore) until it
 * expires or the server stops; connections point to it while joined. */
typedef struct room {
	store_room rec;               /* what the store keeps */
	struct room *hnext;           /* hash chain */
	ow_game game;
	uint8_t *moves;               /* the current game's pits, nmoves of them */
	int nmoves, capmoves;
	ow_move_info last;
	int has_last;
	conn *seat_conn[2];           /* each seat's live connection, or NULL */
	conn *conns;                  /* every connection in the room */
	unsigned nspect;
	int absent_side;              /* on turn and disconnected, or -1 */
	int64_t absent_since;         /* ms, when absent_side >= 0 */
	lws_sorted_usec_list_t sul;   /* fires when absent_side becomes claimable */
} room;

/* Sets up the (growing) table of rooms; max is the --max-rooms limit,
 * checked by create. Returns 0 or -1 (out of memory). */
int room_init(int max);
/* Loads every stored room, replaying its moves through the engine. Returns
 * the number of rooms restored or -1. */
int room_restore_all(void);
/* Frees every room (connections must be gone or about to be). */
void room_free_all(void);
/* Rooms held now. */
int room_count(void);

/* Acts on a parsed message from c: answers with welcome/state/error. */
void room_handle(conn *c, const proto_msg *m);
/* c is closing: leaves its room (presence broadcast). */
void room_leave(conn *c);
/* Drops rooms idle past the expiry times that have no connection. */
void room_expire(void);

#endif
