/* events_hold.c: club events on several servers (server/CLUSTER.md,
 * "Club events"; events_shell.h): messages waiting for their event to
 * be taken from the store or relayed to the server that holds it, events
 * given up when wanted elsewhere and dropped when the lease is lost, the
 * results of boards played elsewhere, the events' writes of batches not
 * yet confirmed (written again after a fenced batch), exports read from
 * the store, and a dead server's events taken to expire. In a store of
 * one server nothing here runs but the exports' direct answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/events/events_shell.h"
#include "server/rooms/hold_wait.h"
#include "server/base/log.h"

/* What events.c handed down (evhold_init). */
static evhold_hooks H;

/* Event messages waiting for their event to be taken from the store. */
static hw_take *takes;

/* ---- writes not confirmed yet ---- */

/* An event's insert or change written in a batch not yet confirmed: a
 * batch refused because a room in it is another server's is written
 * again, whole, in the open one (rooms_on_fenced_rewrite), so the event
 * writes of that batch and of the later ones are written again too, in
 * their order. */
typedef struct pending_write {
	struct pending_write *next;
	uint64_t batch;
	char id[ROOM_ID_LEN + 1];
	int64_t when;                /* the change's updated time */
	store_event_change c;        /* a change (its body in body) ... */
	char *body;
	store_event *ins;            /* ... or an insert (and its settings) */
} pending_write;

static pending_write *pending, **pending_tail = &pending;

static void pending_prune(void)
{
	while (pending && pending->batch <= rooms_committed()) {
		pending_write *p = pending;

		pending = p->next;
		free(p->ins);
		free(p->body);
		free(p);
	}
	if (!pending)
		pending_tail = &pending;
}

/* Notes a write made in the open batch (several servers only; a failed
 * allocation only loses a rewrite after a fence, logged then). */
void evhold_note_write(const char *id, int64_t when, const store_event_change *c,
                       const store_event *ins)
{
	pending_write *p;

	if (!H.st->ops->ev_take)
		return;
	pending_prune();
	if (!(p = calloc(1, sizeof *p)))
		return;
	p->batch = rooms_release_seq();
	snprintf(p->id, sizeof p->id, "%s", id);
	p->when = when;
	if (c) {
		p->c = *c;
		p->c.body = p->body = strdup(c->body);
	} else if ((p->ins = malloc(sizeof *p->ins + strlen(ins->settings) + 1))) {
		char *text = (char *)(p->ins + 1);

		*p->ins = *ins;
		p->ins->settings = strcpy(text, ins->settings);
	}
	if (c ? !p->c.body : !p->ins) {
		free(p);
		return;
	}
	*pending_tail = p;
	pending_tail = &p->next;
}

/* Batch k was refused for a room: the event writes from k on again, in
 * the open batch (open). */
static void pending_rewrite(uint64_t k, uint64_t open)
{
	pending_prune();
	for (pending_write *p = pending; p; p = p->next) {
		event_ent *e;
		int rc;

		if (p->batch < k || p->batch >= open)
			continue;
		rc = p->ins ? H.st->ops->ev_insert(H.st, p->ins) : H.st->ops->ev_append(H.st, p->id, p->when,
		                                                                   &p->c);
		if (rc < 0)
			log_event(LOG_ERROR, "event_write_lost", "event=%s seq=%lld", p->id,
			          (long long)p->c.seq);
		p->batch = open;
		if ((e = H.find(p->id)))
			e->dirty_seq = open;
	}
}

/* ---- events taken, given up, dropped ---- */


static void take_event(void *arg, const store_event *se)
{
	const hw_take *t = arg;

	if (!t->stale && !H.find(se->id))
		H.load_event(NULL, se);
	else
		*H.loading = NULL;
}

static void taken(void *arg, int rc)
{
	hw_take *t = arg;
	event_ent *e;

	*H.loading = NULL;
	hw_unlink(&takes, t);
	e = t->stale ? NULL : H.find(t->id);
	if (e && rc == STORE_TAKEN) {
		log_event(LOG_INFO, "event_taken", "event=%s", t->id);
		H.sweep(e);
	}
	for (hw_waiter *w; (w = hw_next(t)); free(w)) {
		if (!w->m)
			continue;
		if (e)
			H.handle(w->m, &w->msg, 1);
		else if (rc == STORE_ELSEWHERE)
			; /* relayed (relay_to) */
		else if (t->stale)
			H.io->error(w->m, PROTO_E_INTERNAL, "this server lost its hold on its events"
			         " while taking this one; try again");
		else if (rc == STORE_NONE || rc == STORE_TAKEN)
			H.io->error(w->m, PROTO_E_NO_EVENT, "no event has that id (or it expired)");
		else
			H.io->error(w->m, PROTO_E_INTERNAL, "the event cannot be taken over now (the"
			         " store fails, or another server still holds it); try again");
	}
	free(t);
}

