/* test_message.c: Check unit tests of the `oware.v1` message parser and
 * builders (protocol/message.h) and the server's SHA-256 (server/base/sha256.h). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "protocol/message.h"
#include "server/base/sha256.h"

/* Parses s; returns the result code and leaves the message in *m. */
static int parse(const char *s, proto_msg *m)
{
	char err[128];
	int rc = proto_msg_parse(s, strlen(s), m, err, sizeof err);

	if (rc)
		ck_assert_msg(err[0] != 0, "an error without a reason for %s", s);
	return rc;
}

/* Club events (issue 41): the fields of each message, checked. */
START_TEST(test_event_messages)
{
	proto_msg m;
	static const char *const bad[] = {
		"{\"type\":\"event_create\",\"kind\":\"oware\",\"format\":\"swiss\",\"rounds\":3}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"chess\",\"format\":\"swiss\",\"rounds\":3}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"arena\"}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"swiss\"}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"swiss\",\"rounds\":0}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"round_robin\",\"rounds\":3}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"round_robin\",\"max_players\":1}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"round_robin\",\"max_players\":257}",
		"{\"type\":\"event_create\",\"title\":\"a\",\"kind\":\"oware\",\"format\":\"round_robin\",\"auto\":1}",
		"{\"type\":\"event_create\",\"title\":\"a\\u0007\",\"kind\":\"oware\",\"format\":\"round_robin\"}",
		"{\"type\":\"event_watch\"}",
		"{\"type\":\"event_watch\",\"event\":\"e\",\"token\":5}",
		"{\"type\":\"event_join\",\"event\":\"e\"}",
		"{\"type\":\"event_join\",\"event\":\"e\",\"name\":null}",
		"{\"type\":\"event_start\",\"event\":\"e\"}",
		"{\"type\":\"event_result\",\"event\":\"e\",\"token\":\"t\",\"round\":1,\"board\":1,\"result\":\"won\"}",
		"{\"type\":\"event_result\",\"event\":\"e\",\"token\":\"t\",\"round\":0,\"board\":1,\"result\":\"white\"}",
		"{\"type\":\"event_result\",\"event\":\"e\",\"token\":\"t\",\"round\":1,\"board\":1,\"result\":\"white\",\"seeds\":[1]}",
		"{\"type\":\"event_result\",\"event\":\"e\",\"token\":\"t\",\"round\":1,\"board\":1,\"result\":\"white\",\"seeds\":[1,163]}",
		"{\"type\":\"event_result\",\"event\":\"e\",\"token\":\"t\",\"round\":1,\"board\":1,\"result\":\"white_forfeit\",\"seeds\":[1,0]}",
		"{\"type\":\"event_create\",\"title\":\"x\",\"kind\":\"oware\",\"format\":\"swiss\",\"rounds\":3,\"rules\":\"fide_2024\"}",
		"{\"type\":\"event_create\",\"title\":\"x\",\"kind\":\"oware\",\"format\":\"swiss\",\"rounds\":3,\"rules\":2017}",
	};

	ck_assert_int_eq(parse("{\"type\":\"event_create\",\"title\":\"  Club  \",\"kind\":\"togyz\","
	                       "\"format\":\"swiss\",\"rounds\":5,\"clock\":{\"initial\":900,\"increment\":5},"
	                       "\"max_players\":40,\"auto\":false}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_EVENT_CREATE);
	ck_assert_str_eq(m.title, "Club");
	ck_assert_str_eq(m.kind, "togyz");
	ck_assert_int_eq(m.format, PROTO_EV_SWISS);
	ck_assert_int_eq(m.rounds, 5);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_REALTIME);
	ck_assert_int_eq(m.clock_initial[0], 900);
	ck_assert_int_eq(m.max_players, 40);
	ck_assert_int_eq(m.auto_next, 0);
	ck_assert_int_eq(m.rules, PROTO_EV_RULES_2025);
	ck_assert_int_eq(parse("{\"type\":\"event_create\",\"title\":\"Old\",\"kind\":\"oware\","
	                       "\"format\":\"swiss\",\"rounds\":3,\"rules\":\"fide_2017\"}", &m), 0);
	ck_assert_int_eq(m.rules, PROTO_EV_RULES_2017);
	ck_assert_int_eq(parse("{\"type\":\"event_create\",\"title\":\"RR\",\"kind\":\"oware\","
	                       "\"format\":\"double_round_robin\",\"rounds\":null}", &m), 0);
	ck_assert_int_eq(m.format, PROTO_EV_DOUBLE_ROUND_ROBIN);
	ck_assert_int_eq(m.rounds, 0);
	ck_assert_int_eq(m.auto_next, 1);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_NONE);
	ck_assert_int_eq(parse("{\"type\":\"event_watch\",\"event\":\"e1\",\"token\":null}", &m), 0);
	ck_assert_str_eq(m.event, "e1");
	ck_assert_str_eq(m.token, "");
	ck_assert_int_eq(parse("{\"type\":\"event_join\",\"event\":\"e1\",\"name\":\" Ama \"}", &m), 0);
	ck_assert_str_eq(m.name, "Ama");
	ck_assert_int_eq(parse("{\"type\":\"event_result\",\"event\":\"e1\",\"token\":\"t\",\"round\":2,"
	                       "\"board\":3,\"result\":\"draw\",\"seeds\":[24,24]}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_EVENT_RESULT);
	ck_assert_int_eq(m.round, 2);
	ck_assert_int_eq(m.board, 3);
	ck_assert_int_eq(m.result, '=');
	ck_assert_int_eq(m.seeds[1], 24);
	ck_assert_int_eq(parse("{\"type\":\"event_result\",\"event\":\"e1\",\"token\":\"t\",\"round\":1,"
	                       "\"board\":1,\"result\":\"black_forfeit\"}", &m), 0);
	ck_assert_int_eq(m.result, '-');
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(parse(bad[i], &m) == PROTO_E_BAD_MESSAGE, "accepted %s", bad[i]);
}
END_TEST

START_TEST(test_create_sides_and_kind)
{
	proto_msg m;

	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_CREATE);
	ck_assert_int_eq(m.side, OW_SOUTH);
	ck_assert_str_eq(m.kind, "oware");
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"north\",\"kind\":\"oware\"}", &m), 0);
	ck_assert_int_eq(m.side, OW_NORTH);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"random\",\"extra\":[1]}", &m), 0);
	ck_assert_int_eq(m.side, PROTO_SIDE_RANDOM);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"east\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"create\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":1}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"kind\":\"chess\"}", &m),
	                 PROTO_E_BAD_MESSAGE);
}
END_TEST

