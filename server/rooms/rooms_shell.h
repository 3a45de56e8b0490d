/* rooms_shell.h: what the four files of the rooms shell share, and
 * nothing else of the server. From the top: rooms.c (members, messages,
 * the rules' outcomes, timers, chat, expiry, the queries of POST
 * /api/rooms), rooms_hold.c (several servers: taking, relaying and giving
 * up rooms), rooms_batch.c (batches, commits, rollback, reading rooms
 * back) and, at the bottom, rooms_table.c (the table of rooms, their
 * teardown, the shared state). Each calls only the files below it; what
 * goes up is a callback handed down at rooms_init. rooms_query.c (the
 * rooms' half of POST /api/rooms) stands beside rooms.c, over the table. */
#ifndef SRV_ROOMS_SHELL_H
#define SRV_ROOMS_SHELL_H

#include <stdint.h>

#include "server/base/iptable.h"
#include "server/rooms/rooms.h"

#define PROBE_EVERY_MS 1000 /* how often a failing store is tried again */

/* A room of the table: owned by it from creation (or restore) until it
 * expires, is rolled back, or the server stops. */
struct room {
	rules_room rr;
	room *hnext;                   /* hash chain */
	room_member *seat_member[2];   /* each seat's member, or NULL */
	room_member *members;          /* every member */
	room *tnext, *tprev;           /* the timer list, by deadline */
	int64_t deadline;              /* in the timer list: when (ms); else -1 */
	room *dnext, **dpprev;         /* the rooms changed since the last confirmed
	                                * commit (dpprev NULL when not among them) */
	uint64_t dirty_seq;            /* among them: the batch of its last write */
	uint64_t created_seq;          /* the batch that created it (0: restored) */
	int64_t count_due;             /* the spectators' count to announce then, or 0 */
	int64_t count_window;          /* start (ms) of the second counted in count_changes */
	ipent *owner;                  /* the creator's address entry (rooms_held), or NULL */
	ipent *owner_net;              /* the creator's network entry (rooms_held), or NULL */
	int count_changes;             /* count changes announced at once in that second */
	uint8_t seats_noted;           /* the seats connected, as last noted in a store
	                                * shared by several servers (store presence) */
	uint8_t chat_next[2];          /* the oldest of each seat's chat_at */
	uint32_t chat_at[2][ROOMS_CHAT_BURST]; /* when each seat's last chat lines were
	                                * sent (ms modulo 2^32; 0: none), a ring by seat:
	                                * the limit holds across reconnects */
};

/* rooms_table.c: the bottom, which calls no other file of the shell. */
/* Set up by rooms_init; defined in rooms_table.c. */
extern const rules_limits *shell_lim; /* the rules' limits of rooms_init's settings */
extern store *shell_store;
extern rooms_io shell_io;
extern rooms_stats shell_stats;
extern int shell_stopping;  /* rooms_stop was called */

/* What the shell does as a room enters the table from the store (added:
 * its timers) and as one leaves it (removed: out of the timers and the
 * batch), called by room_restore_one and room_free. */
typedef struct table_hooks {
	void (*added)(room *r);
	void (*removed)(room *r);
} table_hooks;
/* An empty table with hooks (copied): 0, or -1 out of memory. */
int table_init(const table_hooks *hooks);
/* Frees every room of the table, then the table. */
void table_free(void);
/* The room of that id, or NULL. */
room *room_find(const char *id);
/* r (owned by the table from now on) into the table; its id is not there. */
void room_insert(room *r);
/* The walk over every room, bucket by bucket: table_bucket(b) heads the
 * chain of bucket b (along hnext), for b below table_buckets(). */
unsigned table_buckets(void);
room *table_bucket(unsigned b);
/* The one teardown of a room: out of the table, its members detached,
 * hooks.removed, freed. */
void room_free(room *r);
/* m out of its room's members and seat (nothing when in no room). */
void member_detach(room_member *m);
/* A room read from the store into the table (arg: a count to add to, or
 * NULL), unless one of that id is there; logged and skipped when it
 * cannot be. */
void room_restore_one(void *arg, const room_rec *rec, const uint8_t *pits, int n);
/* Calls fn for rooms of the table until it is empty (fn takes each out). */
void rooms_drop_each(void (*fn)(room *r));
/* The seats of rr connected, as bits (1: south, 2: north). */
int room_seats_connected(const rules_room *rr);

/* rooms_batch.c */
/* r was written in the open batch. */
void batch_mark(room *r);
/* r is no longer among the rooms changed since the last confirmed commit. */
void batch_unmark(room *r);
/* The open batch's number (messages queued now wait for it). */
uint64_t batch_open(void);
/* Deletes room id in the open batch (read back if the batch is lost): 0,
 * or -1 with nothing done. */
int batch_delete(const char *id);
/* Several servers: c, added to room id's chat in the open batch, is kept
 * until that batch is confirmed (written again if it is fenced). */
void batch_chat(const char *id, const store_chat *c);
/* The store cannot write: changes are refused until a probe succeeds. */
void batch_store_failing(const char *why);
/* 1 while room id is being read back after a lost batch. */
int batch_reloading(const char *id);
/* The lease was lost: nothing of the batches in flight is read back. */
void batch_forget(void);
void batch_free(void);

/* rooms_push.c (beside rooms.c, over the table): Web Push. */
/* The settings push_handle follows (cfg lives as long as the rooms). */
void push_setup(const rooms_config *cfg);
/* m's `push` message in its room r (PROTOCOL.md "Push"): kept or
 * cancelled in the open batch and answered, or refused with an error. */
void push_handle(room_member *m, room *r, const proto_msg *msg);
/* After an action of seat `seat` (msg, with outcome o) in r: the other
 * player hears of it, when r's clock is of days. */
void push_after_action(room *r, int seat, const proto_msg *msg, const rules_out *o);
/* After r's game ended by no player's action (on time, or by a club
 * event's organiser): both players hear. */
void push_after_end(room *r);

/* rooms_hold.c */
/* Completes a join whose room was taken (m joins r, which this server
 * now holds), given by rooms.c to hold_init. */
typedef void hold_join_fn(room_member *m, room *r, const proto_msg *msg);
void hold_init(hold_join_fn *join_found);
/* m waits for room msg->room, which this server does not hold, to be
 * taken from the store (or relayed to its holder) until deadline (ms). */
void hold_wait(room_member *m, const proto_msg *msg, int64_t deadline);
/* m's connection is going: no take answers it. */
void hold_forget_member(room_member *m);
/* The store's events (store_events). */
void hold_lost(void *arg);
void hold_wanted(void *arg, const char *id);
void hold_player_left(room *r);
/* take_idle's answer. */
void hold_idle_taken(void *arg, int rc);

#endif