/* The store found t's event held by another live server, which takes
 * relayed connections at addr: its waiters that open a follower's
 * connection (a watch or a join) are relayed there, as a room's joins
 * are; the others wait for the holder to give the event up. */
static int relay_to(void *arg, const char *addr, const char *key, int lease_ms)
{
	hw_take *t = arg;

	for (hw_waiter *w = t->waiters; w; w = w->next)
		if (w->m && w->msg.type != PROTO_MSG_EVENT_WATCH && w->msg.type != PROTO_MSG_EVENT_JOIN)
			return 0;
	return hw_relay(t, H.io, addr, key, lease_ms);
}

/* m's msg waits until deadline (ms) for its event, which this server
 * does not hold, to be taken from the store (or relayed to its holder). */
void evhold_wait(room_member *m, const proto_msg *msg, int64_t deadline)
{
	hw_take *t = hw_add(&takes, msg->event, m, msg, deadline, H.io);

	if (t)
		H.st->ops->ev_take(H.st, t->id, take_event, H.load_change, taken, relay_to, t);
}

/* e is no longer this server's: its followers are closed with close
 * (they come back through the routing to where it is next), and it goes
 * from memory (not from the store). */
static void drop(event_ent *e, int code, const char *why)
{
	while (e->watchers) {
		room_member *m = e->watchers->m;

		H.unwatch(e->watchers);
		H.io->close(m, code, why);
	}
	H.unlink_free(e);
}

/* 1 when a follower of e is connected here directly (not relayed). */
static int direct_follower(const event_ent *e)
{
	for (const ev_watcher *w = e->watchers; w; w = w->next)
		if (!w->m->relay_in)
			return 1;
	return 0;
}

/* Another server wants event id (a follower of it reached that server):
 * unless a follower of it is connected here directly, given up in the
 * open batch, even when it is not here (a give-up lost with its batch
 * leaves it held here), its followers sent there. */
static void ev_wanted(void *arg, const char *id)
{
	event_ent *e = H.find(id);

	(void)arg;
	if (e && direct_follower(e)) {
		/* Kept: the other server relays its followers here. */
		log_event(LOG_DEBUG, "event_kept", "event=%s", id);
		return;
	}
	if (!rooms_store_ok() || H.st->ops->ev_release(H.st, id) < 0)
		return;
	if (e) {
		log_event(LOG_INFO, "event_released", "event=%s followers=%d", id, e->nwatchers);
		drop(e, ROOMS_CLOSE_MOVED, "moved");
	}
}

/* This server's lease was lost: no event is its own any more. */
static void lease_lost(void)
{
	int n = H.count();

	for (event_ent *e; (e = H.any());)
		drop(e, ROOMS_CLOSE_MOVED, "moved");
	hw_stale(takes);
	if (n)
		log_event(LOG_WARN, "events_dropped", "events=%d reason=lease_lost", n);
}

/* A game of a board of event id ended on another server. */
static void board_told(void *arg, const char *id)
{
	event_ent *e = H.find(id);

	(void)arg;
	if (e)
		H.sweep(e);
}

void events_relay_failed(room_member *m, const proto_msg *msg, int64_t deadline)
{
	if (m->room || m->waiting || m->watch)
		return;
	if (now_ms() >= deadline) {
		H.io->error(m, PROTO_E_INTERNAL, "the server that holds the event cannot be reached"
		         " now; try again");
		return;
	}
	if (H.find(msg->event))
		H.handle(m, msg, 1);
	else
		evhold_wait(m, msg, deadline);
}

/* Events taken idle from a dead server: the next sweep expires the due. */
static void idle_event(void *arg, const store_event *se)
{
	(void)arg;
	*H.loading = NULL;
	if (!H.find(se->id))
		H.load_event(NULL, se);
}

