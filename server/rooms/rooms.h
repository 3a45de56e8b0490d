/* rooms.h: the rooms of the server: the table by id, who is in each room,
 * the absence timers, the store's writes and commits, and what each
 * member is sent. The rules (rules.h) decide, the store (store.h) keeps,
 * and the transport is reached only through the rooms_io it hands over:
 * the rooms know no connection type, no event loop and no store engine. */
#ifndef SRV_ROOMS_H
#define SRV_ROOMS_H

#include <stdint.h>

#include "protocol/jw.h"
#include "protocol/message.h"
#include "server/base/iptable.h"
#include "server/rules/rules.h"
#include "server/store/store.h"

struct ipent;
typedef struct room room;

/* A seat sends at most ROOMS_CHAT_BURST chat lines in any
 * ROOMS_CHAT_WINDOW_MS, whichever connection holds it (the count stays
 * with the room across reconnects), and one client address at most
 * IP_CHAT_BURST (iptable.h) in that time, over all its seats;
 * ROOMS_SPECTATOR_NAMES names of spectators at most are shown in a state. */
#define ROOMS_CHAT_BURST 5
/* A game has started for real once each side has made this many moves
 * in it; before, its room makes way in a full table like a room without
 * a game, and expires as soon (PROTOCOL.md, "A full table"). */
#define ROOMS_STARTED_MOVES 4
#define ROOMS_CHAT_WINDOW_MS 10000
#define ROOMS_SPECTATOR_NAMES 10
/* A POST /api/rooms asks about this many rooms at most. */
#define ROOMS_QUERY_MAX 50

/* A connection's place in the rooms, embedded in the transport's
 * connection and owned by it; the rooms link it while it is in a room. */
typedef struct room_member {
	room *room;                      /* NULL until a create or join succeeds */
	int seat;                        /* OW_SOUTH, OW_NORTH or RULES_SPECTATOR */
	int rtt_ms;                      /* its last round trip measured by the
	                                  * transport (ms), or 0: the lag credit */
	struct room_member *next, *prev; /* the room's members */
	const char *addr;                /* the client's address, for logs */
	struct ipent *ip;                /* its per-address counters, or NULL */
	/* Names and chat (PROTOCOL.md, "Names and chat"); small, as every
	 * connection has them: */
	char *name;                      /* a spectator's name (the heap's, freed by
	                                  * rooms_leave), or NULL for none (a
	                                  * player's is the seat's, in the room) */
	struct ev_watcher *watch;        /* the club event it follows (events.c), or NULL */
	uint32_t serial;                 /* given at each entry into a room (modulo
	                                  * 2^32): an answer that comes later (a
	                                  * chat history read) finds its member by it */
	uint8_t waiting;                 /* 1 while a join waits for its room to be
	                                  * taken from the store (several servers) */
	uint8_t history;                 /* 1 while its chat history is read (after
	                                  * a join), 2 if a line came meanwhile */
	uint8_t relay_in;                /* 1: another server relays this connection
	                                  * (server/CLUSTER.md, "Split routing") */
	/* 72 bytes: every connection has one (its chat limit is its seat's). */
} room_member;

/* How the rooms reach connections: the transport's functions. A message
 * sent with send or send_all may show changes not yet committed: it
 * leaves only once rooms_committed() reaches rooms_release_seq() as it
 * was when queued. An error shows none and may leave at once. drop is
 * called when a batch is lost: every message waiting for a commit goes. */
