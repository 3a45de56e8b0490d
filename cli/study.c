/* study.c: `oware analyse` (a game judged move by move by the search) and
 * `oware ogn` (records in Aualé's Oware Game Notation, out and in). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/kind.h"
#include "cli/study.h"
#include "engine/analysis.h"
#include "engine/ogn.h"
#include "protocol/game.h"

#define MAX_TIME_MS 600000L
#define MAX_NODES 1000000000L
#define MAX_FILE (1L << 20) /* bytes of a record read */
/* The default budget of a ply: see docs/study.md (analysis speed). */
#define DEFAULT_NODES 300000

const char cli_analyse_help[] =
	"  oware analyse [--position JSON] [--time-per-move MS | --nodes N]\n"
	"                [--egdb FILE] [MOVE ...]\n"
	"      Plays the moves (as oware play), then judges each with the search\n"
	"      and prints one JSON object:\n"
	"      {\"budget\":{\"nodes\":N}|{\"time_per_move_ms\":MS},\"start\":POSITION,\n"
	"       \"plies\":[{\"ply\":1,\"side\":\"south\",\"move\":\"c\",\"best\":\"d\",\n"
	"         \"pv\":[\"d\",\"A\",...],\"eval_before\":SEEDS,\"eval_after\":SEEDS,\n"
	"         \"proven_before\":null|{\"winner\":\"south\"|\"north\"|\"draw\",\"plies\":N},\n"
	"         \"proven_after\":(the same),\"loss\":SEEDS,\n"
	"         \"class\":\"best\"|\"good\"|\"inaccuracy\"|\"mistake\"|\"blunder\",\n"
	"         \"depth\":N,\"nodes\":N}, ...],\n"
	"       \"summary\":{\"south\":{\"moves\":N,\"best\":N,\"good\":N,\"inaccuracy\":N,\n"
	"         \"mistake\":N,\"blunder\":N,\"average_loss\":SEEDS},\"north\":{...}},\n"
	"       \"end\":GAME}   (GAME as oware play prints it, after the moves)\n"
	"      best and pv: the engine's choice and line in the position before\n"
	"      the move. eval_*: South's advantage in seeds (16 eval units a seed:\n"
	"      captured seeds plus small positional terms), from -24 to 24; a\n"
	"      proven win counts as 24 for its winner. proven_*: a forced end found\n"
	"      by the search, N plies from the position before (after) the move;\n"
	"      after the last move of a game over, plies is 0 and winner may be\n"
	"      \"draw\".\n"
	"      loss: what the move gave away from the mover's view, in seeds;\n"
	"      class by loss: best (the engine's move, or no loss), good (< 1),\n"
	"      inaccuracy (< 2), mistake (< 4), blunder (4 or more). The budget of\n"
	"      each ply is --nodes N (default 300000; reproducible, the same in\n"
	"      the browser) or --time-per-move MS; a move that is not the engine's\n"
	"      choice costs a second search of at most that budget. --egdb FILE:\n"
	"      the search also reads the endgame database (build/oware.egdb, or\n"
	"      web/oware.egdb, which the browser's analysis reads: with it the\n"
	"      values are the browser's).\n";

const char cli_ogn_help[] =
	"  oware ogn [--position JSON] [--south NAME] [--north NAME] [--date D]\n"
	"            [MOVE ...]\n"
	"      Prints the record of the game in OGN, Aualé's Oware Game Notation:\n"
	"      tags [Variant \"Oware Abapa\"], [Event \"?\"], [Site \"?\"], [Date],\n"
	"      [Round \"?\"], [South], [North], [Result] (the final scores\n"
	"      \"South-North\" of a game over, else \"*\"), [FEN] when the game\n"
	"      starts from a position, then a blank line and the moves. In OGN\n"
	"      South's pits are UPPER case and North's lower case (the opposite\n"
	"      of ours); \"+N\" marks the seeds a move took. The moves after the\n"
	"      first that repeats a position go in a comment \"{Continued: ...}\"\n"
	"      (Aualé ends a game there). Names and date default\n"
	"      to \"?\". FEN: the 12 pits a..F, South's and North's scores, then\n"
	"      S or N to move, joined by '-' (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S).\n"
	"  oware ogn --read FILE|-\n"
	"      Reads a record (a file, or - for stdin; at most 1 MB), checks every\n"
	"      move with the engine and prints the game as oware play does, plus\n"
	"      \"moves\":[our letters], \"start\":POSITION and \"tags\":{\"Name\":\"value\",\n"
	"      ...}. A malformed or illegal record prints nothing on stdout and\n"
	"      one line on stderr: oware: ogn: FILE: line N: the reason.\n";

