/* rooms_push.c: Web Push in the rooms' shell (issue 53; PROTOCOL.md
 * "Push"): a seat's subscriptions kept and cancelled (the `push`
 * message), and what happened in a room with a clock of days handed, as
 * facts for one player, to the sender the transport set (rooms_on_push).
 * Over the table (rooms_shell.h) beside rooms.c; calls nothing above. */
#include <stdio.h>
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

/* Why m's `push` cannot be kept in r, or NULL; *code the error's. */
static const char *push_refusal(const room_member *m, const room *r, int *code)
{
	*code = PROTO_E_PUSH_REFUSED;
	if (!pcfg->push_key || !shell_store->ops->push_add)
		return "this server does not send push notifications (--push off)";
	if (m->seat < 0) {
		*code = PROTO_E_NOT_A_PLAYER;
		return "only a player is told of his turn";
	}
	if (r->rr.rec.clock_kind != PROTO_CLOCK_CORRESPONDENCE)
		return "push notifications are for rooms with a clock of days";
	if (rules_over(&r->rr)) {
		*code = PROTO_E_GAME_OVER;
		return "the game is over";
	}
	return NULL;
}

static void subscribe(room_member *m, room *r, const proto_msg *msg)
{
	char host[WEBPUSH_HOST_MAX + 1];
	store_push_sub p;
	webpush_sub keys;

	if (webpush_endpoint_check(msg->endpoint, pcfg->push_allow, pcfg->push_loopback, host,
	                           sizeof host) < 0) {
		shell_io.error(m, PROTO_E_PUSH_REFUSED, webpush_error());
		return;
	}
	if (webpush_sub_parse(&keys, msg->p256dh, msg->auth) < 0) {
		shell_io.error(m, PROTO_E_BAD_MESSAGE, "subscription: keys.p256dh is not a P-256"
		               " point or keys.auth not 16 bytes (base64url)");
		return;
	}
	if (m->ip && ip_push_allow(m->ip, now_ms(), pcfg->push_per_ip_per_min) < 0) {
		shell_io.error(m, PROTO_E_RATE_LIMITED, "too many push subscriptions from this address;"
		               " wait a minute");
		return;
	}
	memset(&p, 0, sizeof p);
	snprintf(p.room, sizeof p.room, "%s", r->rr.rec.id);
	p.side = m->seat;
	p.game = r->rr.rec.game_number;
	p.created = (int64_t)time(NULL);
	snprintf(p.endpoint, sizeof p.endpoint, "%s", msg->endpoint);
	snprintf(p.p256dh, sizeof p.p256dh, "%s", msg->p256dh);
	snprintf(p.auth, sizeof p.auth, "%s", msg->auth);
	if (!rooms_store_ok() || shell_store->ops->push_add(shell_store, &p) < 0) {
		shell_io.error(m, PROTO_E_INTERNAL, "the store cannot save it now; nothing changed");
		return;
	}
	log_event(LOG_INFO, "push_subscribed", "room=%s side=%s host=%s", p.room,
	          proto_side_name(p.side), host);
	jw_reset(&pout);
	proto_push_write(&pout, PROTO_ACT_SUBSCRIBE);
	shell_io.send(m, &pout);
}

void push_handle(room_member *m, room *r, const proto_msg *msg)
{
	int code;
	const char *why = push_refusal(m, r, &code);

	if (why && !(msg->action == PROTO_ACT_CANCEL && code == PROTO_E_GAME_OVER)) {
		shell_io.error(m, code, why);
		return;
	}
	if (msg->action == PROTO_ACT_SUBSCRIBE) {
		subscribe(m, r, msg);
		return;
	}
	if (!rooms_store_ok() || shell_store->ops->push_del(shell_store, r->rr.rec.id, m->seat,
	                                             msg->endpoint[0] ? msg->endpoint : NULL) < 0) {
		shell_io.error(m, PROTO_E_INTERNAL, "the store cannot save it now; nothing changed");
		return;
	}
	jw_reset(&pout);
	proto_push_write(&pout, PROTO_ACT_CANCEL);
	shell_io.send(m, &pout);
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