START_TEST(test_create_clock)
{
	proto_msg m;
	static const char *const bad[] = {
		"5", "\"3+2\"", "[]", "{}", "{\"initial\":9}", "{\"initial\":10801}",
		"{\"initial\":60.5}", "{\"initial\":\"60\"}", "{\"initial\":60,\"increment\":-1}",
		"{\"initial\":60,\"increment\":181}", "{\"increment\":2}", "{\"days\":0}",
		"{\"days\":15}", "{\"days\":1,\"initial\":60}", "{\"days\":1,\"increment\":0}",
		"{\"south\":60}", "{\"south\":60,\"north\":5}", "{\"south\":60,\"north\":60,\"initial\":60}",
		"{\"initial\":true}", "{\"initial\":null}",
	};
	char buf[160];

	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\"}", &m), 0);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_NONE);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"clock\":null}", &m), 0);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_NONE);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\","
	                       "\"clock\":{\"initial\":180,\"increment\":2}}", &m), 0);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_REALTIME);
	ck_assert_int_eq(m.clock_initial[OW_SOUTH], 180);
	ck_assert_int_eq(m.clock_initial[OW_NORTH], 180);
	ck_assert_int_eq(m.clock_increment, 2);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\","
	                       "\"clock\":{\"initial\":10}}", &m), 0);
	ck_assert_int_eq(m.clock_increment, 0);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"north\","
	                       "\"clock\":{\"south\":10800,\"north\":10,\"increment\":180}}", &m), 0);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_REALTIME);
	ck_assert_int_eq(m.clock_initial[OW_SOUTH], 10800);
	ck_assert_int_eq(m.clock_initial[OW_NORTH], 10);
	ck_assert_int_eq(m.clock_increment, 180);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"clock\":{\"days\":14}}", &m), 0);
	ck_assert_int_eq(m.clock_kind, PROTO_CLOCK_CORRESPONDENCE);
	ck_assert_int_eq(m.clock_days, 14);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "{\"type\":\"create\",\"side\":\"south\",\"clock\":%s}", bad[i]);
		ck_assert_msg(parse(buf, &m) == PROTO_E_BAD_MESSAGE, "accepted %s", buf);
	}
}
END_TEST

START_TEST(test_create_position)
{
	static const char *const bad[] = {
		"\"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"",
		"{\"pits\":[4,4,4],\"captured\":{\"south\":0,\"north\":0},\"turn\":\"south\"}",
		"{\"pits\":[5,4,4,4,4,4,4,4,4,4,4,4],\"captured\":{\"south\":0,\"north\":0},\"turn\":\"south\"}",
		"{\"pits\":[4,4,4,4,4,4,4,4,4,4,4,4],\"captured\":{\"south\":0,\"north\":0},\"turn\":\"up\"}",
		"{\"pits\":[0,0,0,0,0,1,1,0,0,0,0,0],\"captured\":{\"south\":25,\"north\":21},\"turn\":\"south\"}",
	};
	proto_msg m;
	char buf[512], err[128];

	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\"}", &m), 0);
	ck_assert_int_eq(m.has_position, 0);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"position\":null}", &m), 0);
	ck_assert_int_eq(m.has_position, 0);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"position\":"
	                       "{\"pits\":[4,4,4,4,4,4,4,4,4,4,4,0],\"captured\":{\"south\":4,"
	                       "\"north\":0},\"turn\":\"north\"}}", &m), 0);
	ck_assert_int_eq(m.has_position, 1);
	ck_assert_int_eq(m.position.ow.pits[11], 0);
	ck_assert_int_eq(m.position.ow.captured[OW_SOUTH], 4);
	ck_assert_int_eq(m.position.ow.turn, OW_NORTH);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "{\"type\":\"create\",\"side\":\"south\",\"position\":%s}",
		         bad[i]);
		ck_assert_int_eq(proto_msg_parse(buf, strlen(buf), &m, err, sizeof err),
		                 PROTO_E_BAD_MESSAGE);
		ck_assert_msg(!strncmp(err, "position", 8), "reason %s for %s", err, buf);
	}
}
END_TEST

