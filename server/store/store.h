/* store.h: what the rooms need of a store, and the two stores: SQLite
 * (embedded, the default) and PostgreSQL (several servers on one database).
 *
 * Writes made during one pass of the event loop form one batch (one
 * transaction); flush() starts its commit at the end of the pass, and a
 * message that shows a write leaves only once that commit is confirmed,
 * so a move is durable before it is broadcast. A store may answer later
 * (PostgreSQL: the commit and reads travel on the event loop's socket,
 * pipelined; batch k+1 may be sent before batch k is answered) or at once
 * (SQLite: every callback runs before the call returns). Callbacks run in
 * the order their calls were made. */
#ifndef SRV_STORE_H
#define SRV_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "server/rules/rules.h"

typedef struct store store;

/* Called once per room loaded, with the moves of its current game in
 * order (pits, n of them; the array lives for the call; NULL when n is 0). */
typedef void store_load_fn(void *arg, const room_rec *r, const uint8_t *pits, int n);

/* Like store_load_fn, for a room another server may hold (peek): seats
 * has bit 1 << side for each seat with a connection on its holder. */
typedef void store_peek_fn(void *arg, const room_rec *r, const uint8_t *pits, int n, int seats);

/* A store keeps this many chat lines of a room, its last ones, and of
 * those only the last whose texts take STORE_CHAT_BYTES bytes (UTF-8)
 * at most together. */
#define STORE_CHAT_KEEP 100
#define STORE_CHAT_BYTES 16384

/* One chat line of a room, as stored. */
typedef struct store_chat {
	uint64_t id;                          /* the room's count of lines, from 1 */
	int64_t at;                           /* ms since the epoch */
	int side;                             /* the sender's seat: OW_SOUTH or OW_NORTH */
	char name[PROTO_NAME_BYTES + 1];      /* the sender's name then, "" for none */
	char text[PROTO_CHAT_BYTES + 1];
} store_chat;

/* Called once per chat line loaded (c lives for the call). */
typedef void store_chat_fn(void *arg, const store_chat *c);

/* The end of an asynchronous call: rc as the call documents. */
typedef void store_done_fn(void *arg, int rc);

/* What a store shared by several servers tells the rooms (PostgreSQL;
 * server/CLUSTER.md). Set with set_events; calls come from the loop. */
typedef struct store_events {
	/* This server's lease ran out: another may have taken any of its
	 * rooms, whose writes now fail. Drop them all (their members come
	 * back through the routing and take them again). */
	void (*lost)(void *arg);
	/* Another server wants room id (a client of its joined it): give it
	 * up (release) if it is held here. */
	void (*wanted)(void *arg, const char *id);
	/* The same for club event id. */
	void (*ev_wanted)(void *arg, const char *id);
	/* A game of a board of event id ended on another server (ev_board). */
	void (*ev_board)(void *arg, const char *id);
	/* The server holding the event of board room id recorded a result
	 * for that board (board_end): a game still on in the room, if it is
	 * held here, ends with it. */
	void (*board_end)(void *arg, const char *id);
	/* The store's connection is back after it was lost: what was told
	 * meanwhile was not heard (a room or event wanted is asked for
	 * again by its wanter; ev_board and board_end are not). */
	void (*resumed)(void *arg);
	void *arg;
} store_events;

/* Takes for take(): the room read (fn called), none, or held elsewhere. */
#define STORE_TAKEN 1
#define STORE_NONE 0
#define STORE_ELSEWHERE 2
/* flush(): the batch was refused for a room another server holds. */
#define STORE_FENCED (-2)

/* take(): the room is held by another live server, which takes relayed
 * connections at addr ("host:port") showing key, and whose lease runs
 * out in lease_ms (a holder that does not renew it by then is dead or
 * hung, and the room can be taken). 1: the caller relays its joins there
 * (the take ends, done gets STORE_ELSEWHERE); 0: the take asks again (the
 * holder was asked to give the room up). */
typedef int store_where_fn(void *arg, const char *addr, const char *key, int lease_ms);

/* Club events (issue 41, server/events/events.c): a store keeps each event as
 * its settings and the log of its changes, as texts the events shell
 * writes and reads (the store does not look into them). */
#define STORE_EVENT_ID_LEN 36            /* a UUID in text */

