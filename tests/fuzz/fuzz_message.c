/* fuzz_message.c: libFuzzer target: client messages of the `oware.v1`
 * protocol (proto_msg_parse in protocol/message.h), the first thing the
 * server does with every WebSocket message.
 *
 * Checks: the result is one of the parser's three errors or a message whose
 * fields are all in range and NUL-terminated; an accepted message, written
 * back as JSON, parses to the same values; a refusal's reason is a line of
 * valid UTF-8 that fits and can be sent in an `error` message; and the
 * server messages built from accepted strings (welcome, error) encode.
 * Names and chat lines (issue 14): an accepted one is kept as the JSON
 * string's text less the white space around it, and is itself accepted
 * unchanged (trimming twice changes nothing); a `chat` built from it
 * encodes and reads back the same.
 * The same text is also parsed as the body of POST /api/rooms.
 * The same text, cut into fragments of 0 to 6 bytes (empty ones at the
 * start and between, as a client may send them), comes out of the
 * server's reassembly (server/base/reasm.h) whole, or too large past the
 * limit. */
#include <stdint.h>
#include <string.h>

#include "protocol/game.h"
#include "protocol/message.h"
#include "server/base/reasm.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_proto.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	json_object_seed(1);
	return 0;
}

/* A proto_msg string field: terminated inside its array. */
static size_t field_len(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	FUZZ_CHECK(n < size);
	return n;
}

static const char *action_name(int a)
{
	return a == PROTO_ACT_OFFER ? "offer" : a == PROTO_ACT_ACCEPT ? "accept"
	     : a == PROTO_ACT_DECLINE ? "decline" : NULL;
}

static const char *msg_name(int type)
{
	static const char *const types[] = {
		[PROTO_MSG_CREATE] = "create", [PROTO_MSG_JOIN] = "join",
		[PROTO_MSG_MOVE] = "move", [PROTO_MSG_RESIGN] = "resign",
		[PROTO_MSG_DRAW] = "draw", [PROTO_MSG_ABORT] = "abort",
		[PROTO_MSG_REMATCH] = "rematch", [PROTO_MSG_CLAIM] = "claim",
		[PROTO_MSG_NAME] = "name", [PROTO_MSG_CHAT] = "chat",
		[PROTO_MSG_EVENT_CREATE] = "event_create", [PROTO_MSG_EVENT_WATCH] = "event_watch",
		[PROTO_MSG_EVENT_JOIN] = "event_join", [PROTO_MSG_EVENT_WITHDRAW] = "event_withdraw",
		[PROTO_MSG_EVENT_START] = "event_start", [PROTO_MSG_EVENT_RESULT] = "event_result",
		[PROTO_MSG_EVENT_NEXT] = "event_next", [PROTO_MSG_EVENT_FINISH] = "event_finish",
		[PROTO_MSG_EVENT_ENTRIES] = "event_entries", [PROTO_MSG_PUSH] = "push",
	};

	return type >= PROTO_MSG_CREATE && type <= PROTO_MSG_PUSH ? types[type] : "";
}

static const char *format_name(int f)
{
	return f == PROTO_EV_ROUND_ROBIN ? "round_robin" : f == PROTO_EV_DOUBLE_ROUND_ROBIN
	       ? "double_round_robin" : f == PROTO_EV_SWISS ? "swiss" : NULL;
}

static const char *result_name(char r)
{
	switch (r) {
	case '1': return "white";
	case '=': return "draw";
	case '0': return "black";
	case '+': return "white_forfeit";
	case '-': return "black_forfeit";
	case '*': return "double_forfeit";
	}
	return NULL;
}

