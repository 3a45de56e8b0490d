/* log.c: event lines on stderr ("2026-01-01T00:00:00Z info room_created room=..."). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "server/log.h"

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

void log_event(int level, const char *event, const char *fmt, ...)
{
	char line[1024], ts[32];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;
	int n;

	if (!log_enabled(level))
		return;
	gmtime_r(&now, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(line, sizeof line, "%s %s %s ", ts, names[level], event);
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", line);
}
