/* message.c: parsing client messages and building server messages of the
 * `oware.v1` protocol (PROTOCOL.md) with jansson. */
#include <stdio.h>
#include <string.h>

#include "protocol/game.h"
#include "protocol/message.h"

static const char *const err_codes[PROTO_E_COUNT] = {
	[PROTO_E_NONE] = "none",
	[PROTO_E_BAD_JSON] = "bad_json",
	[PROTO_E_BAD_MESSAGE] = "bad_message",
	[PROTO_E_UNKNOWN_TYPE] = "unknown_type",
	[PROTO_E_NOT_JOINED] = "not_joined",
	[PROTO_E_ALREADY_JOINED] = "already_joined",
	[PROTO_E_NO_ROOM] = "no_room",
	[PROTO_E_BAD_TOKEN] = "bad_token",
	[PROTO_E_NOT_A_PLAYER] = "not_a_player",
	[PROTO_E_NOT_YOUR_TURN] = "not_your_turn",
	[PROTO_E_ILLEGAL_MOVE] = "illegal_move",
	[PROTO_E_STALE_PLY] = "stale_ply",
	[PROTO_E_GAME_OVER] = "game_over",
	[PROTO_E_GAME_NOT_OVER] = "game_not_over",
	[PROTO_E_NO_OFFER] = "no_offer",
	[PROTO_E_OFFER_PENDING] = "offer_pending",
	[PROTO_E_CANNOT_ABORT] = "cannot_abort",
	[PROTO_E_CANNOT_CLAIM] = "cannot_claim",
	[PROTO_E_OPPONENT_MISSING] = "opponent_missing",
	[PROTO_E_TOO_MANY_ROOMS] = "too_many_rooms",
	[PROTO_E_RATE_LIMITED] = "rate_limited",
	[PROTO_E_TOO_MANY_SPECTATORS] = "too_many_spectators",
	[PROTO_E_TOO_MANY_CONNECTIONS] = "too_many_connections",
	[PROTO_E_REPLACED] = "replaced",
	[PROTO_E_INTERNAL] = "internal",
};

const char *proto_err_code(int e)
{
	if (e <= PROTO_E_NONE || e >= PROTO_E_COUNT)
		return "internal";
	return err_codes[e];
}

const char *proto_reason_name(int reason)
{
	switch (reason) {
	case PROTO_END_RESIGN: return "resign";
	case PROTO_END_AGREEMENT: return "agreement";
	case PROTO_END_ABANDONED: return "abandoned";
	case PROTO_END_ABORTED: return "aborted";
	}
	return proto_end_name(reason);
}

static const struct {
	const char *name;
	int type;
} msg_types[] = {
	{"create", PROTO_MSG_CREATE}, {"join", PROTO_MSG_JOIN},
	{"move", PROTO_MSG_MOVE}, {"resign", PROTO_MSG_RESIGN},
	{"draw", PROTO_MSG_DRAW}, {"abort", PROTO_MSG_ABORT},
	{"rematch", PROTO_MSG_REMATCH}, {"claim", PROTO_MSG_CLAIM},
};

/* Copies the string field `name` of o into buf (size bufsz). Returns 1 when
 * present and copied, 0 when absent (and optional), -1 with err set when
 * mistyped, too long or empty. */
static int get_string(const json_t *o, const char *name, char *buf, size_t bufsz,
                      int optional, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, name);
	size_t n;

	if (!v) {
		if (optional)
			return 0;
		snprintf(err, errlen, "%s: missing", name);
		return -1;
	}
	if (!json_is_string(v)) {
		snprintf(err, errlen, "%s: not a string", name);
		return -1;
	}
	n = json_string_length(v);
	if (n == 0 || n >= bufsz || strlen(json_string_value(v)) != n) {
		snprintf(err, errlen, "%s: empty, too long or not text", name);
		return -1;
	}
	memcpy(buf, json_string_value(v), n + 1);
	return 1;
}

static int parse_action(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	char a[16];

	if (get_string(o, "action", a, sizeof a, 0, err, errlen) < 0)
		return -1;
	if (!strcmp(a, "offer"))
		m->action = PROTO_ACT_OFFER;
	else if (!strcmp(a, "accept"))
		m->action = PROTO_ACT_ACCEPT;
	else if (!strcmp(a, "decline"))
		m->action = PROTO_ACT_DECLINE;
	else {
		snprintf(err, errlen, "action: not offer, accept or decline");
		return -1;
	}
	return 0;
}

/* The fields of m's type from o; 0 or -1 with err set. */
static int parse_fields(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	char s[16];
	const json_t *v;
	int r;

	switch (m->type) {
	case PROTO_MSG_CREATE:
		if (get_string(o, "side", s, sizeof s, 0, err, errlen) < 0)
			return -1;
		m->side = !strcmp(s, "random") ? PROTO_SIDE_RANDOM : proto_side_parse(s);
		if (m->side < 0) {
			snprintf(err, errlen, "side: not south, north or random");
			return -1;
		}
		r = get_string(o, "kind", m->kind, sizeof m->kind, 1, err, errlen);
		if (r < 0)
			return -1;
		if (r == 0)
			strcpy(m->kind, "oware");
		if (strcmp(m->kind, "oware")) {
			snprintf(err, errlen, "kind: not a kind of game this server hosts");
			return -1;
		}
		return 0;
	case PROTO_MSG_JOIN:
		if (get_string(o, "room", m->room, sizeof m->room, 0, err, errlen) < 0)
			return -1;
		v = json_object_get(o, "token");
		if (v && json_is_null(v))
			return 0;
		return get_string(o, "token", m->token, sizeof m->token, 1, err, errlen) < 0 ? -1 : 0;
	case PROTO_MSG_MOVE:
		if (get_string(o, "pit", s, sizeof s, 0, err, errlen) < 0)
			return -1;
		m->pit = s[1] ? -1 : ow_pit_parse((unsigned char)s[0]);
		if (m->pit < 0) {
			snprintf(err, errlen, "pit: not a pit letter a-f or A-F");
			return -1;
		}
		v = json_object_get(o, "ply");
		if (!v || !json_is_integer(v)) {
			snprintf(err, errlen, "ply: missing or not an integer");
			return -1;
		}
		if (json_integer_value(v) < 0 || json_integer_value(v) > 1000000) {
			snprintf(err, errlen, "ply: out of range");
			return -1;
		}
		m->ply = (int)json_integer_value(v);
		return 0;
	case PROTO_MSG_DRAW:
	case PROTO_MSG_REMATCH:
		return parse_action(o, m, err, errlen);
	default:
		return 0; /* resign, abort, claim: no fields */
	}
}

