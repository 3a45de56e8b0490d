/* oware.c: the `oware` command-line tool: play moves, perft, best move;
 * `--game togyz` goes to cli/togyz.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/best.h"
#include "cli/puzzles.h"
#include "cli/study.h"
#include "cli/togyz.h"
#include "engine/oware.h"
#include "protocol/game.h"

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
 * getopt does: returns 0 for Oware (also without the option), 1 for Togyz
 * Kumalak, or CLI_BAD_INPUT's negative after saying why. */
static int take_game(int *n, char **args)
{
	int game = -1;

	for (int i = 0; i < *n; i++) {
		if (!strcmp(args[i], "--position")) {
			i++;
			continue;
		}
		if (strcmp(args[i], "--game"))
			continue;
		if (game >= 0)
			return -cli_bad(NULL, "--game given twice");
		if (i + 1 >= *n)
			return -cli_bad(NULL, "--game needs oware or togyz");
		if (!strcmp(args[i + 1], "oware"))
			game = 0;
		else if (!strcmp(args[i + 1], "togyz"))
			game = 1;
		else
			return -cli_bad(NULL, "--game must be oware or togyz, not \"%s\"", args[i + 1]);
		for (int k = i; k + 2 < *n; k++)
			args[k] = args[k + 2];
		*n -= 2;
		i--;
	}
	return game < 0 ? 0 : game;
}

/* Sets up *g from --position text, or the standard start when text is NULL. */
static int start_game(ow_game *g, const char *text)
{
	char err[160];
	ow_pos p;

	if (!text) {
		ow_game_start(g);
		return 0;
	}
	if (proto_position_parse(text, strlen(text), &p, err, sizeof err))
		return cli_bad(NULL, "--position: %s", err);
	ow_game_from(g, &p);
	return 0;
}

static int print_game(const ow_game *g)
{
	jw w;
	int rc;

	jw_init(&w);
	proto_game_write(&w, g);
	rc = cli_print(&w);
	jw_free(&w);
	return rc;
}

static int cmd_play(int argc, char **argv)
{
	const char *position = NULL;
	ow_game g;
	int i = 0, rc;

	if (argc > 0 && !strcmp(argv[0], "--position")) {
		if (argc < 2)
			return cli_bad(NULL, "--position needs a JSON argument");
		position = argv[1];
		i = 2;
	}
	if ((rc = start_game(&g, position)))
		return rc;
	for (int ply = 1; i < argc; i++, ply++) {
		const char *m = argv[i];
		int pit = m[0] && !m[1] ? ow_pit_parse(m[0]) : -1;

		if (pit < 0)
			return cli_bad(NULL, "ply %d: \"%s\" is not a pit letter (a-f, A-F)", ply, m);
		if ((rc = ow_game_play(&g, pit, NULL)))
			return cli_bad(NULL, "ply %d: %s", ply, rc == OW_E_NOT_YOURS
			           ? (g.pos.turn == OW_SOUTH ? "pit belongs to north; south is to move"
			                                     : "pit belongs to south; north is to move")
			           : ow_strerror(rc));
	}
	return print_game(&g);
}

static int cmd_perft(int argc, char **argv)
{
	const char *position = NULL;
	char *end;
	long depth;
	ow_game g;
	int rc;

	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "--position")))
		return cli_bad(NULL, "perft needs DEPTH [--position JSON]\n%s", usage);
	errno = 0;
	depth = strtol(argv[0], &end, 10);
	if (errno || end == argv[0] || *end || depth < 0 || depth > 64)
		return cli_bad(NULL, "perft: DEPTH must be an integer from 0 to 64, not \"%s\"", argv[0]);
	if (argc == 3)
		position = argv[2];
	if ((rc = start_game(&g, position)))
		return rc;
	printf("%llu\n", (unsigned long long)ow_perft(&g, (int)depth));
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	                  !strcmp(argv[1], "help"))) {
		printf(help, cli_best_help, cli_analyse_help, cli_ogn_help);
		fputs(togyz_cli_help, stdout);
		fputs("\n", stdout);
		fputs(cli_puzzles_help, stdout);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "play") || !strcmp(argv[1], "perft") ||
	                  !strcmp(argv[1], "best") || !strcmp(argv[1], "puzzles"))) {
		int n = argc - 2, game = take_game(&n, argv + 2);

		if (game < 0)
			return -game;
		if (!strcmp(argv[1], "puzzles"))
			return cli_puzzles(game, n, argv + 2);
		if (game == 1 && !strcmp(argv[1], "play"))
			return togyz_cli_play(n, argv + 2);
		if (game == 1 && !strcmp(argv[1], "perft"))
			return togyz_cli_perft(n, argv + 2);
		if (game == 1)
			return togyz_cli_best(n, argv + 2);
		argc = n + 2;
	}
	if (argc >= 2 && !strcmp(argv[1], "play"))
		return cmd_play(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "best"))
		return cli_best(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "analyse"))
		return cli_analyse(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "ogn"))
		return cli_ogn(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "perft"))
		return cmd_perft(argc - 2, argv + 2);
	fputs(usage, stderr);
	return CLI_BAD_INPUT;
}
