/* best.c: `oware best`: runs the search of engine/search.h on a position
 * and prints its choice as JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/best.h"
#include "engine/search.h"
#include "protocol/game.h"

#define TT_ENTRIES OW_SEARCH_TT_ENTRIES
#define MAX_TIME_MS 600000L
#define DEFAULT_HARD_MS 1000

const char cli_best_help[] =
	"  oware best [--position JSON] [--level LEVEL | --depth N |\n"
	"             --time-ms N] [--seed N] [--egdb FILE] [MOVE ...]\n"
	"      Plays the moves from the start (or the position), then prints the\n"
	"      computer's move for the side to move:\n"
	"      {\"move\":\"c\",\"score\":N,\"depth\":N,\"nodes\":N,\"pv\":[\"c\",...]}\n"
	"      score is for the side to move, 16 per seed ahead; 30000 minus N\n"
	"      is a forced win in N plies (negative: a forced loss). The default\n"
	"      is --level hard (1 s; the hint). --depth N (1-64) searches exactly\n"
	"      N plies and is reproducible; --time-ms N stops after N ms. --seed\n"
	"      drives the random choices of the levels (default 1). LEVEL is\n"
	"      a step of the ladder, weakest first: 1 starter, 2 easy, 3 learner,\n"
	"      4 improver, 5 steady, 6 medium, 7 club, 8 advanced, 9 strong,\n"
	"      10 expert, 11 master, 12 hard (number or name).\n"
	"      --egdb FILE: the search also reads the endgame database\n"
	"      (build/oware.egdb or web/oware.egdb, as the browser's computer\n"
	"      does once it has it).\n";

static json_t *result_json(const ow_search_result *r)
{
	char move[2] = {ow_pit_letter(r->move), 0};
	json_t *j = json_object(), *pv = json_array();

	if (!j || !pv)
		goto fail;
	for (int i = 0; i < r->npv; i++) {
		char m[2] = {ow_pit_letter(r->pv[i]), 0};

		if (json_array_append_new(pv, json_string(m)))
			goto fail;
	}
	if (json_object_set_new(j, "move", json_string(move)) ||
	    json_object_set_new(j, "score", json_integer(r->score)) ||
	    json_object_set_new(j, "depth", json_integer(r->depth)) ||
	    json_object_set_new(j, "nodes", json_integer((json_int_t)r->nodes)) ||
	    json_object_set(j, "pv", pv))
		goto fail;
	json_decref(pv);
	return j;
fail:
	json_decref(pv);
	json_decref(j);
	return NULL;
}

int cli_best(int argc, char **argv)
{
	const char *position = NULL, *level = NULL, *egdb = NULL;
	const ow_egdb *db = NULL;
	long depth = 0, time_ms = 0, seed = 1;
	int nbudget = 0, i, rc, ply = 1;
	ow_search_limits lim;
	ow_search_result r;
	ow_tt_entry *tt = NULL;
	ow_game g;
	json_t *j;
	char *text;

	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--position") && strcmp(opt, "--level") &&
		    strcmp(opt, "--depth") && strcmp(opt, "--time-ms") &&
		    strcmp(opt, "--seed") && strcmp(opt, "--egdb"))
			return cli_bad("best", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("best", "%s needs a value", opt);
		if (!strcmp(opt, "--position")) {
			position = val;
		} else if (!strcmp(opt, "--egdb")) {
			egdb = val;
		} else if (!strcmp(opt, "--level")) {
			level = val;
			nbudget++;
		} else if (!strcmp(opt, "--depth")) {
			if (cli_parse_num(val, 1, OW_SEARCH_MAX_DEPTH, &depth))
				return cli_bad("best", "--depth must be an integer from 1 to %d, not \"%s\"",
				           OW_SEARCH_MAX_DEPTH, val);
			nbudget++;
		} else if (!strcmp(opt, "--time-ms")) {
			if (cli_parse_num(val, 1, MAX_TIME_MS, &time_ms))
				return cli_bad("best", "--time-ms must be an integer from 1 to %ld, not \"%s\"",
				           MAX_TIME_MS, val);
			nbudget++;
		} else if (cli_parse_num(val, 0, 4294967295L, &seed)) { /* --seed */
			return cli_bad("best", "--seed must be an integer from 0 to 4294967295, not \"%s\"",
			           val);
		}
	}
	if (nbudget > 1)
		return cli_bad("best", "give only one of --level, --depth and --time-ms");
	if (egdb && (rc = cli_egdb_open("best", egdb, &db)))
		return rc;

	if (position) {
		char err[160];
		ow_pos p;

		if (proto_position_parse(position, strlen(position), &p, err, sizeof err))
			return cli_bad("best", "--position: %s", err);
		ow_game_from(&g, &p);
	} else {
		ow_game_start(&g);
	}
	for (; i < argc; i++, ply++) {
		const char *m = argv[i];
		int pit = m[0] && !m[1] ? ow_pit_parse(m[0]) : -1;

		if (pit < 0)
			return cli_bad("best", "ply %d: \"%s\" is not a pit letter (a-f, A-F)", ply, m);
		if ((rc = ow_game_play(&g, pit, NULL)))
			return cli_bad("best", "ply %d: %s", ply, ow_strerror(rc));
	}
	if (g.end != OW_END_NONE)
		return cli_bad("best", "the game is over: there is no move to choose");

	if (depth) {
		memset(&lim, 0, sizeof lim);
		lim.depth = (int)depth;
		lim.seed = (uint32_t)seed;
	} else if (time_ms) {
		memset(&lim, 0, sizeof lim);
		lim.time_ms = (uint32_t)time_ms;
		lim.clock = cli_now_ms;
		lim.seed = (uint32_t)seed;
	} else {
		int lv = level ? cli_level_parse(&cli_oware_ladder, level) : OW_LADDER_HARD;

		if (lv < 0)
			return cli_bad_level(&cli_oware_ladder, level);
		ow_search_level(&lim, OW_LEVEL_LADDER + lv, (uint32_t)seed, cli_now_ms, NULL,
		                DEFAULT_HARD_MS);
	}

	lim.egdb = db;
	tt = calloc(TT_ENTRIES, sizeof *tt);
	if (!tt) {
		fprintf(stderr, "oware: out of memory\n");
		return 1;
	}
	rc = ow_search(&g, &lim, tt, TT_ENTRIES, &r);
	free(tt);
	if (rc)
		return cli_bad("best", "%s", ow_strerror(rc));
	j = result_json(&r);
	text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (!text) {
		fprintf(stderr, "oware: out of memory\n");
		return 1;
	}
	puts(text);
	free(text);
	return fflush(stdout) ? 1 : 0;
}
