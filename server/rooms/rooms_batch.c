/* rooms_batch.c: the rooms' batches: the rooms and deletions of each
 * batch until its commit is confirmed, the commits in order, a lost batch
 * rolled back (its rooms read back), a batch fenced for one room written
 * again without it (rooms_shell.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/rooms/rooms_shell.h"

static room *dirty_rooms;        /* changed since the last confirmed commit */
/* Rooms deleted since the last confirmed commit, with their batch: read
 * back if it is lost. */
typedef struct deleted_room {
	char id[ROOM_ID_LEN + 1];
	uint64_t seq;
} deleted_room;
static deleted_room *deleted;
static int ndeleted, capdeleted;
static int reclaim_due;
/* Rooms to read back after a lost batch (a failed read is tried again
 * with the probe); a join waits for its room meanwhile. */
static char (*reloads)[ROOM_ID_LEN + 1];
static int nreloads, capreloads, reloads_busy, reload_failed;
/* The batch the read in flight shares with writes (0: none): the room
 * read counts as changed in it (it may show them), so that its loss reads
 * the room again. */
static uint64_t reload_seq;

/* Batches: started counts those handed to the store's flush (the open
 * batch is started + 1); answered is the last one the store answered,
 * commits the last one it committed. Batches are answered in order; at
 * most INFLIGHT_MAX wait for their answer (past that the open batch grows). */
#define INFLIGHT_MAX 64
static uint64_t started, answered, commits;
static int64_t flush_t0[INFLIGHT_MAX]; /* when each was started (us), by seq */
static int64_t last_probe, last_reload;

void batch_unmark(room *r)
{
	if (!r->dpprev)
		return;
	*r->dpprev = r->dnext;
	if (r->dnext)
		r->dnext->dpprev = r->dpprev;
	r->dnext = NULL;
	r->dpprev = NULL;
}

static void mark_dirty_at(room *r, uint64_t seq)
{
	r->dirty_seq = seq;
	if (r->dpprev)
		return;
	r->dnext = dirty_rooms;
	if (dirty_rooms)
		dirty_rooms->dpprev = &r->dnext;
	dirty_rooms = r;
	r->dpprev = &dirty_rooms;
}

/* r was written in the open batch. */
void batch_mark(room *r)
{
	mark_dirty_at(r, started + 1);
}

void batch_store_failing(const char *why)
{
	if (!shell_stats.store_ok)
		return;
	shell_stats.store_ok = 0;
	last_probe = now_ms();
	log_event(LOG_ERROR, "store_failing", "error=\"%s; changes are refused until it can"
	          " write again (tried every second)\"", why);
}

uint64_t rooms_release_seq(void)
{
	return started + (shell_store->ops->pending(shell_store) ? 1 : 0);
}

uint64_t rooms_committed(void)
{
	return commits;
}

uint64_t rooms_answered(void)
{
	return answered;
}