typedef struct rooms_io {
	void (*send)(room_member *m, const jw *w);
	/* w to every member of a room, from first along next. */
	void (*send_all)(room_member *first, const jw *w);
	/* An error {code, message} to m (the transport counts and logs it). */
	void (*error)(room_member *m, int code, const char *message);
	/* Closes m's connection with code and why (a static string) once its
	 * queue is sent and the batch of the pass is answered (committed or
	 * lost): a 4002 "moved" leaves after its room's or event's give-up,
	 * so that the client, back at once through the routing, finds it
	 * free. */
	void (*close)(room_member *m, int code, const char *why);
	/* Measures m's round trip (a WebSocket ping; the pong sets
	 * m->rtt_ms): asked when m's clock starts running. */
	void (*probe)(room_member *m);
	/* Drops every queued message waiting for a commit not yet confirmed
	 * (above rooms_committed()). */
	void (*drop)(void);
	/* Several servers: from now on m's connection is relayed to the
	 * server at addr ("host:port") that holds join->room, showing key;
	 * join is sent there first. If the relay ends before that server's
	 * welcome, the transport calls rooms_relay_failed(m, join, deadline).
	 * lease_ms: that server's lease left (store_where_fn). 0, or -1 when
	 * no relay could be started. */
	int (*relay)(room_member *m, const char *addr, const char *key, const proto_msg *join,
	             int64_t deadline, int lease_ms);
	/* A batch was refused for one room (several servers): every message
	 * waiting for batch from or later now waits for batch to (its
	 * changes are written again there) ... */
	void (*retag)(uint64_t from, uint64_t to);
	/* ... and m's messages waiting for any commit go (m's room was
	 * another server's). */
	void (*forget)(room_member *m);
	/* A message shared by several sends (NULL when out of memory), sent
	 * to m as a view that a newer one may replace unread in m's queue
	 * (as a room's state), and released by its creator after the sends.
	 * A club event's followers all get the same view. */
	void *(*share)(const jw *w);
	void (*send_view)(room_member *m, void *shared);
	void (*unshare)(void *shared);
	/* A shared message sent to m as a follower's own part of a view (a
	 * club event's event_you): a newer one replaces it unsent. */
	void (*send_own)(room_member *m, void *shared);
} rooms_io;

typedef struct rooms_config {
	rules_limits lim;
	int max_rooms;
	const ip_budgets *ip;        /* an address's rooms and joins a minute */
	int max_rooms_per_ip;        /* rooms created from one address and still held */
	int max_rooms_per_net;       /* ... from one network (IPv4 /24, IPv6 /48) */
	int expire_unfinished, expire_finished, expire_unjoined; /* seconds idle */
	int evict_idle;              /* seconds idle before a room with a game may make
	                              * way in a full table */
	int64_t chat_window_ms;      /* ROOMS_CHAT_WINDOW_MS (shorter only in a test build) */
	int64_t history_per_ip_per_min; /* bytes of chat_history sent to an address a
	                              * minute; past them, only the newest lines that fit */
	int64_t join_wait_ms;        /* several servers: a join not answered within this
	                              * (taking the room, or relayed) gets `internal` */
	/* Web Push (issue 53; PROTOCOL.md "Push"): */
	const char *push_key;        /* the server's public key (base64url), shown in a
	                              * player's welcome; NULL: --push off */
	const char *push_allow;      /* --push-allow: the push services' hosts */
	int push_loopback;           /* a test's fake push service on the loopback */
	int push_per_ip_per_min;     /* subscribe messages per client address a minute */
} rooms_config;

/* Counters for /metrics and /healthz. */
typedef struct rooms_stats {
	uint64_t moves, rooms_created, rooms_expired, rooms_evicted, games_ended, joins;
	uint64_t commits, commit_us, commit_max_us; /* group commits and their time */
	uint64_t commits_failed;
	int store_ok;                /* 0 while the store cannot write */
	uint64_t chat_lines;         /* chat lines sent */
	/* Several servers: batches refused for a room another server held,
	 * whose other rooms' changes were written again at once, and those
	 * rooms dropped here. */
	uint64_t batches_rewritten, rooms_fenced;
} rooms_stats;

/* The close code of a connection whose room was rolled back after a
 * failed commit: it reconnects with its token. */
#define ROOMS_CLOSE_STORE_FAILED 1011
/* The close code of a room's connections when another server takes the
 * room over (several servers): they reconnect through the routing with
 * their tokens. */
#define ROOMS_CLOSE_MOVED 4002

/* Sets up the rooms over st (kept, not owned) and io (copied); cfg is
 * copied. Probes the store. 0, or -1 out of memory. */
int rooms_init(const rooms_config *cfg, store *st, const rooms_io *io);
/* Loads every stored room, replaying its moves: the number restored, or -1. */
int rooms_restore(void);
/* From now on nothing is announced or saved for members leaving (shutdown). */
void rooms_stop(void);
/* Frees every room (members must be gone or about to be). */
void rooms_free_all(void);
/* Rooms held now. */
int rooms_count(void);
const rooms_stats *rooms_get_stats(void);
/* The store the rooms were set up over. */
const store *rooms_get_store(void);
/* The id of m's room, or "-". */
const char *rooms_member_room(const room_member *m);

