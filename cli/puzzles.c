/* puzzles.c: `oware puzzles`: positions of either game where one move is
 * clearly best and a greedy player gets it wrong, found in game records
 * (`--records FILE`) and in self-play and written as a JSON file the web
 * client can ship; `--check FILE` proves a file's puzzles again. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/kind.h"
#include "cli/puzzles.h"
#include "engine/ogn.h"
#include "engine/search.h"

#define TT_ENTRIES (1u << 16)
#define MAX_STEPS 3     /* solver's moves of one puzzle at most */
#define MAX_MOVES 9
#define CAP (24 * OW_SEARCH_SEED) /* values clamped to +-24 seeds, a win is 24 */
#define MAX_RECORDS_FILE (4L << 20) /* bytes of a --records file */
#define MAX_PLIES 4096  /* plies of one record (OW_OGN_MAX_PLIES) */
#define RECORD_GAP 10   /* plies between two puzzles of one record */
#define DEEPER_LEAD 1   /* seeds a solver's move must still lead by, --check --deeper */

const char cli_puzzles_help[] =
	"  oware puzzles [--game oware|togyz] [--count N] [--seed N] [--depth D]\n"
	"                [--margin SEEDS] [--egdb FILE] [--records FILE]\n"
	"      Prints, as one JSON array with a puzzle a line, the first N\n"
	"      (--count, default 100, at most 2000) positions where one move is\n"
	"      clearly best: every legal move is searched to depth D (--depth,\n"
	"      default 12 for Oware, 8 for Togyz Kumalak; 2 to 12), its value\n"
	"      clamped to +-24 seeds (a forced win counts 24), and the best beats\n"
	"      every other by at least SEEDS (--margin, default 3, 1 to 24),\n"
	"      while a greedy player (the most seeds now, less the most the\n"
	"      opponent can take back) would play another. --records FILE: first\n"
	"      every position of FILE's game records (Oware: OGN records one\n"
	"      after another; Togyz Kumalak: games in Kazakh notation as the\n"
	"      page copies them, a blank line between two, # a comment line), at\n"
	"      most one puzzle every 10 plies of a record, ids o-rN (t-rN). Then\n"
	"      games the engine plays against itself from --seed (default 1: the\n"
	"      same arguments give the same file), one puzzle a game, ids o-N\n"
	"      (t-N). A puzzle goes on (up to 3 moves of the solver) while the\n"
	"      engine's reply leaves again one clearly best move among two or\n"
	"      more, and as far as a search 4 plies deeper (Togyz Kumalak: 2)\n"
	"      still finds each solver's move best by a seed. Each puzzle:\n"
	"      {\"id\":\"o-1\",\"position\":{...},\"moves\":[\"d\",\"B\",\"a\"],\n"
	"       \"margin\":S,\"depth\":D,\"found\":F,\"tempting\":T,\"difficulty\":1..5}\n"
	"      moves alternate solver, reply, solver; margin: the least lead in\n"
	"      seeds of a solver's move over the next best (16ths rounded down);\n"
	"      found: the shallowest depth from which the search keeps the first\n"
	"      move; tempting: moves that take more seeds at once than it does;\n"
	"      difficulty: 1 (found by depth 2) to 5 (depth 9 or more), plus one\n"
	"      when a move is tempting, at most 5. The position is the one\n"
	"      `--position` takes (Togyz Kumalak: its tuzdyks too); Togyz moves\n"
	"      are the page's names, a-i White's holes 1-9, A-I Black's.\n"
	"  oware puzzles --check FILE|- [--deeper N] [--egdb FILE]\n"
	"      Searches every puzzle of FILE again at its depth, or N plies\n"
	"      deeper (--deeper, 0 to 12): each solver's move must be the best,\n"
	"      by at least its margin (deeper: by a seed or more), among two or\n"
	"      more legal moves, each reply legal, and the greedy choice wrong at\n"
	"      the first move. Prints a line for each one that fails and\n"
	"      \"puzzles: N passed, M failed\"; exit status 1 when any failed.\n";

/* A game of the kind k. */
typedef struct pgame {
	const cli_kind *k;
	proto_play p;
} pgame;

typedef struct finder {
	const cli_kind *k;
	int depth;
	int deeper; /* --check: plies searched beyond each puzzle's depth */
	const ow_egdb *egdb;
	void *tt; /* TT_ENTRIES of the kind's */
} finder;

