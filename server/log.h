/* log.h: one line per event on stderr, with a level filter. Callers never
 * pass secrets (seat tokens) to these functions. */
#ifndef SRV_LOG_H
#define SRV_LOG_H

enum { LOG_ERROR = 0, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Sets the most verbose level printed (default LOG_INFO). */
void log_set_level(int level);
/* LOG_* for "error", "warn", "info", "debug"; -1 otherwise. */
int log_level_parse(const char *s);
/* 1 when a line at level would be printed. */
int log_enabled(int level);
/* Prints "<UTC time> <level> <event> <formatted fields>" as one line. */
void log_event(int level, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
