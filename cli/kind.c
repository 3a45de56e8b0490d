/* kind.c: the `oware` tool's kinds of game, one record each (kind.h). */
#include "cli/kind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ogn.h"
#include "engine/search.h"
#include "engine/togyz_search.h"

#define HARD_MS 1000 /* the hint's time, as the web client's */

/* Either engine's limits (the same field names) for budget b: a plain
 * search to b's depth or for its time, else the step of the ladder
 * (levels from base + 1) with the hint's time for hard. */
#define LIMITS_SET(lim, b, level_fn, base) do { \
	if ((b)->depth || (b)->time_ms) { \
		memset(&(lim), 0, sizeof (lim)); \
		(lim).depth = (b)->depth; \
		(lim).time_ms = (b)->time_ms; \
		(lim).clock = (b)->time_ms ? cli_now_ms : NULL; \
		(lim).seed = (b)->seed; \
	} else { \
		level_fn(&(lim), (base) + (b)->level, (b)->seed, cli_now_ms, NULL, HARD_MS); \
	} \
} while (0)

/* Either engine's result, copied into cli_found. */
#define FOUND_COPY(out, r) do { \
	_Static_assert(sizeof (r).pv <= CLI_PV_MAX, "a pv fits"); \
	(out)->move = (r).move; \
	(out)->score = (r).score; \
	(out)->depth = (r).depth; \
	(out)->nodes = (r).nodes; \
	(out)->npv = (r).npv; \
	memcpy((out)->pv, (r).pv, (size_t)(r).npv); \
} while (0)

/* ---- Oware ---- */

static int oware_move_parse(const proto_play *p, const char *m)
{
	(void)p;
	return m[0] && !m[1] ? ow_pit_parse(m[0]) : -1;
}

static const char *oware_play_error(const proto_play *p, int err)
{
	if (err != OW_E_NOT_YOURS)
		return ow_strerror(err);
	return p->ow.game.pos.turn == OW_SOUTH ? "pit belongs to north; south is to move"
	                                       : "pit belongs to south; north is to move";
}

static void oware_move_json(jw *w, int pit)
{
	jw_char(w, ow_pit_letter(pit));
}

static int oware_search(const proto_play *p, const cli_budget *b, void *tt, size_t entries,
                        cli_found *out)
{
	ow_search_limits lim;
	ow_search_result r;
	int rc;

	LIMITS_SET(lim, b, ow_search_level, OW_LEVEL_LADDER);
	lim.egdb = b->egdb;
	if ((rc = ow_search(&p->ow.game, &lim, tt, entries, &r)))
		return rc;
	FOUND_COPY(out, r);
	return 0;
}

/* What `oware puzzles` asks (kind.h). */
static char oware_page_name(int pit) { return ow_pit_letter(pit); }
static int oware_page_pit(int c) { return ow_pit_parse(c); }
static int oware_taken(const proto_play *p) { return p->ow.last.seeds; }

/* One OGN record (engine/ogn.h). */
static int oware_read_record(const char *text, size_t len, proto_play *start, uint8_t *moves,
                             int max, int *n, char *err, size_t errsz, int *line)
{
	static ow_ogn rec;

	if (ow_ogn_read(text, len, &rec)) {
		*line += rec.line - 1;
		snprintf(err, errsz, "%s", rec.err);
		return -1;
	}
	ow_game_from(&start->ow.game, &rec.start);
	*n = rec.nmoves < max ? rec.nmoves : max;
	memcpy(moves, rec.moves, (size_t)*n);
	return 0;
}

const cli_kind cli_kind_oware = {
	.proto = &proto_kind_oware,
	.move_parse = oware_move_parse,
	.move_form = "a pit letter (a-f, A-F)",
	.play_error = oware_play_error,
	.move_json = oware_move_json,
	.ladder = &cli_oware_ladder,
	.level_default = OW_LADDER_HARD,
	.max_depth = OW_SEARCH_MAX_DEPTH,
	.tt_entries = OW_SEARCH_TT_ENTRIES,
	.tt_entry_size = sizeof(ow_tt_entry),
	.search = oware_search,
	.has_egdb = 1,
	.puzzle_id = 'o',
	.puzzle_depth = 12,
	.puzzle_deeper = 4,
	.page_name = oware_page_name,
	.page_pit = oware_page_pit,
	.taken = oware_taken,
	.read_record = oware_read_record,
	.position_errlen = 160,
	.best_position_cmd = "best",
	.perft_usage = 1,
};

/* ---- Togyz Kumalak ---- */

static const char togyz_help[] =
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

/* A hole number 1..9 of the side to move, as in Kazakh records. */
static int togyz_move_parse(const proto_play *p, const char *m)
{
	return m[0] >= '1' && m[0] <= '9' && !m[1] ? tg_pit_of(p->tg.game.pos.turn, m[0] - '0') : -1;
}

static const char *togyz_play_error(const proto_play *p, int err)
{
	(void)p;
	return tg_strerror(err);
}

static void togyz_move_json(jw *w, int pit)
{
	jw_int(w, tg_hole_number(pit));
}

static int togyz_search(const proto_play *p, const cli_budget *b, void *tt, size_t entries,
                        cli_found *out)
{
	tg_search_limits lim;
	tg_search_result r;
	int rc;

	LIMITS_SET(lim, b, tg_search_level, TG_LEVEL_LADDER);
	if ((rc = tg_search(&p->tg.game, &lim, tt, entries, &r)))
		return rc;
	FOUND_COPY(out, r);
	return 0;
}

/* What `oware puzzles` asks (kind.h). A pit as the page names it: a-i White's holes 1-9, A-I Black's. */
static char togyz_page_name(int pit)
{
	return (char)((pit < TG_ROW ? 'a' : 'A') + tg_hole_number(pit) - 1);
}