static int no_memory(void)
{
	fputs("oware: out of memory\n", stderr);
	return 1;
}

/* The start from --position text (NULL: the standard start) into
 * *start, and the game after our letters moves[0..n) into *g, their pits
 * into pits[]: 0, or cli_bad's status for cmd (as `oware play` says it). */
static int set_up(const char *cmd, const char *position, char **moves, int n,
                  ow_pos *start, proto_play *g, uint8_t *pits)
{
	int rc = cli_start(&cli_kind_oware, cmd, position, g);

	if (rc)
		return rc;
	*start = g->ow.game.pos;
	return cli_replay(&cli_kind_oware, cmd, g, moves, n, 1, pits);
}

static json_t *letter(int pit)
{
	char s[2] = {ow_pit_letter(pit), 0};

	return json_string(s);
}

static json_t *seeds(int units)
{
	return json_real((double)units / OW_SEARCH_SEED);
}

static json_t *position_json(const ow_pos *p)
{
	json_t *j = json_object(), *pits = json_array();

	for (int i = 0; i < OW_PITS; i++)
		json_array_append_new(pits, json_integer(p->pits[i]));
	json_object_set_new(j, "pits", pits);
	json_object_set_new(j, "captured", json_pack("{s:i,s:i}", "south",
	                    p->captured[OW_SOUTH], "north", p->captured[OW_NORTH]));
	json_object_set_new(j, "turn", json_string(proto_side_name(p->turn)));
	return j;
}

/* The game as `oware play` prints it, as a jansson object. */
static json_t *game_json(const ow_game *g)
{
	jw w;
	json_t *j = NULL;

	jw_init(&w);
	proto_game_write(&w, g);
	if (!w.oom)
		j = json_loadb(w.buf, w.len, 0, NULL);
	jw_free(&w);
	return j;
}

/* A proven end from a search score of side's view, as South/North, in
 * plies from the position before the move less skip (1: after it). */
static json_t *proven_json(int score, int side, int skip)
{
	int n = ow_analysis_proven(score);

	if (!n)
		return json_null();
	return json_pack("{s:s,s:i}", "winner", proto_side_name(n > 0 ? side : 1 - side),
	                 "plies", (n > 0 ? n : -n) - skip);
}

/* The proven end after the last move when the game is over. */
static json_t *end_json(const ow_game *g)
{
	return json_pack("{s:s,s:i}", "winner", proto_winner_name(g->winner), "plies", 0);
}

static int print_json(json_t *j)
{
	char *text = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	int rc = 0;

	json_decref(j);
	if (!text)
		return no_memory();
	if (puts(text) == EOF || fflush(stdout))
		rc = 1;
	free(text);
	return rc;
}

/* analyse's options, as given; moves: the index of the first move. */
typedef struct analyse_opts {
	const char *position, *egdb;
	long nodes, time_ms;
	int moves;
} analyse_opts;

static int parse_analyse_opts(int argc, char **argv, analyse_opts *o)
{
	int i;

	memset(o, 0, sizeof *o);
	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--position") && strcmp(opt, "--nodes") &&
		    strcmp(opt, "--time-per-move") && strcmp(opt, "--egdb"))
			return cli_bad("analyse", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("analyse", "%s needs a value", opt);
		if (!strcmp(opt, "--position")) {
			o->position = val;
		} else if (!strcmp(opt, "--egdb")) {
			o->egdb = val;
		} else if (!strcmp(opt, "--nodes")) {
			if (cli_parse_num(val, 1, MAX_NODES, &o->nodes))
				return cli_bad("analyse", "--nodes must be an integer from 1 to %ld, not \"%s\"",
				           MAX_NODES, val);
		} else if (cli_parse_num(val, 1, MAX_TIME_MS, &o->time_ms)) {
			return cli_bad("analyse", "--time-per-move must be an integer from 1 to %ld, not \"%s\"",
			           MAX_TIME_MS, val);
		}
	}
	if (o->nodes && o->time_ms)
		return cli_bad("analyse", "give only one of --nodes and --time-per-move");
	o->moves = i;
	return 0;
}