/* An event as stored: its row, then its changes in seq order. */
typedef struct store_event {
	char id[STORE_EVENT_ID_LEN + 1];
	int64_t created, updated;            /* wall-clock seconds */
	uint8_t org_tok[SHA256_LEN];         /* SHA-256 of the organiser's token */
	const char *settings;                /* the settings' text (NUL-ended) */
} store_event;

/* One change of an event's log. */
typedef struct store_event_change {
	int64_t seq;                         /* 1, 2, ... within the event */
	const char *body;                    /* the change's text (NUL-ended) */
	int has_tok;                         /* a join: the new player's token */
	uint8_t tok[SHA256_LEN];             /* its SHA-256 */
} store_event_change;

/* Called once per event loaded (e lives for the call), then ch once per
 * change of it in seq order (each lives for its call). */
typedef void store_event_fn(void *arg, const store_event *e);
typedef void store_event_change_fn(void *arg, const char *id, const store_event_change *c);

/* Web Push (issue 53): a seat's subscription, kept with its room until
 * the room's game ends (or the room goes). The endpoint and the keys are
 * never shown to anyone: only the server sends to them. */
#define STORE_PUSH_URL_MAX 2048    /* WEBPUSH_URL_MAX */
#define STORE_PUSH_KEY_MAX 96      /* a key in base64url (p256dh: 87, auth: 22) */
#define STORE_PUSH_PER_SEAT 4      /* a seat keeps its newest 4 (4 devices) */
typedef struct store_push_sub {
	char room[ROOM_ID_LEN + 1];
	int side;                            /* OW_SOUTH or OW_NORTH */
	unsigned game;                       /* the room's game_number it was made in */
	int64_t created;                     /* wall-clock seconds */
	char endpoint[STORE_PUSH_URL_MAX + 1];
	char p256dh[STORE_PUSH_KEY_MAX + 1]; /* base64url, as the browser gave them */
	char auth[STORE_PUSH_KEY_MAX + 1];
} store_push_sub;

/* Called once per subscription read (p lives for the call). */
typedef void store_push_fn(void *arg, const store_push_sub *p);

/* The server's key pair for Web Push (VAPID) as webpush_key_write's
 * text: at most this many bytes. */
#define STORE_PUSH_KEY_TEXT 256

