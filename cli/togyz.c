/* togyz.c: the `oware` tool's Togyz Kumalak commands (play, perft); main()
 * in cli/oware.c sends `--game togyz` here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/togyz.h"
#include "protocol/togyz.h"
#include "engine/togyz.h"
#include "engine/togyz_search.h"

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
	"  oware best --game togyz [--position JSON] [--level LEVEL |\n"
	"             --depth N | --time-ms N] [--seed N] [HOLE ...]\n"
	"      Plays the moves, then prints the computer's move for the side to\n"
	"      move: {\"move\":H,\"score\":N,\"depth\":N,\"nodes\":N,\"pv\":[H,...]}\n"
	"      with H hole numbers 1..9 (each of the side that plays it). score\n"
	"      is for the side to move, 16 per seed ahead (a tuzdyk counts about\n"
	"      2 seeds plus 10 times the share of the 162 seeds still on the\n"
	"      board); 30000 minus N is a forced win in N plies (negative: a\n"
	"      forced loss). LEVEL is a step of Togyz Kumalak's ladder, weakest\n"
	"      first: 1 starter, 2 easy, 3 learner, 4 amateur, 5 improver,\n"
	"      6 steady, 7 medium, 8 advanced, 9 strong, 10 master, 11 hard\n"
	"      (number or name): the default\n"
	"      --level hard (1 s; the hint), medium 4 plies, easy 1 ply with\n"
	"      random slips; --depth N (1-64) is reproducible, --time-ms N\n"
	"      (1-600000) stops after N ms, --seed N (0-4294967295, default 1)\n"
	"      drives the levels' random choices.\n"
	"\n"
	"Bad input (not a hole number 1..9, an empty hole, the opponent's\n"
	"tuzdyk, a move after the end, a malformed or invalid position) exits\n"
	"with status 2, as for Oware; so does best on a finished game. --game may stand anywhere among the\n"
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

int togyz_cli_best(int argc, char **argv)
{
	const char *position = NULL, *level = NULL;
	long depth = 0, time_ms = 0, seed = 1;
	int nbudget = 0, i, rc, ply = 1;
	tg_search_limits lim;
	tg_search_result r;
	tg_tt_entry *tt;
	tg_game g;
	jw w;

	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--position") && strcmp(opt, "--level") && strcmp(opt, "--depth") &&
		    strcmp(opt, "--time-ms") && strcmp(opt, "--seed"))
			return cli_bad("best", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("best", "%s needs a value", opt);
		if (!strcmp(opt, "--position")) {
			position = val;
		} else if (!strcmp(opt, "--level")) {
			level = val;
			nbudget++;
		} else if (!strcmp(opt, "--depth")) {
			if (cli_parse_num(val, 1, TG_SEARCH_MAX_DEPTH, &depth))
				return cli_bad("best", "--depth must be an integer from 1 to %d, not \"%s\"",
				               TG_SEARCH_MAX_DEPTH, val);
			nbudget++;
		} else if (!strcmp(opt, "--time-ms")) {
			if (cli_parse_num(val, 1, 600000L, &time_ms))
				return cli_bad("best", "--time-ms must be an integer from 1 to 600000, not \"%s\"", val);
			nbudget++;
		} else if (cli_parse_num(val, 0, 4294967295L, &seed)) {
			return cli_bad("best", "--seed must be an integer from 0 to 4294967295, not \"%s\"", val);
		}
	}
	if (nbudget > 1)
		return cli_bad("best", "give only one of --level, --depth and --time-ms");
	if ((rc = start_game(&g, position)))
		return rc;
	for (; i < argc; i++, ply++) {
		const char *m = argv[i];
		int pit = m[0] >= '1' && m[0] <= '9' && !m[1] ? tg_pit_of(g.pos.turn, m[0] - '0') : -1;

		if (pit < 0)
			return cli_bad("best", "ply %d: \"%s\" is not a hole number (1-9)", ply, m);
		if ((rc = tg_game_play(&g, pit, NULL)))
			return cli_bad("best", "ply %d: %s", ply, tg_strerror(rc));
	}
	if (g.end != OW_END_NONE)
		return cli_bad("best", "the game is over: there is no move to choose");
	if (depth || time_ms) {
		memset(&lim, 0, sizeof lim);
		lim.depth = (int)depth;
		lim.time_ms = (uint32_t)time_ms;
		lim.clock = time_ms ? cli_now_ms : NULL;
		lim.seed = (uint32_t)seed;
	} else {
		int lv = level ? cli_level_parse(&cli_togyz_ladder, level) : TG_LADDER_HARD;

		if (lv < 0)
			return cli_bad_level(&cli_togyz_ladder, level);
		tg_search_level(&lim, TG_LEVEL_LADDER + lv, (uint32_t)seed, cli_now_ms, NULL, 1000);
	}
	tt = calloc(TG_SEARCH_TT_ENTRIES, sizeof *tt);
	if (!tt) {
		fprintf(stderr, "oware: out of memory\n");
		return 1;
	}
	rc = tg_search(&g, &lim, tt, TG_SEARCH_TT_ENTRIES, &r);
	free(tt);
	if (rc)
		return cli_bad("best", "%s", tg_strerror(rc));
	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "move");
	jw_int(&w, tg_hole_number(r.move));
	jw_key(&w, "score");
	jw_int(&w, r.score);
	jw_key(&w, "depth");
	jw_int(&w, r.depth);
	jw_key(&w, "nodes");
	jw_int(&w, (long long)r.nodes);
	jw_key(&w, "pv");
	jw_arr(&w);
	for (int k = 0; k < r.npv; k++)
		jw_int(&w, tg_hole_number(r.pv[k]));
	jw_arr_end(&w);
	jw_obj_end(&w);
	rc = cli_print(&w);
	jw_free(&w);
	return rc;
}
