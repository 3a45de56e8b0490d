/* test_jscan.c: Check unit tests of owload's in-place JSON reader
 * (bench/jscan.h): the fields of a server `state`, and malformed text. */
#include <check.h>
#include <string.h>

#include "bench/jscan.h"

static const char state[] =
	"{\"type\":\"state\",\"room\":\"r-1\",\"kind\":\"oware\",\"version\":7,\"game_number\":12,"
	" \"game\":{\"pits\":[0,5,5,5,5,4,4,4,4,4,4,4],\"captured\":{\"south\":0,\"north\":0},"
	"\"turn\":\"north\",\"legal\":[\"A\",\"B\"],\"over\":false,\"winner\":null,\"reason\":null},"
	"\"moves\":[\"a\", \"F\",\"c\"],\"last\":{\"pit\":\"a\",\"sown\":[\"b\"],\"seeds\":0},"
	"\"seats\":{\"south\":{\"taken\":true,\"connected\":true},\"north\":{\"taken\":false}},"
	"\"note\":\"q\\\"uote\",\"draw_offer\":null,\"rematch_offer\":\"south\",\"neg\":-42}\n";

static jval top(void)
{
	jval m;

	ck_assert_int_eq(js_parse(state, strlen(state), &m), 0);
	return m;
}

START_TEST(test_fields)
{
	jval m = top(), v, g, e;
	char b[16];
	long long x;

	ck_assert_int_eq(js_get(m, "type", &v), 0);
	ck_assert_int_eq(js_str(v, b, sizeof b), 5);
	ck_assert_str_eq(b, "state");
	ck_assert_int_eq(js_get(m, "game_number", &v), 0);
	ck_assert_int_eq(js_int(v, &x), 0);
	ck_assert_int_eq(x, 12);
	ck_assert_int_eq(js_get(m, "neg", &v), 0);
	ck_assert_int_eq(js_int(v, &x), 0);
	ck_assert_int_eq(x, -42);
	ck_assert_int_eq(js_get(m, "game", &g), 0);
	ck_assert_int_eq(js_get(g, "turn", &v), 0);
	ck_assert_int_eq(js_str(v, b, sizeof b), 5);
	ck_assert_str_eq(b, "north");
	ck_assert_int_eq(js_get(g, "over", &v), 0);
	ck_assert(!js_true(v));
	ck_assert_int_eq(js_get(g, "winner", &v), 0);
	ck_assert(js_null(v));
	/* a key nested deeper is not a key of the outer object */
	ck_assert_int_eq(js_get(m, "turn", &v), -1);
	ck_assert_int_eq(js_get(m, "south", &v), -1);
	ck_assert_int_eq(js_get(m, "seats", &v), 0);
	ck_assert_int_eq(js_get(v, "south", &e), 0);
	ck_assert_int_eq(js_get(e, "taken", &e), 0);
	ck_assert(js_true(e));
	ck_assert_int_eq(js_get(v, "north", &e), 0);
	ck_assert_int_eq(js_get(e, "taken", &e), 0);
	ck_assert(!js_true(e));
	ck_assert_int_eq(js_get(m, "rematch_offer", &v), 0);
	ck_assert_int_eq(js_str(v, b, sizeof b), 5);
	ck_assert_str_eq(b, "south");
	/* escapes are refused, not copied half-read; short buffers refused */
	ck_assert_int_eq(js_get(m, "note", &v), 0);
	ck_assert_int_eq(js_str(v, b, sizeof b), -1);
	ck_assert_int_eq(js_get(m, "type", &v), 0);
	ck_assert_int_eq(js_str(v, b, 5), -1);
	ck_assert_int_eq(js_str(v, b, 6), 5);
	/* not a string, not an integer */
	ck_assert_int_eq(js_get(m, "game", &v), 0);
	ck_assert_int_eq(js_str(v, b, sizeof b), -1);
	ck_assert_int_eq(js_int(v, &x), -1);
}
END_TEST

START_TEST(test_arrays)
{
	jval m = top(), a, v;
	const char *it = NULL;
	char b[4];
	const char *want[] = { "a", "F", "c" };
	int k = 0;

	ck_assert_int_eq(js_get(m, "moves", &a), 0);
	ck_assert_int_eq(js_count(a), 3);
	while (js_next(a, &it, &v) > 0) {
		ck_assert_int_lt(k, 3);
		ck_assert_int_eq(js_str(v, b, sizeof b), 1);
		ck_assert_str_eq(b, want[k]);
		k++;
	}
	ck_assert_int_eq(k, 3);
	ck_assert_int_eq(js_parse("[]", 2, &a), 0);
	ck_assert_int_eq(js_count(a), 0);
	ck_assert_int_eq(js_get(m, "game", &a), 0);
	ck_assert_int_eq(js_count(a), -1);
}
END_TEST

START_TEST(test_malformed)
{
	static const char *const bad[] = {
		"", " ", "{", "}", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":}", "{a:1}",
		"[1,2", "[1 2]", "\"open", "{\"a\":1} x", "{\"a\":\"x\ny\"}", "[,1]",
		"{\"a\":[{\"b\":]}}", "{\"a\":1}}",
	};
	jval v;
	long long x;

	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
		ck_assert_msg(js_parse(bad[k], strlen(bad[k]), &v) == -1, "accepted %s", bad[k]);
	ck_assert_int_eq(js_parse("{\"a\":1}", 7, &v), 0);
	ck_assert_int_eq(js_parse("01", 2, &v), 0); /* characters only; js_int reads it */
	ck_assert_int_eq(js_int(v, &x), -1);
	ck_assert_int_eq(js_parse("99999999999999999999", 20, &v), 0);
	ck_assert_int_eq(js_int(v, &x), -1);
	/* nesting beyond the bound is refused, not recursed into */
	{
		char deep[300];

		memset(deep, '[', 150);
		memset(deep + 150, ']', 150);
		ck_assert_int_eq(js_parse(deep, 300, &v), -1);
		ck_assert_int_eq(js_parse(deep + 100, 100, &v), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jscan");
	TCase *t = tcase_create("jscan");
	SRunner *sr;
	int failed;

	tcase_add_test(t, test_fields);
	tcase_add_test(t, test_arrays);
	tcase_add_test(t, test_malformed);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