static void idle_taken(void *arg, int rc)
{
	(void)arg;
	*H.loading = NULL;
	if (rc > 0)
		log_event(LOG_INFO, "events_taken_idle", "events=%d", rc);
}

/* ---- boards given a result on the event's server ---- */

/* A board room held here whose game is on, to check against its event
 * (server/CLUSTER.md, "Club events", "Organiser's results"). */
typedef struct check_room {
	struct check_room *next;
	char id[ROOM_ID_LEN + 1];
} check_room;

/* The checks of one event's board rooms: one read of the event at a
 * time. Rooms that come while it is under way wait for the next read,
 * sent once it is answered: a result committed before a room came here
 * (its holder's notification missed while the room was being taken) is
 * then seen. */
typedef struct board_check {
	struct board_check *next;
	char event[ROOM_ID_LEN + 1];
	check_room *reading;         /* answered by the read under way (none: no read) */
	check_room *waiting;         /* for the next read */
	event_ent *e;                /* the event read, its changes applied */
} board_check;

static board_check *checks;
static int restored;             /* the events were read at start-up */

static void check_send(board_check *c);

static void check_event(void *arg, const store_event *se)
{
	board_check *c = arg;

	*H.loading = NULL;
	if (!c->e && !strcmp(se->id, c->event))
		*H.loading = c->e = H.ent_read(se);
}

static void check_change(void *arg, const char *id, const store_event_change *ch)
{
	board_check *c = arg;

	if (!*H.loading)
		return;
	H.load_change(NULL, id, ch);
	if (!*H.loading)
		c->e = NULL; /* unreadable: freed */
}

static void rooms_free_list(check_room *k)
{
	for (check_room *next; k; k = next) {
		next = k->next;
		free(k);
	}
}

/* The event read (or held here: the newer) ends the games of the rooms
 * read for that are still here and on; then the next read, or c goes. */
static void check_done(void *arg, int rc)
{
	board_check *c = arg, **pp = &checks;
	const event_ent *e = H.find(c->event);

	*H.loading = NULL;
	if (!e)
		e = c->e;
	for (const check_room *k = c->reading; k; k = k->next) {
		const rules_room *rr = rooms_find_rules(k->id);

		if (e && rr && !rules_over(rr) && !strcmp(rr->rec.event, c->event))
			H.room_told(e, k->id);
	}
	if (rc < 0)
		log_event(LOG_WARN, "event_board_check_failed", "event=%s", c->event);
	rooms_free_list(c->reading);
	c->reading = NULL;
	if (c->e)
		H.ent_free(c->e);
	c->e = NULL;
	if (c->waiting) {
		check_send(c);
		return;
	}
	while (*pp != c)
		pp = &(*pp)->next;
	*pp = c->next;
	free(c);
}

/* Reads c's event for the rooms waiting (c may be gone on return). */
static void check_send(board_check *c)
{
	c->reading = c->waiting;
	c->waiting = NULL;
	H.st->ops->ev_peek(H.st, c->event, check_event, check_change, check_done, c);
}

/* Board room id of event, held here with its game on, is checked against
 * the event (at once, or after the start-up's read of the events). */
static void check_add(const char *event, const char *id)
{
	board_check *c;
	check_room *k;

	for (c = checks; c && strcmp(c->event, event); c = c->next)
		;
	for (k = c ? c->waiting : NULL; k; k = k->next)
		if (!strcmp(k->id, id))
			return;
	if (!c && (c = calloc(1, sizeof *c))) {
		snprintf(c->event, sizeof c->event, "%s", event);
		c->next = checks;
		checks = c;
	}
	if (!c || !(k = calloc(1, sizeof *k))) {
		log_event(LOG_ERROR, "event_board_check_failed", "event=%s room=%s error=\"out of"
		          " memory\"", event, id);
		return;
	}
	snprintf(k->id, sizeof k->id, "%s", id);
	k->next = c->waiting;
	c->waiting = k;
	if (restored && !c->reading)
		check_send(c);
}

/* The server holding board room id's event recorded a result for it. */
static void board_end_told(void *arg, const char *id)
{
	const rules_room *rr = rooms_find_rules(id);

	(void)arg;
	if (rr && rr->rec.event[0] && !rules_over(rr))
		check_add(rr->rec.event, id);
}

/* A board room whose game is on was read from the store: its event may
 * have recorded a result for it while no server held the room. */
static void board_taken(const rules_room *rr)
{
	check_add(rr->rec.event, rr->rec.id);
}

