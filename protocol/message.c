/* message.c: the `oware.v1` messages (PROTOCOL.md): client messages parsed
 * with jansson, server messages written with jw. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "protocol/game.h"
#include "protocol/message.h"

const char *proto_reason_name(int reason)
{
	switch (reason) {
	case PROTO_END_RESIGN: return "resign";
	case PROTO_END_AGREEMENT: return "agreement";
	case PROTO_END_ABANDONED: return "abandoned";
	case PROTO_END_ABORTED: return "aborted";
	case PROTO_END_TIMEOUT: return "timeout";
	case PROTO_END_ORGANISER: return "organiser";
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
	{"name", PROTO_MSG_NAME}, {"chat", PROTO_MSG_CHAT},
	{"event_create", PROTO_MSG_EVENT_CREATE}, {"event_watch", PROTO_MSG_EVENT_WATCH},
	{"event_join", PROTO_MSG_EVENT_JOIN}, {"event_withdraw", PROTO_MSG_EVENT_WITHDRAW},
	{"event_start", PROTO_MSG_EVENT_START}, {"event_result", PROTO_MSG_EVENT_RESULT},
	{"event_next", PROTO_MSG_EVENT_NEXT}, {"event_finish", PROTO_MSG_EVENT_FINISH},
	{"event_entries", PROTO_MSG_EVENT_ENTRIES}, {"push", PROTO_MSG_PUSH},
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

/* An integer field of the clock object c in [lo, hi] into *out: 1 when
 * present, 0 when absent, -1 with err set when mistyped or out of range. */
static int clock_int(const json_t *c, const char *name, int lo, int hi, int *out,
                     char *err, size_t errlen)
{
	const json_t *v = json_object_get(c, name);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		snprintf(err, errlen, "clock.%s: not an integer from %d to %d", name, lo, hi);
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 1;
}

/* create's optional `clock` (PROTOCOL.md "Clocks"): absent or null for
 * none; {"initial":S[,"increment":I]}, {"south":S,"north":S[,"increment":I]}
 * or {"days":D}. 0, or -1 with err set. */
static int parse_clock(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	const json_t *c = json_object_get(o, "clock");
	int initial = 0, days = 0, sides[2] = {0, 0}, inc = 0;
	int hi, hd, hs, hn, hinc;

	m->clock_kind = PROTO_CLOCK_NONE;
	if (!c || json_is_null(c))
		return 0;
	if (!json_is_object(c)) {
		snprintf(err, errlen, "clock: not an object or null");
		return -1;
	}
	if ((hi = clock_int(c, "initial", PROTO_CLOCK_INITIAL_MIN, PROTO_CLOCK_INITIAL_MAX,
	                    &initial, err, errlen)) < 0 ||
	    (hs = clock_int(c, "south", PROTO_CLOCK_INITIAL_MIN, PROTO_CLOCK_INITIAL_MAX,
	                    &sides[OW_SOUTH], err, errlen)) < 0 ||
	    (hn = clock_int(c, "north", PROTO_CLOCK_INITIAL_MIN, PROTO_CLOCK_INITIAL_MAX,
	                    &sides[OW_NORTH], err, errlen)) < 0 ||
	    (hinc = clock_int(c, "increment", 0, PROTO_CLOCK_INCREMENT_MAX, &inc, err, errlen)) < 0 ||
	    (hd = clock_int(c, "days", PROTO_CLOCK_DAYS_MIN, PROTO_CLOCK_DAYS_MAX, &days,
	                    err, errlen)) < 0)
		return -1;
	if (hd && !hi && !hs && !hn && !hinc) {
		m->clock_kind = PROTO_CLOCK_CORRESPONDENCE;
		m->clock_days = days;
		return 0;
	}
	if (!hd && hi && !hs && !hn) {
		sides[OW_SOUTH] = sides[OW_NORTH] = initial;
	} else if (hd || hi || !hs || !hn) {
		snprintf(err, errlen, "clock: give {initial, increment}, {south, north, increment}"
		         " or {days}");
		return -1;
	}
	m->clock_kind = PROTO_CLOCK_REALTIME;
	m->clock_initial[OW_SOUTH] = sides[OW_SOUTH];
	m->clock_initial[OW_NORTH] = sides[OW_NORTH];
	m->clock_increment = inc;
	return 0;
}