static int togyz_page_pit(int c)
{
	if (c >= 'a' && c <= 'i')
		return tg_pit_of(OW_SOUTH, c - 'a' + 1);
	if (c >= 'A' && c <= 'I')
		return tg_pit_of(OW_NORTH, c - 'A' + 1);
	return -1;
}

/* A capture's seeds, or a new tuzdyk's; not seeds sown into a tuzdyk. */
static int togyz_taken(const proto_play *p)
{
	return p->tg.last.captured != TG_NONE ? p->tg.last.seeds : 0;
}

/* Reads one Togyz Kumalak record of len bytes: its moves in Kazakh
 * notation, each H, HL or HLX (H the hole number 1-9 of the side to move,
 * L that of the hole where its last seed lands, checked, X: it made a
 * tuzdyk, checked; without X a tuzdyk is not denied, as some sources
 * leave it out); move numbers "N." are skipped, and a result ("1-0",
 * "0-1", "1/2-1/2", "*", then a score "(S-N)") ends the record. 0, or -1
 * with err saying which move and why. */
static int togyz_read_record(const char *text, size_t len, proto_play *start, uint8_t *moves,
                             int max, int *n, char *err, size_t errsz, int *line)
{
	size_t i = 0;

	(void)line;
	tg_game_start(&start->tg.game);
	tg_game g = start->tg.game;
	*n = 0;
	while (i < len) {
		char tok[32];
		size_t k = 0;

		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
			i++;
		if (i >= len)
			break;
		while (i < len && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
			if (k + 1 < sizeof tok)
				tok[k++] = text[i];
			i++;
		}
		tok[k] = 0;
		if (k >= 2 && tok[k - 1] == '.' && strspn(tok, "0123456789") == k - 1)
			continue;
		if (!strcmp(tok, "1-0") || !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2") || !strcmp(tok, "*"))
			break;
		/* "+N": the seeds the move captured, as the page's record writes
		 * them (checked below). */
		char *plus = strchr(tok, '+'), shown[32];
		int seeds = -1;

		snprintf(shown, sizeof shown, "%s", tok);
		if (plus && plus[1] && strspn(plus + 1, "0123456789") == strlen(plus + 1) &&
		    strlen(plus + 1) <= 3) {
			seeds = atoi(plus + 1);
			*plus = 0;
			k = (size_t)(plus - tok);
		}
		int hole = tok[0] - '0', last = k >= 2 ? tok[1] - '0' : 0, x = k == 3 && (tok[2] == 'X' || tok[2] == 'x');
		int pit = tg_pit_of(g.pos.turn, hole);
		tg_move_info info;

		if (k < 1 || k > 3 || hole < 1 || hole > 9 || (k >= 2 && (last < 1 || last > 9)) || (k == 3 && !x)) {
			snprintf(err, errsz, "move %d \"%s\": not a move (H, HL or HLX)", *n + 1, tok);
			return -1;
		}
		if (*n >= max || g.end != OW_END_NONE || tg_game_play(&g, pit, &info)) {
			snprintf(err, errsz, "move %d \"%s\": %s", *n + 1, tok,
			         *n >= max ? "too many moves" : g.end != OW_END_NONE ? "the game is over"
			         : tg_strerror(tg_pos_check(&g.pos, pit)));
			return -1;
		}
		if ((k >= 2 && tg_hole_number(info.last) != last) || (x && !info.tuzdyk) ||
		    (seeds >= 0 && (info.captured == TG_NONE ? 0 : info.seeds) != seeds)) {
			char nota[4];

			tg_notation(&info, nota);
			if (seeds >= 0)
				snprintf(err, errsz, "move %d \"%s\": the engine plays it as %s+%d", *n + 1,
				         shown, nota, info.captured == TG_NONE ? 0 : info.seeds);
			else
				snprintf(err, errsz, "move %d \"%s\": the engine plays it as %s", *n + 1, tok, nota);
			return -1;
		}
		moves[(*n)++] = (uint8_t)pit;
	}
	return 0;
}

const cli_kind cli_kind_togyz = {
	.proto = &proto_kind_togyz,
	.help = togyz_help,
	.move_parse = togyz_move_parse,
	.move_form = "a hole number (1-9)",
	.play_error = togyz_play_error,
	.move_json = togyz_move_json,
	.ladder = &cli_togyz_ladder,
	.level_default = TG_LADDER_HARD,
	.max_depth = TG_SEARCH_MAX_DEPTH,
	.tt_entries = TG_SEARCH_TT_ENTRIES,
	.tt_entry_size = sizeof(tg_tt_entry),
	.search = togyz_search,
	.puzzle_id = 't',
	.puzzle_depth = 8,
	.puzzle_deeper = 2,
	.page_name = togyz_page_name,
	.page_pit = togyz_page_pit,
	.taken = togyz_taken,
	.read_record = togyz_read_record,
	.records_blank = 1,
	.position_errlen = 200,
};

/* ---- The table ---- */

const cli_kind *const cli_kinds[] = {&cli_kind_oware, &cli_kind_togyz, NULL};

const cli_kind *cli_kind_find(const char *name)
{
	for (int i = 0; cli_kinds[i]; i++)
		if (!strcmp(name, cli_kinds[i]->proto->name))
			return cli_kinds[i];
	return NULL;
}

void cli_kind_names(char *out, size_t outlen)
{
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; cli_kinds[i] && len < outlen; i++)
		len += (size_t)snprintf(out + len, outlen - len, "%s%s",
		                        i == 0 ? "" : cli_kinds[i + 1] ? ", " : " or ",
		                        cli_kinds[i]->proto->name);
}
