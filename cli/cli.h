/* cli.h: what every command of the `oware` tool shares: the one line on
 * stderr and exit status for bad input, and printing a JSON line. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdint.h>

#include "engine/egdb.h"
#include "protocol/jw.h"

/* Exit status for bad input (nothing on stdout, one line on stderr). */
#define CLI_BAD_INPUT 2

/* Prints "oware: CMD: <message>" (or "oware: <message>" when cmd is NULL)
 * as one line on stderr; returns CLI_BAD_INPUT. */
__attribute__((format(printf, 2, 3)))
int cli_bad(const char *cmd, const char *fmt, ...);

/* Prints w's text and a newline on stdout: 0, or 1 (said on stderr when
 * w ran out of memory) when it could not. */
int cli_print(const jw *w);

/* Parses a whole decimal number from lo to hi into *out: 0, or -1. */
int cli_parse_num(const char *s, long lo, long hi, long *out);

/* A game's ladder of the computer's levels, weakest first: names[n - 1]
 * is level n (engine/search.h's OW_LEVEL_LADDER + n, engine/togyz_search.h's
 * TG_LEVEL_LADDER + n). */
struct cli_ladder {
	int n;
	const char *const *names;
};
extern const struct cli_ladder cli_oware_ladder, cli_togyz_ladder;
/* The level 1..l->n that --level's value s names (a number or a name), or
 * -1. */
int cli_level_parse(const struct cli_ladder *l, const char *s);
/* Reports a bad --level value s of `best` (cli_bad's status): "--level
 * must be 1-N or NAME, ..., NAME or NAME, not "s"". */
int cli_bad_level(const struct cli_ladder *l, const char *s);

/* Milliseconds of the monotonic clock (an ow_clock_fn; ctx unused). */
uint32_t cli_now_ms(void *ctx);

/* Reads the endgame database file at path (engine/egdb.h; `make egdb`
 * writes build/oware.egdb, the web client ships web/oware.egdb) into
 * memory that lives until exit: 0 with *db set, or cli_bad's status
 * (the file missing, unreadable or refused, said for cmd). */
int cli_egdb_open(const char *cmd, const char *path, const ow_egdb **db);

#endif
