/* log.c: event lines on stderr ("2026-01-01T00:00:00Z info room_created room=..."),
 * client-given values escaped, repeated lines from one address throttled. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "server/base/log.h"

static int log_level = LOG_INFO;
static const char *const names[] = {"error", "warn", "info", "debug"};

void log_set_level(int level)
{
	log_level = level;
}

int log_level_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int log_enabled(int level)
{
	return level <= log_level;
}

static void vlog(int level, const char *event, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vlog(int level, const char *event, const char *fmt, va_list ap)
{
	char line[1024], ts[32];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(line, sizeof line, "%s %s %s ", ts, names[level], event);
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", line);
}

void log_event(int level, const char *event, const char *fmt, ...)
{
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vlog(level, event, fmt, ap);
	va_end(ap);
}

const char *log_esc(char *out, size_t cap, const char *s, size_t len, int quoted)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!cap)
		return "";
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		int plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
		            (quoted || (c != ' ' && c != '='));

		if (o + (plain ? 1 : 4) >= cap)
			break;
		if (plain)
			out[o++] = (char)c;
		else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = 0;
	return out;
}

/* ---- throttling ---- */

/* One (event, address) seen lately: lines printed in its window, lines
 * suppressed since the last report. */
typedef struct tkey {
	const char *event; /* a static string; NULL: a free slot */
	char addr[64];
	int64_t window;    /* start (s) of its current window */
	unsigned printed;
	unsigned suppressed;
	int level;         /* of its last line: the report's level */
} tkey;

#define TKEYS 1024
static tkey keys[TKEYS];
/* Every throttled line in this second, and those suppressed by this cap. */
static int64_t global_second;
static unsigned global_printed, global_suppressed;

static uint32_t key_hash(const char *event, const char *addr)
{
	uint32_t h = 2166136261u;

	for (const char *p = event; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (const char *p = addr; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static void report(tkey *k)
{
	if (k->suppressed)
		log_event(k->level, "log_suppressed", "event=%s addr=%s lines=%u seconds=%d",
		          k->event, k->addr, k->suppressed, LOG_THROTTLE_WINDOW_S);
	k->suppressed = 0;
}

void log_limited(int level, const char *event, const char *addr, const char *fmt, ...)
{
	int64_t now = (int64_t)time(NULL);
	tkey *k;
	va_list ap;

	if (!log_enabled(level))
		return;
	if (!addr)
		addr = "-";
	k = &keys[key_hash(event, addr) % TKEYS];
	if (k->event != event || strcmp(k->addr, addr)) {
		if (k->event)
			report(k); /* evicted: what it held back is told now */
		k->event = event;
		snprintf(k->addr, sizeof k->addr, "%s", addr);
		k->window = now;
		k->printed = 0;
		k->suppressed = 0;
	}
	if (now - k->window >= LOG_THROTTLE_WINDOW_S) {
		report(k);
		k->window = now;
		k->printed = 0;
	}
	if (now != global_second) {
		if (global_suppressed)
			log_event(LOG_WARN, "log_suppressed", "event=* addr=* lines=%u seconds=1",
			          global_suppressed);
		global_second = now;
		global_printed = global_suppressed = 0;
	}
	k->level = level;
	if (k->printed >= LOG_THROTTLE_LINES) {
		k->suppressed++;
		return;
	}
	if (global_printed >= LOG_THROTTLE_GLOBAL) {
		global_suppressed++;
		return;
	}
	k->printed++;
	global_printed++;
	va_start(ap, fmt);
	vlog(level, event, fmt, ap);
	va_end(ap);
}

void log_flush(int all)
{
	int64_t now = (int64_t)time(NULL);

	for (int i = 0; i < TKEYS; i++)
		if (keys[i].event && (all || now - keys[i].window >= LOG_THROTTLE_WINDOW_S)) {
			report(&keys[i]);
			keys[i].event = NULL;
		}
	if (global_suppressed && (all || now != global_second)) {
		log_event(LOG_WARN, "log_suppressed", "event=* addr=* lines=%u seconds=1",
		          global_suppressed);
		global_suppressed = 0;
	}
}
