/* log.h: one line per event on stderr, with a level filter. Callers never
 * pass secrets (seat tokens) to these functions, and pass every value a
 * client chose (headers, URIs, forwarded addresses) through log_esc(). */
#ifndef SRV_LOG_H
#define SRV_LOG_H

#include <stddef.h>

enum { LOG_ERROR = 0, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Lines of one event for one address printed in a window; then the rest
 * of the window is counted, not printed, and told by a `log_suppressed`
 * line (at the level of the lines it stands for). And at most
 * LOG_THROTTLE_GLOBAL throttled lines a second in all (told at warn). */
#define LOG_THROTTLE_LINES 10
#define LOG_THROTTLE_WINDOW_S 60
#define LOG_THROTTLE_GLOBAL 200

/* Sets the most verbose level printed (default LOG_INFO). */
void log_set_level(int level);
/* LOG_* for "error", "warn", "info", "debug"; -1 otherwise. */
int log_level_parse(const char *s);
/* 1 when a line at level would be printed. */
int log_enabled(int level);
/* Prints "<UTC time> <level> <event> <formatted fields>" as one line. */
void log_event(int level, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* log_event() for lines a client can cause at will: throttled per event
 * (a static string) and address (see LOG_THROTTLE_*). */
void log_limited(int level, const char *event, const char *addr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Reports what log_limited() held back in windows now over (all: in
 * every window, at the end); call it from time to time (the sweep). */
void log_flush(int all);
/* The first len bytes of s (up to a NUL) into out (cap bytes, cut short
 * if need be), every byte that is not printable ASCII, '"' and '\\' (and
 * unless quoted, the space and '=') written as \xHH: a value that cannot
 * end its field or fake another. quoted: the value is printed in "…".
 * Returns out. */
const char *log_esc(char *out, size_t cap, const char *s, size_t len, int quoted);

#endif
