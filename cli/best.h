/* best.h: `oware best`, the computer's move for a position. */
#ifndef CLI_BEST_H
#define CLI_BEST_H

struct cli_kind;

/* Runs `oware best` for kind k with the arguments that follow the word
 * "best" (argc of them in argv, --game taken out): [--position JSON]
 * [--level LEVEL | --depth N | --time-ms N] [--seed N] [--egdb FILE, for
 * a kind that has one] [MOVE ...]. Prints one JSON line
 * {"move":"c","score":N,"depth":N,"nodes":N,"pv":[...]} (moves as the
 * kind writes them) and returns 0;
 * on bad input prints one line on stderr, nothing on stdout, returns 2;
 * on a failed write or no memory returns 1. */
int cli_best(const struct cli_kind *k, int argc, char **argv);

/* The usage and help text of `oware best`, for the tool's --help. */
extern const char cli_best_help[];

#endif