/* A clock as create and event_create take it (NULL: none). */
static json_t *clock_json(const proto_msg *m)
{
	if (m->clock_kind == PROTO_CLOCK_CORRESPONDENCE)
		return json_pack("{s:i}", "days", m->clock_days);
	if (m->clock_kind != PROTO_CLOCK_REALTIME)
		return NULL;
	if (m->clock_initial[0] == m->clock_initial[1])
		return json_pack("{s:i, s:i}", "initial", m->clock_initial[0], "increment",
		                 m->clock_increment);
	return json_pack("{s:i, s:i, s:i}", "south", m->clock_initial[OW_SOUTH], "north",
	                 m->clock_initial[OW_NORTH], "increment", m->clock_increment);
}

/* A club event's message as a client would have written it. */
static json_t *event_json(const proto_msg *m)
{
	json_t *o, *c;

	switch (m->type) {
	case PROTO_MSG_EVENT_CREATE:
		o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:b}", "type", "event_create", "title", m->title,
		              "kind", m->kind, "format", format_name(m->format), "max_players",
		              m->max_players, "auto", m->auto_next);
		if (o && m->rounds)
			json_object_set_new(o, "rounds", json_integer(m->rounds));
		if (o && (c = clock_json(m)))
			json_object_set_new(o, "clock", c);
		return o;
	case PROTO_MSG_EVENT_JOIN:
		return json_pack("{s:s, s:s, s:s}", "type", "event_join", "event", m->event, "name",
		                 m->name);
	case PROTO_MSG_EVENT_RESULT:
		return json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:[i,i]}", "type", "event_result",
		                 "event", m->event, "token", m->token, "round", m->round, "board",
		                 m->board, "result", result_name(m->result), "seeds", m->seeds[0],
		                 m->seeds[1]);
	default:
		o = json_pack("{s:s, s:s}", "type", msg_name(m->type), "event", m->event);
		if (o && m->token[0])
			json_object_set_new(o, "token", json_string(m->token));
		if (o && m->type == PROTO_MSG_EVENT_WITHDRAW && m->entry >= 0)
			json_object_set_new(o, "entry", json_integer(m->entry));
		if (o && m->type == PROTO_MSG_EVENT_ENTRIES && m->entries_open >= 0)
			json_object_set_new(o, "open", json_boolean(m->entries_open));
		if (o && m->type == PROTO_MSG_EVENT_ENTRIES && m->per_address)
			json_object_set_new(o, "per_address", json_integer(m->per_address));
		return o;
	}
}

/* The message as a client would have written it. */
static json_t *msg_json(const proto_msg *m)
{
	/* A move's pit: its letter (Oware), or its hole number (Togyz Kumalak). */
	char pit[2] = {m->hole ? (char)('0' + m->hole) : ow_pit_letter(m->pit), 0};

	json_t *o;

	if (PROTO_MSG_IS_EVENT(m->type))
		return event_json(m);
	switch (m->type) {
	case PROTO_MSG_CREATE:
		o = json_pack("{s:s, s:s, s:s}", "type", "create", "kind", m->kind, "side",
		              m->side == PROTO_SIDE_RANDOM ? "random" : proto_side_name(m->side));
		if (o && m->has_name)
			json_object_set_new(o, "name", json_string(m->name));
		return o;
	case PROTO_MSG_JOIN:
		o = m->token[0]
		    ? json_pack("{s:s, s:s, s:s}", "type", "join", "room", m->room, "token", m->token)
		    : json_pack("{s:s, s:s}", "type", "join", "room", m->room);
		if (o && m->has_name)
			json_object_set_new(o, "name", json_string(m->name));
		return o;
	case PROTO_MSG_NAME:
		return json_pack("{s:s, s:o}", "type", "name", "name",
		                 m->name[0] ? json_string(m->name) : json_null());
	case PROTO_MSG_CHAT:
		return json_pack("{s:s, s:s}", "type", "chat", "text", m->text);
	case PROTO_MSG_MOVE:
		return json_pack("{s:s, s:s, s:i}", "type", "move", "pit", pit, "ply", m->ply);
	case PROTO_MSG_DRAW:
	case PROTO_MSG_REMATCH:
		return json_pack("{s:s, s:s}", "type", msg_name(m->type), "action", action_name(m->action));
	case PROTO_MSG_PUSH:
		if (m->action == PROTO_ACT_SUBSCRIBE)
			return json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:s}}}", "type", "push", "action",
			                 "subscribe", "subscription", "endpoint", m->endpoint, "keys",
			                 "p256dh", m->p256dh, "auth", m->auth);
		o = json_pack("{s:s, s:s}", "type", "push", "action", "cancel");
		if (o && m->endpoint[0])
			json_object_set_new(o, "endpoint", json_string(m->endpoint));
		return o;
	default:
		return json_pack("{s:s}", "type", msg_name(m->type));
	}
}

