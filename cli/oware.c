/* oware.c: the `oware` command-line tool: its usage, its help and main(),
 * which sends each command to its file, and `--game NAME` to the kind's
 * record (cli/kind.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/best.h"
#include "cli/puzzles.h"
#include "cli/study.h"
#include "cli/kind.h"

static const char usage[] =
	"usage:\n"
	"  oware play [--game oware|togyz] [--position JSON] [MOVE ...]\n"
	"  oware perft [--game oware|togyz] DEPTH [--position JSON]\n"
	"  oware best [--game oware|togyz] [--position JSON] [--level LEVEL |\n"
	"             --depth N | --time-ms N] [--seed N] [--egdb FILE] [MOVE ...]\n"
	"  oware analyse [--position JSON] [--time-per-move MS | --nodes N]\n"
	"                [--egdb FILE] [MOVE ...]\n"
	"  oware ogn [--position JSON] [--south NAME] [--north NAME] [--date D]\n"
	"            [MOVE ...]\n"
	"  oware ogn --read FILE|-\n"
	"  oware puzzles [--game oware|togyz] [--count N] [--seed N] [--depth D]\n"
	"                [--margin SEEDS] [--egdb FILE]\n"
	"  oware puzzles [--game oware|togyz] --check FILE|- [--egdb FILE]\n"
	"  oware --help\n";

static const char help[] =
	"oware: the rules engines of Oware Rooms on the command line: Oware Abapa\n"
	"(the default, or --game oware) and Togyz Kumalak (--game togyz, below).\n"
	"\n"
	"Pits: South's are a b c d e f (left to right), North's A B C D E F;\n"
	"seeds are sown a..f then A..F. South moves first.\n"
	"\n"
	"  oware play [--position JSON] [MOVE ...]\n"
	"      Plays the moves (one pit letter each) from the standard start, or\n"
	"      from the given position, and prints the game as one JSON object:\n"
	"      {\"pits\":[12 ints],\"captured\":{\"south\":N,\"north\":N},\n"
	"       \"turn\":\"south\"|\"north\",\"legal\":[\"a\",...],\"over\":true|false,\n"
	"       \"winner\":null|\"south\"|\"north\"|\"draw\",\n"
	"       \"reason\":null|\"score\"|\"repetition\"|\"move_limit\"|\"no_moves\"}\n"
	"      A position is {\"pits\":[12 ints],\"captured\":{\"south\":N,\"north\":N},\n"
	"      \"turn\":\"south\"|\"north\"} with 48 seeds in all; it counts as the\n"
	"      first occurrence for the repetition rule.\n"
	"\n"
	"  oware perft DEPTH [--position JSON]\n"
	"      Prints the number of legal move sequences of exactly DEPTH plies.\n"
	"\n"
	"%s"
	"\n"
	"%s"
	"\n"
	"%s"
	"\n"
	"Bad input (an unknown letter, an empty pit, an opponent's pit, a move\n"
	"that does not feed when feeding is required, a move after the game is\n"
	"over, a malformed or invalid position) exits with status 2, prints\n"
	"nothing on stdout and one line on stderr naming the ply or the field;\n"
	"so does an unknown --game.\n"
	"\n";

/* Takes "--game NAME" out of a command's n arguments (wherever it is, but
 * not as the value of --position), moving the later ones down in args as
 * getopt does: sets *kind (the first kind without the option) and returns
 * 0, or CLI_BAD_INPUT after saying why. */
static int take_game(int *n, char **args, const cli_kind **kind)
{
	char names[128];

	cli_kind_names(names, sizeof names);
	*kind = NULL;
	for (int i = 0; i < *n; i++) {
		if (!strcmp(args[i], "--position")) {
			i++;
			continue;
		}
		if (strcmp(args[i], "--game"))
			continue;
		if (*kind)
			return cli_bad(NULL, "--game given twice");
		if (i + 1 >= *n)
			return cli_bad(NULL, "--game needs %s", names);
		if (!(*kind = cli_kind_find(args[i + 1])))
			return cli_bad(NULL, "--game must be %s, not \"%s\"", names, args[i + 1]);
		for (int k = i; k + 2 < *n; k++)
			args[k] = args[k + 2];
		*n -= 2;
		i--;
	}
	if (!*kind)
		*kind = cli_kinds[0];
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc >= 2 ? argv[1] : "";

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		printf(help, cli_best_help, cli_analyse_help, cli_ogn_help);
		for (int i = 0; cli_kinds[i]; i++)
			if (cli_kinds[i]->help) {
				fputs(cli_kinds[i]->help, stdout);
				fputs("\n", stdout);
			}
		fputs(cli_puzzles_help, stdout);
		return 0;
	}
	if (!strcmp(cmd, "play") || !strcmp(cmd, "perft") || !strcmp(cmd, "best") ||
	    !strcmp(cmd, "puzzles")) {
		const cli_kind *k;
		int n = argc - 2, rc = take_game(&n, argv + 2, &k);

		if (rc)
			return rc;
		if (!strcmp(cmd, "puzzles"))
			return cli_puzzles(k, n, argv + 2);
		if (!strcmp(cmd, "play"))
			return cli_play(k, n, argv + 2);
		if (!strcmp(cmd, "best"))
			return cli_best(k, n, argv + 2);
		/* perft: a kind that shows the usage shows it alone for no DEPTH */
		if (n > 0 || !k->perft_usage)
			return cli_perft(k, n, argv + 2, usage);
	}
	if (!strcmp(cmd, "analyse"))
		return cli_analyse(argc - 2, argv + 2);
	if (!strcmp(cmd, "ogn"))
		return cli_ogn(argc - 2, argv + 2);
	fputs(usage, stderr);
	return CLI_BAD_INPUT;
}
