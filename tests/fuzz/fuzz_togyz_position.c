/* fuzz_togyz_position.c: libFuzzer target: Togyz Kumalak position JSON
 * (proto_togyz_position_parse, protocol/togyz.h), the text `oware play --game
 * togyz --position` and `oware perft --game togyz --position` take, and
 * what the protocol will read once rooms play Togyz Kumalak.
 *
 * Checks: a refusal leaves *out untouched and gives one line of valid UTF-8
 * (it may be shown to a user or sent in a protocol error); an acceptance is a
 * valid 162-seed position whose every value is the one in the JSON (a
 * tuzdyk's hole empty, the two on different numbers, none on a 9th hole),
 * and it survives the trip through proto_togyz_game_write and back. */
#include <stdint.h>
#include <string.h>

#include "protocol/togyz.h"
#include "protocol/message.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_proto.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	json_object_seed(1); /* the same hash order on every run */
	return 0;
}

/* What was accepted is exactly what the JSON says. */
static void check_values(const char *text, size_t len, const tg_pos *p)
{
	json_t *j = json_loadb(text, len, 0, NULL);
	const json_t *pits = json_object_get(j, "pits");
	const json_t *cap = json_object_get(j, "captured");
	const json_t *tz = json_object_get(j, "tuzdyk");
	int total = 0;

	FUZZ_CHECK(j != NULL);
	FUZZ_CHECK_EQ(json_array_size(pits), TG_PITS);
	for (int i = 0; i < TG_PITS; i++) {
		FUZZ_CHECK_EQ(json_integer_value(json_array_get(pits, (size_t)i)), p->pits[i]);
		total += p->pits[i];
	}
	FUZZ_CHECK_EQ(json_integer_value(json_object_get(cap, "south")), p->captured[OW_SOUTH]);
	FUZZ_CHECK_EQ(json_integer_value(json_object_get(cap, "north")), p->captured[OW_NORTH]);
	FUZZ_CHECK_EQ(total + p->captured[0] + p->captured[1], TG_SEEDS);
	for (int s = 0; s < 2; s++) {
		const json_t *h = json_object_get(tz, s == OW_SOUTH ? "south" : "north");

		if (json_is_null(h)) {
			FUZZ_CHECK_EQ(p->tuzdyk[s], TG_NONE);
			continue;
		}
		FUZZ_CHECK(json_is_integer(h));
		FUZZ_CHECK(json_integer_value(h) >= 1 && json_integer_value(h) <= 8);
		/* On the opponent's row, at that number, and empty. */
		FUZZ_CHECK_EQ(p->tuzdyk[s], (1 - s) * TG_ROW + json_integer_value(h) - 1);
		FUZZ_CHECK_EQ(p->pits[p->tuzdyk[s]], 0);
	}
	if (p->tuzdyk[0] != TG_NONE && p->tuzdyk[1] != TG_NONE)
		FUZZ_CHECK(p->tuzdyk[0] % TG_ROW != p->tuzdyk[1] % TG_ROW);
	/* The whole string: "south\u0000x" is not "south". */
	FUZZ_CHECK(!strcmp(json_string_value(json_object_get(j, "turn")),
	                   p->turn == OW_SOUTH ? "south" : "north"));
	FUZZ_CHECK_EQ(json_string_length(json_object_get(j, "turn")), 5);
	FUZZ_CHECK_EQ(p->pad_, 0);
	json_decref(j);
}

/* proto_togyz_game_write of a game whose board stays parses back to the same
 * position. */
static void check_round_trip(const tg_pos *p)
{
	char err[200];
	tg_game g;
	tg_pos back;
	jw w;

	tg_game_from(&g, p);
	jw_init(&w);
	proto_togyz_game_write(&w, &g);
	FUZZ_CHECK(!w.oom);
	if (g.end == OW_END_NONE || g.end == OW_END_SCORE) { /* board not cleared */
		FUZZ_CHECK_EQ(proto_togyz_position_parse(w.buf, w.len, &back, err, sizeof err), 0);
		FUZZ_CHECK(!memcmp(&back, p, sizeof back));
	}
	jw_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[200], small[8];
	tg_pos out, before, again;
	int rc;

	memset(&out, 0xa5, sizeof out);
	before = out;
	memset(err, 'x', sizeof err);
	rc = proto_togyz_position_parse(text, size, &out, err, sizeof err);
	FUZZ_CHECK(rc == 0 || rc == -1);

	/* The error buffer's size changes nothing but the message. */
	memset(&again, 0xa5, sizeof again);
	FUZZ_CHECK_EQ(proto_togyz_position_parse(text, size, &again, small, sizeof small), rc);
	FUZZ_CHECK(strnlen(small, sizeof small) < sizeof small);
	FUZZ_CHECK(!memcmp(&again, &out, sizeof out));

	if (rc) {
		FUZZ_CHECK(!memcmp(&out, &before, sizeof out));
		fuzz_check_reason(PROTO_E_BAD_MESSAGE, err, sizeof err);
		return 0;
	}
	check_values(text, size, &out);
	check_round_trip(&out);
	return 0;
}
