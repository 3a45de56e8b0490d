/* events.h: the club events of the server (PROTOCOL.md "Club events",
 * docs/events.md): the table of events by id, who follows each, the
 * organiser's and players' tokens, the rooms of their boards, and their
 * changes written to the store. Beside the rooms shell and over it: the
 * rules of an event are server/rules/event.h's, its boards are rooms
 * (rooms_create_board), and a board's game that ends in its room gives
 * the event its result in the same commit. Like the rooms, it reaches
 * connections only through a rooms_io. */
#ifndef SRV_EVENTS_H
#define SRV_EVENTS_H

#include <stdint.h>

#include "protocol/jw.h"
#include "protocol/message.h"
#include "server/rooms/rooms.h"
#include "server/store/store.h"

typedef struct events_config {
	int max_events;              /* held in total */
	int max_events_per_ip;       /* created from one address and still held */
	int max_events_per_net;      /* ... from one network (IPv4 /24, IPv6 /48) */
	const ip_budgets *ip;        /* an event_create counts as a room created,
	                              * event_join and event_watch as joins, and the
	                              * views' bytes against views_per_min */
	int expire_events;           /* seconds after its last change an event goes */
	int max_watchers;            /* connections following one event */
	int changes_per_min;         /* an organiser's changes to one event a minute
	                              * (0: no limit) */
	int make_way_s;              /* idle before an unstarted event may make way in a
	                              * full table (3600; shorter only in a test build) */
	int64_t join_wait_ms;        /* several servers: a message for an event held
	                              * elsewhere not answered within this (taking
	                              * the event, or relayed) gets `internal` */
} events_config;

typedef struct events_stats {
	uint64_t created, expired, changes;
} events_stats;

/* Sets up the events over st and io (as the rooms'); cfg copied. 0 or -1. */
int events_init(const events_config *cfg, store *st, const rooms_io *io);
/* Reads every stored event (after rooms_restore: the boards' rooms are
 * there, and a game that ended without its result reaching the event
 * gives it now): their number, or -1. */
int events_restore(void);
/* Acts on a checked event message from m (PROTO_MSG_IS_EVENT). */
void events_handle(room_member *m, const proto_msg *msg);
/* The relay of m (rooms_io.relay) to the event's holder ended before its
 * first answer: the event is taken or relayed again, or, past deadline
 * (ms), m gets `internal`. */
void events_relay_failed(room_member *m, const proto_msg *msg, int64_t deadline);
/* m's connection is going: it stops following its event. */
void events_leave(room_member *m);
/* Starts the pairing worker (docs/events.md "Pairing off the loop"),
 * before events_restore: wake is called on the worker's thread when a
 * round is paired (ev_async_send on the loop), and the loop then calls
 * events_pairings_done. 0, or -1 (rounds are then paired on the loop). */
int events_pairing_init(void (*wake)(void));
/* Applies the rounds the worker paired: their rooms, commit, views. */
void events_pairings_done(void);
/* At shutdown, before the drain: no round paired from now on is applied
 * (an automatic one is paired again at the next start); the worker ends
 * after the pairing under way, and events_free_all waits for it. */
void events_pairing_stop(void);
/* Drops events past --expire-events. */
void events_expire(void);
/* Frees every event (after waiting for the pairing worker to end). */
void events_free_all(void);
int events_count(void);
const events_stats *events_get_stats(void);

/* GET /api/events/<id>[/trf|/csv] (what: 0 the JSON, 1 TRF, 2 CSV): the
 * body into w (text, not JSON, for TRF and CSV) and its ETag (a quoted
 * string, at most 19 characters) into etag, 0; 1 with w empty when the
 * ETag is inm (the request's If-None-Match, or NULL); -1 when there is
 * no such event, -2 out of memory. Each is built once per version of the
 * event. */
int events_export(const char *id, int what, const char *inm, jw *w, char etag[20]);
/* The same for an event this server may not hold (several servers: read
 * from the store): fn gets events_export's return and w, before the
 * return (which is NULL) when the event is at hand, else later from the
 * loop unless events_export_cancel(the query returned) comes first. */
typedef struct events_query events_query;
typedef void events_export_fn(void *arg, int rc, jw *w, const char *etag);
events_query *events_export_start(const char *id, int what, const char *inm,
                                  events_export_fn *fn, void *arg);
void events_export_cancel(events_query *q);

#endif
