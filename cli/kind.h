/* kind.h: the games of the `oware` tool, one record each, on top of the
 * server's proto_kind (protocol/kind.h): `play`, `perft` and `best` run
 * one code (cli/game.c, cli/best.c, cli/puzzles.c) for every kind, and
 * `--game NAME` picks the record. A third game, or a variant, is a record in
 * cli/kind.c beside one in protocol/kind.c. */
#ifndef CLI_KIND_H
#define CLI_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "engine/egdb.h"
#include "protocol/jw.h"
#include "protocol/kind.h"

/* What `best` asks of a kind's search, as parsed from its options. */
typedef struct cli_budget {
	int depth;            /* > 0: a plain search exactly this deep */
	uint32_t time_ms;     /* else > 0: a plain search this long */
	int level;            /* else: step 1..n of the kind's ladder */
	uint32_t seed;        /* the levels' random choices */
	const ow_egdb *egdb;  /* the endgame database (kinds with egdb), or NULL */
} cli_budget;

/* What a kind's search found (the engine's result, whatever its kind). */
#define CLI_PV_MAX 64
typedef struct cli_found {
	int move, score, depth, npv;
	uint64_t nodes;
	uint8_t pv[CLI_PV_MAX]; /* pits, pv[0] == move */
} cli_found;

typedef struct cli_kind {
	const proto_kind *proto; /* the engine, the JSON; proto->name is --game's */
	const char *help;        /* its part of --help, or NULL (the main text's) */
	/* The pit that one move's text m names for the side to move in p,
	 * or -1; move_form says what m should have been, in "is not %s". */
	int (*move_parse)(const proto_play *p, const char *m);
	const char *move_form;
	/* play's words for engine error err at a move from p. */
	const char *(*play_error)(const proto_play *p, int err);
	/* best's move and pv entries: a pit as this kind's JSON says it. */
	void (*move_json)(jw *w, int pit);
	/* The search: its ladder and default step, its table, and the search
	 * itself over tt (entries of tt_entry_size bytes, zeroed; best's
	 * tt_entries): 0 with out filled, or the engine's negative error. */
	const struct cli_ladder *ladder;
	int level_default;
	int max_depth;
	size_t tt_entries, tt_entry_size;
	int (*search)(const proto_play *p, const cli_budget *b, void *tt, size_t entries,
	              cli_found *out);
	int has_egdb;            /* best and puzzles take --egdb FILE */
	/* `oware puzzles` (cli/puzzles.c): the letter of its ids ("o-1"),
	 * --depth's default; a pit as the page names it, and back (-1: not
	 * one); the seeds the last move played in p took (the greedy
	 * player's count); one game record of --records read into start and
	 * moves[0..*n) (at most max): 0, or -1 with err, *line moved from the
	 * record's first line to the error's where the format says one.
	 * records_blank: records end at a blank line and a # line is a
	 * comment (else a record ends where a tag line follows its moves). */
	char puzzle_id;
	int puzzle_depth;
	/* Plies beyond the depth at which `oware puzzles` searches a puzzle
	 * found again before it keeps it (test-puzzles checks the shipped
	 * files so): as deep as stays cheap, the endgame database helping. */
	int puzzle_deeper;
	char (*page_name)(int pit);
	int (*page_pit)(int c);
	int (*taken)(const proto_play *p);
	int (*read_record)(const char *text, size_t len, proto_play *start, uint8_t *moves,
	                   int max, int *n, char *err, size_t errsz, int *line);
	int records_blank;
	/* Words as the tool has always said them, which differ by kind: the
	 * room for a --position error, best's command name before one (NULL:
	 * none), and perft's usage shown after a wrong call. */
	size_t position_errlen;
	const char *best_position_cmd;
	int perft_usage;
} cli_kind;

/* The kinds, the first the default of --game; NULL-terminated. */
extern const cli_kind *const cli_kinds[];
extern const cli_kind cli_kind_oware, cli_kind_togyz;

/* The kind --game's value names, or NULL. */
const cli_kind *cli_kind_find(const char *name);

/* The names of the kinds as a phrase ("oware or togyz") into out. */
void cli_kind_names(char *out, size_t outlen);

/* Starts g for kind from --position text (NULL: the standard start):
 * 0, or cli_bad's status after saying why for cmd (NULL: no command). */
int cli_start(const cli_kind *k, const char *cmd, const char *text, proto_play *g);

/* Plays n moves given as arguments in g, the first ply numbered 1, their
 * pits into pits[0..n) unless pits is NULL: 0, or cli_bad's status naming
 * the ply for cmd; detailed picks play's words for an engine error
 * (kind->play_error) over the engine's own. */
int cli_replay(const cli_kind *k, const char *cmd, proto_play *g, char **moves, int n,
               int detailed, uint8_t *pits);

/* `oware play|perft [--game NAME] ...` with the arguments after the
 * command, --game taken out: 0 after printing, cli_bad's status for bad
 * input, 1 when stdout fails. usage is perft's usage text. */
int cli_play(const cli_kind *k, int argc, char **argv);
int cli_perft(const cli_kind *k, int argc, char **argv, const char *usage);

#endif