int proto_msg_parse(const char *text, size_t len, proto_msg *out,
                    char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *o;
	const json_t *t;
	const char *type;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (errlen)
		err[0] = 0;
	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o || !json_is_object(o)) {
		if (!o)
			proto_printable_ascii(jerr.text);
		snprintf(err, errlen, "%s", o ? "not a JSON object" : jerr.text);
		rc = PROTO_E_BAD_JSON;
		goto out;
	}
	t = json_object_get(o, "type");
	if (!t || !json_is_string(t)) {
		snprintf(err, errlen, "type: missing or not a string");
		rc = PROTO_E_BAD_MESSAGE;
		goto out;
	}
	type = json_string_value(t);
	for (size_t i = 0; i < sizeof msg_types / sizeof msg_types[0]; i++)
		if (!strcmp(type, msg_types[i].name))
			out->type = msg_types[i].type;
	if (out->type == PROTO_MSG_NONE) {
		snprintf(err, errlen, "type: unknown message type");
		rc = PROTO_E_UNKNOWN_TYPE;
		goto out;
	}
	if (parse_fields(o, out, err, errlen) < 0)
		rc = PROTO_E_BAD_MESSAGE;
out:
	json_decref(o);
	return rc;
}

static json_t *side_or_null(int side)
{
	const char *s = proto_side_name(side);

	return s ? json_string(s) : json_null();
}

/* The game object: the engine's JSON with a room-level end applied. */
static json_t *game_json(const proto_state_view *v)
{
	json_t *g = proto_game_json(v->game);
	const char *w;

	if (!g || !v->reason)
		return g;
	w = proto_winner_name(v->winner);
	if (json_object_set_new(g, "over", json_true()) ||
	    json_object_set_new(g, "legal", json_array()) ||
	    json_object_set_new(g, "winner", w ? json_string(w) : json_null()) ||
	    json_object_set_new(g, "reason", json_string(proto_reason_name(v->reason)))) {
		json_decref(g);
		return NULL;
	}
	return g;
}

static json_t *last_json(const ow_move_info *m)
{
	char pit[2] = {0, 0};

	if (!m)
		return json_null();
	pit[0] = ow_pit_letter(m->pit);
	return json_pack("{s:s, s:o?, s:o?, s:i, s:b}",
	                 "pit", pit,
	                 "sown", proto_pits_json(m->sown, m->nsown),
	                 "captured", proto_pits_json(m->captured, m->ncaptured),
	                 "seeds", m->seeds,
	                 "grand_slam", m->grand_slam);
}

static json_t *seat_json(const proto_seat_view *s)
{
	return json_pack("{s:b, s:b, s:b}", "taken", s->taken,
	                 "connected", s->connected, "claimable", s->claimable);
}

json_t *proto_state_json(const proto_state_view *v)
{
	json_t *st, *moves = json_array();

	for (int i = 0; moves && i < v->nmoves; i++) {
		char s[2] = {ow_pit_letter(v->moves[i]), 0};

		if (json_array_append_new(moves, json_string(s))) {
			json_decref(moves);
			moves = NULL;
		}
	}
	st = json_pack("{s:s, s:s, s:s, s:I, s:i, s:o?, s:o?, s:o?,"
	               " s:{s:o?, s:o?}, s:i, s:o?, s:o?, s:i}",
	               "type", "state", "room", v->room, "kind", v->kind,
	               "version", (json_int_t)v->version,
	               "game_number", (int)v->game_number,
	               "game", game_json(v),
	               "moves", moves,
	               "last", v->last ? last_json(v->last) : json_null(),
	               "seats", "south", seat_json(&v->seats[OW_SOUTH]),
	               "north", seat_json(&v->seats[OW_NORTH]),
	               "spectators", (int)v->spectators,
	               "draw_offer", side_or_null(v->draw_offer),
	               "rematch_offer", side_or_null(v->rematch_offer),
	               "abandon_seconds", (int)v->abandon_seconds);
	if (!st)
		return NULL;
	if (json_object_set_new(st, "claim_in", v->claim_in < 0 ? json_null()
	                        : json_integer(v->claim_in))) {
		json_decref(st);
		return NULL;
	}
	return st;
}

json_t *proto_welcome_json(const char *room, const char *kind, int seat,
                           const char *token)
{
	const char *s = proto_side_name(seat);
	json_t *w = json_pack("{s:s, s:s, s:s, s:s}", "type", "welcome",
	                      "room", room, "kind", kind, "seat", s ? s : "spectator");

	if (w && token && json_object_set_new(w, "token", json_string(token))) {
		json_decref(w);
		return NULL;
	}
	return w;
}

json_t *proto_error_json(int code, const char *message)
{
	return json_pack("{s:s, s:s, s:s}", "type", "error",
	                 "code", proto_err_code(code), "message", message ? message : "");
}