START_TEST(test_join_room_and_token)
{
	proto_msg m;
	char big[256];

	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r1\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_JOIN);
	ck_assert_str_eq(m.room, "r1");
	ck_assert_str_eq(m.token, "");
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r1\",\"token\":\"abc\"}", &m), 0);
	ck_assert_str_eq(m.token, "abc");
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r1\",\"token\":null}", &m), 0);
	ck_assert_str_eq(m.token, "");
	ck_assert_int_eq(parse("{\"type\":\"join\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r\",\"token\":5}", &m), PROTO_E_BAD_MESSAGE);
	/* A NUL inside a string is refused (jansson's default), not truncated. */
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"a\\u0000b\"}", &m), PROTO_E_BAD_JSON);
	snprintf(big, sizeof big, "{\"type\":\"join\",\"room\":\"%065d\"}", 0);
	ck_assert_int_eq(parse(big, &m), PROTO_E_BAD_MESSAGE);
	snprintf(big, sizeof big, "{\"type\":\"join\",\"room\":\"%064d\"}", 0);
	ck_assert_int_eq(parse(big, &m), 0);
}
END_TEST

START_TEST(test_move_fields)
{
	proto_msg m;

	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"c\",\"ply\":0}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_MOVE);
	ck_assert_int_eq(m.pit, 2);
	ck_assert_int_eq(m.ply, 0);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"F\",\"ply\":17}", &m), 0);
	ck_assert_int_eq(m.pit, 11);
	ck_assert_int_eq(m.ply, 17);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"g\",\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"ab\",\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":2,\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":-1}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":1.0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":\"1\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":99999999999}", &m),
	                 PROTO_E_BAD_MESSAGE);
}
END_TEST

