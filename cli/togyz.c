/* togyz.c: the `oware` tool's Togyz Kumalak commands (play, perft); main()
 * in cli/oware.c sends `--game togyz` here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/togyz.h"
#include "protocol/togyz.h"
#include "engine/togyz.h"

const char togyz_cli_help[] =
	"Togyz Kumalak (--game togyz): two rows of nine holes, 9 seeds each.\n"
	"South is White and moves first, North is Black; each side numbers its\n"
	"holes 1..9 in sowing order, and after its 9th comes the opponent's 1st.\n"
	"\n"
	"  oware play --game togyz [--position JSON] [HOLE ...]\n"
	"      Plays the moves, each a hole number 1..9 of the side to move (as in\n"
	"      Kazakh records), and prints the game as one JSON object:\n"
	"      {\"pits\":[18 ints: South's holes 1..9, then North's 1..9],\n"
	"       \"captured\":{\"south\":N,\"north\":N},\n"
	"       \"tuzdyk\":{\"south\":HOLE|null,\"north\":HOLE|null},\n"
	"       \"turn\":\"south\"|\"north\",\"legal\":[1,...],\"over\":true|false,\n"
	"       \"winner\":null|\"south\"|\"north\"|\"draw\",\"reason\":null|\"score\"|\"no_moves\"}\n"
	"      A side's tuzdyk is the hole number (1..8) of the opponent's row it\n"
	"      sits on. A position is {\"pits\":[18],\"captured\":{...},\"tuzdyk\":{...},\n"
	"      \"turn\":...} with 162 seeds in all, every tuzdyk's hole empty and\n"
	"      the two tuzdyks on different numbers (other keys are ignored, so a\n"
	"      printed game reads back). At 82 (or 81-81) the game ends as it\n"
	"      stands; when the side to move has no seeds, each side adds the\n"
	"      seeds of its own row to \"captured\" and the board is cleared.\n"
	"\n"
	"  oware perft --game togyz DEPTH [--position JSON]\n"
	"      Prints the number of legal move sequences of exactly DEPTH plies.\n"
	"\n"
	"Bad input (not a hole number 1..9, an empty hole, the opponent's\n"
	"tuzdyk, a move after the end, a malformed or invalid position) exits\n"
	"with status 2, as for Oware. --game may stand anywhere among the\n"
	"arguments of play and perft, once (not as the value of --position).\n";

/* Sets up *g from --position text, or the standard start when text is NULL. */
static int start_game(tg_game *g, const char *text)
{
	char err[200];
	tg_pos p;

	if (!text) {
		tg_game_start(g);
		return 0;
	}
	if (proto_togyz_position_parse(text, strlen(text), &p, err, sizeof err))
		return cli_bad(NULL, "--position: %s", err);
	tg_game_from(g, &p);
	return 0;
}

static int print_game(const tg_game *g)
{
	jw w;
	int rc;

	jw_init(&w);
	proto_togyz_game_write(&w, g);
	rc = cli_print(&w);
	jw_free(&w);
	return rc;
}

int togyz_cli_play(int argc, char **argv)
{
	const char *position = NULL;
	tg_game g;
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
		int pit = m[0] >= '1' && m[0] <= '9' && !m[1] ? tg_pit_of(g.pos.turn, m[0] - '0') : -1;

		if (pit < 0)
			return cli_bad(NULL, "ply %d: \"%s\" is not a hole number (1-9)", ply, m);
		if ((rc = tg_game_play(&g, pit, NULL)))
			return cli_bad(NULL, "ply %d: %s", ply, tg_strerror(rc));
	}
	return print_game(&g);
}

int togyz_cli_perft(int argc, char **argv)
{
	const char *position = NULL;
	char *end;
	long depth;
	tg_game g;
	int rc;

	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "--position")))
		return cli_bad(NULL, "perft needs DEPTH [--position JSON]");
	errno = 0;
	depth = strtol(argv[0], &end, 10);
	if (errno || end == argv[0] || *end || depth < 0 || depth > 64)
		return cli_bad(NULL, "perft: DEPTH must be an integer from 0 to 64, not \"%s\"", argv[0]);
	if (argc == 3)
		position = argv[2];
	if ((rc = start_game(&g, position)))
		return rc;
	printf("%llu\n", (unsigned long long)tg_perft(&g, (int)depth));
	return fflush(stdout) ? 1 : 0;
}