/* The string field name of o is exactly want (all its bytes, so that an
 * embedded NUL does not pass for the end of the string). */
static void check_string(const json_t *o, const char *name, const char *want)
{
	const json_t *v = json_object_get(o, name);

	FUZZ_CHECK(json_is_string(v));
	FUZZ_CHECK_EQ(json_string_length(v), strlen(want));
	FUZZ_CHECK(!memcmp(json_string_value(v), want, strlen(want)));
}

/* A name or chat line kept from the string field `name` of o: the string
 * less white space around it, and already clean (cleaning it again keeps
 * it whole; a name also passes proto_name_check). An absent or null field
 * left kept empty. */
static void check_text(const json_t *o, const char *name, const char *kept, int max_cp)
{
	const json_t *v = json_object_get(o, name);
	char again[PROTO_CHAT_BYTES + 1];
	const char *why;
	size_t n = strlen(kept);

	if (!v || json_is_null(v)) {
		FUZZ_CHECK_EQ(kept[0], 0);
		return;
	}
	FUZZ_CHECK(json_is_string(v));
	FUZZ_CHECK(n > 0 && n <= (size_t)max_cp * 4);
	{
		const char *h = json_string_value(v);
		size_t hn = json_string_length(v), at = 0;

		while (at + n <= hn && memcmp(h + at, kept, n))
			at++;
		FUZZ_CHECK(at + n <= hn);
	}
	FUZZ_CHECK_EQ(proto_text_clean(kept, n, max_cp, again, sizeof again, &why), (int)n);
	FUZZ_CHECK(!strcmp(again, kept));
	/* A name kept passes the name's own rules too. */
	if (!strcmp(name, "name"))
		FUZZ_CHECK_EQ(proto_name_check(kept, &why), 0);
}