static unsigned legal(const pgame *g)
{
	return g->k->proto->legal(&g->p);
}

static int npits(const pgame *g)
{
	return g->k->proto->npits;
}

static int turn(const pgame *g)
{
	return g->k->proto->turn(&g->p);
}

/* Plays pit (known legal); returns the seeds it took. */
static int play(pgame *g, int pit)
{
	g->k->proto->play(&g->p, pit);
	return g->k->taken(&g->p);
}

static char letter(const pgame *g, int pit)
{
	return g->k->page_name(pit);
}

static int parse_move(const pgame *g, const char *s)
{
	if (!s || !s[0] || s[1])
		return -1;
	return g->k->page_pit(s[0]);
}

static int clamp(int v)
{
	if (v > OW_SEARCH_WON || v > CAP)
		return CAP;
	if (v < -OW_SEARCH_WON || v < -CAP)
		return -CAP;
	return v;
}

/* The value of a finished game for the side that just moved (mover). */
static int end_value(const pgame *g, int mover)
{
	int w = g->k->proto->winner(&g->p);

	return w == OW_DRAW ? 0 : w == mover ? CAP : -CAP;
}

/* Searches g (not over) to depth d from a cleared table: the best move,
 * and its score for the side to move. Reproducible on its own. */
static int search(const finder *f, const pgame *g, int d, int *move)
{
	cli_budget b = {.depth = d, .egdb = f->egdb};
	cli_found r;

	memset(f->tt, 0, TT_ENTRIES * f->k->tt_entry_size);
	f->k->search(&g->p, &b, f->tt, TT_ENTRIES, &r);
	if (move)
		*move = r.move;
	return r.score;
}

/* Every legal move of g valued at depth d (its child searched to d - 1),
 * clamped, for the side to move: fills val[pit] and returns the best pit,
 * with *margin its lead over the next best (CAP * 2 when it is alone). */
static int rank(const finder *f, const pgame *g, int d, int val[], int *margin)
{
	unsigned mask = legal(g);
	int best = -1, second = -2 * CAP - 1;

	for (int p = 0; p < npits(g); p++) {
		pgame c;

		if (!(mask >> p & 1))
			continue;
		c = *g;
		play(&c, p);
		val[p] = legal(&c) ? -clamp(search(f, &c, d - 1, NULL)) : end_value(&c, turn(g));
		if (best < 0 || val[p] > val[best]) {
			if (best >= 0)
				second = val[best];
			best = p;
		} else if (val[p] > second) {
			second = val[p];
		}
	}
	*margin = second < -2 * CAP ? 2 * CAP : val[best] - second;
	return best;
}

/* The greedy choice's values: seeds taken now, less the most the opponent
 * can take at once in reply. */
static void greedy(const pgame *g, int now[], int net[])
{
	unsigned mask = legal(g);

	for (int p = 0; p < npits(g); p++) {
		pgame c;
		int back = 0;
		unsigned m2;

		if (!(mask >> p & 1))
			continue;
		c = *g;
		now[p] = play(&c, p);
		m2 = legal(&c);
		for (int q = 0; q < npits(g); q++) {
			pgame c2;
			int s;

			if (!(m2 >> q & 1))
				continue;
			c2 = c;
			s = play(&c2, q);
			if (s > back)
				back = s;
		}
		net[p] = now[p] - back;
	}
}

/* Whether the greedy player would miss best (its top net value is not
 * best's), and how many moves take more seeds at once than best. */
static int greedy_misses(const pgame *g, int best, int *tempting)
{
	int now[PROTO_MAX_PITS], net[PROTO_MAX_PITS], top = -1000;
	unsigned mask = legal(g);

	greedy(g, now, net);
	*tempting = 0;
	for (int p = 0; p < npits(g); p++) {
		if (!(mask >> p & 1))
			continue;
		if (net[p] > top)
			top = net[p];
		if (now[p] > now[best])
			++*tempting;
	}
	return net[best] < top;
}

/* The shallowest depth from which the search keeps choosing first. */
static int found_at(const finder *f, const pgame *g, int first)
{
	int from = f->depth;

	for (int d = f->depth; d >= 1; d--) {
		int m;

		search(f, g, d, &m);
		if (m != first)
			break;
		from = d;
	}
	return from;
}

