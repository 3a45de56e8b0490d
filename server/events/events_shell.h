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
	uint64_t own_sent;           /* hash of the `you` last queued (0: none) */
	char token[ROOMS_TOKEN_TEXT]; /* a player's token as this connection gave it
	                              * (its seat token in the boards' rooms), or "" */
	struct ev_watcher *next, *prev;
} ev_watcher;

enum { ROLE_NONE = 0, ROLE_ORGANISER, ROLE_PLAYER };
/* Who gave a board its result (the `by` of the view). */
enum { BY_NONE = 0, BY_ROOM, BY_ORGANISER };

struct evpair_job;

/* What an event's view shows: its version (seq + 1; 0 for nothing) and
 * what changes it at the same version (event_ent.shown). */
typedef struct evs_key {
	int64_t seq;
	uint32_t shown;
} evs_key;

typedef struct event_ent {
	char id[ROOM_ID_LEN + 1];
	ev_event ev;
	uint8_t org_tok[SHA256_LEN];
	uint8_t tok[EV_MAX_ENTRIES][SHA256_LEN]; /* each entry's token hash */
	char (*rooms[EV_MAX_ROUNDS])[ROOM_ID_LEN + 1]; /* each board's room, "" for none */
	uint8_t *by[EV_MAX_ROUNDS];  /* each board's BY_* */
	/* 1: the round was paired before seat tokens were the players' own
	 * (its rooms take seat_token()'s derived ones); 0: a board's seat
	 * token is its player's token (docs/events.md "Seat tokens"). */
	uint8_t derived_seats[EV_MAX_ROUNDS];
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
	char pair_why[160];          /* its message (both set by set_pair_err) */
	uint32_t shown;              /* bumped when the view changes at the same version:
	                              * pairing begun or done, pairing_error set */
	ev_watcher *watchers;
	int nwatchers;
	/* Built when first needed for what the view shows (its key: the
	 * version and `shown`), rebuilt when that changed, dropped by the
	 * expiry sweep while nobody follows: the view shared by the
	 * followers' queues (a rooms_io share, one reference held here), and
	 * the exports' texts with their ETags (EVS_JSON is the same text as
	 * the view). */
	void *view;
	size_t view_len;
	evs_key view_key;            /* what view shows; seq 0: none */
	char *cache[3];
	size_t cache_len[3];
	evs_key cached[3];           /* what each shows; seq 0: none */
	char etag[3][20];            /* "\"<16 hex digits>\"" */
	int64_t change_window;       /* start (ms) of the minute counted in changes */
	int changes;                 /* the organiser's changes in it */
	struct evpair_job *pairing;  /* its round being paired (events_pair.c), or NULL */
	struct event_ent *hnext;
} event_ent;

enum { EVS_JSON = 0, EVS_TRF = 1, EVS_CSV = 2 };

/* ---- events_pair.c: the pairing worker ---- */

/* A Swiss round to pair off the loop: the worker pairs the copy ev and
 * fills ch, rc and ms; the loop then applies ch to e if e is still at
 * version seq. Allocated and freed by the loop (events.c). */
typedef struct evpair_job {
	struct evpair_job *next;     /* in the worker's queue or list (under its mutex) */
	/* The loop's alone: */
	event_ent *e;                /* the event; NULL once it went (freed) */
	int64_t seq;                 /* e->seq when copied: the version paired */
	room_member *asker;          /* the organiser who asked; NULL: automatic, or gone */
	/* The worker's until the job is done, then the loop's: */
	ev_event ev;                 /* the copy paired */
	ev_change ch;                /* ev_start's or ev_next's change */
	int rc;                      /* its return: 0 or EV_E_* */
	int64_t ms;                  /* how long the pairing took */
} evpair_job;

/* Starts the worker; wake is called on the worker's thread each time a
 * job is done (it must be safe there: ev_async_send). 0, or -1 (logged):
 * then evpair_submit refuses and the caller pairs on the loop. */
int evpair_start(void (*wake)(void));
/* Queues j for the worker: 0, or -1 when there is no worker. */
int evpair_submit(evpair_job *j);
/* Pairs j here, now (what the worker does with it). */
void evpair_run(evpair_job *j);
/* A job the worker finished (in the order queued), or NULL. */
evpair_job *evpair_take_done(void);
/* Tells the worker to end after the pairing under way (no wait). */
void evpair_cancel(void);
/* Ends the worker (waiting for a pairing under way) and frees every job
 * not taken back, clearing its event's `pairing`. */
void evpair_stop(void);

/* ---- events_hold.c: several servers (no-ops in a store of one) ---- */
/* What events_hold.c is handed of events.c's, which sits above it: the
 * events' store and connections, the table, an event read from the store,
 * the exports, and what to do once an event is taken. It calls nothing
 * of events.c but these. */
typedef struct evhold_hooks {
	store *st;
	const rooms_io *io;
	/* The event being read from the store (load_event sets it, and
	 * load_change applies to it; NULL after a failure). */
	event_ent **loading;
	event_ent *(*find)(const char *id);
	/* Any event of the table, or NULL when it is empty. */
	event_ent *(*any)(void);
	int (*count)(void);
	/* Takes e out of the table (if it is there) and frees it. */
	void (*unlink_free)(event_ent *e);
	void (*ent_free)(event_ent *e);
	/* An event as stored, its changes still to apply, or NULL (logged). */
	event_ent *(*ent_read)(const store_event *se);
	/* Into the table (a read of the same event twice is refused) and its
	 * changes applied in order. */
	store_event_fn *load_event;
	store_event_change_fn *load_change;
	void (*unwatch)(ev_watcher *w);
	/* e's export what into w, its ETag into etag: 0, 1 (w left empty)
	 * when the ETag is inm, or -2 out of memory; export_id: the same for
	 * the event of the table with that id, -1 for none. */
	int (*export_ent)(event_ent *e, int what, const char *inm, jw *w, char etag[20]);
	int (*export_id)(const char *id, int what, const char *inm, jw *w, char etag[20]);
	/* A message whose event was taken for it (counted: against its
	 * address's joins already). */
	void (*handle)(room_member *m, const proto_msg *msg, int counted);
	/* The results of e's boards ended elsewhere; sweep_all: of every
	 * event's. */
	void (*sweep)(event_ent *e);
	void (*sweep_all)(void);
	/* Board room id, held here, and its event e: a result the organiser
	 * recorded (or a withdrawal's forfeit) ends its game still on (1). */
	int (*room_told)(const event_ent *e, const char *id);
} evhold_hooks;

/* Keeps h (copied) and registers the store's and the rooms' hooks. */
void evhold_init(const evhold_hooks *h);
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
/* The events were read at start-up: the checks of board rooms read
 * before them (rooms_on_board_taken) are sent. */
void evhold_restored(void);

#endif