START_TEST(test_actions_and_bare_types)
{
	proto_msg m;

	ck_assert_int_eq(parse("{\"type\":\"draw\",\"action\":\"offer\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_DRAW);
	ck_assert_int_eq(m.action, PROTO_ACT_OFFER);
	ck_assert_int_eq(parse("{\"type\":\"rematch\",\"action\":\"accept\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_REMATCH);
	ck_assert_int_eq(m.action, PROTO_ACT_ACCEPT);
	ck_assert_int_eq(parse("{\"type\":\"draw\",\"action\":\"decline\"}", &m), 0);
	ck_assert_int_eq(m.action, PROTO_ACT_DECLINE);
	ck_assert_int_eq(parse("{\"type\":\"draw\",\"action\":\"maybe\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"rematch\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"resign\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_RESIGN);
	ck_assert_int_eq(parse("{\"type\":\"abort\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_ABORT);
	ck_assert_int_eq(parse("{\"type\":\"claim\"}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_CLAIM);
}
END_TEST

START_TEST(test_malformed)
{
	proto_msg m;
	char err[8];

	ck_assert_int_eq(parse("", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("hello", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("[1]", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("\"create\"", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("{\"type\":\"move\"", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("{\"type\":\"claim\",\"type\":\"claim\"}", &m), PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("{}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":null}", &m), PROTO_E_BAD_MESSAGE);
	/* Valid JSON whose number no field can hold: out of range, not bad JSON. */
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\","
	                       "\"clock\":{\"initial\":100000000000000000000}}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":1e400}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"dance\"}", &m), PROTO_E_UNKNOWN_TYPE);
	ck_assert_int_eq(parse("{\"type\":\"Create\"}", &m), PROTO_E_UNKNOWN_TYPE);
	/* Not NUL-terminated: only len bytes are read. */
	ck_assert_int_eq(proto_msg_parse("{\"type\":\"claim\"}garbage", 16, &m, err, sizeof err), 0);
	/* A short error buffer still gets a terminated reason. */
	ck_assert_int_eq(proto_msg_parse("{}", 2, &m, err, sizeof err), PROTO_E_BAD_MESSAGE);
	ck_assert_uint_lt(strlen(err), sizeof err);
}
END_TEST

START_TEST(test_error_codes)
{
	ck_assert_str_eq(proto_err_code(PROTO_E_BAD_JSON), "bad_json");
	ck_assert_str_eq(proto_err_code(PROTO_E_NOT_YOUR_TURN), "not_your_turn");
	ck_assert_str_eq(proto_err_code(PROTO_E_REPLACED), "replaced");
	ck_assert_str_eq(proto_err_code(PROTO_E_INTERNAL), "internal");
	ck_assert_str_eq(proto_err_code(0), "internal");
	ck_assert_str_eq(proto_err_code(PROTO_E_COUNT), "internal");
	for (int e = 1; e < PROTO_E_COUNT; e++)
		ck_assert_msg(proto_err_code(e) && proto_err_code(e)[0], "code %d has no name", e);
	ck_assert_str_eq(proto_reason_name(PROTO_END_RESIGN), "resign");
	ck_assert_str_eq(proto_reason_name(PROTO_END_AGREEMENT), "agreement");
	ck_assert_str_eq(proto_reason_name(PROTO_END_ABANDONED), "abandoned");
	ck_assert_str_eq(proto_reason_name(PROTO_END_ABORTED), "aborted");
	ck_assert_str_eq(proto_reason_name(OW_END_SCORE), "score");
	ck_assert_ptr_null(proto_reason_name(OW_END_NONE));
}
END_TEST

/* The text in w, parsed strictly; w is emptied for the next message. */
static json_t *written(jw *w)
{
	json_error_t e;
	json_t *j;

	ck_assert(!w->oom);
	j = json_loadb(w->buf, w->len, JSON_REJECT_DUPLICATES, &e);
	ck_assert_msg(j != NULL, "not JSON (%s): %.*s", e.text, (int)w->len, w->buf);
	jw_reset(w);
	return j;
}

/* The compact JSON text of j, keys sorted (j is released). */
static void assert_json(json_t *j, const char *want)
{
	char *s;

	ck_assert_ptr_nonnull(j);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_str_eq(s, want);
	free(s);
	json_decref(j);
}

START_TEST(test_server_messages)
{
	jw w;

	jw_init(&w);
	proto_welcome_write(&w, "r", "oware", OW_NORTH, "tok", NULL);
	assert_json(written(&w),
	            "{\"kind\":\"oware\",\"room\":\"r\",\"seat\":\"north\",\"token\":\"tok\",\"type\":\"welcome\"}");
	proto_welcome_write(&w, "r", "oware", -1, NULL, NULL);
	assert_json(written(&w),
	            "{\"kind\":\"oware\",\"room\":\"r\",\"seat\":\"spectator\",\"type\":\"welcome\"}");
	proto_error_write(&w, PROTO_E_STALE_PLY, "x");
	assert_json(written(&w),
	            "{\"code\":\"stale_ply\",\"message\":\"x\",\"type\":\"error\"}");
	/* a reason quoting input: escaped, and invalid UTF-8 replaced */
	proto_error_write(&w, PROTO_E_BAD_JSON, "near '\"\\\n\x01' \xc3( \xc3\xb1 \xed\xa0\x80");
	assert_json(written(&w), "{\"code\":\"bad_json\",\"message\":"
	            "\"near '\\\"\\\\\\n\\u0001' ?( \xc3\xb1 ???\",\"type\":\"error\"}");
	jw_free(&w);
}
END_TEST

START_TEST(test_push_subscribe_and_cancel)
{
	proto_msg m;
	jw w;

	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"subscribe\",\"subscription\":"
	                       "{\"endpoint\":\"https://fcm.googleapis.com/x\",\"expirationTime\":null,"
	                       "\"keys\":{\"p256dh\":\"BPk\",\"auth\":\"au\"}}}", &m), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_PUSH);
	ck_assert_int_eq(m.action, PROTO_ACT_SUBSCRIBE);
	ck_assert_str_eq(m.endpoint, "https://fcm.googleapis.com/x");
	ck_assert_str_eq(m.p256dh, "BPk");
	ck_assert_str_eq(m.auth, "au");
	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"cancel\"}", &m), 0);
	ck_assert_int_eq(m.action, PROTO_ACT_CANCEL);
	ck_assert_str_eq(m.endpoint, "");
	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"cancel\",\"endpoint\":\"https://a/b\"}",
	                       &m), 0);
	ck_assert_str_eq(m.endpoint, "https://a/b");
	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"subscribe\"}", &m),
	                 PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"subscribe\",\"subscription\":"
	                       "{\"endpoint\":\"https://a/b\",\"keys\":{\"p256dh\":\"B\"}}}", &m),
	                 PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"push\",\"action\":\"later\"}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(proto_err_code(PROTO_E_PUSH_REFUSED), "push_refused");
	jw_init(&w);
	proto_push_write(&w, PROTO_ACT_CANCEL);
	assert_json(written(&w), "{\"action\":\"cancel\",\"type\":\"push\"}");
	proto_welcome_write(&w, "r", "oware", OW_SOUTH, NULL, "BKey");
	assert_json(written(&w), "{\"kind\":\"oware\",\"push_key\":\"BKey\",\"room\":\"r\","
	            "\"seat\":\"south\",\"type\":\"welcome\"}");
	jw_free(&w);
}
END_TEST

START_TEST(test_writer)
{
	jw w;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "a");
	jw_arr(&w);
	jw_int(&w, 0);
	jw_int(&w, -5);
	jw_int(&w, (long long)(-9223372036854775807LL - 1));
	jw_int(&w, 9223372036854775807LL);
	jw_arr(&w);
	jw_arr_end(&w);
	jw_obj(&w);
	jw_obj_end(&w);
	jw_bool(&w, 1);
	jw_null(&w);
	jw_str(&w, NULL);
	jw_char(&w, 'F');
	jw_arr_end(&w);
	jw_key(&w, "b");
	jw_bool(&w, 0);
	jw_obj_end(&w);
	ck_assert_int_eq((int)w.len, (int)strlen("{\"a\":[0,-5,-9223372036854775808,"
	                 "9223372036854775807,[],{},true,null,null,\"F\"],\"b\":false}"));
	ck_assert(!memcmp(w.buf, "{\"a\":[0,-5,-9223372036854775808,9223372036854775807,"
	                  "[],{},true,null,null,\"F\"],\"b\":false}", w.len));
	/* growing past the first buffer keeps what was written */
	jw_reset(&w);
	jw_arr(&w);
	for (int i = 0; i < 1000; i++)
		jw_int(&w, i);
	jw_arr_end(&w);
	{
		json_t *j = written(&w);

		ck_assert_int_eq(json_array_size(j), 1000);
		ck_assert_int_eq(json_integer_value(json_array_get(j, 999)), 999);
		json_decref(j);
	}
	jw_free(&w);
	ck_assert_ptr_null(w.buf);
}
END_TEST

START_TEST(test_state)
{
	proto_play play;
	uint8_t moves[1] = {2};
	proto_state_view v;
	json_t *st, *game;
	jw w;

	jw_init(&w);
	ow_game_start(&play.ow.game);
	ck_assert_int_eq(ow_game_play(&play.ow.game, 2, &play.ow.last), 0);
	memset(&v, 0, sizeof v);
	v.room = "r";
	v.kind = "oware";
	v.version = 7;
	v.game_number = 2;
	v.k = &proto_kind_oware;
	v.play = &play;
	v.moves = moves;
	v.nmoves = 1;
	v.has_last = 1;
	v.seats[OW_SOUTH].taken = v.seats[OW_SOUTH].connected = 1;
	v.seats[OW_NORTH].taken = 1;
	v.draw_offer = OW_SOUTH;
	v.rematch_offer = -1;
	v.aborted_by = -1;
	v.abandon_seconds = 300;
	v.claim_in = 12;
	proto_state_write(&w, &v);
	st = written(&w);
	ck_assert_str_eq(json_string_value(json_object_get(st, "type")), "state");
	ck_assert_str_eq(json_string_value(json_object_get(st, "room")), "r");
	ck_assert_str_eq(json_string_value(json_object_get(st, "kind")), "oware");
	ck_assert_int_eq(json_integer_value(json_object_get(st, "version")), 7);
	ck_assert_int_eq(json_integer_value(json_object_get(st, "game_number")), 2);
	ck_assert_int_eq(json_array_size(json_object_get(st, "moves")), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(st, "moves"), 0)), "c");
	ck_assert_str_eq(json_string_value(json_object_get(st, "draw_offer")), "south");
	ck_assert(json_is_null(json_object_get(st, "rematch_offer")));
	ck_assert(json_is_null(json_object_get(st, "aborted_by")));
	ck_assert_int_eq(json_integer_value(json_object_get(st, "spectators")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(st, "abandon_seconds")), 300);
	ck_assert_int_eq(json_integer_value(json_object_get(st, "claim_in")), 12);
	assert_json(json_incref(json_object_get(st, "seats")),
	            "{\"north\":{\"claimable\":false,\"connected\":false,\"taken\":true},"
	            "\"south\":{\"claimable\":false,\"connected\":true,\"taken\":true}}");
	assert_json(json_incref(json_object_get(st, "last")),
	            "{\"captured\":[],\"grand_slam\":false,\"pit\":\"c\",\"seeds\":0,"
	            "\"sown\":[\"d\",\"e\",\"f\",\"A\"]}");
	assert_json(json_incref(json_object_get(st, "game")),
	            "{\"captured\":{\"north\":0,\"south\":0},\"legal\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\"],"
	            "\"over\":false,\"pits\":[4,4,0,5,5,5,5,4,4,4,4,4],\"reason\":null,"
	            "\"turn\":\"north\",\"winner\":null}");
	ck_assert(json_is_null(json_object_get(st, "clock")));
	/* Names (issue 14): null when none; spectators' names as given. */
	assert_json(json_incref(json_object_get(st, "names")), "{\"north\":null,\"south\":null}");
	assert_json(json_incref(json_object_get(st, "spectator_names")), "[]");
	ck_assert(json_is_null(json_object_get(st, "start")));
	/* A room of two friends is no club event's board (issue 41). */
	ck_assert(json_is_null(json_object_get(st, "event")));
	ck_assert(json_object_get(st, "event") != NULL);
	ck_assert_int_eq(json_object_size(st), 20);
	json_decref(st);

	/* A room from a position: start is that position. */
	{
		proto_pos p = {.ow = {.pits = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0}, .captured = {4, 0},
		                      .turn = OW_NORTH}};

		v.start = &p;
		proto_state_write(&w, &v);
		st = written(&w);
		assert_json(json_incref(json_object_get(st, "start")),
		            "{\"captured\":{\"north\":0,\"south\":4},"
		            "\"pits\":[4,4,4,4,4,4,4,4,4,4,4,0],\"turn\":\"north\"}");
		json_decref(st);
		v.start = NULL;
	}

	/* A room-level end overrides the engine's. */
	v.reason = PROTO_END_RESIGN;
	v.winner = OW_SOUTH;
	v.has_last = 0;
	v.claim_in = -1;
	proto_state_write(&w, &v);
	st = written(&w);
	game = json_object_get(st, "game");
	ck_assert(json_is_true(json_object_get(game, "over")));
	ck_assert_str_eq(json_string_value(json_object_get(game, "reason")), "resign");
	ck_assert_str_eq(json_string_value(json_object_get(game, "winner")), "south");
	ck_assert_int_eq(json_array_size(json_object_get(game, "legal")), 0);
	ck_assert(json_is_null(json_object_get(st, "last")));
	ck_assert(json_is_null(json_object_get(st, "claim_in")));
	json_decref(st);
	v.reason = PROTO_END_ABORTED;
	v.winner = OW_NOBODY;
	proto_state_write(&w, &v);
	st = written(&w);
	ck_assert(json_is_null(json_object_get(json_object_get(st, "game"), "winner")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(st, "game"), "reason")), "aborted");
	ck_assert(json_is_null(json_object_get(st, "aborted_by")));
	json_decref(st);
	v.aborted_by = OW_NORTH;
	proto_state_write(&w, &v);
	st = written(&w);
	ck_assert_str_eq(json_string_value(json_object_get(st, "aborted_by")), "north");
	ck_assert(json_is_null(json_object_get(json_object_get(st, "game"), "winner")));
	json_decref(st);
	/* A clock, and a game lost on time. */
	v.reason = PROTO_END_TIMEOUT;
	v.winner = OW_NORTH;
	v.clock.kind = PROTO_CLOCK_REALTIME;
	v.clock.left[OW_SOUTH] = 0;
	v.clock.left[OW_NORTH] = 61500;
	v.clock.running = -1;
	v.clock.increment = 2000;
	v.clock.initial[OW_SOUTH] = 10000;
	v.clock.initial[OW_NORTH] = 300000;
	proto_state_write(&w, &v);
	st = written(&w);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(st, "game"), "reason")), "timeout");
	assert_json(json_incref(json_object_get(st, "clock")),
	            "{\"days\":null,\"grace\":0,\"increment\":2000,\"initial\":{\"north\":300000,"
	            "\"south\":10000},\"kind\":\"realtime\",\"north\":61500,\"running\":null,\"south\":0}");
	json_decref(st);
	v.clock.kind = PROTO_CLOCK_CORRESPONDENCE;
	v.clock.days = 3;
	v.clock.running = OW_SOUTH;
	v.clock.grace = 900;
	proto_state_write(&w, &v);
	st = written(&w);
	game = json_object_get(st, "clock");
	ck_assert_str_eq(json_string_value(json_object_get(game, "kind")), "correspondence");
	ck_assert_str_eq(json_string_value(json_object_get(game, "running")), "south");
	ck_assert_int_eq(json_integer_value(json_object_get(game, "days")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(game, "grace")), 900);
	json_decref(st);
	jw_free(&w);
}
END_TEST