static void write_position(jw *w, const pgame *g)
{
	proto_pos at;

	g->k->proto->at(&g->p, &at);
	g->k->proto->position_write(w, &at);
}

/* A puzzle at g, if there is one: its moves and least margin. */
static int puzzle_at(const finder *f, const pgame *g, int minmargin, char moves[], int *nmoves,
                     int *margin)
{
	pgame c = *g;
	int val[PROTO_MAX_PITS], m, best, least = 2 * CAP, tempting;

	*nmoves = 0;
	/* Cheap first: a shallow ranking must already show a lead. */
	best = rank(f, g, f->depth > 4 ? f->depth / 2 : f->depth, val, &m);
	if (best < 0 || m < minmargin / 2)
		return 0;
	for (int step = 0; step < MAX_STEPS; step++) {
		int reply;

		/* A solver's step with one legal move is no choice: the puzzle
		 * ends before it (none at all when the first is such). */
		if (__builtin_popcount(legal(&c)) < 2)
			break;
		best = rank(f, &c, f->depth, val, &m);
		if (best < 0 || m < minmargin)
			break;
		if (step == 0 && !greedy_misses(&c, best, &tempting))
			return 0;
		if (m < least)
			least = m;
		moves[(*nmoves)++] = letter(&c, best);
		play(&c, best);
		if (!legal(&c))
			break;
		search(f, &c, f->depth, &reply);
		moves[(*nmoves)++] = letter(&c, reply);
		play(&c, reply);
		if (!legal(&c))
			break;
	}
	/* A puzzle ends with the solver's move. */
	if (*nmoves % 2 == 0)
		(*nmoves)--;
	*margin = least;
	return *nmoves > 0;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A move for self-play: mostly the engine at a shallow depth, sometimes
 * a random one, so that games differ and contain mistakes to punish. */
static int selfplay_move(const finder *f, const pgame *g, uint64_t *rng)
{
	unsigned mask = legal(g);
	int n = 0, pick, m;

	if (rng_next(rng) % 100 < 25) {
		for (int p = 0; p < npits(g); p++)
			n += mask >> p & 1;
		pick = (int)(rng_next(rng) % (uint64_t)n);
		for (int p = 0; p < npits(g); p++)
			if ((mask >> p & 1) && pick-- == 0)
				return p;
	}
	search(f, g, 1 + (int)(rng_next(rng) % 4), &m);
	return m;
}

static int seen_before(uint64_t *seen, int *nseen, int cap, const pgame *g)
{
	uint64_t h = 1469598103934665603ull;
	proto_pos at;
	const unsigned char *b = (const unsigned char *)&at;

	memset(&at, 0, sizeof at); /* the bytes a smaller kind's position leaves */
	g->k->proto->at(&g->p, &at);
	for (size_t i = 0; i < sizeof at; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	for (int i = 0; i < *nseen; i++)
		if (seen[i] == h)
			return 1;
	if (*nseen < cap)
		seen[(*nseen)++] = h;
	return 0;
}

static void start(pgame *g, const cli_kind *k)
{
	g->k = k;
	k->proto->begin(&g->p, NULL);
}

static int difficulty(int found, int tempting)
{
	int d = found <= 2 ? 1 : found <= 4 ? 2 : found <= 6 ? 3 : found <= 8 ? 4 : 5;

	return d + (tempting > 0) > 5 ? 5 : d + (tempting > 0);
}

/* What a search for puzzles shares: the positions seen, the puzzles made. */
typedef struct hunt {
	finder *f;
	int count, minmargin, made, records;
	uint64_t *seen;
	int nseen;
	FILE *out; /* where the puzzles go */
	jw w;
} hunt;

/* The moves of a puzzle at g that a search the kind's puzzle_deeper plies
 * deeper still holds: each solver's move the best, by DEEPER_LEAD seeds or more.
 * Returns how many are kept (ending with the solver's, 0: none), as
 * `--check --deeper` judges a shipped file. */
static int deeper_holds(const finder *f, const pgame *g, const char moves[], int n)
{
	pgame c = *g;

	for (int i = 0; i < n; i++) {
		int pit = parse_move(&c, (char[]){moves[i], 0});

		if (i % 2 == 0) {
			int val[PROTO_MAX_PITS], m, best = rank(f, &c, f->depth + f->k->puzzle_deeper, val, &m);

			if (best != pit || m / OW_SEARCH_SEED < DEEPER_LEAD)
				return i ? i - 1 : 0;
		}
		play(&c, pit);
	}
	return n;
}

/* Prints the puzzle at g, if there is one (and g was not seen before):
 * 1 when it did. rec: its id is o-rN (t-rN), numbered among the records'. */
static int try_puzzle(hunt *h, const pgame *g, int rec)
{
	char moves[2 * MAX_STEPS], id[32];
	int n, margin, tempting, val[PROTO_MAX_PITS], m, first, found;
	finder *f = h->f;

	if (seen_before(h->seen, &h->nseen, h->count * 64, g) ||
	    !puzzle_at(f, g, h->minmargin, moves, &n, &margin) ||
	    !(n = deeper_holds(f, g, moves, n)))
		return 0;
	first = rank(f, g, f->depth, val, &m);
	greedy_misses(g, first, &tempting);
	found = found_at(f, g, first);
	if (rec)
		snprintf(id, sizeof id, "%c-r%d", f->k->puzzle_id, ++h->records);
	else
		snprintf(id, sizeof id, "%c-%d", f->k->puzzle_id, h->made - h->records + 1);
	jw_reset(&h->w);
	jw_obj(&h->w);
	jw_key(&h->w, "id");
	jw_str(&h->w, id);
	jw_key(&h->w, "position");
	write_position(&h->w, g);
	jw_key(&h->w, "moves");
	jw_arr(&h->w);
	for (int i = 0; i < n; i++)
		jw_char(&h->w, moves[i]);
	jw_arr_end(&h->w);
	jw_key(&h->w, "margin");
	jw_int(&h->w, margin / OW_SEARCH_SEED);
	jw_key(&h->w, "depth");
	jw_int(&h->w, f->depth);
	jw_key(&h->w, "found");
	jw_int(&h->w, found);
	jw_key(&h->w, "tempting");
	jw_int(&h->w, tempting);
	jw_key(&h->w, "difficulty");
	jw_int(&h->w, difficulty(found, tempting));
	jw_obj_end(&h->w);
	if (h->made++)
		fputs(",\n", h->out);
	fwrite(h->w.buf, 1, h->w.len, h->out);
	return 1;
}

/* One game record read from a --records file: its start and moves. */
typedef struct record {
	pgame start;
	int n;
	uint8_t moves[MAX_PLIES];
} record;

/* Scans every position of r (from its 6th ply on) for puzzles, at most
 * one every RECORD_GAP plies. */
static void scan_record(hunt *h, const record *r)
{
	pgame g = r->start;
	int next = 6;

	for (int i = 0; i <= r->n && h->made < h->count && legal(&g); i++) {
		if (i >= next && try_puzzle(h, &g, 1))
			next = i + RECORD_GAP;
		if (i < r->n)
			play(&g, r->moves[i]);
	}
}

/* Whether the line at text[i] is blank (spaces only) or a # comment. */
static int line_apart(const char *text, size_t len, size_t i, int comments)
{
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
		i++;
	return i >= len || text[i] == '\n' || (comments && text[i] == '#');
}

/* Reads every record of path and scans it: 0, or cli_bad's status. A
 * record ends where a tag line follows its moves (Oware's OGN) or, for a
 * kind with records_blank, at a blank line, a # line being a comment. */
static int scan_records(hunt *h, const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *text, err[OW_OGN_ERR + 64];
	size_t len, i = 0;
	int line = 1, nrec = 0, rc = 0, blank = h->f->k->records_blank;
	record *r;

	if (!fp)
		return cli_bad("puzzles", "--records %s: %s", path, strerror(errno));
	text = malloc(MAX_RECORDS_FILE + 1);
	r = malloc(sizeof *r);
	if (!text || !r) {
		fclose(fp);
		free(text);
		free(r);
		return cli_bad("puzzles", "out of memory");
	}
	len = fread(text, 1, MAX_RECORDS_FILE + 1, fp);
	if (ferror(fp) || len > MAX_RECORDS_FILE)
		rc = cli_bad("puzzles", "--records %s: %s", path, ferror(fp) ? strerror(errno) : "larger than 4 MB");
	fclose(fp);
	while (!rc && i < len) {
		size_t from, end;
		int first = line, moved = 0;

		/* Skip what lies between records. */
		while (i < len && line_apart(text, len, i, blank)) {
			while (i < len && text[i] != '\n')
				i++;
			if (i < len) {
				i++;
				line++;
			}
		}
		if (i >= len)
			break;
		from = i;
		first = line;
		/* The record's lines. */
		for (end = i; end < len;) {
			size_t e = end;
			int tag = text[end] == '[';

			if (blank ? line_apart(text, len, end, 1) : tag && moved)
				break;
			if (!tag && !line_apart(text, len, end, 0))
				moved = 1;
			while (e < len && text[e] != '\n')
				e++;
			end = e < len ? e + 1 : e;
			line++;
		}
		i = end;
		nrec++;
		r->start.k = h->f->k;
		if (r->start.k->read_record(text + from, end - from, &r->start.p, r->moves, MAX_PLIES,
		                            &r->n, err, sizeof err, &first)) {
			rc = cli_bad("puzzles", "--records %s: record %d (line %d): %s", path, nrec,
			             first, err);
			break;
		}
		scan_record(h, r);
	}
	free(text);
	free(r);
	return rc;
}

static int find(finder *f, int count, uint64_t seed, int minmargin, const char *records)
{
	hunt h = {.f = f, .count = count, .minmargin = minmargin};
	uint64_t rng = seed;
	int games = 0, rc = 0;

	if (!(h.seen = calloc((size_t)count * 64, sizeof *h.seen)))
		return cli_bad("puzzles", "out of memory");
	jw_init(&h.w);
	/* A bad records file prints nothing: its puzzles wait in a buffer. */
	char *buf = NULL;
	size_t bufsz = 0;

	if (records) {
		if (!(h.out = open_memstream(&buf, &bufsz))) {
			free(h.seen);
			return cli_bad("puzzles", "out of memory");
		}
		rc = scan_records(&h, records);
		fclose(h.out);
	}
	if (rc) {
		free(buf);
		free(h.seen);
		jw_free(&h.w);
		return rc;
	}
	h.out = stdout;
	fputs("[\n", stdout);
	if (buf)
		fwrite(buf, 1, bufsz, stdout);
	free(buf);
	while (h.made < count && games < count * 50) {
		pgame g;

		start(&g, f->k);
		games++;
		while (legal(&g) && h.made < count) {
			int ply = f->k->proto->ply(&g.p);

			/* One puzzle a game. */
			if (ply >= 6 && try_puzzle(&h, &g, 0))
				break;
			play(&g, selfplay_move(f, &g, &rng));
		}
	}
	fputs("\n]\n", stdout);
	jw_free(&h.w);
	free(h.seen);
	if (h.made < count)
		fprintf(stderr, "oware: puzzles: found %d of %d in %d games\n", h.made, count, games);
	return fflush(stdout) ? 1 : 0;
}

/* Checks one puzzle object; returns 0, or prints why not and returns 1. */
static int check_one(finder *f, json_t *p, int index)
{
	json_t *pos = json_object_get(p, "position"), *mv = json_object_get(p, "moves");
	json_int_t margin = json_integer_value(json_object_get(p, "margin"));
	json_int_t depth = json_integer_value(json_object_get(p, "depth"));
	const char *id = json_string_value(json_object_get(p, "id"));
	char err[160];
	proto_pos at;
	pgame g;
	size_t n;

	if (!id)
		id = "?";
	if (!pos || !json_is_array(mv) || (n = json_array_size(mv)) == 0 || n % 2 == 0 ||
	    depth < 2 || depth > 12 || margin < 1) {
		printf("puzzle %d (%s): not a puzzle object\n", index, id);
		return 1;
	}
	g.k = f->k;
	if (g.k->proto->position_value(pos, &at, err, sizeof err)) {
		printf("puzzle %s: position: %s\n", id, err);
		return 1;
	}
	g.k->proto->begin(&g.p, &at);
	f->depth = (int)depth + f->deeper;
	for (size_t i = 0; i < n; i++) {
		int pit = parse_move(&g, json_string_value(json_array_get(mv, i)));
		int val[PROTO_MAX_PITS], m, best, tempting;

		if (pit < 0 || !(legal(&g) >> pit & 1)) {
			printf("puzzle %s: move %zu is not legal\n", id, i + 1);
			return 1;
		}
		if (i % 2 == 0) {
			if (__builtin_popcount(legal(&g)) < 2) {
				printf("puzzle %s: move %zu is the only legal move\n", id, i + 1);
				return 1;
			}
			best = rank(f, &g, f->depth, val, &m);
			if (best != pit) {
				printf("puzzle %s: move %zu: the search prefers %c\n", id, i + 1, letter(&g, best));
				return 1;
			}
			/* Deeper, the verdict must hold: the same move, still ahead by
			 * a seed (a lead that shrinks is a finer judgement; one that
			 * goes, or passes to another move, was a horizon's mistake). */
			if (m / OW_SEARCH_SEED < (f->deeper ? DEEPER_LEAD : margin)) {
				printf("puzzle %s: move %zu leads by %d/16 seeds, less than %lld\n", id, i + 1, m,
				       f->deeper ? (long long)DEEPER_LEAD : (long long)margin);
				return 1;
			}
			if (i == 0 && !greedy_misses(&g, best, &tempting)) {
				printf("puzzle %s: the greedy choice finds it\n", id);
				return 1;
			}
		}
		play(&g, pit);
	}
	return 0;
}

static int check(finder *f, const char *path)
{
	json_error_t je;
	json_t *all = !strcmp(path, "-") ? json_loadf(stdin, 0, &je) : json_load_file(path, 0, &je);
	size_t i;
	json_t *p;
	int bad = 0;

	if (!all || !json_is_array(all)) {
		json_decref(all);
		return cli_bad("puzzles", "--check %s: %s", path, all ? "not a JSON array" : je.text);
	}
	json_array_foreach(all, i, p) bad += check_one(f, p, (int)i + 1);
	printf("puzzles: %zu passed, %d failed\n", json_array_size(all) - (size_t)bad, bad);
	json_decref(all);
	return bad ? 1 : 0;
}

int cli_puzzles(const cli_kind *k, int argc, char **argv)
{
	const char *path = NULL, *egdb = NULL, *records = NULL;
	long count = 100, seed = 1, depth = k->puzzle_depth, margin = 3, deeper = 0;
	finder f = {.k = k};
	int rc;

	for (int i = 0; i < argc; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		long *num = !strcmp(opt, "--count") ? &count : !strcmp(opt, "--seed") ? &seed
		            : !strcmp(opt, "--depth") ? &depth : !strcmp(opt, "--margin") ? &margin
		            : !strcmp(opt, "--deeper") ? &deeper : NULL;
		long lo = num == &depth ? 2 : num == &seed || num == &deeper ? 0 : 1;
		long hi = num == &count ? 2000 : num == &seed ? 0x7fffffff : num == &depth ? 12
		          : num == &deeper ? 12 : 24;

		if (!num && strcmp(opt, "--check") && strcmp(opt, "--egdb") && strcmp(opt, "--records"))
			return cli_bad("puzzles", "unknown option \"%s\"", opt);
		if (!val)
			return cli_bad("puzzles", "%s needs a value", opt);
		if (num && cli_parse_num(val, lo, hi, num))
			return cli_bad("puzzles", "%s must be a whole number from %ld to %ld, not \"%s\"",
			               opt, lo, hi, val);
		if (!strcmp(opt, "--check"))
			path = val;
		else if (!strcmp(opt, "--egdb"))
			egdb = val;
		else if (!strcmp(opt, "--records"))
			records = val;
	}
	if (path && records)
		return cli_bad("puzzles", "give only one of --check and --records");
	if (deeper && !path)
		return cli_bad("puzzles", "--deeper goes with --check");
	if (egdb && !k->has_egdb)
		return cli_bad("puzzles", "--egdb is Oware's");
	if (egdb && (rc = cli_egdb_open("puzzles", egdb, &f.egdb)))
		return rc;
	f.depth = (int)depth;
	f.deeper = (int)deeper;
	if (!(f.tt = calloc(TT_ENTRIES, k->tt_entry_size)))
		return cli_bad("puzzles", "out of memory");
	rc = path ? check(&f, path)
	          : find(&f, (int)count, (uint64_t)seed, (int)margin * OW_SEARCH_SEED, records);
	free(f.tt);
	return rc;
}