typedef struct store_ops {
	/* Each write joins the open batch (opening one if needed) and is
	 * atomic within it: 0, or -1 (logged) with nothing of it written.
	 * A failure may also have lost the batch's earlier writes: then the
	 * next flush fails. */
	int (*insert)(store *s, const room_rec *r);
	int (*update)(store *s, const room_rec *r);
	/* Updates r and sets the moves of its current game to pits[0..n). */
	int (*update_moves)(store *s, const room_rec *r, const uint8_t *pits, int n);
	int (*remove)(store *s, const char *id);
	/* 1 when writes wait for a flush. */
	int (*pending)(const store *s);
	/* Starts the commit of the open batch; done gets 0 once it is
	 * committed, or -1 when it is lost (rolled back: nothing of it is
	 * kept), or STORE_FENCED when it is lost because a room written in it
	 * is held by another server (its id in the store's `fenced`); the
	 * store itself works. The store takes writes again at once (a new
	 * batch). */
	void (*flush)(store *s, store_done_fn *done, void *arg);
	/* Commits a small write of its own: 0 when the store can write again
	 * after a failure, -1 when it still cannot (quietly: no log line). */
	int (*probe)(store *s);
	/* Flushes, then gives free pages back after deletions. */
	void (*reclaim)(store *s);
	/* Every room (fn once each), at start-up, before the server takes
	 * connections (it may wait for the database): the number loaded, or -1. */
	int (*load)(store *s, store_load_fn *fn, void *arg);
	/* Reads the room with that id, writes of the open batch included: fn
	 * for it if there is one, then done with 1 (found), 0 (none) or -1. */
	void (*load_room)(store *s, const char *id, store_load_fn *fn, store_done_fn *done,
	                  void *arg);
	/* Closes the store, committing an open batch (NULL is fine). */
	void (*close)(store *s);
	/* Chat (never logged). chat_add appends c to the chat of room id (a
	 * room the store holds) in the open batch, as the writes above, and
	 * sets c->id to the room's next id: one more than its last line's
	 * (1 for the first). Only the last STORE_CHAT_KEEP lines of a room are
	 * kept, and of those only the last whose texts take STORE_CHAT_BYTES
	 * at most; remove() deletes them with the room. 0, or -1. */
	int (*chat_add)(store *s, const char *id, store_chat *c);
	/* Reads the last max (<= STORE_CHAT_KEEP) lines of room id, oldest
	 * first, writes of the open batch included: fn once each, then done
	 * with their number, or -1. The fn calls of one read and its done come
	 * together, never mixed with another read's. */
	void (*chat_recent)(store *s, const char *id, int max, store_chat_fn *fn,
	                    store_done_fn *done, void *arg);
	/* 1 while the database answers (for /healthz and /metrics). */
	int (*reachable)(const store *s);
	/* Several servers (NULL in a store of one: every room is read at
	 * start). Makes room id this server's and reads it: fn, then done
	 * with STORE_TAKEN; STORE_NONE when there is no such room;
	 * STORE_ELSEWHERE when where (may be NULL) chose to relay to the live
	 * server that holds it; -1 when it cannot now (the store fails, or
	 * another live server still holds it after being asked to give it up
	 * for a few seconds). */
	void (*take)(store *s, const char *id, store_load_fn *fn, store_done_fn *done,
	             store_where_fn *where, void *arg);
	/* Takes up to 100 rooms that no live server holds and that were last
	 * changed before `before` (wall-clock seconds), so that this server's
	 * expiry sees them: fn for each, then done with their number, or -1. */
	void (*take_idle)(store *s, int64_t before, store_load_fn *fn, store_done_fn *done, void *arg);
	/* Gives room id up in the open batch (another server may take it once
	 * that commits): 0 or -1. */
	int (*release)(store *s, const char *id);
	/* Fields left NULL keep what an earlier call set. */
	void (*set_events)(store *s, const store_events *ev);
	/* Several servers (NULL in a store of one). Reads room id as stored,
	 * whichever server holds it, without taking it: fn with the seats
	 * connected on its holder (none when the holder's lease ran out),
	 * then done with 1 (found), 0 (none) or -1. */
	void (*peek)(store *s, const char *id, store_peek_fn *fn, store_done_fn *done, void *arg);
	/* Several servers (NULL in a store of one). Notes in the open batch
	 * which seats of room id, held here, have a connection (bit
	 * 1 << side), for peek: 0 or -1. */
	int (*presence)(store *s, const char *id, int seats);
	/* Several servers (NULL in a store of one). Tells the others that
	 * this server takes relayed connections at addr ("host:port"),
	 * showing relay_key (below). */
	void (*set_relay)(store *s, const char *addr);
	/* Club events. ev_insert adds event e (its id is new) and
	 * ev_append change c to event id's log, both in the open batch as the
	 * writes above (atomic with them: a room's last move and the result
	 * it gives its event commit together); seq numbers are unique within
	 * an event, and ev_append also sets the event's updated time (the
	 * wall-clock seconds of its last change). ev_remove deletes an event
	 * with its log. Each 0, or -1 (logged) with nothing of it written
	 * (PostgreSQL: a write the database refuses, such as a seq written
	 * twice, makes the whole batch fail at its flush). */
	int (*ev_insert)(store *s, const store_event *e);
	int (*ev_append)(store *s, const char *id, int64_t updated, const store_event_change *c);
	int (*ev_remove)(store *s, const char *id);
	/* Reads events with their logs (writes of the open batch included):
	 * every event when id is NULL (at start-up, like load: the calls are
	 * made before the return, which is the number of events or -1), else
	 * the one event id (fn and ch for it if there is one, then done with 1,
	 * 0 when there is none, or -1: at once with SQLite, later from the
	 * loop with PostgreSQL; the return is then 0). With id NULL done is
	 * never called. Several servers: only the events this server holds
	 * (at start-up, those of this node's former incarnations become its
	 * own first, as their rooms do). */
	int (*ev_load)(store *s, const char *id, store_event_fn *fn, store_event_change_fn *ch,
	               store_done_fn *done, void *arg);
	/* Several servers (NULL in a store of one). ev_take makes event id
	 * this server's and reads it as ev_load does: fn and ch, then done with
	 * STORE_TAKEN; STORE_NONE when there is no such event; STORE_ELSEWHERE
	 * when where chose to relay to the live server that holds it (as for
	 * a room's take); -1 when it
	 * cannot now (the store fails, or another live server still holds it
	 * after being asked to give it up, every 250 ms for the lease time
	 * plus 3 s). ev_release gives event id up in the open batch. ev_board
	 * tells, in the open batch, the server holding event id that a game
	 * of one of its boards ended here (its ev_board, at the commit). */
	void (*ev_take)(store *s, const char *id, store_event_fn *fn, store_event_change_fn *ch,
	                store_done_fn *done, store_where_fn *where, void *arg);
	int (*ev_release)(store *s, const char *id);
	int (*ev_board)(store *s, const char *id);
	/* Several servers (NULL in a store of one). Tells, in the open
	 * batch, the server holding board room id (if one does) that the
	 * room's event recorded a result for its board (its board_end, at
	 * the commit; nothing when the batch is lost): 0 or -1. */
	int (*board_end)(store *s, const char *id);
	/* Several servers (NULL in a store of one). Reads event id as stored,
	 * whichever server holds it, without taking it: as ev_load with an id,
	 * answered from the loop. */
	void (*ev_peek)(store *s, const char *id, store_event_fn *fn, store_event_change_fn *ch,
	                store_done_fn *done, void *arg);
	/* Several servers (NULL in a store of one). Takes up to 100 events
	 * that no live server holds, last changed before `before` (wall-clock
	 * seconds), and reads them (fn, ch), so that this server's expiry sees
	 * them: done with their number, or -1. */
	void (*ev_take_idle)(store *s, int64_t before, store_event_fn *fn,
	                     store_event_change_fn *ch, store_done_fn *done, void *arg);
	/* Web Push (issue 53). push_add keeps p in the open batch (a
	 * subscription of the same room and endpoint is replaced), and of its
	 * seat's only the newest STORE_PUSH_PER_SEAT; push_del deletes, in
	 * the open batch, room id's subscription of endpoint on side, or
	 * with endpoint NULL every one of side (-1: of both sides). Each 0,
	 * or -1 (logged). remove() deletes a room's with it. */
	int (*push_add)(store *s, const store_push_sub *p);
	int (*push_del)(store *s, const char *id, int side, const char *endpoint);
	/* Reads room id's subscriptions (writes of the open batch included):
	 * fn once each, then done with their number, or -1. At once (SQLite)
	 * or later from the loop (PostgreSQL). */
	void (*push_list)(store *s, const char *id, store_push_fn *fn, store_done_fn *done,
	                  void *arg);
	/* At start-up: the key pair kept in the store into out (cap bytes, at
	 * least STORE_PUSH_KEY_TEXT), or, when none is kept yet, fresh (the
	 * text of a new pair) kept and copied (on several servers the first
	 * to keep one wins, and every server reads the same). 0, or -1. */
	int (*push_key)(store *s, const char *fresh, char *out, size_t cap);
} store_ops;