static void hex(const uint8_t *d, char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

START_TEST(test_sha256_vectors)
{
	/* FIPS 180-4 examples, plus lengths around the padding boundary. */
	static const struct { const char *in; const char *want; } v[] = {
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		 "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
	};
	uint8_t d[32], e[32];
	char h[65];

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		sha256(v[i].in, strlen(v[i].in), d);
		hex(d, h);
		ck_assert_str_eq(h, v[i].want);
	}
	sha256("abc", 3, e);
	ck_assert_int_eq(sha256_equal(d, d, 32), 1);
	sha256("abd", 3, d);
	ck_assert_int_eq(sha256_equal(d, e, 32), 0);
}
END_TEST

/* Togyz Kumalak (kind "togyz"): create's kind and position, and a move's
 * hole number, which the room's kind checks. */
START_TEST(test_togyz_create_and_moves)
{
	static const char *const bad_pos[] = {
		/* an Oware position is not a Togyz one */
		"{\"pits\":[4,4,4,4,4,4,4,4,4,4,4,4],\"captured\":{\"south\":0,\"north\":0},\"turn\":\"south\"}",
		/* no tuzdyk object */
		"{\"pits\":[9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9],\"captured\":{\"south\":0,\"north\":0},"
		"\"turn\":\"south\"}",
		/* a 9th-hole tuzdyk */
		"{\"pits\":[9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,0],\"captured\":{\"south\":9,\"north\":0},"
		"\"tuzdyk\":{\"south\":9,\"north\":null},\"turn\":\"south\"}",
		/* 82: over from the start */
		"{\"pits\":[0,0,0,0,0,0,0,0,80,0,0,0,0,0,0,0,0,0],\"captured\":{\"south\":82,\"north\":0},"
		"\"tuzdyk\":{\"south\":null,\"north\":null},\"turn\":\"south\"}",
	};
	proto_msg m;
	char buf[512], err[160];

	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"kind\":\"togyz\"}", &m), 0);
	ck_assert_str_eq(m.kind, "togyz");
	ck_assert_int_eq(m.has_position, 0);
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"kind\":\"togyz\",\"position\":"
	                       "{\"pits\":[9,0,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9],\"captured\":{\"south\":0,"
	                       "\"north\":9},\"tuzdyk\":{\"south\":null,\"north\":2},\"turn\":\"north\"}}",
	                       &m), 0);
	ck_assert_int_eq(m.has_position, 1);
	ck_assert_int_eq(m.position.tg.pits[1], 0);
	ck_assert_int_eq(m.position.tg.captured[OW_NORTH], 9);
	ck_assert_int_eq(m.position.tg.tuzdyk[OW_NORTH], 1);
	ck_assert_int_eq(m.position.tg.tuzdyk[OW_SOUTH], TG_NONE);
	ck_assert_int_eq(m.position.tg.turn, OW_NORTH);
	for (size_t i = 0; i < sizeof bad_pos / sizeof bad_pos[0]; i++) {
		snprintf(buf, sizeof buf, "{\"type\":\"create\",\"side\":\"south\",\"kind\":\"togyz\","
		         "\"position\":%s}", bad_pos[i]);
		ck_assert_int_eq(proto_msg_parse(buf, strlen(buf), &m, err, sizeof err),
		                 PROTO_E_BAD_MESSAGE);
		ck_assert_msg(!strncmp(err, "position", 8), "reason %s for %s", err, buf);
	}
	snprintf(buf, sizeof buf, "{\"type\":\"create\",\"side\":\"south\",\"kind\":\"togyz\",\"position\":%s}",
	         bad_pos[2]);
	proto_msg_parse(buf, strlen(buf), &m, err, sizeof err);
	ck_assert_str_eq(err, "position.tuzdyk.south: must be a hole number from 1 to 8 or null"
	                 " (the 9th hole cannot be a tuzdyk)");
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"kind\":\"Togyz\"}", &m),
	                 PROTO_E_BAD_MESSAGE);

	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"5\",\"ply\":3}", &m), 0);
	ck_assert_int_eq(m.hole, 5);
	ck_assert_int_eq(m.pit, -1);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"9\",\"ply\":0}", &m), 0);
	ck_assert_int_eq(m.hole, 9);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"a\",\"ply\":0}", &m), 0);
	ck_assert_int_eq(m.hole, 0);
	ck_assert_int_eq(m.pit, 0);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"0\",\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":\"10\",\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"move\",\"pit\":5,\"ply\":0}", &m), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(proto_msg_parse("{\"type\":\"move\",\"pit\":\"j\",\"ply\":0}", 33, &m, err,
	                                 sizeof err), PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(err, "pit: not a pit letter a-f or A-F (Oware) or a hole number 1-9"
	                 " (Togyz Kumalak)");
}
END_TEST