/* What holders of the links (and tokens) refs[0..n) may see of their
 * rooms (PROTOCOL.md, "Your games"): fn gets the answer's JSON text, or
 * NULL when the store could not be read. fn is called before the return
 * (which is NULL) when every room is at hand; otherwise (several servers:
 * rooms held by others are read from the store) later, from the loop,
 * unless rooms_query_cancel(the query returned) comes first. */
typedef struct rooms_query rooms_query;
typedef void rooms_query_fn(void *arg, const jw *answer);
rooms_query *rooms_query_start(const proto_room_ref *refs, int n, rooms_query_fn *fn, void *arg);
void rooms_query_cancel(rooms_query *q);

/* POST /api/push (PROTOCOL.md, "Push from your games"): msg (a `push`
 * subscribe or cancel) for the seat of ref's room that ref's token
 * proves, without joining; the room from the table or, held by another
 * server, read from the store. fn gets 0, or an error code (PROTO_E_*)
 * and its message; called before the return (which is NULL) when the
 * room is at hand, else later from the loop unless rooms_push_cancel(the
 * request returned) comes first. */
typedef struct rooms_push_req rooms_push_req;
typedef void rooms_push_done_fn(void *arg, int code, const char *message);
rooms_push_req *rooms_push_start(const proto_room_ref *ref, const proto_msg *msg,
                                 struct ipent *ip, rooms_push_done_fn *fn, void *arg);
void rooms_push_cancel(rooms_push_req *q);
/* The server's public key for Web Push (base64url), or NULL (--push off). */
const char *rooms_push_key(void);

/* A new token (43 base64url characters, in out) and its SHA-256: from
 * raw's 32 bytes, or fresh random ones when raw is NULL. */
#define ROOMS_TOKEN_TEXT 64
void rooms_token(const uint8_t *raw, char out[ROOMS_TOKEN_TEXT], uint8_t hash[SHA256_LEN]);

/* A board of a club event (server/events/events.c) as a room: its players'
 * names and the hashes of their seat tokens, white on South. */
typedef struct rooms_board {
	const char *event;           /* the event's id */
	const char *kind;
	int clock_kind;              /* PROTO_CLOCK_* */
	int clock_initial, clock_increment, clock_days; /* as create's clock */
	const char *names[2];        /* by ow_side */
	const uint8_t *tok[2];       /* SHA-256 of each seat's token, by ow_side */
	struct ipent *owner;         /* the address (and network) whose budgets of */
	struct ipent *owner_net;     /* rooms held it counts against while its game
	                              * is on (--max-rooms-per-ip, --max-rooms-per-net);
	                              * NULL for none */
} rooms_board;
/* rooms_boards_room's refusals. */
#define ROOMS_E_STORE (-1)       /* the store cannot write */
#define ROOMS_E_FULL (-2)        /* the table is full and not enough rooms may go */
#define ROOMS_E_IP (-3)          /* past the owner's --max-rooms-per-ip */
#define ROOMS_E_NET (-4)         /* past the owner's network's --max-rooms-per-net */
/* Room for n new board rooms of owner (and owner_net, either NULL for
 * none): within their budgets of rooms held, and in the table, where
 * rooms make way as for a create until n fit (none does unless enough
 * may). 0, or a ROOMS_E_* code. */
int rooms_boards_room(int n, struct ipent *owner, struct ipent *owner_net);
/* Creates b's room with the new id id in the open batch (a full table
 * makes way as for a create): 0; -1 when the store cannot write or
 * memory ran out; -2 when the table is full and no room may go. It
 * counts against b's owners until its game ends. */
int rooms_create_board(const rooms_board *b, const char *id);
/* Takes back board room id created in the open batch (a round that
 * could not get all its rooms): deleted in that batch, gone from the
 * table. */