/* The accepted values are exactly those of the JSON text. */
static void check_exact(const char *text, size_t len, const proto_msg *m)
{
	json_t *o = json_loadb(text, len, 0, NULL);
	const json_t *v;
	/* A move's pit: its letter (Oware), or its hole number (Togyz Kumalak). */
	char pit[2] = {m->hole ? (char)('0' + m->hole) : ow_pit_letter(m->pit), 0};

	FUZZ_CHECK(json_is_object(o));
	check_string(o, "type", msg_name(m->type));
	switch (m->type) {
	case PROTO_MSG_CREATE:
		check_string(o, "side", m->side == PROTO_SIDE_RANDOM ? "random" : proto_side_name(m->side));
		if (json_object_get(o, "kind"))
			check_string(o, "kind", m->kind);
		check_text(o, "name", m->name, PROTO_NAME_MAX);
		FUZZ_CHECK_EQ(m->has_name, m->name[0] != 0);
		break;
	case PROTO_MSG_NAME:
		FUZZ_CHECK_EQ(m->has_name, 1);
		check_text(o, "name", m->name, PROTO_NAME_MAX);
		break;
	case PROTO_MSG_CHAT:
		check_text(o, "text", m->text, PROTO_CHAT_MAX);
		break;
	case PROTO_MSG_JOIN:
		check_string(o, "room", m->room);
		v = json_object_get(o, "token");
		if (v && !json_is_null(v))
			check_string(o, "token", m->token);
		else
			FUZZ_CHECK_EQ(m->token[0], 0);
		check_text(o, "name", m->name, PROTO_NAME_MAX);
		FUZZ_CHECK_EQ(m->has_name, m->name[0] != 0);
		break;
	case PROTO_MSG_MOVE:
		check_string(o, "pit", pit);
		FUZZ_CHECK_EQ(json_integer_value(json_object_get(o, "ply")), m->ply);
		break;
	case PROTO_MSG_DRAW:
	case PROTO_MSG_REMATCH:
		check_string(o, "action", action_name(m->action));
		break;
	case PROTO_MSG_PUSH:
		check_string(o, "action", m->action == PROTO_ACT_SUBSCRIBE ? "subscribe" : "cancel");
		if (m->action == PROTO_ACT_SUBSCRIBE) {
			const json_t *sub = json_object_get(o, "subscription");

			check_string(sub, "endpoint", m->endpoint);
			check_string(json_object_get(sub, "keys"), "p256dh", m->p256dh);
			check_string(json_object_get(sub, "keys"), "auth", m->auth);
		} else if (json_object_get(o, "endpoint"))
			check_string(o, "endpoint", m->endpoint);
		else
			FUZZ_CHECK_EQ(m->endpoint[0], 0);
		break;
	case PROTO_MSG_EVENT_CREATE:
		check_text(o, "title", m->title, PROTO_EV_TITLE_MAX);
		check_string(o, "kind", m->kind);
		check_string(o, "format", format_name(m->format));
		break;
	case PROTO_MSG_EVENT_JOIN:
		check_string(o, "event", m->event);
		check_text(o, "name", m->name, PROTO_NAME_MAX);
		break;
	case PROTO_MSG_EVENT_RESULT:
		check_string(o, "result", result_name(m->result));
		/* fall through */
	case PROTO_MSG_EVENT_WATCH:
	case PROTO_MSG_EVENT_WITHDRAW:
	case PROTO_MSG_EVENT_START:
	case PROTO_MSG_EVENT_NEXT:
	case PROTO_MSG_EVENT_FINISH:
	case PROTO_MSG_EVENT_ENTRIES:
		check_string(o, "event", m->event);
		v = json_object_get(o, "token");
		if (v && !json_is_null(v))
			check_string(o, "token", m->token);
		else
			FUZZ_CHECK_EQ(m->token[0], 0);
		break;
	}
	json_decref(o);
}