START_TEST(test_togyz_state)
{
	proto_play play;
	uint8_t moves[1] = {6};
	proto_pos start;
	proto_state_view v;
	json_t *st;
	jw w;

	jw_init(&w);
	tg_game_start(&play.tg.game);
	ck_assert_int_eq(tg_game_play(&play.tg.game, 6, &play.tg.last), 0);
	memset(&v, 0, sizeof v);
	v.room = "r";
	v.kind = "togyz";
	v.k = &proto_kind_togyz;
	v.play = &play;
	v.moves = moves;
	v.nmoves = 1;
	v.has_last = 1;
	v.draw_offer = v.rematch_offer = v.aborted_by = -1;
	v.claim_in = -1;
	proto_state_write(&w, &v);
	st = written(&w);
	ck_assert_str_eq(json_string_value(json_object_get(st, "kind")), "togyz");
	assert_json(json_incref(json_object_get(st, "moves")), "[\"7\"]");
	assert_json(json_incref(json_object_get(st, "game")),
	            "{\"captured\":{\"north\":0,\"south\":10},\"legal\":[1,2,3,4,5,7,8,9],"
	            "\"over\":false,\"pits\":[9,9,9,9,9,9,1,10,10,10,10,10,10,10,0,9,9,9],"
	            "\"reason\":null,\"turn\":\"north\",\"tuzdyk\":{\"north\":null,\"south\":null},"
	            "\"winner\":null}");
	assert_json(json_incref(json_object_get(st, "last")),
	            "{\"captured\":[14],\"notation\":\"76\",\"pit\":\"7\",\"seeds\":10,"
	            "\"sown\":[6,7,8,9,10,11,12,13,14],\"to_tuzdyk\":{\"north\":0,\"south\":0},"
	            "\"tuzdyk\":false}");
	ck_assert(json_is_null(json_object_get(st, "start")));
	json_decref(st);

	/* A start position, and a game ended by resignation. */
	{
		static const int pits[TG_PITS] = {9, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
		static const int cap[2] = {0, 9}, tz[2] = {0, 2};

		ck_assert_int_eq(tg_pos_set(&start.tg, pits, cap, tz, OW_NORTH, NULL), 0);
	}
	v.start = &start;
	v.reason = PROTO_END_RESIGN;
	v.winner = OW_NORTH;
	v.has_last = 0;
	proto_state_write(&w, &v);
	st = written(&w);
	assert_json(json_incref(json_object_get(st, "start")),
	            "{\"captured\":{\"north\":9,\"south\":0},"
	            "\"pits\":[9,0,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9],\"turn\":\"north\","
	            "\"tuzdyk\":{\"north\":2,\"south\":null}}");
	ck_assert(json_is_null(json_object_get(st, "last")));
	assert_json(json_incref(json_object_get(json_object_get(st, "game"), "legal")), "[]");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(st, "game"), "reason")),
	                 "resign");
	json_decref(st);
	jw_free(&w);
}
END_TEST

