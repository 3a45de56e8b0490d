/* rooms_push.c: Web Push in the rooms' shell (issue 53; PROTOCOL.md
 * "Push"): a seat's subscriptions kept and cancelled (the `push`
 * message), and what happened in a room with a clock of days handed, as
 * facts for one player, to the sender the transport set (rooms_on_push).
 * Over the table (rooms_shell.h) beside rooms.c; calls nothing above. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "protocol/game.h"
#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/base/webpush.h"
#include "server/rooms/rooms_shell.h"

static const rooms_config *pcfg;
static rooms_push_fn *push_fn;
static jw pout; /* the message or payload being written: one at a time */

void push_setup(const rooms_config *cfg)
{
	pcfg = cfg;
}

void rooms_on_push(rooms_push_fn *fn)
{
	push_fn = fn;
}

/* Why seat of rr may not keep a subscription, or NULL; *code the error's. */
static const char *push_refusal(const rules_room *rr, int seat, int *code)
{
	*code = PROTO_E_PUSH_REFUSED;
	if (!pcfg->push_key || !shell_store->ops->push_add)
		return "this server does not send push notifications (--push off)";
	if (seat < 0) {
		*code = PROTO_E_NOT_A_PLAYER;
		return "only a player is told of his turn";
	}
	if (rr->rec.clock_kind != PROTO_CLOCK_CORRESPONDENCE)
		return "push notifications are for rooms with a clock of days";
	if (rules_over(rr)) {
		*code = PROTO_E_GAME_OVER;
		return "the game is over";
	}
	return NULL;
}

/* Keeps msg's subscription of seat in rr, counted against ip: 0, or an
 * error code with *why. */
static int push_keep(const rules_room *rr, int seat, struct ipent *ip, const proto_msg *msg,
                     const char **why)
{
	char host[WEBPUSH_HOST_MAX + 1];
	store_push_sub p;
	webpush_sub keys;

	if (webpush_endpoint_check(msg->endpoint, pcfg->push_allow, pcfg->push_loopback, host,
	                           sizeof host) < 0) {
		*why = webpush_error();
		return PROTO_E_PUSH_REFUSED;
	}
	if (webpush_sub_parse(&keys, msg->p256dh, msg->auth) < 0) {
		*why = "subscription: keys.p256dh is not a P-256 point or keys.auth not 16 bytes"
		       " (base64url)";
		return PROTO_E_BAD_MESSAGE;
	}
	if (ip && ip_push_allow(ip, now_ms(), pcfg->push_per_ip_per_min) < 0) {
		*why = "too many push subscriptions from this address; wait a minute";
		return PROTO_E_RATE_LIMITED;
	}
	memset(&p, 0, sizeof p);
	snprintf(p.room, sizeof p.room, "%s", rr->rec.id);
	p.side = seat;
	p.game = rr->rec.game_number;
	p.created = (int64_t)time(NULL);
	snprintf(p.endpoint, sizeof p.endpoint, "%s", msg->endpoint);
	snprintf(p.p256dh, sizeof p.p256dh, "%s", msg->p256dh);
	snprintf(p.auth, sizeof p.auth, "%s", msg->auth);
	if (!rooms_store_ok() || shell_store->ops->push_add(shell_store, &p) < 0) {
		*why = "the store cannot save it now; nothing changed";
		return PROTO_E_INTERNAL;
	}
	log_event(LOG_INFO, "push_subscribed", "room=%s side=%s host=%s", p.room,
	          proto_side_name(p.side), host);
	return 0;
}

/* msg (subscribe or cancel) for seat of rr, by the room's WebSocket or
 * POST /api/push: 0, or an error code with *why. */
static int push_apply(const rules_room *rr, int seat, struct ipent *ip, const proto_msg *msg,
                      const char **why)
{
	int code;

	*why = push_refusal(rr, seat, &code);
	if (*why && !(msg->action == PROTO_ACT_CANCEL && code == PROTO_E_GAME_OVER))
		return code;
	*why = NULL;
	if (msg->action == PROTO_ACT_SUBSCRIBE)
		return push_keep(rr, seat, ip, msg, why);
	if (!rooms_store_ok() || shell_store->ops->push_del(shell_store, rr->rec.id, seat,
	                                             msg->endpoint[0] ? msg->endpoint : NULL) < 0) {
		*why = "the store cannot save it now; nothing changed";
		return PROTO_E_INTERNAL;
	}
	return 0;
}

void push_handle(room_member *m, room *r, const proto_msg *msg)
{
	const char *why;
	int code = push_apply(&r->rr, m->seat, m->ip, msg, &why);

	if (code) {
		shell_io.error(m, code, why);
		return;
	}
	jw_reset(&pout);
	proto_push_write(&pout, msg->action);
	shell_io.send(m, &pout);
}

const char *rooms_push_key(void)
{
	return pcfg && shell_store->ops->push_add ? pcfg->push_key : NULL;
}

/* A POST /api/push: its room read from the store when another server
 * holds it. */
struct rooms_push_req {
	rooms_push_done_fn *fn;          /* NULL once cancelled */
	void *arg;
	proto_room_ref ref;
	proto_msg msg;
	struct ipent *ip;
	rules_room rr;                   /* the room as read, when have */
	int have, failed, in_start, finished;
};

/* The request against rr (NULL: no such room); fn told. */
static void push_req_apply(const rules_room *rr, const proto_room_ref *ref, const proto_msg *msg,
                           struct ipent *ip, rooms_push_done_fn *fn, void *arg)
{
	const char *why = NULL;
	int code, seat;