/* The text field `field` of o checked and trimmed into buf (text.h):
 * 1 when present, 0 when absent or null and optional, -1 with err set. */
static int get_text(const json_t *o, const char *field, int max_cp, char *buf, size_t bufsz,
                    int optional, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, field);
	const char *why;

	if ((!v || json_is_null(v)) && optional)
		return 0;
	if (!v || !json_is_string(v)) {
		snprintf(err, errlen, "%s: missing or not a string", field);
		return -1;
	}
	if (proto_text_clean(json_string_value(v), json_string_length(v), max_cp, buf, bufsz,
	                     &why) < 0) {
		snprintf(err, errlen, "%s: %s (1 to %d characters, printable)", field, why, max_cp);
		return -1;
	}
	if (!strcmp(field, "name") && proto_name_check(buf, &why) < 0) {
		snprintf(err, errlen, "%s: %s", field, why);
		return -1;
	}
	return 1;
}

/* create's optional `position` (PROTOCOL.md "Games from a position"):
 * absent or null for the standard start; else a position of the kind k as
 * `oware play [--game togyz] --position` takes it, valid, whose game is
 * not over. 0 or -1 with err. */
static int parse_position(const json_t *o, const proto_kind *k, proto_msg *m, char *err,
                          size_t errlen)
{
	const json_t *p = json_object_get(o, "position");
	char why[160];

	m->has_position = 0;
	if (!p || json_is_null(p))
		return 0;
	if (k->position_json(p, &m->position, why, sizeof why) < 0) {
		/* "pits[3]: negative count" -> "position.pits[3]: ..." */
		snprintf(err, errlen, "%s%s", strncmp(why, "position", 8) ? "position." : "", why);
		return -1;
	}
	m->has_position = 1;
	return 0;
}

/* move's `pit`: a pit letter "a".."f" / "A".."F" (Oware) into m->pit, or
 * a hole number "1".."9" (Togyz Kumalak) into m->hole. The room's kind
 * decides which it takes. 0, or -1 with err set. */
static int parse_pit(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	char s[16];

	m->pit = -1;
	m->hole = 0;
	if (get_string(o, "pit", s, sizeof s, 0, err, errlen) < 0)
		return -1;
	if (!s[1] && s[0] >= '1' && s[0] <= '9')
		m->hole = s[0] - '0';
	else if (!s[1])
		m->pit = ow_pit_parse((unsigned char)s[0]);
	if (m->pit < 0 && !m->hole) {
		snprintf(err, errlen, "pit: not a pit letter a-f or A-F (Oware) or a hole number 1-9"
		         " (Togyz Kumalak)");
		return -1;
	}
	return 0;
}

/* The optional `name` of create and join. 0, or -1 with err set. */
static int get_name(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	int r = get_text(o, "name", PROTO_NAME_MAX, m->name, sizeof m->name, 1, err, errlen);

	m->has_name = r > 0;
	return r < 0 ? -1 : 0;
}

/* An optional integer field in [lo, hi]: 1 and *out when present, 0 when
 * absent or null (when nullable), -1 with err. */
static int get_int(const json_t *o, const char *field, long lo, long hi, int optional,
                   int *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, field);

	if ((!v || json_is_null(v)) && optional)
		return 0;
	if (!v || !json_is_integer(v)) {
		snprintf(err, errlen, "%s: missing or not an integer", field);
		return -1;
	}
	if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
		snprintf(err, errlen, "%s: out of range (%ld to %ld)", field, lo, hi);
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 1;
}

/* `token`: absent, null or a string. */
static int get_token(const json_t *o, proto_msg *m, int optional, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, "token");

	if (optional && v && json_is_null(v))
		return 0;
	return get_string(o, "token", m->token, sizeof m->token, optional, err, errlen) < 0 ? -1 : 0;
}