/* One ply's judgement a (played from side a->side), g the game after it. */
static json_t *ply_json(int ply, const ow_ply_analysis *a, const ow_game *g)
{
	json_t *pv = json_array(), *p = json_object();
	int side = a->side;

	for (int j = 0; j < a->npv; j++)
		json_array_append_new(pv, letter(a->pv[j]));
	json_object_set_new(p, "ply", json_integer(ply));
	json_object_set_new(p, "side", json_string(proto_side_name(side)));
	json_object_set_new(p, "move", letter(a->move));
	json_object_set_new(p, "best", letter(a->best));
	json_object_set_new(p, "pv", pv);
	json_object_set_new(p, "eval_before", seeds(ow_analysis_south(a->before, side)));
	json_object_set_new(p, "eval_after", seeds(g->end != OW_END_NONE && g->winner == OW_DRAW
	                    ? 0 : ow_analysis_south(a->after, side)));
	json_object_set_new(p, "proven_before", proven_json(a->before, side, 0));
	json_object_set_new(p, "proven_after", g->end != OW_END_NONE ? end_json(g)
	                    : proven_json(a->after, side, 1));
	json_object_set_new(p, "loss", seeds(a->loss));
	json_object_set_new(p, "class", json_string(ow_class_name(a->cls)));
	json_object_set_new(p, "depth", json_integer(a->depth));
	json_object_set_new(p, "nodes", json_integer((json_int_t)a->nodes));
	return p;
}

/* What one side's moves came to. */
struct tally {
	int moves;
	int count[OW_CLASS_BLUNDER + 1]; /* by class */
	long loss;                       /* eval units */
};

static json_t *summary_json(const struct tally t[2])
{
	json_t *sum[2];

	for (int s = 0; s < 2; s++) {
		sum[s] = json_object();
		json_object_set_new(sum[s], "moves", json_integer(t[s].moves));
		for (int c = OW_CLASS_BEST; c <= OW_CLASS_BLUNDER; c++)
			json_object_set_new(sum[s], ow_class_name(c), json_integer(t[s].count[c]));
		/* In 1/100 seed, rounded, so the mean prints short. */
		json_object_set_new(sum[s], "average_loss", t[s].moves
		                    ? json_real((double)((t[s].loss * 100 + t[s].moves * 8) /
		                                         (t[s].moves * 16)) / 100.0)
		                    : json_real(0));
	}
	return json_pack("{s:o,s:o}", "south", sum[0], "north", sum[1]);
}

int cli_analyse(int argc, char **argv)
{
	analyse_opts o;
	ow_search_limits lim = {0};
	struct tally t[2] = {{0}, {0}};
	ow_tt_entry *tt;
	uint8_t *pits;
	ow_pos start;
	proto_play played;
	ow_game g;
	json_t *out, *plies;
	int n, rc;

	if ((rc = parse_analyse_opts(argc, argv, &o)) ||
	    (o.egdb && (rc = cli_egdb_open("analyse", o.egdb, &lim.egdb))))
		return rc;
	n = argc - o.moves;
	if (!(pits = malloc((size_t)n + 1)))
		return no_memory();
	if ((rc = set_up("analyse", o.position, argv + o.moves, n, &start, &played, pits))) {
		free(pits);
		return rc;
	}
	if (o.time_ms) {
		lim.time_ms = (uint32_t)o.time_ms;
		lim.clock = cli_now_ms;
	} else {
		lim.nodes = (uint64_t)(o.nodes ? o.nodes : DEFAULT_NODES);
	}
	if (!(tt = calloc(OW_SEARCH_TT_ENTRIES, sizeof *tt))) {
		free(pits);
		return no_memory();
	}

	out = json_object();
	plies = json_array();
	json_object_set_new(out, "budget", o.time_ms
	                    ? json_pack("{s:i}", "time_per_move_ms", (json_int_t)o.time_ms)
	                    : json_pack("{s:I}", "nodes", (json_int_t)lim.nodes));
	json_object_set_new(out, "start", position_json(&start));
	ow_game_from(&g, &start);
	for (int k = 0; k < n; k++) {
		ow_ply_analysis a;

		if (ow_analyse_ply(&g, pits[k], &lim, tt, OW_SEARCH_TT_ENTRIES, &a)) {
			fputs("oware: analyse: internal error\n", stderr);
			exit(1);
		}
		ow_game_play(&g, pits[k], NULL);
		json_array_append_new(plies, ply_json(k + 1, &a, &g));
		t[a.side].moves++;
		t[a.side].count[a.cls]++;
		t[a.side].loss += a.loss;
	}
	free(tt);
	free(pits);
	json_object_set_new(out, "plies", plies);
	json_object_set_new(out, "summary", summary_json(t));
	json_object_set_new(out, "end", game_json(&g));
	return print_json(out);
}

