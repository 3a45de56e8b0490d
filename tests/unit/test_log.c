/* test_log.c: Check unit tests of the server's log lines (server/base/log.h):
 * client-given values escaped, lines a client can cause throttled per
 * event and address, and what was held back told with its count. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "server/base/log.h"

static const char *esc(const char *s, size_t cap, int quoted)
{
	static char out[512];

	return log_esc(out, cap, s, strlen(s), quoted);
}

START_TEST(test_escape_known_answers)
{
	char out[16];

	ck_assert_str_eq(esc("203.0.113.9", 64, 0), "203.0.113.9");
	ck_assert_str_eq(esc("http://a.example", 64, 0), "http://a.example");
	/* A terminal escape, a quote, a fake pair, a backslash. */
	ck_assert_str_eq(esc("e\x1b[31m\" addr=1.2.3.4 \\", 128, 0),
	                 "e\\x1b[31m\\x22\\x20addr\\x3d1.2.3.4\\x20\\x5c");
	/* Quoted: spaces and '=' are kept, quotes and controls are not. */
	ck_assert_str_eq(esc("a b=c \"d\"\n", 128, 1), "a b=c \\x22d\\x22\\x0a");
	/* Bytes of UTF-8 and DEL, one by one. */
	ck_assert_str_eq(esc("\xc3\xa9\x7f", 64, 1), "\\xc3\\xa9\\x7f");
	/* Cut short, never in the middle of an escape, always terminated. */
	ck_assert_str_eq(log_esc(out, 8, "abcdefghij", 10, 0), "abcdefg");
	ck_assert_str_eq(log_esc(out, 8, "ab\x01\x02", 4, 0), "ab\\x01");
	/* Only len bytes, and not past a NUL. */
	ck_assert_str_eq(log_esc(out, sizeof out, "abc\0def", 7, 0), "abc");
	ck_assert_str_eq(log_esc(out, sizeof out, "abcdef", 2, 0), "ab");
	ck_assert_str_eq(log_esc(out, 1, "abc", 3, 0), "");
}
END_TEST

/* Runs fn with stderr into a file; returns the file's text (static). */
static const char *captured(void (*fn)(void))
{
	static char text[65536];
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	ck_assert_ptr_nonnull(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	return text;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void flood(void)
{
	for (int i = 0; i < 25; i++)
		log_limited(LOG_INFO, "client_error", "198.51.100.7", "code=bad_json addr=198.51.100.7");
	for (int i = 0; i < 3; i++)
		log_limited(LOG_INFO, "client_error", "198.51.100.8", "code=bad_json addr=198.51.100.8");
	for (int i = 0; i < 12; i++)
		log_limited(LOG_WARN, "client_dropped", "198.51.100.7", "reason=flood addr=198.51.100.7");
	/* Below the level: neither printed nor counted. */
	for (int i = 0; i < 30; i++)
		log_limited(LOG_DEBUG, "conn_open", "198.51.100.7", "addr=198.51.100.7");
	log_flush(1);
}

START_TEST(test_throttle_per_event_and_address)
{
	const char *t = captured(flood);

	ck_assert_int_eq(count(t, " info client_error code=bad_json addr=198.51.100.7\n"), 10);
	ck_assert_int_eq(count(t, " info client_error code=bad_json addr=198.51.100.8\n"), 3);
	ck_assert_int_eq(count(t, " warn client_dropped reason=flood addr=198.51.100.7\n"), 10);
	ck_assert_int_eq(count(t, " info log_suppressed event=client_error addr=198.51.100.7"
	                          " lines=15 seconds=60\n"), 1);
	ck_assert_int_eq(count(t, " warn log_suppressed event=client_dropped addr=198.51.100.7"
	                          " lines=2 seconds=60\n"), 1);
	ck_assert_int_eq(count(t, "log_suppressed"), 2);
	ck_assert_int_eq(count(t, "conn_open"), 0);
	ck_assert_int_eq(count(t, "\n"), 25);
}
END_TEST

static void many_addresses(void)
{
	char addr[32];

	/* 300 addresses, 2 lines each, in one second: the global cap. */
	for (int i = 0; i < 300; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(addr, sizeof addr, "10.0.%d.%d", i / 250, i % 250);
			log_limited(LOG_INFO, "upgrade_refused", addr, "reason=path addr=%s", addr);
		}
	log_flush(1);
}

START_TEST(test_global_cap)
{
	const char *t = captured(many_addresses);
	int printed = count(t, " upgrade_refused ");

	/* The second cannot change within the run but once: 200 a second. */
	ck_assert_int_ge(printed, LOG_THROTTLE_GLOBAL);
	ck_assert_int_le(printed, 2 * LOG_THROTTLE_GLOBAL);
	ck_assert_int_ge(count(t, " warn log_suppressed event=* addr=* lines="), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("log");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_escape_known_answers);
	tcase_add_test(tc, test_throttle_per_event_and_address);
	tcase_add_test(tc, test_global_cap);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
