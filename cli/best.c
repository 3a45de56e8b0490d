/* best.c: `oware best`: runs a kind's search (cli/kind.h) on a position
 * and prints its choice as JSON, in four steps: the options, the game,
 * the budget, the search and its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/best.h"
#include "cli/kind.h"

#define MAX_TIME_MS 600000L

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

/* best's options, as given. */
typedef struct best_opts {
	const char *position, *level, *egdb;
	long depth, time_ms, seed;
	int moves; /* the index of the first move argument */
} best_opts;

/* Reads the options before the moves: 0, or cli_bad's status. */
static int parse_opts(const cli_kind *k, int argc, char **argv, best_opts *o)
{
	int i, nbudget = 0;

	memset(o, 0, sizeof *o);
	o->seed = 1;
	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--position") && strcmp(opt, "--level") &&
		    strcmp(opt, "--depth") && strcmp(opt, "--time-ms") &&
		    strcmp(opt, "--seed") && (strcmp(opt, "--egdb") || !k->has_egdb))
			return cli_bad("best", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("best", "%s needs a value", opt);
		if (!strcmp(opt, "--position")) {
			o->position = val;
		} else if (!strcmp(opt, "--egdb")) {
			o->egdb = val;
		} else if (!strcmp(opt, "--level")) {
			o->level = val;
			nbudget++;
		} else if (!strcmp(opt, "--depth")) {
			if (cli_parse_num(val, 1, k->max_depth, &o->depth))
				return cli_bad("best", "--depth must be an integer from 1 to %d, not \"%s\"",
				               k->max_depth, val);
			nbudget++;
		} else if (!strcmp(opt, "--time-ms")) {
			if (cli_parse_num(val, 1, MAX_TIME_MS, &o->time_ms))
				return cli_bad("best", "--time-ms must be an integer from 1 to %ld, not \"%s\"",
				               MAX_TIME_MS, val);
			nbudget++;
		} else if (cli_parse_num(val, 0, 4294967295L, &o->seed)) { /* --seed */
			return cli_bad("best", "--seed must be an integer from 0 to 4294967295, not \"%s\"",
			               val);
		}
	}
	if (nbudget > 1)
		return cli_bad("best", "give only one of --level, --depth and --time-ms");
	o->moves = i;
	return 0;
}

/* The game to choose a move in: the position, then the moves; refused
 * when it is over. 0, or cli_bad's status. */
static int set_up(const cli_kind *k, const best_opts *o, int argc, char **argv, proto_play *g)
{
	int rc;

	if ((rc = cli_start(k, k->best_position_cmd, o->position, g)) ||
	    (rc = cli_replay(k, "best", g, argv + o->moves, argc - o->moves, 0, NULL)))
		return rc;
	if (k->proto->end(g) != OW_END_NONE)
		return cli_bad("best", "the game is over: there is no move to choose");
	return 0;
}

/* The search's budget from the options: 0, or cli_bad's status. */
static int budget(const cli_kind *k, const best_opts *o, cli_budget *b)
{
	memset(b, 0, sizeof *b);
	b->depth = (int)o->depth;
	b->time_ms = (uint32_t)o->time_ms;
	b->seed = (uint32_t)o->seed;
	if (!o->depth && !o->time_ms) {
		b->level = o->level ? cli_level_parse(k->ladder, o->level) : k->level_default;
		if (b->level < 0)
			return cli_bad_level(k->ladder, o->level);
	}
	return 0;
}

/* Prints {"move":M,"score":N,"depth":N,"nodes":N,"pv":[M,...]}. */
static int print_found(const cli_kind *k, const cli_found *r)
{
	jw w;
	int rc;

	jw_init(&w);
	jw_obj(&w);
	jw_key(&w, "move");
	k->move_json(&w, r->move);
	jw_key(&w, "score");
	jw_int(&w, r->score);
	jw_key(&w, "depth");
	jw_int(&w, r->depth);
	jw_key(&w, "nodes");
	jw_int(&w, (long long)r->nodes);
	jw_key(&w, "pv");
	jw_arr(&w);
	for (int i = 0; i < r->npv; i++)
		k->move_json(&w, r->pv[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	rc = cli_print(&w);
	jw_free(&w);
	return rc;
}

int cli_best(const cli_kind *k, int argc, char **argv)
{
	const ow_egdb *db = NULL;
	best_opts o;
	cli_budget b;
	cli_found r;
	proto_play g;
	void *tt;
	int rc;

	if ((rc = parse_opts(k, argc, argv, &o)))
		return rc;
	if ((o.egdb && (rc = cli_egdb_open("best", o.egdb, &db))) ||
	    (rc = set_up(k, &o, argc, argv, &g)) || (rc = budget(k, &o, &b)))
		return rc;
	b.egdb = db;
	tt = calloc(k->tt_entries, k->tt_entry_size);
	if (!tt) {
		fprintf(stderr, "oware: out of memory\n");
		return 1;
	}
	rc = k->search(&g, &b, tt, k->tt_entries, &r);
	free(tt);
	if (rc)
		return cli_bad("best", "%s", k->proto->strerror(rc));
	return print_found(k, &r);
}