/* oware ogn --read FILE|- */
static int ogn_read(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
	static ow_ogn rec;
	char *text;
	size_t len;
	json_t *j, *moves, *tags;

	if (!f)
		return cli_bad("ogn", "%s: %s", file, strerror(errno));
	if (!(text = malloc(MAX_FILE + 1))) {
		if (f != stdin)
			fclose(f);
		return no_memory();
	}
	len = fread(text, 1, MAX_FILE + 1, f);
	if (ferror(f)) {
		int e = errno;

		free(text);
		if (f != stdin)
			fclose(f);
		return cli_bad("ogn", "%s: %s", file, strerror(e));
	}
	if (f != stdin)
		fclose(f);
	if (len > MAX_FILE) {
		free(text);
		return cli_bad("ogn", "%s: larger than 1 MB", file);
	}
	if (ow_ogn_read(text, len, &rec)) {
		free(text);
		return cli_bad("ogn", "%s: line %d: %s", file, rec.line, rec.err);
	}
	free(text);
	if (!(j = game_json(&rec.game)))
		return no_memory();
	moves = json_array();
	for (int i = 0; i < rec.nmoves; i++)
		json_array_append_new(moves, letter(rec.moves[i]));
	tags = json_object();
	for (int i = 0; i < rec.ntags; i++)
		json_object_set_new(tags, rec.tags[i].name, json_string(rec.tags[i].value));
	json_object_set_new(j, "moves", moves);
	json_object_set_new(j, "start", position_json(&rec.start));
	json_object_set_new(j, "tags", tags);
	return print_json(j);
}

int cli_ogn(int argc, char **argv)
{
	static const char *const tag_opt[4] = {"--south", "--north", "--date", "result"};
	const char *position = NULL;
	ow_ogn_meta meta = {0};
	int i, n, rc, badi;
	uint8_t *pits;
	ow_pos start;
	proto_play g;
	size_t cap;
	char *buf;

	if (argc >= 1 && !strcmp(argv[0], "--read")) {
		if (argc != 2)
			return cli_bad("ogn", "--read takes one FILE (or - for stdin) and nothing else");
		return ogn_read(argv[1]);
	}
	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--position") && strcmp(opt, "--south") &&
		    strcmp(opt, "--north") && strcmp(opt, "--date"))
			return cli_bad("ogn", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("ogn", "%s needs a value", opt);
		if (!strcmp(opt, "--position"))
			position = val;
		else if (!strcmp(opt, "--south"))
			meta.south = val;
		else if (!strcmp(opt, "--north"))
			meta.north = val;
		else
			meta.date = val;
	}
	n = argc - i;
	if (!(pits = malloc((size_t)n + 1)))
		return no_memory();
	if ((rc = set_up("ogn", position, argv + i, n, &start, &g, pits))) {
		free(pits);
		return rc;
	}
	cap = 16 * (size_t)n + 2048;
	if (!(buf = malloc(cap))) {
		free(pits);
		return no_memory();
	}
	rc = ow_ogn_write(buf, cap, &start, pits, n, &meta, &badi);
	free(pits);
	if (rc == OW_OGN_E_TAG) {
		free(buf);
		return cli_bad("ogn", "%s: must be UTF-8 text of at most 255 bytes without control characters",
		           tag_opt[badi]);
	}
	if (rc < 0) {
		free(buf);
		fprintf(stderr, "oware: ogn: internal error %d\n", rc);
		return 1;
	}
	rc = fwrite(buf, 1, (size_t)rc, stdout) != (size_t)rc || fflush(stdout) ? 1 : 0;
	free(buf);
	return rc;
}