	if (!rr) {
		fn(arg, PROTO_E_NO_ROOM, "no such room");
		return;
	}
	seat = rules_token_seat(rr, ref->token);
	if (seat < 0) {
		fn(arg, PROTO_E_BAD_TOKEN, "the token is not of a seat of this room");
		return;
	}
	code = push_apply(rr, seat, ip, msg, &why);
	fn(arg, code, why);
}

static void push_req_peeked(void *arg, const room_rec *rec, const uint8_t *pits, int n,
                            int seats)
{
	rooms_push_req *q = arg;

	(void)seats;
	if (!q->have && rules_restore(&q->rr, rec, pits, n, now_ms(), NULL) == 0)
		q->have = 1;
}

static void push_req_end(rooms_push_req *q)
{
	const room *r = room_find(q->ref.room); /* taken here meanwhile? */

	if (q->fn && q->failed)
		q->fn(q->arg, PROTO_E_INTERNAL, "the database cannot be read now; try again");
	else if (q->fn)
		push_req_apply(r ? &r->rr : q->have ? &q->rr : NULL, &q->ref, &q->msg, q->ip, q->fn,
		               q->arg);
	if (q->have)
		rules_room_free(&q->rr);
	free(q);
}

static void push_req_read(void *arg, int rc)
{
	rooms_push_req *q = arg;

	q->failed = rc < 0;
	if (q->in_start) {
		q->finished = 1; /* a store that answers at once: ended by the start */
		return;
	}
	push_req_end(q);
}

rooms_push_req *rooms_push_start(const proto_room_ref *ref, const proto_msg *msg,
                                 struct ipent *ip, rooms_push_done_fn *fn, void *arg)
{
	const room *r = room_find(ref->room);
	rooms_push_req *q;

	if (r || !shell_store->ops->peek) {
		push_req_apply(r ? &r->rr : NULL, ref, msg, ip, fn, arg);
		return NULL;
	}
	q = calloc(1, sizeof *q);
	if (!q) {
		fn(arg, PROTO_E_INTERNAL, "out of memory");
		return NULL;
	}
	*q = (rooms_push_req){.fn = fn, .arg = arg, .ref = *ref, .msg = *msg, .ip = ip,
	                      .in_start = 1};
	shell_store->ops->peek(shell_store, ref->room, push_req_peeked, push_req_read, q);
	q->in_start = 0;
	if (q->finished) {
		push_req_end(q);
		return NULL;
	}
	return q;
}

void rooms_push_cancel(rooms_push_req *q)
{
	q->fn = NULL;
}

/* The facts of what happened in r for the player on side (PROTOCOL.md
 * "Push"), handed to the sender; last: the room's subscriptions go after. */
static void push_event(room *r, int side, const char *what, int last)
{
	int over = !strcmp(what, "end");
	const rules_room *rr = &r->rr;
	proto_state_view v;
	int64_t now = now_ms();
	char move[4];

	if (!push_fn || !pcfg->push_key || rr->rec.clock_kind != PROTO_CLOCK_CORRESPONDENCE)
		return;
	rules_view(rr, shell_lim, now, &v);
	jw_reset(&pout);
	jw_obj(&pout);
	jw_key(&pout, "room");
	jw_str(&pout, rr->rec.id);
	jw_key(&pout, "kind");
	jw_str(&pout, rr->rec.kind);
	jw_key(&pout, "game");
	jw_int(&pout, rr->rec.game_number);
	jw_key(&pout, "event");
	jw_str(&pout, what);
	jw_key(&pout, "seat");
	jw_str(&pout, proto_side_name(side));
	jw_key(&pout, "by");
	if (rr->rec.name[1 - side][0])
		jw_str(&pout, rr->rec.name[1 - side]);
	else
		jw_null(&pout);
	jw_key(&pout, "ply");
	jw_int(&pout, rr->nmoves);
	jw_key(&pout, "move");
	if (rr->nmoves > 0) {
		rr->k->move_name(rr->moves[rr->nmoves - 1], move);
		jw_str(&pout, move);
	} else
		jw_null(&pout);
	jw_key(&pout, "deadline"); /* ms since the epoch when side's time to move runs out */
	if (!over && v.clock.running == side)
		jw_int(&pout, (long long)time(NULL) * 1000 + v.clock.left[side]);
	else
		jw_null(&pout);
	if (over) {
		int winner, reason = rules_end_reason(rr, &winner);
		const char *w = proto_winner_name(winner);

		jw_key(&pout, "reason");
		jw_str(&pout, proto_reason_name(reason) ? proto_reason_name(reason) : "over");
		jw_key(&pout, "winner");
		if (w)
			jw_str(&pout, w);
		else
			jw_null(&pout);
	}
	jw_obj_end(&pout);
	if (pout.oom)
		return;
	push_fn(rr->rec.id, rr->rec.game_number, side, pout.buf, pout.len, last);
}

void push_after_action(room *r, int seat, const proto_msg *msg, const rules_out *o)
{
	if (seat < 0)
		return;
	if (o->ended)
		push_event(r, 1 - seat, "end", 1);
	else if (o->pit >= 0)
		push_event(r, 1 - seat, "move", 0);
	else if (msg && msg->type == PROTO_MSG_DRAW && msg->action == PROTO_ACT_OFFER)
		push_event(r, 1 - seat, "draw_offer", 0);
}

void push_after_end(room *r)
{
	push_event(r, OW_SOUTH, "end", 0);
	push_event(r, OW_NORTH, "end", 1);
}