/* Every store starts with its operations. */
struct store {
	const store_ops *ops;
	const char *kind;   /* "sqlite" or "postgresql" (static) */
	/* Several servers: this server's lease renewals, and leases lost
	 * (for /metrics); rooms taken from the database and given up. */
	uint64_t leases_renewed, leases_lost, rooms_taken, rooms_released;
	uint64_t batches_fenced;   /* batches refused: a room was another's */
	/* Several servers: what a connection relayed by another server shows
	 * (32 hex digits, new at each start; "" in a store of one). */
	char relay_key[33];
	/* The room a batch answered STORE_FENCED was refused for. */
	char fenced[40];
	/* Batches whose answers may be awaited at once (0: the rooms' own
	 * bound, 64); past them the open batch grows. */
	int max_inflight;
};

/* Opens (creating) the SQLite database at path, its folder too if
 * missing, in WAL mode; sync_full selects synchronous=FULL over NORMAL.
 * Opening writes nothing unless the database is new or older than this
 * server, so a store on a full disk still opens. Returns NULL with a
 * reason in err on failure. */
store *store_sqlite_open(const char *path, int sync_full, char *err, size_t errlen);

struct ev_loop;
/* Connects to the PostgreSQL database conninfo (a libpq URI or connection
 * string) on loop, never blocking it once open; creates the schema (the
 * same tables and meanings as SQLite's schema 7, plus the rooms' holders
 * and the servers' leases). Waits up to wait_s seconds for the first
 * connection and this server's lease. node names this server: its
 * incarnations (one per start, and after each lost lease) hold rooms
 * under a lease of lease_s seconds, renewed every third of it; a new
 * incarnation of the same node takes its former ones' rooms at once (so
 * two servers must never share a node name). NULL with a reason in err
 * on failure. */
store *store_pg_open(struct ev_loop *loop, const char *conninfo, const char *node,
                     int lease_s, double wait_s, char *err, size_t errlen);

#endif
