/* puzzles.h: `oware puzzles`, positions with one clearly best move. */
#ifndef CLI_PUZZLES_H
#define CLI_PUZZLES_H

struct cli_kind;

/* Runs `oware puzzles` for the kind k (cli/kind.h) with the arguments
 * after the word "puzzles" (and --game): finds puzzles and
 * prints them as a JSON array, or with --check FILE proves a file's again.
 * Returns 0; 1 when a check failed or a write failed; 2 on bad input
 * (one line on stderr, nothing on stdout). */
int cli_puzzles(const struct cli_kind *k, int argc, char **argv);

/* Its usage and help text, for the tool's --help. */
extern const char cli_puzzles_help[];

#endif