static int parse_event_create(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	static const struct { const char *name; int format; } formats[] = {
		{"round_robin", PROTO_EV_ROUND_ROBIN},
		{"double_round_robin", PROTO_EV_DOUBLE_ROUND_ROBIN},
		{"swiss", PROTO_EV_SWISS},
	};
	char s[24];
	const json_t *v;
	int r;

	if (get_text(o, "title", PROTO_EV_TITLE_MAX, m->title, sizeof m->title, 0, err,
	             errlen) < 0 ||
	    get_string(o, "kind", m->kind, sizeof m->kind, 0, err, errlen) < 0)
		return -1;
	if (!proto_kind_find(m->kind)) {
		snprintf(err, errlen, "kind: not a kind of game this server hosts (\"oware\" or \"togyz\")");
		return -1;
	}
	if (get_string(o, "format", s, sizeof s, 0, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (!strcmp(s, formats[i].name))
			m->format = formats[i].format;
	if (!m->format) {
		snprintf(err, errlen, "format: not round_robin, double_round_robin or swiss");
		return -1;
	}
	r = get_int(o, "rounds", 1, PROTO_EV_ROUNDS_MAX, 1, &m->rounds, err, errlen);
	if (r < 0)
		return -1;
	if ((m->format == PROTO_EV_SWISS) != (r == 1)) {
		snprintf(err, errlen, m->format == PROTO_EV_SWISS
		         ? "rounds: a Swiss needs its number of rounds (1 to 32)"
		         : "rounds: a round robin plays as many rounds as its field needs");
		return -1;
	}
	if (get_int(o, "max_players", 0, PROTO_EV_PLAYERS_MAX, 1, &m->max_players, err,
	            errlen) < 0)
		return -1;
	if (m->max_players == 1) {
		snprintf(err, errlen, "max_players: 0 (no limit) or 2 to %d", PROTO_EV_PLAYERS_MAX);
		return -1;
	}
	v = json_object_get(o, "auto");
	m->auto_next = 1;
	if (v && !json_is_null(v)) {
		if (!json_is_boolean(v)) {
			snprintf(err, errlen, "auto: not true or false");
			return -1;
		}
		m->auto_next = json_is_true(v);
	}
	v = json_object_get(o, "rules");
	m->rules = PROTO_EV_RULES_2025;
	if (v && !json_is_null(v)) {
		const char *rs = json_is_string(v) ? json_string_value(v) : "";

		if (!strcmp(rs, "fide_2017"))
			m->rules = PROTO_EV_RULES_2017;
		else if (strcmp(rs, "fide_2025")) {
			snprintf(err, errlen, "rules: not \"fide_2025\" or \"fide_2017\"");
			return -1;
		}
	}
	return parse_clock(o, m, err, errlen);
}

static int parse_event_result(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	static const struct { const char *name; char code; } results[] = {
		{"white", '1'}, {"draw", '='}, {"black", '0'},
		{"white_forfeit", '+'}, {"black_forfeit", '-'}, {"double_forfeit", '*'},
	};
	const json_t *v;
	char s[24];

	if (get_int(o, "round", 1, PROTO_EV_ROUNDS_MAX, 0, &m->round, err, errlen) < 0 ||
	    get_int(o, "board", 1, PROTO_EV_PLAYERS_MAX, 0, &m->board, err, errlen) < 0 ||
	    get_string(o, "result", s, sizeof s, 0, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
		if (!strcmp(s, results[i].name))
			m->result = results[i].code;
	if (!m->result) {
		snprintf(err, errlen, "result: not white, draw, black, white_forfeit, black_forfeit"
		         " or double_forfeit");
		return -1;
	}
	v = json_object_get(o, "seeds");
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_array(v) || json_array_size(v) != 2) {
		snprintf(err, errlen, "seeds: not an array of two integers");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		const json_t *n = json_array_get(v, (size_t)i);

		if (!json_is_integer(n) || json_integer_value(n) < 0 ||
		    json_integer_value(n) > PROTO_EV_SEEDS_MAX) {
			snprintf(err, errlen, "seeds: each an integer from 0 to %d", PROTO_EV_SEEDS_MAX);
			return -1;
		}
		m->seeds[i] = (int)json_integer_value(n);
	}
	if (strchr("+-*", m->result) && (m->seeds[0] || m->seeds[1])) {
		snprintf(err, errlen, "seeds: a forfeit has none");
		return -1;
	}
	return 0;
}

/* The fields of a club event's message (the type m->type). */
static int parse_event(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	if (m->type == PROTO_MSG_EVENT_CREATE)
		return parse_event_create(o, m, err, errlen);
	if (get_string(o, "event", m->event, sizeof m->event, 0, err, errlen) < 0)
		return -1;
	switch (m->type) {
	case PROTO_MSG_EVENT_WATCH:
		return get_token(o, m, 1, err, errlen);
	case PROTO_MSG_EVENT_JOIN:
		if (!json_object_get(o, "name") || json_is_null(json_object_get(o, "name"))) {
			snprintf(err, errlen, "name: missing");
			return -1;
		}
		return get_name(o, m, err, errlen);
	case PROTO_MSG_EVENT_RESULT:
		if (parse_event_result(o, m, err, errlen) < 0)
			return -1;
		/* fall through */
	case PROTO_MSG_EVENT_WITHDRAW:
		m->entry = -1;
		if (m->type == PROTO_MSG_EVENT_WITHDRAW &&
		    get_int(o, "entry", 0, 2 * PROTO_EV_PLAYERS_MAX - 1, 1, &m->entry, err, errlen) < 0)
			return -1;
		return get_token(o, m, 0, err, errlen);
	case PROTO_MSG_EVENT_ENTRIES: {
		const json_t *v = json_object_get(o, "open");

		m->entries_open = -1;
		if (v && !json_is_null(v)) {
			if (!json_is_boolean(v)) {
				snprintf(err, errlen, "open: not true or false");
				return -1;
			}
			m->entries_open = json_is_true(v);
		}
		if (get_int(o, "per_address", 1, PROTO_EV_PLAYERS_MAX, 1, &m->per_address, err,
		            errlen) < 0)
			return -1;
		if (m->entries_open < 0 && !m->per_address) {
			snprintf(err, errlen, "open or per_address: one at least");
			return -1;
		}
		return get_token(o, m, 0, err, errlen);
	}
	default:
		return get_token(o, m, 0, err, errlen);
	}
}

/* push: {action: "subscribe", subscription: {endpoint, keys: {p256dh,
 * auth}}} (other members of the subscription, as expirationTime, are
 * ignored) or {action: "cancel", endpoint?}. */
static int parse_push(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	char a[16];
	const json_t *sub, *keys;

	if (get_string(o, "action", a, sizeof a, 0, err, errlen) < 0)
		return -1;
	if (!strcmp(a, "cancel")) {
		m->action = PROTO_ACT_CANCEL;
		return get_string(o, "endpoint", m->endpoint, sizeof m->endpoint, 1, err,
		                  errlen) < 0 ? -1 : 0;
	}
	if (strcmp(a, "subscribe")) {
		snprintf(err, errlen, "action: not subscribe or cancel");
		return -1;
	}
	m->action = PROTO_ACT_SUBSCRIBE;
	sub = json_object_get(o, "subscription");
	keys = json_is_object(sub) ? json_object_get(sub, "keys") : NULL;
	if (!json_is_object(sub) || !json_is_object(keys)) {
		snprintf(err, errlen, "subscription: not an object with endpoint and keys");
		return -1;
	}
	if (get_string(sub, "endpoint", m->endpoint, sizeof m->endpoint, 0, err, errlen) < 0 ||
	    get_string(keys, "p256dh", m->p256dh, sizeof m->p256dh, 0, err, errlen) < 0 ||
	    get_string(keys, "auth", m->auth, sizeof m->auth, 0, err, errlen) < 0)
		return -1;
	return 0;
}

/* The fields of m's type from o; 0 or -1 with err set. */
static int parse_fields(const json_t *o, proto_msg *m, char *err, size_t errlen)
{
	char s[16];
	const json_t *v;
	const proto_kind *k;
	int r;

	if (PROTO_MSG_IS_EVENT(m->type))
		return parse_event(o, m, err, errlen);
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
		k = proto_kind_find(m->kind);
		if (!k) {
			snprintf(err, errlen, "kind: not a kind of game this server hosts (\"oware\" or \"togyz\")");
			return -1;
		}
		if (parse_clock(o, m, err, errlen) < 0 || parse_position(o, k, m, err, errlen) < 0)
			return -1;
		return get_name(o, m, err, errlen);
	case PROTO_MSG_JOIN:
		if (get_string(o, "room", m->room, sizeof m->room, 0, err, errlen) < 0)
			return -1;
		v = json_object_get(o, "token");
		if (!(v && json_is_null(v)) &&
		    get_string(o, "token", m->token, sizeof m->token, 1, err, errlen) < 0)
			return -1;
		return get_name(o, m, err, errlen);
	case PROTO_MSG_NAME:
		/* Present, and a string or null (null: no name). */
		if (!json_object_get(o, "name")) {
			snprintf(err, errlen, "name: missing");
			return -1;
		}
		m->has_name = 1;
		return get_text(o, "name", PROTO_NAME_MAX, m->name, sizeof m->name, 1, err,
		                errlen) < 0 ? -1 : 0;
	case PROTO_MSG_CHAT:
		return get_text(o, "text", PROTO_CHAT_MAX, m->text, sizeof m->text, 0, err,
		                errlen) < 0 ? -1 : 0;
	case PROTO_MSG_MOVE:
		if (parse_pit(o, m, err, errlen) < 0)
			return -1;
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
	case PROTO_MSG_PUSH:
		return parse_push(o, m, err, errlen);
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
	if (!o && json_error_code(&jerr) == json_error_numeric_overflow) {
		/* Valid JSON with a number out of any field's range. */
		snprintf(err, errlen, "a number too big (column %d)", jerr.column);
		rc = PROTO_E_BAD_MESSAGE;
		goto out;
	}
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

int proto_rooms_query_parse(const char *text, size_t len, proto_room_ref *out, int max,
                            char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	const json_t *list = o ? json_object_get(o, "rooms") : NULL;
	int n = -1;

	if (errlen)
		err[0] = 0;
	if (!json_is_object(o) || !json_is_array(list)) {
		snprintf(err, errlen, "not a JSON object with an array \"rooms\"");
		goto out;
	}
	if (json_array_size(list) > (size_t)max) {
		snprintf(err, errlen, "rooms: more than %d", max);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *e = json_array_get(list, i), *t;

		memset(&out[i], 0, sizeof out[i]);
		if (!json_is_object(e) ||
		    get_string(e, "room", out[i].room, sizeof out[i].room, 0, err, errlen) < 0)
			goto bad;
		t = json_object_get(e, "token");
		if (!(t && json_is_null(t)) &&
		    get_string(e, "token", out[i].token, sizeof out[i].token, 1, err, errlen) < 0)
			goto bad;
		continue;
bad:
		{
			char why[96];

			snprintf(why, sizeof why, "%s", err[0] ? err : "not an object");
			snprintf(err, errlen, "rooms[%zu]: %s", i, why);
		}
		goto out;
	}
	n = (int)json_array_size(list);
out:
	json_decref(o);
	return n;
}

int proto_push_req_parse(const char *text, size_t len, proto_room_ref *ref, proto_msg *m,
                         char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	int rc = -1;

	memset(ref, 0, sizeof *ref);
	memset(m, 0, sizeof *m);
	m->type = PROTO_MSG_PUSH;
	if (errlen)
		err[0] = 0;
	if (!json_is_object(o))
		snprintf(err, errlen, "not a JSON object");
	else if (get_string(o, "room", ref->room, sizeof ref->room, 0, err, errlen) >= 0 &&
	         get_string(o, "token", ref->token, sizeof ref->token, 0, err, errlen) >= 0)
		rc = parse_push(o, m, err, errlen);
	json_decref(o);
	return rc;
}

static void seat_write(jw *w, const char *side, const proto_seat_view *s)
{
	jw_key(w, side);
	jw_obj(w);
	jw_key(w, "taken");
	jw_bool(w, s->taken);
	jw_key(w, "connected");
	jw_bool(w, s->connected);
	jw_key(w, "claimable");
	jw_bool(w, s->claimable);
	jw_obj_end(w);
}

/* A side's pair of milliseconds as {"south":N,"north":N}. */
static void pair_write(jw *w, const int64_t ms[2])
{
	jw_obj(w);
	jw_key(w, "south");
	jw_int(w, ms[OW_SOUTH]);
	jw_key(w, "north");
	jw_int(w, ms[OW_NORTH]);
	jw_obj_end(w);
}

void proto_clock_write(jw *w, const proto_clock_view *c)
{
	if (c->kind == PROTO_CLOCK_NONE) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "kind");
	jw_str(w, c->kind == PROTO_CLOCK_CORRESPONDENCE ? "correspondence" : "realtime");
	jw_key(w, "south");
	jw_int(w, c->left[OW_SOUTH]);
	jw_key(w, "north");
	jw_int(w, c->left[OW_NORTH]);
	jw_key(w, "running");
	jw_str(w, proto_side_name(c->running));
	jw_key(w, "grace");
	jw_int(w, c->grace);
	jw_key(w, "increment");
	jw_int(w, c->increment);
	jw_key(w, "initial");
	pair_write(w, c->initial);
	jw_key(w, "days");
	if (c->days)
		jw_int(w, c->days);
	else
		jw_null(w);
	jw_obj_end(w);
}

void proto_state_write(jw *w, const proto_state_view *v)
{
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "state");
	jw_key(w, "room");
	jw_str(w, v->room);
	jw_key(w, "kind");
	jw_str(w, v->kind);
	jw_key(w, "version");
	jw_int(w, (long long)v->version);
	jw_key(w, "game_number");
	jw_int(w, v->game_number);
	jw_key(w, "game");
	v->k->game_write(w, v->play, v->reason ? proto_reason_name(v->reason) : NULL, v->winner);
	jw_key(w, "moves");
	v->k->moves_write(w, v->moves, v->nmoves);
	jw_key(w, "last");
	if (v->has_last)
		v->k->last_write(w, v->play);
	else
		jw_null(w);
	jw_key(w, "seats");
	jw_obj(w);
	seat_write(w, "south", &v->seats[OW_SOUTH]);
	seat_write(w, "north", &v->seats[OW_NORTH]);
	jw_obj_end(w);
	jw_key(w, "spectators");
	jw_int(w, v->spectators);
	jw_key(w, "draw_offer");
	jw_str(w, proto_side_name(v->draw_offer));
	jw_key(w, "rematch_offer");
	jw_str(w, proto_side_name(v->rematch_offer));
	jw_key(w, "aborted_by");
	jw_str(w, proto_side_name(v->aborted_by));
	jw_key(w, "abandon_seconds");
	jw_int(w, v->abandon_seconds);
	jw_key(w, "claim_in");
	if (v->claim_in < 0)
		jw_null(w);
	else
		jw_int(w, v->claim_in);
	jw_key(w, "clock");
	proto_clock_write(w, &v->clock);
	jw_key(w, "start");
	if (v->start)
		v->k->position_write(w, v->start);
	else
		jw_null(w);
	jw_key(w, "event");
	jw_str(w, v->event);
	jw_key(w, "names");
	jw_obj(w);
	jw_key(w, "south");
	jw_str(w, v->names[OW_SOUTH]);
	jw_key(w, "north");
	jw_str(w, v->names[OW_NORTH]);
	jw_obj_end(w);
	jw_key(w, "spectator_names");
	jw_arr(w);
	for (unsigned i = 0; i < v->nspectator_names; i++)
		jw_str(w, v->spectator_names[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void chat_fields(jw *w, const proto_chat *c)
{
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "chat");
	jw_key(w, "id");
	jw_int(w, (long long)c->id);
	jw_key(w, "from");
	jw_str(w, proto_side_name(c->side));
	jw_key(w, "name");
	jw_str(w, c->name);
	jw_key(w, "text");
	jw_str(w, c->text);
	jw_key(w, "at");
	jw_int(w, c->at);
	jw_obj_end(w);
}

void proto_chat_write(jw *w, const proto_chat *c)
{
	chat_fields(w, c);
}

void proto_chat_history_write(jw *w, const proto_chat *c, int n)
{
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "chat_history");
	jw_key(w, "messages");
	jw_arr(w);
	for (int i = 0; i < n; i++)
		chat_fields(w, &c[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

void proto_welcome_write(jw *w, const char *room, const char *kind, int seat,
                         const char *token, const char *push_key)
{
	const char *s = proto_side_name(seat);

	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "welcome");
	jw_key(w, "room");
	jw_str(w, room);
	jw_key(w, "kind");
	jw_str(w, kind);
	jw_key(w, "seat");
	jw_str(w, s ? s : "spectator");
	if (token) {
		jw_key(w, "token");
		jw_str(w, token);
	}
	if (push_key) {
		jw_key(w, "push_key");
		jw_str(w, push_key);
	}
	jw_obj_end(w);
}

void proto_push_write(jw *w, int action)
{
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "push");
	jw_key(w, "action");
	jw_str(w, action == PROTO_ACT_SUBSCRIBE ? "subscribe" : "cancel");
	jw_obj_end(w);
}

void proto_error_write(jw *w, int code, const char *message)
{
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "error");
	jw_key(w, "code");
	jw_str(w, proto_err_code(code));
	jw_key(w, "message");
	jw_str(w, message ? message : "");
	jw_obj_end(w);
}