void rooms_drop_board(const char *id);
/* The organiser recorded the result of board room id while its game was
 * on: its game ends (reason "organiser", winner an ow_winner, OW_NOBODY
 * for a double forfeit) in the open batch and its members see it; the
 * event is not told (it gave the result). 0; 1 when its game is over
 * already; -1 when the room is not held here or the store cannot write. */
int rooms_end_board(const char *id, int winner);
/* fn is called after a lost batch (the rooms are being read back; every
 * message waiting for a commit was dropped), for what else it held. */
void rooms_on_batch_lost(void (*fn)(void));
/* Several servers: fn is called when this server's lease was lost (after
 * the rooms were dropped: nothing it held is its own any more), and
 * rewrite_fn when a batch k was refused for a room another server holds
 * and what the rooms wrote in it and later is being written again in the
 * open batch, batch open (what else was written from batch k on must be
 * too). */
void rooms_on_lease_lost(void (*fn)(void));
void rooms_on_fenced_rewrite(void (*rewrite_fn)(uint64_t k, uint64_t open));
/* 1 while the rooms may give up or take what the store holds (not
 * stopping, the store writing). */
int rooms_store_ok(void);
/* The room id held here as the rules see it, or NULL. */
const rules_room *rooms_find_rules(const char *id);
/* fn is called when the game of an event's board room ends, its last
 * change in the open batch (rules_end_reason and the play tell how). */
typedef void rooms_game_ended_fn(const rules_room *rr);
void rooms_on_game_ended(rooms_game_ended_fn *fn);
/* fn is called when an event's board room whose game is on enters the
 * table from the store (read at start-up or back after a lost batch, or,
 * on several servers, taken), from within the store's answer: it must
 * not write (it may read the store, and act on the answer). */
typedef void rooms_board_taken_fn(const rules_room *rr);
void rooms_on_board_taken(rooms_board_taken_fn *fn);
/* Calls fn for each event's board room held here whose game is on (fn
 * must not write). */
void rooms_each_board(rooms_board_taken_fn *fn);

/* Web Push (issue 53): what happened in a room with a clock of days, for
 * the player on side: room and game (its number), the facts as JSON text
 * (PROTOCOL.md "Push", the payload) of len bytes (living for the call),
 * and last: the game is over, so after this push the room's
 * subscriptions go. Called from the loop, the change in the open batch. */
typedef void rooms_push_fn(const char *room, unsigned game, int side, const char *json,
                           size_t len, int last);
void rooms_on_push(rooms_push_fn *fn);

/* Acts on a checked message from m: answers through io. */
void rooms_handle(room_member *m, const proto_msg *msg);
/* The relay of m (rooms_io.relay) to the room's holder ended before its
 * welcome: the room is taken or relayed again, or, past deadline (ms),
 * m gets `internal`. */
void rooms_relay_failed(room_member *m, const proto_msg *join, int64_t deadline);
/* m's connection is going: it leaves its room (presence is announced),
 * and what rooms.c allocated for it is freed. */
void rooms_leave(room_member *m);
/* Drops rooms idle past the expiry times that have no member. */
void rooms_expire(void);

/* The earliest time (monotonic ms) rooms_run_timers must run, or -1. */
int64_t rooms_next_deadline(void);
/* Runs the timers due at now (absent seats becoming claimable, clocks
 * running out). */
void rooms_run_timers(int64_t now);
/* While the store cannot write: tries it again (every second or so). */
void rooms_probe(void);

/* The batch a message queued now waits for (the open one when it has
 * writes, else the last one started). */
uint64_t rooms_release_seq(void);
/* The last batch committed: messages up to it may leave. */
uint64_t rooms_committed(void);
/* The last batch the store answered, committed or lost: a close queued
 * with rooms_release_seq() leaves once this reaches it. */
uint64_t rooms_answered(void);
/* Starts the commit of the pass's writes (run once per loop pass). Its
 * answer comes at once (SQLite) or on a later pass (PostgreSQL). A lost
 * batch makes the transport drop every message still waiting for a
 * commit (io.drop); each room changed since the last confirmed commit is
 * then read back from the store, and its members are closed
 * (ROOMS_CLOSE_STORE_FAILED) to come back with their tokens. */
void rooms_flush(void);
/* Batches started and not answered, plus the open one if it has writes. */
int rooms_outstanding(void);

#endif
