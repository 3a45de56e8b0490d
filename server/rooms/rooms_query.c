/* rooms_query.c: the rooms' half of POST /api/rooms (PROTOCOL.md, "Your
 * games"; the HTTP half is api_rooms.c): what a holder of each link (and
 * token) may see of its room, from the table or, for rooms other servers
 * hold, read from the store, written as the answer's JSON. It calls only
 * rooms_table.c of the shell (rooms_shell.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/game.h"
#include "server/base/clock.h"
#include "server/rooms/rooms_shell.h"

/* What a holder of a room's link sees of it. */
typedef struct room_summary {
	int found;
	char kind[PROTO_KIND_MAX + 1];
	int seat;                        /* the token's seat, or -1 */
	char name[2][PROTO_NAME_BYTES + 1];
	int taken[2], connected[2];
	unsigned game_number;
	int moves, over, turn, winner, reason;
	int64_t updated;
	proto_clock_view clock;
} room_summary;

static void summarize(const rules_room *rr, int seats, const char *token, room_summary *s)
{
	proto_state_view v;

	s->found = 1;
	snprintf(s->kind, sizeof s->kind, "%s", rr->rec.kind);
	s->seat = token[0] ? rules_token_seat(rr, token) : -1;
	for (int i = 0; i < 2; i++) {
		snprintf(s->name[i], sizeof s->name[i], "%s", rr->rec.name[i]);
		s->taken[i] = rr->rec.has_tok[i];
		s->connected[i] = seats >> i & 1;
	}
	s->game_number = rr->rec.game_number;
	s->moves = rr->nmoves;
	s->over = rules_over(rr);
	s->turn = rules_turn(rr);
	s->reason = rules_end_reason(rr, &s->winner);
	s->updated = rr->rec.updated;
	rules_view(rr, shell_lim, now_ms(), &v);
	s->clock = v.clock;
}

static void summary_write(jw *w, const char *id, const room_summary *s)
{
	jw_obj(w);
	jw_key(w, "room");
	jw_str(w, id);
	jw_key(w, "found");
	jw_bool(w, s->found);
	if (!s->found) {
		jw_obj_end(w);
		return;
	}
	jw_key(w, "kind");
	jw_str(w, s->kind);
	jw_key(w, "seat");
	jw_str(w, proto_side_name(s->seat));
	jw_key(w, "names");
	jw_obj(w);
	for (int i = 0; i < 2; i++) {
		jw_key(w, proto_side_name(i));
		jw_str(w, s->name[i][0] ? s->name[i] : NULL);
	}
	jw_obj_end(w);
	jw_key(w, "seats");
	jw_obj(w);
	for (int i = 0; i < 2; i++) {
		jw_key(w, proto_side_name(i));
		jw_obj(w);
		jw_key(w, "taken");
		jw_bool(w, s->taken[i]);
		jw_key(w, "connected");
		jw_bool(w, s->connected[i]);
		jw_obj_end(w);
	}
	jw_obj_end(w);
	jw_key(w, "game_number");
	jw_int(w, s->game_number);
	jw_key(w, "moves");
	jw_int(w, s->moves);
	jw_key(w, "over");
	jw_bool(w, s->over);
	jw_key(w, "turn");
	jw_str(w, s->over ? NULL : proto_side_name(s->turn));
	jw_key(w, "winner");
	jw_str(w, s->over ? proto_winner_name(s->winner) : NULL);
	jw_key(w, "reason");
	jw_str(w, s->over ? proto_reason_name(s->reason) : NULL);
	jw_key(w, "updated");
	jw_int(w, s->updated);
	jw_key(w, "time_control");
	proto_clock_write(w, &s->clock);
	jw_obj_end(w);
}

/* A room of this server, or none when the store is this server's alone. */
static void summarize_here(const proto_room_ref *ref, room_summary *s)
{
	const room *r = room_find(ref->room);

	if (!r) {
		s->found = 0;
		return;
	}
	summarize(&r->rr, room_seats_connected(&r->rr), ref->token, s);
}

/* A POST /api/rooms whose rooms are partly read from a store shared by
 * several servers: one read each, in flight together. */
struct rooms_query {
	rooms_query_fn *fn;              /* NULL once cancelled */
	void *arg;
	int n, pending, failed;
	proto_room_ref refs[ROOMS_QUERY_MAX];
	room_summary sum[ROOMS_QUERY_MAX];
	struct query_slot {
		rooms_query *q;
		int i;
	} slot[ROOMS_QUERY_MAX];
};

static void query_answer(const proto_room_ref *refs, const room_summary *sum, int n,
                         rooms_query_fn *fn, void *arg)
{
	jw w;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "rooms");
	jw_arr(&w);
	for (int i = 0; i < n; i++)
		summary_write(&w, refs[i].room, &sum[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	fn(arg, &w);
	jw_free(&w);
}

static void query_peeked(void *arg, const room_rec *rec, const uint8_t *pits, int n, int seats)
{
	struct query_slot *sl = arg;
	rules_room tmp;

	memset(&tmp, 0, sizeof tmp);
	/* As a server that took it would show it (an unknown kind: none). */
	if (rules_restore(&tmp, rec, pits, n, now_ms(), NULL) == 0)
		summarize(&tmp, seats, sl->q->refs[sl->i].token, &sl->q->sum[sl->i]);
	rules_room_free(&tmp);
}

static void query_read(void *arg, int rc)
{
	struct query_slot *sl = arg;
	rooms_query *q = sl->q;

	if (rc < 0)
		q->failed = 1;
	if (--q->pending)
		return;
	if (q->fn && q->failed)
		q->fn(q->arg, NULL);
	else if (q->fn) {
		/* Rooms of this server as they are now (one read meanwhile may
		 * have taken one). */
		for (int i = 0; i < q->n; i++)
			if (room_find(q->refs[i].room))
				summarize_here(&q->refs[i], &q->sum[i]);
		query_answer(q->refs, q->sum, q->n, q->fn, q->arg);
	}
	free(q);
}

rooms_query *rooms_query_start(const proto_room_ref *refs, int n, rooms_query_fn *fn, void *arg)
{
	static room_summary sum[ROOMS_QUERY_MAX];
	rooms_query *q;
	int away = 0;

	for (int i = 0; i < n; i++)
		away += !room_find(refs[i].room);
	if (!away || !shell_store->ops->peek) {
		for (int i = 0; i < n; i++)
			summarize_here(&refs[i], &sum[i]);
		query_answer(refs, sum, n, fn, arg);
		return NULL;
	}
	q = calloc(1, sizeof *q);
	if (!q) {
		fn(arg, NULL);
		return NULL;
	}
	q->fn = fn;
	q->arg = arg;
	q->n = n;
	q->pending = away + 1;
	memcpy(q->refs, refs, (size_t)n * sizeof *refs);
	for (int i = 0; i < n; i++) {
		q->slot[i] = (struct query_slot){q, i};
		if (!room_find(refs[i].room))
			shell_store->ops->peek(shell_store, refs[i].room, query_peeked, query_read, &q->slot[i]);
	}
	/* Its own count: a store that answers at once ends it here. */
	if (--q->pending == 0) {
		q->pending = 1;
		query_read(&q->slot[0], 0);
		return NULL;
	}
	return q;
}

void rooms_query_cancel(rooms_query *q)
{
	q->fn = NULL;
}