/* What a parse accepted is in range, and comes back the same. */
static void check_accepted(const proto_msg *m)
{
	proto_msg back;
	char err[128];
	json_t *j, *w;
	char *s;

	FUZZ_CHECK(m->type >= PROTO_MSG_CREATE && m->type <= PROTO_MSG_PUSH);
	field_len(m->endpoint, sizeof m->endpoint);
	field_len(m->p256dh, sizeof m->p256dh);
	field_len(m->auth, sizeof m->auth);
	field_len(m->event, sizeof m->event);
	field_len(m->title, sizeof m->title);
	field_len(m->name, sizeof m->name);
	field_len(m->text, sizeof m->text);
	if (m->type == PROTO_MSG_CHAT) {
		/* The line goes out in a `chat` and reads back the same. */
		proto_chat c = {1, 1, OW_SOUTH, m->name[0] ? m->name : NULL, m->text};
		jw out;

		jw_init(&out);
		proto_chat_write(&out, &c);
		FUZZ_CHECK(!out.oom);
		w = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, NULL);
		FUZZ_CHECK(w != NULL);
		check_string(w, "text", m->text);
		json_decref(w);
		jw_free(&out);
	}
	field_len(m->kind, sizeof m->kind);
	field_len(m->room, sizeof m->room);
	field_len(m->token, sizeof m->token);
	switch (m->type) {
	case PROTO_MSG_CREATE:
		FUZZ_CHECK(m->side == OW_SOUTH || m->side == OW_NORTH || m->side == PROTO_SIDE_RANDOM);
		FUZZ_CHECK(!strcmp(m->kind, "oware"));
		break;
	case PROTO_MSG_JOIN:
		FUZZ_CHECK(field_len(m->room, sizeof m->room) > 0);
		/* The strings the server echoes go out unchanged (valid UTF-8). */
		{
			jw out;

			jw_init(&out);
			proto_welcome_write(&out, m->room, "oware", -1, m->token[0] ? m->token : NULL, NULL);
			FUZZ_CHECK(!out.oom);
			w = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, NULL);
			FUZZ_CHECK(w != NULL);
			check_string(w, "room", m->room);
			json_decref(w);
			jw_free(&out);
		}
		break;
	case PROTO_MSG_MOVE:
		/* Either a letter's pit (Oware) or a hole number (Togyz Kumalak). */
		FUZZ_CHECK((m->pit >= 0 && m->pit < OW_PITS && m->hole == 0) ||
		           (m->pit == -1 && m->hole >= 1 && m->hole <= 9));
		FUZZ_CHECK(m->ply >= 0 && m->ply <= 1000000);
		break;
	case PROTO_MSG_DRAW:
	case PROTO_MSG_REMATCH:
		FUZZ_CHECK(action_name(m->action) != NULL);
		break;
	case PROTO_MSG_PUSH:
		FUZZ_CHECK(m->action == PROTO_ACT_SUBSCRIBE || m->action == PROTO_ACT_CANCEL);
		FUZZ_CHECK(m->action == PROTO_ACT_CANCEL ||
		           (m->endpoint[0] && m->p256dh[0] && m->auth[0]));
		break;
	case PROTO_MSG_EVENT_CREATE:
		FUZZ_CHECK(format_name(m->format) != NULL);
		FUZZ_CHECK((m->format == PROTO_EV_SWISS) == (m->rounds >= 1));
		FUZZ_CHECK(m->rounds >= 0 && m->rounds <= PROTO_EV_ROUNDS_MAX);
		FUZZ_CHECK(m->max_players == 0 ||
		           (m->max_players >= 2 && m->max_players <= PROTO_EV_PLAYERS_MAX));
		FUZZ_CHECK(m->title[0] != 0);
		break;
	case PROTO_MSG_EVENT_RESULT:
		FUZZ_CHECK(result_name(m->result) != NULL);
		FUZZ_CHECK(m->round >= 1 && m->round <= PROTO_EV_ROUNDS_MAX);
		FUZZ_CHECK(m->board >= 1 && m->board <= PROTO_EV_PLAYERS_MAX);
		FUZZ_CHECK(m->seeds[0] >= 0 && m->seeds[0] <= PROTO_EV_SEEDS_MAX);
		FUZZ_CHECK(m->seeds[1] >= 0 && m->seeds[1] <= PROTO_EV_SEEDS_MAX);
		FUZZ_CHECK(m->token[0] != 0);
		break;
	case PROTO_MSG_EVENT_JOIN:
		FUZZ_CHECK(m->has_name && m->name[0]);
		break;
	}
	if (PROTO_MSG_IS_EVENT(m->type) && m->type != PROTO_MSG_EVENT_CREATE)
		FUZZ_CHECK(field_len(m->event, sizeof m->event) > 0);
	j = msg_json(m);
	FUZZ_CHECK(j != NULL);
	s = json_dumps(j, JSON_COMPACT);
	FUZZ_CHECK(s != NULL);
	json_decref(j);
	FUZZ_CHECK_EQ(proto_msg_parse(s, strlen(s), &back, err, sizeof err), 0);
	FUZZ_CHECK(!memcmp(&back, m, sizeof back));
	free(s);
}

/* A refusal: one of the parser's codes, with a reason that can go out. */
static void check_refused(int rc, const char *err, size_t errlen)
{
	FUZZ_CHECK(rc == PROTO_E_BAD_JSON || rc == PROTO_E_BAD_MESSAGE || rc == PROTO_E_UNKNOWN_TYPE);
	fuzz_check_reason(rc, err, errlen);
}

#define FUZZ_MAX_MESSAGE 8192 /* the server's default --max-message */