/* The store's connection came back: the notifications of the time it
 * was lost are made up for. A game of a board played here may have ended
 * while nobody heard (the events held here read their boards' rooms),
 * and a result recorded elsewhere for a board room held here (read from
 * its event). */
static void resumed(void *arg)
{
	(void)arg;
	H.sweep_all();
	rooms_each_board(board_taken);
}

void evhold_restored(void)
{
	restored = 1;
	for (board_check *c = checks, *next; c; c = next) {
		next = c->next;
		if (!c->reading)
			check_send(c);
	}
}

/* ---- exports of events held elsewhere ---- */

/* An event another server holds (or none) read as stored, for an export. */
struct events_query {
	char id[ROOM_ID_LEN + 1];
	int what;
	char inm[20];                /* the request's If-None-Match, or "" */
	events_export_fn *fn;        /* NULL once cancelled */
	void *arg;
	event_ent *e;                /* the event read, its changes applied */
};

static void query_event(void *arg, const store_event *se)
{
	events_query *q = arg;

	*H.loading = NULL;
	if (!q->e && !strcmp(se->id, q->id))
		*H.loading = q->e = H.ent_read(se);
}

static void query_change(void *arg, const char *id, const store_event_change *c)
{
	events_query *q = arg;

	if (!*H.loading)
		return;
	H.load_change(NULL, id, c);
	if (!*H.loading)
		q->e = NULL; /* unreadable: freed */
}

static void query_done(void *arg, int rc)
{
	events_query *q = arg;
	char etag[20] = "";
	jw w;

	*H.loading = NULL;
	jw_init(&w);
	if (q->fn)
		q->fn(q->arg, rc < 0 ? -2 : !q->e ? -1
		      : H.export_ent(q->e, q->what, q->inm[0] ? q->inm : NULL, &w, etag), &w, etag);
	jw_free(&w);
	if (q->e)
		H.ent_free(q->e);
	free(q);
}

events_query *events_export_start(const char *id, int what, const char *inm,
                                  events_export_fn *fn, void *arg)
{
	events_query *q;
	char etag[20] = "";
	jw w;
	int rc;

	if (H.find(id) || !H.st->ops->ev_peek || strlen(id) > ROOM_ID_LEN ||
	    !(q = calloc(1, sizeof *q))) {
		jw_init(&w);
		rc = H.export_id(id, what, inm, &w, etag);
		fn(arg, rc, &w, etag);
		jw_free(&w);
		return NULL;
	}
	memcpy(q->id, id, strlen(id) + 1);
	q->what = what;
	if (inm && strlen(inm) < sizeof q->inm)
		memcpy(q->inm, inm, strlen(inm) + 1);
	q->fn = fn;
	q->arg = arg;
	H.st->ops->ev_peek(H.st, id, query_event, query_change, query_done, q);
	return q;
}

void events_export_cancel(events_query *q)
{
	q->fn = NULL;
}

void evhold_take_idle(int64_t before)
{
	if (H.st->ops->ev_take_idle && rooms_store_ok())
		H.st->ops->ev_take_idle(H.st, before, idle_event, H.load_change, idle_taken, NULL);
}

void evhold_forget_member(room_member *m)
{
	hw_forget(takes, m);
}

/* The last follower connected here directly left while others are
 * relayed here: given up as if the relaying server wanted it (it did,
 * when it relayed); they come back through the routing. */
void evhold_follower_left(event_ent *e)
{
	if (H.st->ops->ev_release && e->watchers && !direct_follower(e))
		ev_wanted(NULL, e->id);
}

void evhold_batch_lost(void)
{
	while (pending) {
		pending_write *p = pending;

		pending = p->next;
		free(p->ins);
		free(p->body);
		free(p);
	}
	pending_tail = &pending;
}

void evhold_init(const evhold_hooks *h)
{
	H = *h;
	if (H.st->ops->ev_take && H.st->ops->set_events) {
		store_events ev = {.ev_wanted = ev_wanted, .ev_board = board_told};

		if (H.st->ops->board_end && H.st->ops->ev_peek) {
			ev.board_end = board_end_told;
			ev.resumed = resumed;
			rooms_on_board_taken(board_taken);
		}
		H.st->ops->set_events(H.st, &ev);
		rooms_on_lease_lost(lease_lost);
		rooms_on_fenced_rewrite(pending_rewrite);
	}
}
