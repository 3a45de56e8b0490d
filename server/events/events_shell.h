/* events_shell.h: what the two files of the events shell share, and
 * nothing else of the server. events.c (the table of events, followers,
 * messages, views, rounds and their rooms' results, restore, expiry,
 * exports) over events_hold.c (several servers: events taken from the
 * store, relayed to their holder or given up to another server, dropped
 * with a lost lease; an event's writes of unconfirmed batches written
 * again after a fenced batch; exports and orphans read from the store).
 * events_hold.c uses the table's functions below; what it needs of the
 * messages and results above (handling a message once its event is
 * taken, reading a board's result) is handed down at evhold_init. */
#ifndef SRV_EVENTS_SHELL_H
#define SRV_EVENTS_SHELL_H

#include <stdint.h>

#include "server/rules/event.h"
#include "server/events/events.h"
#include "server/base/iptable.h"

#define EV_BUCKETS 256
/* Entries one address may make in an event unless its organiser allows
 * more (event_entries' per_address). */
#define EV_PER_ADDRESS_DEFAULT 8

/* A connection following an event: its place in the event's list. */
typedef struct ev_watcher {
	room_member *m;
	struct event_ent *e;
	int role;                    /* ROLE_* */
	int entry;                   /* a player's entry */
	struct ev_watcher *next, *prev;
} ev_watcher;

enum { ROLE_NONE = 0, ROLE_ORGANISER, ROLE_PLAYER };
/* Who gave a board its result (the `by` of the view). */
enum { BY_NONE = 0, BY_ROOM, BY_ORGANISER };

typedef struct event_ent {
	char id[ROOM_ID_LEN + 1];
	ev_event ev;
	uint8_t org_tok[SHA256_LEN];
	uint8_t tok[EV_MAX_ENTRIES][SHA256_LEN]; /* each entry's token hash */
	char (*rooms[EV_MAX_ROUNDS])[ROOM_ID_LEN + 1]; /* each board's room, "" for none */
	uint8_t *by[EV_MAX_ROUNDS];  /* each board's BY_* */
	int auto_next;
	int64_t created, updated;    /* wall-clock seconds */
	int64_t seq;                 /* changes written */
	uint64_t dirty_seq;          /* the batch of its last write (rooms_release_seq) */
	ipent *owner;                /* the creator's address entry, or NULL (after a
	                              * restart: the organiser's who acts first) */
	ipent *owner_net;            /* its network's entry (events_held), or NULL */
	uint8_t closed;              /* the organiser closed entries (event_entries) */
	int per_address;             /* entries from one address at most (0: the default) */
	uint32_t from[EV_MAX_ENTRIES]; /* each entry's address (a hash, 0: unknown,
	                              * as after a restart), for per_address */
	int pair_err;                /* the last pairing of a round refused (PROTO_E_*),
	                              * 0 once one succeeds (the view's pairing_error) */
	char pair_why[160];          /* its message */
	ev_watcher *watchers;
	int nwatchers;
	struct event_ent *hnext;
} event_ent;

extern events_config evs_cfg;
extern store *evs_st;
extern rooms_io evs_io;
/* The event being read from the store (evs_load_event sets it, and
 * evs_load_change applies to it; NULL after a failure). */
extern event_ent *evs_loading;

/* ---- events.c: the table ---- */
event_ent *evs_find(const char *id);
/* Any event of the table, or NULL when it is empty. */
event_ent *evs_any(void);
/* Takes e out of the table (if it is there) and frees it. */
void evs_unlink_free(event_ent *e);
void evs_ent_free(event_ent *e);
/* An event as stored, its changes still to apply, or NULL (logged). */
event_ent *evs_ent_read(const store_event *se);
/* store_event_fn and store_event_change_fn: into the table (a read of
 * the same event twice is refused) and its changes applied in order. */
void evs_load_event(void *arg, const store_event *se);
void evs_load_change(void *arg, const char *id, const store_event_change *c);
void evs_unwatch(ev_watcher *w);
/* e's export what (events_export) into w: 0, or -2 out of memory. */
int evs_export(const event_ent *e, int what, jw *w);

/* ---- events_hold.c: several servers (no-ops in a store of one) ---- */
typedef void evhold_handle_fn(room_member *m, const proto_msg *msg, int counted);
typedef void evhold_sweep_fn(event_ent *e);
/* handle: a message whose event was taken for it (counted: against its
 * address's joins already); sweep: the results of e's boards ended
 * elsewhere. Registers the store's and the rooms' hooks. */
void evhold_init(evhold_handle_fn *handle, evhold_sweep_fn *sweep);
/* m's msg waits until deadline (ms) for its event, which this server
 * does not hold, to be taken (or relayed to its holder). */
void evhold_wait(room_member *m, const proto_msg *msg, int64_t deadline);
/* m's connection is going: it no longer waits. */
void evhold_forget_member(room_member *m);
/* A follower of e left: e is given up when only relayed ones are left. */
void evhold_follower_left(event_ent *e);
/* An insert (ins) or change (c) of event id written in the open batch. */
void evhold_note_write(const char *id, int64_t when, const store_event_change *c,
                       const store_event *ins);
/* A batch was lost: the writes noted are lost with it. */
void evhold_batch_lost(void);
/* Takes the events nobody live holds, last changed before `before`. */
void evhold_take_idle(int64_t before);

#endif