/* The store's text of a start position reads back to the same position. */
START_TEST(test_kind_start_text)
{
	static const int pits[TG_PITS] = {9, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
	static const int cap[2] = {0, 9}, tz[2] = {0, 2};
	proto_pos p, back;
	char text[PROTO_START_TEXT];

	ck_assert_ptr_eq(proto_kind_find("oware"), &proto_kind_oware);
	ck_assert_ptr_eq(proto_kind_find("togyz"), &proto_kind_togyz);
	ck_assert_ptr_null(proto_kind_find("chess"));
	ck_assert_int_eq(tg_pos_set(&p.tg, pits, cap, tz, OW_NORTH, NULL), 0);
	proto_kind_togyz.start_text(&p, text);
	ck_assert_int_eq(proto_kind_togyz.start_read(text, &back), 0);
	ck_assert(memcmp(&p.tg, &back.tg, sizeof p.tg) == 0);
	ck_assert_int_eq(proto_kind_togyz.start_read("4-4-4", &back), -1);
	/* Long: two-digit counts wherever 162 seeds allow, and both tuzdyks. */
	{
		static const int big[TG_PITS] = {10, 0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 0,
		                                 10, 10, 0, 0};
		static const int c2[2] = {11, 11}, t2[2] = {5, 2};

		ck_assert_int_eq(tg_pos_set(&p.tg, big, c2, t2, OW_SOUTH, NULL), 0);
		proto_kind_togyz.start_text(&p, text);
		ck_assert_int_eq(proto_kind_togyz.start_read(text, &back), 0);
		ck_assert(memcmp(&p.tg, &back.tg, sizeof p.tg) == 0);
	}
	ow_pos_start(&p.ow);
	proto_kind_oware.start_text(&p, text);
	ck_assert_int_eq(proto_kind_oware.start_read(text, &back), 0);
	ck_assert(memcmp(&p.ow, &back.ow, sizeof p.ow) == 0);
}
END_TEST

/* Every kind's record is complete, and its engine entries (the ones the
 * oware tool and its puzzles drive a game through) give the kind's own
 * values: a new kind or a variant that leaves one out fails here. */
START_TEST(test_kind_records)
{
	static const struct {
		const proto_kind *k;
		int npits;
		unsigned legal;
		uint64_t perft2;
		const char *pos;
	} want[] = {
		{&proto_kind_oware, OW_PITS, 0x3f, 36,
		 "{\"pits\":[0,0,0,0,0,2,1,0,0,0,0,0],\"captured\":{\"south\":20,\"north\":25},"
		 "\"turn\":\"north\"}"},
		{&proto_kind_togyz, TG_PITS, 0x1ff, 73,
		 "{\"pits\":[0,0,0,0,0,0,0,0,2,1,0,0,0,0,0,0,0,0],\"captured\":{\"south\":77,"
		 "\"north\":82},\"tuzdyk\":{\"south\":null,\"north\":null},\"turn\":\"north\"}"},
	};

	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const proto_kind *k = want[i].k;
		proto_play g;
		proto_pos at, p;
		json_t *j;
		char err[200];

		ck_assert(k->begin && k->play && k->turn && k->end && k->winner && k->pit_side &&
		          k->legal && k->ply && k->at && k->perft && k->strerror && k->move_name &&
		          k->move_pit && k->game_write && k->last_write && k->moves_write &&
		          k->position_write && k->position_json && k->position_parse &&
		          k->position_value && k->start_text && k->start_read);
		ck_assert_int_eq(k->npits, want[i].npits);
		ck_assert_int_le(k->npits, PROTO_MAX_PITS);
		k->begin(&g, NULL);
		ck_assert_uint_eq(k->legal(&g), want[i].legal);
		ck_assert_uint_eq(k->perft(&g, 2), want[i].perft2);
		ck_assert_int_eq(k->ply(&g), 0);
		ck_assert_int_eq(k->play(&g, 0), 0);
		ck_assert_int_eq(k->ply(&g), 1);
		ck_assert_int_eq(k->turn(&g), OW_NORTH);
		/* A position the game is over from reads as a value (a puzzle's)
		 * but not as create's, and at() gives it back. */
		j = json_loads(want[i].pos, 0, NULL);
		ck_assert_ptr_nonnull(j);
		ck_assert_int_eq(k->position_value(j, &p, err, sizeof err), 0);
		ck_assert_int_eq(k->position_json(j, &at, err, sizeof err), -1);
		ck_assert_str_eq(err, "position: the game would be over from the start");
		json_decref(j);
		k->begin(&g, &p);
		ck_assert_int_ne(k->end(&g), OW_END_NONE);
		ck_assert_uint_eq(k->legal(&g), 0);
		k->at(&g, &at);
		ck_assert(memcmp(&at, &p, k == &proto_kind_oware ? sizeof p.ow : sizeof p.tg) == 0);
		ck_assert_int_eq(k->position_parse(want[i].pos, strlen(want[i].pos), &at, err,
		                                   sizeof err), 0);
		ck_assert_int_eq(k->position_parse("[", 1, &at, err, sizeof err), -1);
	}
}
END_TEST