int rooms_outstanding(void)
{
	return (int)(started - answered) + (shell_store->ops->pending(shell_store) ? 1 : 0);
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void rollback(void);
static void (*rewrite_fn)(uint64_t k, uint64_t open);

/* Several servers: the chat lines of batches not confirmed yet, written
 * again if their batch is refused for another room (fenced_rewrite). */
typedef struct pending_chat {
	uint64_t seq;
	char id[ROOM_ID_LEN + 1];
	store_chat c;
} pending_chat;
static pending_chat *pchats;
static int npchats, cappchats;

void batch_chat(const char *id, const store_chat *c)
{
	if (npchats == cappchats) {
		int cap = cappchats ? cappchats * 2 : 16;
		pending_chat *p = realloc(pchats, (size_t)cap * sizeof *p);

		if (!p)
			return; /* only a fence's rewrite would miss it */
		pchats = p;
		cappchats = cap;
	}
	pchats[npchats].seq = started + 1;
	snprintf(pchats[npchats].id, sizeof pchats[npchats].id, "%s", id);
	pchats[npchats++].c = *c;
}

static void pchats_confirmed(uint64_t seq)
{
	int kept = 0;

	for (int i = 0; i < npchats; i++)
		if (pchats[i].seq > seq)
			pchats[kept++] = pchats[i];
	npchats = kept;
	if (!npchats && cappchats > 64) {
		free(pchats);
		pchats = NULL;
		cappchats = 0;
	}
}

/* Batch k was refused because room shell_store->fenced is another server's (several
 * servers): that room goes (its members are closed as after a failed
 * commit: their change was not made), and everything else the lost batch
 * and the later ones not yet confirmed wrote is written again, whole, in
 * the open batch, with their messages held for it: the other rooms lose
 * nothing and the store keeps working. (Later batches that commit meanwhile
 * are overwritten by the same or newer rows: every write is a whole row.)
 * 0, or -1 when a write could not be queued (then the batch is lost as any
 * other). */
static int fenced_rewrite(uint64_t k)
{
	uint64_t open = started + 1;
	room *f = room_find(shell_store->fenced);
	int n = 0;

	if (f) {
		while (f->members) {
			room_member *m = f->members;

			shell_io.forget(m);
			member_detach(m);
			shell_io.close(m, ROOMS_CLOSE_STORE_FAILED, "store failed");
		}
		log_event(LOG_WARN, "room_fenced", "room=%s batch=%llu", shell_store->fenced,
		          (unsigned long long)k);
		room_free(f);
		shell_stats.rooms_fenced++;
	}
	shell_io.retag(k, open);
	for (room *r = dirty_rooms; r; r = r->dnext) {
		if (r->dirty_seq >= open)
			continue; /* written whole in the open batch already */
		if (r->created_seq >= k && shell_store->ops->insert(shell_store, &r->rr.rec) < 0)
			return -1;
		if (shell_store->ops->update_moves(shell_store, &r->rr.rec, r->rr.moves, r->rr.nmoves) < 0)
			return -1;
		r->dirty_seq = open;
		n++;
	}
	for (int i = 0; i < ndeleted; i++)
		if (deleted[i].seq >= k && deleted[i].seq < open && strcmp(deleted[i].id, shell_store->fenced)) {
			if (shell_store->ops->remove(shell_store, deleted[i].id) < 0)
				return -1;
			deleted[i].seq = open;
		}
	for (int i = 0; i < npchats; i++)
		if (pchats[i].seq >= k && pchats[i].seq < open && strcmp(pchats[i].id, shell_store->fenced)) {
			if (!room_find(pchats[i].id) || shell_store->ops->chat_add(shell_store, pchats[i].id, &pchats[i].c) < 0)
				continue; /* its room went meanwhile */
			pchats[i].seq = open;
		}
	if (rewrite_fn)
		rewrite_fn(k, open);
	shell_stats.batches_rewritten++;
	log_event(LOG_WARN, "batch_rewritten", "batch=%llu fenced=%s rooms=%d",
	          (unsigned long long)k, shell_store->fenced, n);
	return 0;
}

static void (*lost_fn)(void);

void rooms_on_batch_lost(void (*fn)(void))
{
	lost_fn = fn;
}

void rooms_on_fenced_rewrite(void (*fn)(uint64_t k, uint64_t open))
{
	rewrite_fn = fn;
}

/* The store's answer for batch seq (arg). */
static void flushed(void *arg, int rc)
{
	uint64_t seq = (uint64_t)(uintptr_t)arg;
	uint64_t us = (uint64_t)(now_us() - flush_t0[seq % INFLIGHT_MAX]);

	answered = seq;
	shell_stats.commits++;
	shell_stats.commit_us += us;
	if (us > shell_stats.commit_max_us)
		shell_stats.commit_max_us = us;
	if (rc == STORE_FENCED && fenced_rewrite(seq) == 0)
		return;
	if (rc < 0) {
		shell_stats.commits_failed++;
		batch_store_failing("a commit failed");
		/* Every message not confirmed yet goes (later batches were built
		 * on this one), then the rooms they changed are read back. */
		shell_io.drop();
		rollback();
		if (lost_fn)
			lost_fn();
		return;
	}
	commits = seq;
	if (npchats)
		pchats_confirmed(seq);
	/* Rooms and deletions of later batches (still in flight, or open)
	 * stay noted. */
	for (room *r = dirty_rooms, *next; r; r = next) {
		next = r->dnext;
		if (r->dirty_seq <= seq)
			batch_unmark(r);
	}
	{
		int kept = 0;

		for (int i = 0; i < ndeleted; i++)
			if (deleted[i].seq > seq)
				deleted[kept++] = deleted[i];
		ndeleted = kept;
	}
	if (reclaim_due && answered == started && !shell_store->ops->pending(shell_store)) {
		reclaim_due = 0;
		shell_store->ops->reclaim(shell_store);
	}
}

void rooms_flush(void)
{
	uint64_t seq, most = shell_store->max_inflight > 0 && shell_store->max_inflight < INFLIGHT_MAX
	                     ? (uint64_t)shell_store->max_inflight : INFLIGHT_MAX;

	if (!shell_store->ops->pending(shell_store) || started - answered >= most)
		return;
	seq = ++started;
	flush_t0[seq % INFLIGHT_MAX] = now_us();
	shell_store->ops->flush(shell_store, flushed, (void *)(uintptr_t)seq);
}

static void reload_next(void);

void rooms_probe(void)
{
	int64_t now = now_ms();

	if (nreloads && !reloads_busy && now - last_reload >= PROBE_EVERY_MS) {
		last_reload = now;
		reload_next();
	}
	if (shell_stats.store_ok || now - last_probe < PROBE_EVERY_MS)
		return;
	last_probe = now;
	if (shell_store->ops->probe(shell_store) < 0)
		return;
	shell_stats.store_ok = 1;
	log_event(LOG_INFO, "store_recovered", "rooms=%d", rooms_count());
}

/* Notes id as deleted in the open batch: 0, or -1 out of memory. */
static int note_deleted(const char *id)
{
	if (ndeleted == capdeleted) {
		int cap = capdeleted ? capdeleted * 2 : 16;
		void *p = realloc(deleted, (size_t)cap * sizeof *deleted);

		if (!p)
			return -1;
		deleted = p;
		capdeleted = cap;
	}
	snprintf(deleted[ndeleted].id, sizeof deleted[ndeleted].id, "%s", id);
	deleted[ndeleted++].seq = started + 1;
	return 0;
}

int batch_reloading(const char *id)
{
	for (int i = 0; i < nreloads; i++)
		if (!strcmp(reloads[i], id))
			return 1;
	return 0;
}

/* The answer to the read of the first room to read back. */
static void reloaded(void *arg, int rc)
{
	(void)arg;
	reloads_busy = 0;
	if (!nreloads)
		return;
	if (rc < 0) {
		/* Tried again with the probe (every second or so). */
		log_event(LOG_ERROR, "room_reload_failed", "room=%s", reloads[0]);
		reload_failed = 1;
		return;
	}
	log_event(LOG_WARN, "room_rolled_back", "room=%s exists=%d", reloads[0], rc > 0);
	if (reload_seq && room_find(reloads[0]))
		mark_dirty_at(room_find(reloads[0]), reload_seq);
	memmove(reloads, reloads + 1, (size_t)--nreloads * sizeof *reloads);
	reload_next();
}

/* Reads the rooms to read back, one at a time, until one fails (then
 * the probe tries again). */
static void reload_next(void)
{
	reload_failed = 0;
	while (nreloads && !reloads_busy && !reload_failed) {
		if (room_find(reloads[0])) {
			memmove(reloads, reloads + 1, (size_t)--nreloads * sizeof *reloads);
			continue;
		}
		reloads_busy = 1;
		reload_seq = shell_store->ops->pending(shell_store) ? started + 1 : 0;
		/* room_restore_one skips a room the table has. */
		shell_store->ops->load_room(shell_store, reloads[0], room_restore_one, reloaded, NULL);
	}
}

/* Notes id to be read back from the store into the table. */
static void reload(const char *id)
{
	if (batch_reloading(id))
		return;
	if (nreloads == capreloads) {
		int cap = capreloads ? capreloads * 2 : 16;
		void *p = realloc(reloads, (size_t)cap * sizeof *reloads);

		if (!p) {
			log_event(LOG_ERROR, "room_reload_failed", "room=%s error=\"out of memory\"", id);
			return;
		}
		reloads = p;
		capreloads = cap;
	}
	snprintf(reloads[nreloads++], ROOM_ID_LEN + 1, "%s", id);
}

/* After a lost batch: every room changed since the last confirmed commit
 * (in the lost batch, in later ones, and in the open one) is read back
 * from the store, and its members are closed (ROOMS_CLOSE_STORE_FAILED)
 * to come back with their tokens. */
static void rollback(void)
{
	char id[ROOM_ID_LEN + 1];

	while (dirty_rooms) {
		room *r = dirty_rooms;

		snprintf(id, sizeof id, "%s", r->rr.rec.id);
		while (r->members) {
			room_member *m = r->members;

			/* The close says why; a client that comes back with its
			 * token sees the room as stored (and may resend its move). */
			member_detach(m);
			shell_io.close(m, ROOMS_CLOSE_STORE_FAILED, "store failed");
		}
		room_free(r);
		reload(id);
	}
	for (int i = 0; i < ndeleted; i++)
		reload(deleted[i].id);
	ndeleted = 0;
	npchats = 0;
	reclaim_due = 0;
	reload_next();
}

uint64_t batch_open(void)
{
	return started + 1;
}

int batch_delete(const char *id)
{
	if (note_deleted(id) < 0)
		return -1;
	if (shell_store->ops->remove(shell_store, id) < 0) {
		ndeleted--;
		return -1;
	}
	reclaim_due = 1;
	return 0;
}

void batch_forget(void)
{
	ndeleted = 0;
	nreloads = 0;
	npchats = 0;
	reclaim_due = 0;
}

void batch_free(void)
{
	free(deleted);
	deleted = NULL;
	ndeleted = capdeleted = 0;
	free(reloads);
	reloads = NULL;
	nreloads = capreloads = 0;
	free(pchats);
	pchats = NULL;
	npchats = cappchats = 0;
}
