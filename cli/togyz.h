/* togyz.h: `oware play|perft|best --game togyz`. */
#ifndef CLI_TOGYZ_H
#define CLI_TOGYZ_H

/* The help text of the two commands (docs/cli.md). */
extern const char togyz_cli_help[];

/* `oware play --game togyz [--position JSON] [HOLE ...]`, given the
 * arguments after "play" with "--game togyz" removed. Prints the game as
 * JSON and returns 0; bad input returns 2 with one line on stderr and
 * nothing on stdout; 1 if stdout fails. */
int togyz_cli_play(int argc, char **argv);

/* `oware perft --game togyz DEPTH [--position JSON]`, the same way: prints
 * the leaf count. */
int togyz_cli_perft(int argc, char **argv);

/* `oware best --game togyz [options] [HOLE ...]` (engine/togyz_search.h),
 * the same way: prints the computer's move as JSON. */
int togyz_cli_best(int argc, char **argv);

#endif