static Suite *message_suite(void)
{
	Suite *s = suite_create("message");
	TCase *parse_tc = tcase_create("parse"), *build = tcase_create("build"),
	      *hash = tcase_create("sha256");

	tcase_add_test(parse_tc, test_create_sides_and_kind);
	tcase_add_test(parse_tc, test_create_clock);
	tcase_add_test(parse_tc, test_create_position);
	tcase_add_test(parse_tc, test_join_room_and_token);
	tcase_add_test(parse_tc, test_move_fields);
	tcase_add_test(parse_tc, test_actions_and_bare_types);
	tcase_add_test(parse_tc, test_malformed);
	tcase_add_test(parse_tc, test_togyz_create_and_moves);
	tcase_add_test(parse_tc, test_event_messages);
	tcase_add_test(build, test_togyz_state);
	tcase_add_test(build, test_kind_start_text);
	tcase_add_test(build, test_kind_records);
	tcase_add_test(build, test_error_codes);
	tcase_add_test(build, test_server_messages);
	tcase_add_test(build, test_writer);
	tcase_add_test(build, test_state);
	tcase_add_test(hash, test_sha256_vectors);
	suite_add_tcase(s, parse_tc);
	suite_add_tcase(s, build);
	suite_add_tcase(s, hash);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(message_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
