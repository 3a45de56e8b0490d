/* best.h: `oware best`, the computer's move for a position. */
#ifndef CLI_BEST_H
#define CLI_BEST_H

/* Runs `oware best` with the arguments that follow the word "best" (argc
 * of them in argv): [--position JSON] [--level easy|medium|hard |
 * --depth N | --time-ms N] [--seed N] [MOVE ...]. Prints one JSON line
 * {"move":"c","score":N,"depth":N,"nodes":N,"pv":[...]} and returns 0;
 * on bad input prints one line on stderr, nothing on stdout, returns 2;
 * on a failed write or no memory returns 1. */
int cli_best(int argc, char **argv);

/* The usage and help text of `oware best`, for the tool's --help. */
extern const char cli_best_help[];

#endif