/* data through the reassembly in fragments whose sizes data itself picks. */
static void check_fragments(const uint8_t *data, size_t size)
{
	reasm r = {0};
	const char *msg = NULL;
	size_t msglen = 0, pos = 0;
	int rc = REASM_MORE, first = 1;

	/* An empty first fragment, then fragments of 0..6 bytes. */
	rc = reasm_add(&r, NULL, 0, 1, size == 0, FUZZ_MAX_MESSAGE, &msg, &msglen);
	first = 0;
	while (rc == REASM_MORE && pos < size) {
		size_t n = data[pos] % 7;

		if (n == 0) { /* an empty fragment, then at least a byte */
			rc = reasm_add(&r, NULL, 0, 0, 0, FUZZ_MAX_MESSAGE, &msg, &msglen);
			n = 1;
			if (rc != REASM_MORE)
				break;
		}
		if (n > size - pos)
			n = size - pos;
		rc = reasm_add(&r, (const char *)data + pos, n, first, pos + n == size,
		               FUZZ_MAX_MESSAGE, &msg, &msglen);
		pos += n;
	}
	if (size > FUZZ_MAX_MESSAGE) {
		FUZZ_CHECK_EQ(rc, REASM_TOO_LARGE);
	} else {
		FUZZ_CHECK_EQ(rc, REASM_DONE);
		FUZZ_CHECK(msg != NULL);
		FUZZ_CHECK_EQ(msglen, size);
		FUZZ_CHECK(size == 0 || !memcmp(msg, data, size));
	}
	/* The buffer is reused: a message in one chunk comes back in place. */
	FUZZ_CHECK_EQ(reasm_add(&r, "{}", 2, 1, 1, FUZZ_MAX_MESSAGE, &msg, &msglen), REASM_DONE);
	FUZZ_CHECK(msglen == 2 && !memcmp(msg, "{}", 2));
	reasm_free(&r);
}

/* The same text as the body of POST /api/rooms: a refusal with a reason
 * that fits on a line, or 0 to ROOMS_MAX entries, each room non-empty and
 * every field terminated; the parse is the same with any room for more
 * entries. */
#define ROOMS_MAX 50
static void check_rooms_query(const char *text, size_t size)
{
	static proto_room_ref refs[ROOMS_MAX], again[ROOMS_MAX + 5];
	char err[128];
	int n = proto_rooms_query_parse(text, size, refs, ROOMS_MAX, err, sizeof err);

	if (n < 0) {
		FUZZ_CHECK(strnlen(err, sizeof err) < sizeof err);
		FUZZ_CHECK(err[0] != 0);
		FUZZ_CHECK(strchr(err, '\n') == NULL);
		return;
	}
	FUZZ_CHECK(n <= ROOMS_MAX);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(field_len(refs[i].room, sizeof refs[i].room) > 0);
		field_len(refs[i].token, sizeof refs[i].token);
	}
	FUZZ_CHECK_EQ(proto_rooms_query_parse(text, size, again, ROOMS_MAX + 5, err, sizeof err), n);
	FUZZ_CHECK(n == 0 || !memcmp(again, refs, (size_t)n * sizeof refs[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[256], tiny[4];
	proto_msg m, m2;
	int rc;

	memset(&m, 0x5a, sizeof m);
	memset(err, 'x', sizeof err);
	rc = proto_msg_parse(text, size, &m, err, sizeof err);

	/* The error buffer's size changes nothing but the message. */
	FUZZ_CHECK_EQ(proto_msg_parse(text, size, &m2, tiny, sizeof tiny), rc);
	FUZZ_CHECK(strnlen(tiny, sizeof tiny) < sizeof tiny);
	if (rc == 0)
		FUZZ_CHECK(!memcmp(&m, &m2, sizeof m));

	if (rc) {
		check_refused(rc, err, sizeof err);
	} else {
		check_accepted(&m);
		check_exact(text, size, &m);
	}
	check_fragments(data, size);
	check_rooms_query(text, size);
	return 0;
}
