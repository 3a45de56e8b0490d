/* event.c: the rules of a club event as pure decisions (event.h): each
 * decision reads the event and fills a change; only ev_apply changes it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/event.h"
#include "server/rules/trf.h"

const char *ev_strerror(int code)
{
	switch (code) {
	case 0: return "ok";
	case EV_E_INVAL: return "bad event settings";
	case EV_E_STATE: return "not possible at this stage of the event";
	case EV_E_NAME: return "not a valid name";
	case EV_E_NAME_TAKEN: return "that name is taken in this event";
	case EV_E_FULL: return "the event is full";
	case EV_E_LATE: return "late entries are closed";
	case EV_E_PLAYER: return "no such player";
	case EV_E_WITHDRAWN: return "the player has withdrawn";
	case EV_E_FEW: return "at least 2 players are needed";
	case EV_E_ROUND: return "not a round that can take this result";
	case EV_E_BOARD: return "no such board";
	case EV_E_DONE: return "the board has a result";
	case EV_E_RESULT: return "not a valid result";
	case EV_E_PENDING: return "a game of the round has no result yet";
	case EV_E_OVER: return "the event is over";
	case EV_E_PAIRING: return "the round cannot be paired";
	case EV_E_NOMEM: return "out of memory";
	case EV_E_NAME_WORD: return "that name reads as a word of the event's page (a result, a bye, a withdrawal, the organiser)";
	default: return "unknown error";
	}
}

/* Seeds in play: what one game's captures can add up to at most. */
static int kind_seeds(const ev_event *ev)
{
	return strcmp(ev->kind, "togyz") == 0 ? 162 : 48;
}

static int rr_cycles(int format)
{
	return format == EV_DOUBLE_ROUND_ROBIN ? 2 : 1;
}

/* A round robin of n players fits the rounds a pair_event can hold. */
static int rr_fits(int format, int n)
{
	int c = pair_berger_rounds(n);
	return n < 2 || (c > 0 && c * rr_cycles(format) <= EV_MAX_ROUNDS);
}

/* An entry withdrawn before the start: no longer part of the event. */
static int gone(const ev_player *p)
{
	return p->withdrawn && p->number == 0;
}

/* The players in the event now (the field once started). */
static int in_event(const ev_event *ev)
{
	int n = 0;
	if (ev->state != EV_ENTRY)
		return ev->nfield;
	for (int i = 0; i < ev->nentries; i++)
		n += !gone(&ev->entries[i]);
	return n;
}

static int active_in_field(const ev_event *ev)
{
	int n = 0;
	for (int i = 0; i < ev->nfield; i++)
		n += !ev->entries[ev->field[i]].withdrawn;
	return n;
}

int ev_create(ev_event *ev, const ev_settings *s)
{
	char title[EV_TITLE_BYTES + 1] = "";  /* copied whole: no stack bytes after the text */
	const char *why;
	const ev_clock *c = &s->clock;

	if (!s->title || proto_text_clean(s->title, strlen(s->title), EV_TITLE_MAX,
			title, sizeof title, &why) < 0)
		return EV_E_INVAL;
	if (!s->kind || (strcmp(s->kind, "oware") != 0 && strcmp(s->kind, "togyz") != 0))
		return EV_E_INVAL;
	if (s->format == EV_SWISS) {
		if (s->rounds < 1 || s->rounds > EV_MAX_ROUNDS)
			return EV_E_INVAL;
	} else if (s->format != EV_ROUND_ROBIN && s->format != EV_DOUBLE_ROUND_ROBIN) {
		return EV_E_INVAL;
	} else if (s->rounds != 0) {
		return EV_E_INVAL;
	}
	switch (c->kind) {
	case PROTO_CLOCK_NONE:
		if (c->initial || c->increment || c->days)
			return EV_E_INVAL;
		break;
	case PROTO_CLOCK_REALTIME:
		if (c->initial < PROTO_CLOCK_INITIAL_MIN || c->initial > PROTO_CLOCK_INITIAL_MAX
			|| c->increment < 0 || c->increment > PROTO_CLOCK_INCREMENT_MAX || c->days)
			return EV_E_INVAL;
		break;
	case PROTO_CLOCK_CORRESPONDENCE:
		if (c->days < PROTO_CLOCK_DAYS_MIN || c->days > PROTO_CLOCK_DAYS_MAX
			|| c->initial || c->increment)
			return EV_E_INVAL;
		break;
	default:
		return EV_E_INVAL;
	}
	if (s->max_players != 0 && (s->max_players < 2 || s->max_players > EV_MAX_PLAYERS))
		return EV_E_INVAL;
	if (s->rules != EV_RULES_2025 && s->rules != EV_RULES_2017)
		return EV_E_INVAL;
	memset(ev, 0, sizeof *ev);
	memcpy(ev->title, title, sizeof title);
	snprintf(ev->kind, sizeof ev->kind, "%s", s->kind);
	ev->format = s->format;
	ev->total_rounds = s->format == EV_SWISS ? s->rounds : 0;
	ev->clock = *c;
	ev->max_players = s->max_players;
	ev->rules = s->rules;
	ev->state = EV_ENTRY;
	return 0;
}

static void change_init(ev_change *ch, int op)
{
	memset(ch, 0, offsetof(ev_change, boards));
	ch->op = op;
	ch->board = -1;
}

int ev_join_open(const ev_event *ev)
{
	int n = in_event(ev);
	int limit = ev->max_players ? ev->max_players : EV_MAX_PLAYERS;

	if (ev->state == EV_OVER || (ev->state == EV_RUNNING &&
	    (ev->format != EV_SWISS || 2 * ev->nrounds >= ev->total_rounds)))
		return 0;
	return ev->nentries < EV_MAX_ENTRIES && n < limit &&
	       (ev->format == EV_SWISS || rr_fits(ev->format, n + 1));
}

int ev_join(const ev_event *ev, const char *name, size_t len, ev_change *ch)
{
	char clean[EV_NAME_BYTES + 1] = "";  /* copied whole into the change */
	char key[PROTO_NAME_KEY_BYTES], other[PROTO_NAME_KEY_BYTES];
	const char *why, *word;
	int w;

	if (ev->state == EV_OVER)
		return EV_E_OVER;
	if (ev->state == EV_RUNNING) {
		if (ev->format != EV_SWISS)
			return EV_E_STATE;
		if (2 * ev->nrounds >= ev->total_rounds)
			return EV_E_LATE;
	}
	if (!name || proto_text_clean(name, len, PROTO_NAME_MAX, clean, sizeof clean, &why) < 0
		|| proto_name_check(clean, &why) < 0 || (w = proto_name_event_word(clean, &word)) < 0
		|| proto_name_key(clean, key, sizeof key) < 0)
		return EV_E_NAME;
	if (w)
		return EV_E_NAME_WORD;
	/* Names that look alike are one name: the page, the TRF and the CSV
	 * would show two players the same. */
	for (int i = 0; i < ev->nentries; i++)
		if (!gone(&ev->entries[i]) &&
		    (proto_name_key(ev->entries[i].name, other, sizeof other) < 0 || !strcmp(key, other)))
			return EV_E_NAME_TAKEN;
	int n = in_event(ev);
	int limit = ev->max_players ? ev->max_players : EV_MAX_PLAYERS;
	if (ev->nentries >= EV_MAX_ENTRIES || n >= limit
		|| (ev->format != EV_SWISS && !rr_fits(ev->format, n + 1)))
		return EV_E_FULL;
	change_init(ch, EV_OP_JOIN);
	ch->entry = ev->nentries;
	memcpy(ch->name, clean, sizeof clean);
	ch->round = ev->state == EV_RUNNING ? ev->nrounds : 0;
	return 0;
}

/* The board of field player f in round r (0-based), or -1. */
static int board_of(const ev_event *ev, int r, int f)
{
	const ev_round *rd = &ev->rounds[r];
	for (int b = 0; b < rd->nboards; b++)
		if (rd->boards[b].white == f || rd->boards[b].black == f)
			return b;
	return -1;
}

int ev_withdraw(const ev_event *ev, int entry, ev_change *ch)
{
	if (entry < 0 || entry >= ev->nentries)
		return EV_E_PLAYER;
	const ev_player *p = &ev->entries[entry];
	if (p->withdrawn)
		return EV_E_WITHDRAWN;
	if (ev->state == EV_OVER)
		return EV_E_OVER;
	change_init(ch, EV_OP_WITHDRAW);
	ch->entry = entry;
	if (ev->state == EV_RUNNING && p->number) {
		int r = ev->nrounds - 1;
		int b = board_of(ev, r, p->number - 1);
		if (b >= 0 && ev->rounds[r].boards[b].result == EV_RES_NONE) {
			ch->round = r + 1;
			ch->board = b;
		}
	}
	return 0;
}

/* The result codes of a board for white and black as TRF writes them. */
static void board_codes(const ev_board *b, char *w, char *k)
{
	switch (b->result) {
	case EV_RES_WHITE: *w = '1', *k = '0'; break;
	case EV_RES_DRAW: *w = '=', *k = '='; break;
	case EV_RES_BLACK: *w = '0', *k = '1'; break;
	case EV_RES_WHITE_FF: *w = '+', *k = '-'; break;
	case EV_RES_BLACK_FF: *w = '-', *k = '+'; break;
	case EV_RES_DOUBLE_FF: *w = '-', *k = '-'; break;
	default: *w = ' ', *k = ' '; break;
	}
}

static int played_result(char r)
{
	return r == EV_RES_WHITE || r == EV_RES_DRAW || r == EV_RES_BLACK;
}

/* The history of n players (field: their entries by starting rank - 1)
 * after `rounds` rounds into out. */
static void build_history(const ev_event *ev, int n, const int16_t *field, int rounds,
	pair_event *out)
{
	out->nplayers = n;
	out->total_rounds = ev->total_rounds;
	out->first_color = PAIR_WHITE;
	out->rules = ev->rules == EV_RULES_2017 ? PAIR_DUTCH_2017 : PAIR_DUTCH_2025;
	for (int i = 0; i < n; i++) {
		const ev_player *p = &ev->entries[field[i]];
		pair_player *pl = &out->p[i];
		pl->rating = 0;
		pl->nrounds = rounds;
		for (int r = 0; r < rounds; r++) {
			pair_game *g = &pl->rounds[r];
			g->opp = -1;
			g->color = PAIR_NOCOLOR;
			g->result = r < p->late ? 'H' : 'Z';
		}
	}
	for (int r = 0; r < rounds; r++) {
		const ev_round *rd = &ev->rounds[r];
		for (int b = 0; b < rd->nboards; b++) {
			const ev_board *bd = &rd->boards[b];
			pair_game *w = &out->p[bd->white].rounds[r];
			if (bd->black < 0) {
				w->result = bd->result;
				continue;
			}
			pair_game *k = &out->p[bd->black].rounds[r];
			w->opp = bd->black;
			k->opp = bd->white;
			board_codes(bd, &w->result, &k->result);
			if (played_result(bd->result)) {
				w->color = PAIR_WHITE;
				k->color = PAIR_BLACK;
			}
		}
	}
}

void ev_pair_event(const ev_event *ev, int rounds, pair_event *out)
{
	build_history(ev, ev->nfield, ev->field, rounds, out);
}

/* Pairs round `round` (1-based) of the n players of field into ch. */
static int pair_round(const ev_event *ev, int n, const int16_t *field, int round,
	ev_change *ch)
{
	pair_board pb[EV_MAX_BOARDS];
	int nb;

	change_init(ch, EV_OP_ROUND);
	ch->round = round;
	if (ev->format != EV_SWISS) {
		nb = pair_berger(n, round, pb);
		if (nb < 0)
			return EV_E_FULL;
	} else {
		pair_event *pe = malloc(sizeof *pe);
		size_t wlen = pair_work_size(n);
		void *work = malloc(wlen);
		char err[160];
		int rc;
		if (!pe || !work) {
			free(pe);
			free(work);
			return EV_E_NOMEM;
		}
		build_history(ev, n, field, round - 1, pe);
		/* A withdrawn player has his round entered ahead: not paired. */
		for (int i = 0; i < n; i++)
			if (ev->entries[field[i]].withdrawn) {
				pair_game *g = &pe->p[i].rounds[round - 1];
				g->opp = -1;
				g->color = PAIR_NOCOLOR;
				g->result = 'Z';
				pe->p[i].nrounds = round;
			}
		rc = pair_dutch(pe, work, wlen, pb, &nb, err, sizeof err);
		free(work);
		free(pe);
		if (rc == PAIR_ENOMEM)
			return EV_E_NOMEM;
		if (rc < 0)
			return EV_E_PAIRING;
	}
	ch->nboards = nb;
	for (int b = 0; b < nb; b++) {
		ev_board *bd = &ch->boards[b];
		memset(bd, 0, sizeof *bd);
		bd->white = pb[b].white;
		bd->black = pb[b].black;
		if (bd->black < 0) {
			bd->result = ev->format == EV_SWISS ? EV_RES_BYE : EV_RES_RR_BYE;
			continue;
		}
		/* A round robin keeps a withdrawn player's games: forfeits. */
		int ww = ev->entries[field[bd->white]].withdrawn != 0;
		int bw = ev->entries[field[bd->black]].withdrawn != 0;
		bd->result = ww && bw ? EV_RES_DOUBLE_FF : ww ? EV_RES_BLACK_FF
		           : bw ? EV_RES_WHITE_FF : EV_RES_NONE;
	}
	return 0;
}

int ev_start(const ev_event *ev, ev_change *ch)
{
	int16_t field[EV_MAX_PLAYERS];
	int n = 0;

	if (ev->state == EV_OVER)
		return EV_E_OVER;
	if (ev->state != EV_ENTRY)
		return EV_E_STATE;
	for (int i = 0; i < ev->nentries && n < EV_MAX_PLAYERS; i++)
		if (!gone(&ev->entries[i]))
			field[n++] = (int16_t)i;
	if (n < 2)
		return EV_E_FEW;
	if (ev->format != EV_SWISS && !rr_fits(ev->format, n))
		return EV_E_FULL;
	return pair_round(ev, n, field, 1, ch);
}

static int round_complete(const ev_event *ev, int r)
{
	const ev_round *rd = &ev->rounds[r];
	for (int b = 0; b < rd->nboards; b++)
		if (rd->boards[b].result == EV_RES_NONE)
			return 0;
	return 1;
}

int ev_rounds_complete(const ev_event *ev)
{
	int r = 0;
	while (r < ev->nrounds && round_complete(ev, r))
		r++;
	return r;
}

int ev_result(const ev_event *ev, int by, int round, int board, char result,
	const int seeds[2], ev_change *ch)
{
	int s0 = seeds ? seeds[0] : 0, s1 = seeds ? seeds[1] : 0;

	if (by != EV_BY_ROOM && by != EV_BY_ORGANISER)
		return EV_E_INVAL;
	if (ev->state == EV_ENTRY)
		return EV_E_STATE;
	if (round < 1 || round > ev->nrounds || (by == EV_BY_ROOM && round != ev->nrounds))
		return EV_E_ROUND;
	const ev_round *rd = &ev->rounds[round - 1];
	if (board < 0 || board >= rd->nboards || rd->boards[board].black < 0)
		return EV_E_BOARD;
	if (played_result(result)) {
		if (s0 < 0 || s1 < 0 || s0 + s1 > kind_seeds(ev))
			return EV_E_RESULT;
	} else if (by == EV_BY_ROOM || (result != EV_RES_WHITE_FF && result != EV_RES_BLACK_FF
			&& result != EV_RES_DOUBLE_FF) || s0 || s1) {
		return EV_E_RESULT;
	}
	if (by == EV_BY_ROOM && rd->boards[board].result != EV_RES_NONE)
		return EV_E_DONE;
	change_init(ch, EV_OP_RESULT);
	ch->round = round;
	ch->board = board;
	ch->result = result;
	ch->seeds[0] = s0;
	ch->seeds[1] = s1;
	return 0;
}

int ev_next(const ev_event *ev, ev_change *ch)
{
	if (ev->state == EV_OVER)
		return EV_E_OVER;
	if (ev->state != EV_RUNNING)
		return EV_E_STATE;
	if (!round_complete(ev, ev->nrounds - 1))
		return EV_E_PENDING;
	if (ev->nrounds >= ev->total_rounds
		|| (ev->format == EV_SWISS && active_in_field(ev) < 2)) {
		change_init(ch, EV_OP_END);
		return 0;
	}
	return pair_round(ev, ev->nfield, ev->field, ev->nrounds + 1, ch);
}

int ev_will_pair(const ev_event *ev)
{
	if (ev->format != EV_SWISS)
		return 0;
	if (ev->state == EV_ENTRY)
		return in_event(ev) >= 2;
	return ev->state == EV_RUNNING && ev->nrounds >= 1 && round_complete(ev, ev->nrounds - 1) &&
	       ev->nrounds < ev->total_rounds && active_in_field(ev) >= 2;
}

int ev_finish(const ev_event *ev, ev_change *ch)
{
	if (ev->state == EV_OVER)
		return EV_E_OVER;
	if (ev->state != EV_RUNNING)
		return EV_E_STATE;
	if (!round_complete(ev, ev->nrounds - 1))
		return EV_E_PENDING;
	change_init(ch, EV_OP_END);
	return 0;
}

void ev_apply(ev_event *ev, const ev_change *ch)
{
	switch (ch->op) {
	case EV_OP_JOIN: {
		ev_player *p = &ev->entries[ev->nentries++];
		memset(p, 0, sizeof *p);
		memcpy(p->name, ch->name, sizeof p->name);
		p->late = ch->round;
		if (ev->state == EV_RUNNING) {
			ev->field[ev->nfield] = (int16_t)ch->entry;
			p->number = ++ev->nfield;
		}
		break;
	}
	case EV_OP_WITHDRAW: {
		ev_player *p = &ev->entries[ch->entry];
		p->withdrawn = 1 + ev->nrounds;
		if (ch->board >= 0) {
			ev_board *b = &ev->rounds[ch->round - 1].boards[ch->board];
			b->result = b->white == p->number - 1 ? EV_RES_BLACK_FF : EV_RES_WHITE_FF;
			b->seeds[0] = b->seeds[1] = 0;
		}
		break;
	}
	case EV_OP_ROUND:
		if (ch->round == 1) {
			for (int i = 0; i < ev->nentries && ev->nfield < EV_MAX_PLAYERS; i++)
				if (!gone(&ev->entries[i])) {
					ev->field[ev->nfield] = (int16_t)i;
					ev->entries[i].number = ++ev->nfield;
				}
			if (ev->format != EV_SWISS)
				ev->total_rounds = pair_berger_rounds(ev->nfield) * rr_cycles(ev->format);
			ev->state = EV_RUNNING;
		}
		ev->rounds[ev->nrounds].nboards = ch->nboards;
		memcpy(ev->rounds[ev->nrounds].boards, ch->boards, (size_t)ch->nboards * sizeof ch->boards[0]);
		ev->nrounds++;
		break;
	case EV_OP_RESULT: {
		ev_board *b = &ev->rounds[ch->round - 1].boards[ch->board];
		b->result = ch->result;
		b->seeds[0] = (int16_t)ch->seeds[0];
		b->seeds[1] = (int16_t)ch->seeds[1];
		break;
	}
	case EV_OP_END:
		ev->state = EV_OVER;
		break;
	default:
		break;
	}
}

/* ---- standings ---- */

/* The tie-breaks of a format under a set of rules, in order, into tb. */
static int tb_list(int format, int rules, int *tb)
{
	int n = 0;
	if (rules == EV_RULES_2017) {
		/* C.07 before 2023, as Oware Rooms has always ranked */
		if (format == EV_SWISS) {
			tb[n++] = EV_TB_BH_C1;
			tb[n++] = EV_TB_BH;
			tb[n++] = EV_TB_SB;
		} else {
			tb[n++] = EV_TB_SB;
			tb[n++] = EV_TB_DE;
		}
	} else if (format == EV_SWISS) {
		/* C.07 (2024): BH-C1, BH, DE, then SB (docs/events.md) */
		tb[n++] = EV_TB_BH_C1;
		tb[n++] = EV_TB_BH;
		tb[n++] = EV_TB_DE;
		tb[n++] = EV_TB_SB;
	} else {
		/* C.07 (2024) for a round robin: DE, WIN, SB, KS */
		tb[n++] = EV_TB_DE;
		tb[n++] = EV_TB_WIN;
		tb[n++] = EV_TB_SB;
		tb[n++] = EV_TB_KS;
	}
	tb[n++] = EV_TB_SEEDS;
	return n;
}

int ev_tiebreaks(const ev_event *ev, int *tb)
{
	return tb_list(ev->format, ev->rules, tb);
}

const char *ev_tb_name(int tb)
{
	switch (tb) {
	case EV_TB_SB: return "sonneborn_berger";
	case EV_TB_DE: return "direct_encounter";
	case EV_TB_BH_C1: return "buchholz_cut1";
	case EV_TB_BH: return "buchholz";
	case EV_TB_SEEDS: return "seeds";
	case EV_TB_WIN: return "number_of_wins";
	case EV_TB_KS: return "koya";
	default: return "?";
	}
}

/* What the standings are computed from: a history and its scores. */
typedef struct st_ctx {
	const pair_event *pe;
	int format, rules, rounds;
	const int *seeds;             /* by starting rank - 1, or NULL */
	int pts[EV_MAX_PLAYERS];      /* half points */
	int adj[EV_MAX_PLAYERS];      /* half points an opponent's tie-break counts him at */
} st_ctx;

static int halves(char result)
{
	return pair_result_halves(result);
}

static int played_code(const pair_game *g)
{
	return g->opp >= 0 && (g->result == '1' || g->result == '=' || g->result == '0');
}

/* ---- C.07 before 2023 (rules "fide_2017") ---- */

/* C.07 (2009): "all unplayed games in which players are indirectly
 * involved are considered to have been drawn": the score an opponent's
 * Buchholz counts a player at, each unplayed round of his ½. */
static void adjusted_2009(st_ctx *c)
{
	for (int i = 0; i < c->pe->nplayers; i++) {
		c->adj[i] = 0;
		for (int r = 0; r < c->rounds; r++) {
			const pair_game *g = &c->pe->p[i].rounds[r];
			c->adj[i] += played_code(g) ? halves(g->result) : 1;
		}
	}
}

/* C.07 (2009), Swiss: "a player who has no opponent will be considered
 * as having played against a virtual opponent who has the same number
 * of points at the beginning of the round and who draws in all the
 * following rounds". Buchholz, its Cut-1 and Sonneborn-Berger of
 * player i, in quarter points. */
static void buchholz_2009(const st_ctx *c, int i, int *bh, int *c1, int *sb)
{
	int sum = 0, low = 0, before = 0, R = c->rounds;
	*sb = 0;
	for (int r = 0; r < R; r++) {
		const pair_game *g = &c->pe->p[i].rounds[r];
		int res = halves(g->result);
		int v = played_code(g) ? c->adj[g->opp] : before + (2 - res) + (R - 1 - r);
		sum += v;
		if (r == 0 || v < low)
			low = v;
		*sb += res * v;
		before += res;
	}
	*bh = 2 * sum;
	*c1 = R ? 2 * (sum - low) : 0;
}

/* a tied with b on points and the first ntb tie-breaks */
static int tied(const ev_standing *a, const ev_standing *b, int ntb)
{
	if (a->points != b->points)
		return 0;
	for (int t = 0; t < ntb; t++)
		if (a->tb[t] != b->tb[t])
			return 0;
	return 1;
}

/* The direct encounter as ranked before 2023 (round robin, after points
 * and Sonneborn-Berger): within each group still tied, when every two of
 * them met equally often (at least once, forfeits included), their
 * points in those games, in quarters; else 0. */
static void direct_encounter_2009(const pair_event *pe, int rounds, ev_standing *out, int n, int t)
{
	for (int a = 0; a < n;) {
		int z = a + 1;
		while (z < n && tied(&out[a], &out[z], t))
			z++;
		if (z - a >= 2) {
			int met = -1, ok = 1;
			for (int i = a; i < z && ok; i++)
				for (int j = i + 1; j < z && ok; j++) {
					int m = 0;
					const pair_player *pl = &pe->p[out[i].number - 1];
					for (int r = 0; r < rounds; r++)
						m += pl->rounds[r].opp == out[j].number - 1;
					if (met < 0)
						met = m;
					ok = m >= 1 && m == met;
				}
			for (int i = a; i < z && ok; i++) {
				const pair_player *pl = &pe->p[out[i].number - 1];
				int s = 0;
				for (int r = 0; r < rounds; r++)
					for (int j = a; j < z; j++)
						if (pl->rounds[r].opp == out[j].number - 1)
							s += halves(pl->rounds[r].result);
				out[i].tb[t] = 2 * s;
			}
		}
		a = z;
	}
}

/* ---- C.07 of 2024 (rules "fide_2025") ---- */

/* Art. 15.2: "In tournaments with pre-determined pairings, forfeit wins
 * or losses are treated as regular games": in a round robin a forfeit is
 * a game against its opponent; in a Swiss (Art. 16) only a game played
 * over the board is. */
static int encounter_2024(const st_ctx *c, const pair_game *g)
{
	return c->format == EV_SWISS ? played_code(g) : g->opp >= 0;
}

/* Art. 16.1.2: "voluntary unplayed round (VUR): a round in which a
 * participant was not available to play, i.e. a requested bye or a
 * forfeit loss": H, Z (16.1.1: any round after a withdrawal is a
 * zero-point bye), a forfeit lost or a double forfeit. */
static int vur_2024(const pair_game *g)
{
	return !played_code(g) && halves(g->result) < 2;
}

/* Art. 16.3: "for the sole purpose of calculating the tie-break of their
 * opponents, the participant's score is adjusted": a requested bye
 * followed only by VURs or in the last round (16.2.5) counts as a draw
 * (16.3.2); every other unplayed round as awarded (16.3.1). */
static void adjusted_2024(st_ctx *c)
{
	for (int i = 0; i < c->pe->nplayers; i++) {
		const pair_player *pl = &c->pe->p[i];
		int last = 0;            /* rounds up to the last one not a VUR */
		for (int r = 0; r < c->rounds; r++)
			if (!vur_2024(&pl->rounds[r]))
				last = r + 1;
		c->adj[i] = 0;
		for (int r = 0; r < c->rounds; r++) {
			const pair_game *g = &pl->rounds[r];
			int bye = g->opp < 0 && (g->result == 'H' || g->result == 'Z');
			c->adj[i] += bye && r >= last ? 1 : halves(g->result);
		}
	}
}

/* Art. 16.4: "each of their unplayed rounds is evaluated as if the
 * participant had played against a dummy ... The dummy's score for the
 * tie-break calculation is the participant's own score": the opponent's
 * score round g of player i counts (Swiss), in half points. */
static int opponent_score_2024(const st_ctx *c, int i, const pair_game *g)
{
	return played_code(g) ? c->adj[g->opp] : c->pts[i];
}

/* Art. 8.1 Buchholz (BH): "The sum of the scores of each of the opponents
 * of a participant", and Art. 14.1 Cut-1 (BH-C1, "exclude the opponent's
 * lowest score") with its exception 16.5: a player with a VUR has the
 * lowest of its values cut, his own score, rather than the least. In
 * quarter points. */
static void buchholz_2024(const st_ctx *c, int i, int *bh, int *c1)
{
	int sum = 0, low = 0, vur = 0;
	for (int r = 0; r < c->rounds; r++) {
		const pair_game *g = &c->pe->p[i].rounds[r];
		int v = opponent_score_2024(c, i, g);
		sum += v;
		if (r == 0 || v < low)
			low = v;
		vur |= vur_2024(g);
	}
	*bh = 2 * sum;
	*c1 = c->rounds ? 2 * (sum - (vur ? c->pts[i] : low)) : 0;
}

/* Art. 9.1 Sonneborn-Berger (SB): for each round, the opponent's score
 * times the points scored against him. A Swiss counts its unplayed rounds
 * by Art. 16 (the adjusted scores, the dummy); a round robin its forfeits
 * as games (15.2) and its bye nothing, as before 2023. In quarters. */
static int sonneborn_berger(const st_ctx *c, int i)
{
	int sb = 0;
	for (int r = 0; r < c->rounds; r++) {
		const pair_game *g = &c->pe->p[i].rounds[r];
		if (c->format != EV_SWISS)
			sb += g->opp >= 0 ? halves(g->result) * c->pts[g->opp] : 0;
		else
			sb += halves(g->result) * opponent_score_2024(c, i, g);
	}
	return sb;
}

/* Art. 7.1 Number of Wins (WIN): "the number of rounds where a
 * participant obtains, with or without playing, as many points as
 * awarded for a win"; 4 a win, as seeds are counted. */
static int wins_2024(const st_ctx *c, int i)
{
	int w = 0;
	for (int r = 0; r < c->rounds; r++)
		w += halves(c->pe->p[i].rounds[r].result) == 2;
	return 4 * w;
}

/* Art. 9.2 Koya System (KS): "the number of points achieved against all
 * opponents who have achieved 50% or more of the maximum possible score"
 * (a round robin; an opponent's maximum: 1 a round he had an opponent
 * in). In quarters. */
static int koya_2024(const st_ctx *c, int i)
{
	int ks = 0;
	for (int r = 0; r < c->rounds; r++) {
		const pair_game *g = &c->pe->p[i].rounds[r];
		int games = 0;
		if (g->opp < 0)
			continue;
		for (int q = 0; q < c->rounds; q++)
			games += c->pe->p[g->opp].rounds[q].opp >= 0;
		if (c->pts[g->opp] >= games)    /* half points >= games: 50% */
			ks += halves(g->result);
	}
	return 2 * ks;
}

/* The direct encounter's work on one tied group of k players: what each
 * scored against each (Art. 6.1.2: "if two participants have met more
 * than once, the addend to be used by them ... is the average score of
 * these games"), in quarters, -1 where they have not met; a score and a
 * best possible score a member, scratch; and the value each ends with. */
typedef struct de_work {
	int k;
	int *avg;                     /* k x k */
	int *de, *max, *val;          /* k each */
} de_work;

/* Art. 6.1, among the members m[0..n-1]: "the sum of the scores from
 * these encounters", and the most each could have had had he also won
 * the games among them not played (a win: 4 quarters). Returns 1 when
 * every two of them have met. */
static int de_scores_2024(de_work *d, const int *m, int n)
{
	int all = 1;
	for (int i = 0; i < n; i++) {
		int *de = &d->de[m[i]], *max = &d->max[m[i]];
		*de = *max = 0;
		for (int j = 0; j < n; j++) {
			int a = d->avg[m[i] * d->k + m[j]];
			if (j == i)
				continue;
			*de += a < 0 ? 0 : a;
			*max += a < 0 ? 4 : a;
		}
		all &= *de == *max;
	}
	return all;
}

/* Art. 6 Direct Encounter (DE) among the members m[0..n-1], base of the
 * group placed below them: 6.2, all have met: their scores rank them,
 * and each set still level is ranked again among itself; 6.3, not all
 * have met: the best is placed first only when none of the others could
 * reach his score whatever the games not played would give, and Art. 6
 * applies again to the rest; else they stay level. A member's value:
 * the players of his group it places below him. Reorders m. */
static void de_rank_2024(de_work *d, int *m, int n, int base)
{
	int all = de_scores_2024(d, m, n);
	for (int i = 1; i < n; i++) {     /* best first: score, then best possible */
		int x = m[i], j = i;
		while (j > 0 && (d->de[m[j - 1]] < d->de[x] ||
		       (d->de[m[j - 1]] == d->de[x] && d->max[m[j - 1]] < d->max[x]))) {
			m[j] = m[j - 1];
			j--;
		}
		m[j] = x;
	}
	if (n >= 2 && all && d->de[m[0]] != d->de[m[n - 1]]) {
		for (int p = 0, q; p < n; p = q) {
			for (q = p + 1; q < n && d->de[m[q]] == d->de[m[p]]; q++)
				;
			de_rank_2024(d, m + p, q - p, base + n - q);
		}
		return;
	}
	int reach = 0;                    /* the others' best possible */
	for (int i = 1; i < n; i++)
		reach = d->max[m[i]] > reach ? d->max[m[i]] : reach;
	if (n >= 2 && !all && d->de[m[0]] > reach) {
		d->val[m[0]] = base + n - 1;
		de_rank_2024(d, m + 1, n - 1, base);
		return;
	}
	for (int i = 0; i < n; i++)
		d->val[m[i]] = base;
}

/* The scores of the k players at g against each other into d->avg
 * (Art. 15.2: a round robin counts its forfeits as games; a Swiss only
 * the games played over the board). */
static void de_matrix_2024(const st_ctx *c, const ev_standing *g, de_work *d)
{
	int k = d->k;
	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++) {
			const pair_player *pl = &c->pe->p[g[i].number - 1];
			int s = 0, n = 0;
			for (int r = 0; i != j && r < c->rounds; r++) {
				const pair_game *gm = &pl->rounds[r];
				if (gm->opp == g[j].number - 1 && encounter_2024(c, gm)) {
					s += halves(gm->result);
					n++;
				}
			}
			d->avg[i * k + j] = n ? 2 * s / n : -1;
		}
}

/* The direct encounter of each group at out tied on points and the t
 * tie-breaks before it, into column t: 4 x the players of his group it
 * places below him. EV_E_NOMEM on no memory, else 0. */
static int direct_encounter_2024(const st_ctx *c, ev_standing *out, int n, int t)
{
	for (int a = 0; a < n;) {
		int z = a + 1;
		while (z < n && tied(&out[a], &out[z], t))
			z++;
		int k = z - a;
		de_work d = { .k = k };
		int *mem = k >= 2 ? malloc(((size_t)k * k + 4 * (size_t)k) * sizeof *mem) : NULL;
		if (k >= 2 && !mem)
			return EV_E_NOMEM;
		if (k >= 2) {
			d.avg = mem;
			d.de = mem + k * k;
			d.max = d.de + k;
			d.val = d.max + k;
			int *m = d.val + k;
			for (int i = 0; i < k; i++)
				m[i] = i;
			de_matrix_2024(c, out + a, &d);
			de_rank_2024(&d, m, k, 0);
			for (int i = 0; i < k; i++)
				out[a + i].tb[t] = 4 * d.val[i];
		}
		free(mem);
		a = z;
	}
	return 0;
}

/* ---- ranking ---- */

/* a before b: more points, then the tie-breaks, then the starting rank */
static int ranks_before(const ev_standing *a, const ev_standing *b, int ntb)
{
	if (a->points != b->points)
		return a->points > b->points;
	for (int t = 0; t < ntb; t++)
		if (a->tb[t] != b->tb[t])
			return a->tb[t] > b->tb[t];
	return a->number < b->number;
}

/* insertion sort: stable, small fields, no global context for qsort */
static void sort_standings(ev_standing *out, int n, int ntb)
{
	for (int i = 1; i < n; i++) {
		ev_standing s = out[i];
		int j = i;
		while (j > 0 && ranks_before(&s, &out[j - 1], ntb)) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = s;
	}
}

/* Tie-break tb of player i (all but the direct encounter), quarters. */
static int tb_value(const st_ctx *c, int i, int tb)
{
	int bh, c1, sb;
	if (c->rules == EV_RULES_2017 && c->format == EV_SWISS) {
		buchholz_2009(c, i, &bh, &c1, &sb);
		return tb == EV_TB_BH ? bh : tb == EV_TB_BH_C1 ? c1 : tb == EV_TB_SB ? sb : 0;
	}
	switch (tb) {
	case EV_TB_BH:
	case EV_TB_BH_C1:
		buchholz_2024(c, i, &bh, &c1);
		return tb == EV_TB_BH ? bh : c1;
	case EV_TB_SB: return sonneborn_berger(c, i);
	case EV_TB_WIN: return wins_2024(c, i);
	case EV_TB_KS: return koya_2024(c, i);
	default: return 0;
	}
}

/* Line i of the standings before ranking: points, games, tie-breaks. */
static void standing_line(const st_ctx *c, int i, const int *tbs, int ntb, ev_standing *s)
{
	memset(s, 0, sizeof *s);
	s->entry = i;
	s->number = i + 1;
	s->points = 2 * c->pts[i];
	for (int r = 0; r < c->rounds; r++) {
		const pair_game *g = &c->pe->p[i].rounds[r];
		int res = halves(g->result);
		if (g->opp < 0)
			continue;
		s->games++;
		s->wins += res == 2;
		s->draws += res == 1;
		s->losses += res == 0;
	}
	for (int t = 0; t < ntb; t++)
		s->tb[t] = tbs[t] == EV_TB_SEEDS ? (c->seeds ? 4 * c->seeds[i] : 0)
		         : tb_value(c, i, tbs[t]);
}

/* Sorts the lines, the direct encounter computed within the groups tied
 * before it, and gives the places: 0, or EV_E_NOMEM. */
static int rank_lines(const st_ctx *c, const int *tbs, int ntb, ev_standing *out, int n)
{
	for (int t = 0; t < ntb; t++)
		if (tbs[t] == EV_TB_DE) {
			sort_standings(out, n, t);
			if (c->rules == EV_RULES_2017)
				direct_encounter_2009(c->pe, c->rounds, out, n, t);
			else if (direct_encounter_2024(c, out, n, t) < 0)
				return EV_E_NOMEM;
		}
	sort_standings(out, n, ntb);
	for (int a = 0; a < n;) {
		int z = a + 1;
		while (z < n && tied(&out[a], &out[z], ntb))
			z++;
		for (int i = a; i < z; i++) {
			out[i].place = a + 1;
			out[i].place_last = z;
		}
		a = z;
	}
	return 0;
}

int ev_standings_of(const pair_event *pe, int rounds, int format, int rules,
	const int *seeds, ev_standing *out)
{
	int tbs[EV_TB_MAX], ntb = tb_list(format, rules, tbs), n = pe->nplayers;
	st_ctx *c = malloc(sizeof *c);
	if (!c)
		return EV_E_NOMEM;
	*c = (st_ctx){ .pe = pe, .format = format, .rules = rules, .rounds = rounds, .seeds = seeds };
	for (int i = 0; i < n; i++)
		for (int r = 0; r < rounds; r++)
			c->pts[i] += halves(pe->p[i].rounds[r].result);
	if (rules == EV_RULES_2017)
		adjusted_2009(c);
	else
		adjusted_2024(c);
	for (int i = 0; i < n; i++)
		standing_line(c, i, tbs, ntb, &out[i]);
	int rc = rank_lines(c, tbs, ntb, out, n);
	free(c);
	return rc < 0 ? rc : n;
}

/* The history and the seeds of an event's standings (too large for some
 * stacks). */
typedef struct st_work {
	pair_event pe;
	int seeds[EV_MAX_PLAYERS];
} st_work;

int ev_standings(const ev_event *ev, ev_standing *out)
{
	int n = ev->nfield, R = ev_rounds_complete(ev);
	st_work *w = malloc(sizeof *w);
	if (!w)
		return EV_E_NOMEM;
	build_history(ev, n, ev->field, R, &w->pe);
	memset(w->seeds, 0, sizeof w->seeds);
	for (int r = 0; r < R; r++)
		for (int b = 0; b < ev->rounds[r].nboards; b++) {
			const ev_board *bd = &ev->rounds[r].boards[b];
			if (bd->black >= 0 && played_result(bd->result)) {
				w->seeds[bd->white] += bd->seeds[0];
				w->seeds[bd->black] += bd->seeds[1];
			}
		}
	int rc = ev_standings_of(&w->pe, R, ev->format, ev->rules, w->seeds, out);
	for (int i = 0; i < rc; i++) {
		const ev_player *p = &ev->entries[ev->field[out[i].number - 1]];
		out[i].entry = ev->field[out[i].number - 1];
		out[i].withdrawn = p->withdrawn != 0;
	}
	free(w);
	return rc;
}

/* ---- exports ---- */

long ev_trf(const ev_event *ev, char *buf, size_t cap)
{
	trf_file *f = malloc(sizeof *f);
	ev_standing *st = malloc(EV_MAX_PLAYERS * sizeof *st);
	long len = -1;
	if (!f || !st)
		goto done;
	memset(f, 0, sizeof *f);
	trf_cut(f->title, sizeof f->title, ev->title, TRF_TITLE_LEN);
	for (int i = 0; i < ev->nfield; i++)
		trf_cut(f->names[i], sizeof f->names[i], ev->entries[ev->field[i]].name, TRF_NAME_LEN);
	ev_pair_event(ev, ev_rounds_complete(ev), &f->ev);
	int n = ev_standings(ev, st);
	if (n < 0)
		goto done;
	/* The rank column (86-89): the standings' place, tie-breaks counted. */
	for (int i = 0; i < n; i++)
		f->rank[st[i].number - 1] = st[i].place;
	len = (long)trf_write(f, buf, cap);
done:
	free(st);
	free(f);
	return len;
}

/* appends like snprintf, counting what would not fit */
static void put(char *buf, size_t cap, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(*at < cap ? buf + *at : NULL, *at < cap ? cap - *at : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

/* A value in quarter points as text: 3, 2.5, 6.25. */
static void put_quarters(char *buf, size_t cap, size_t *at, int q)
{
	static const char *const frac[] = { "", ".25", ".5", ".75" };
	put(buf, cap, at, ",%d%s", q / 4, frac[q % 4]);
}

/* 1 when text starts with what a spreadsheet reads as a formula:
 * = + - @, a tab or a carriage return. */
static int csv_formula_start(const char *text)
{
	return text[0] && strchr("=+-@\t\r", text[0]) != NULL;
}

long ev_csv(const ev_event *ev, char *buf, size_t cap)
{
	ev_standing *st = malloc(EV_MAX_PLAYERS * sizeof *st);
	int tbs[EV_TB_MAX], ntb = ev_tiebreaks(ev, tbs);
	size_t at = 0;
	if (!st)
		return -1;
	int n = ev_standings(ev, st);
	if (n < 0) {
		free(st);
		return -1;
	}
	if (cap)
		buf[0] = 0;
	put(buf, cap, &at, "place,number,name,points");
	for (int t = 0; t < ntb; t++)
		put(buf, cap, &at, ",%s", ev_tb_name(tbs[t]));
	put(buf, cap, &at, ",games,wins,draws,losses,withdrawn\r\n");
	for (int i = 0; i < n; i++) {
		const ev_standing *s = &st[i];
		if (s->place_last > s->place)
			put(buf, cap, &at, "%d-%d", s->place, s->place_last);
		else
			put(buf, cap, &at, "%d", s->place);
		put(buf, cap, &at, ",%d,\"", s->number);
		/* A spreadsheet evaluates a cell that starts like a formula,
		 * quoted or not: such a name gets a leading ' (OWASP, "CSV
		 * Injection"), which shows it as text. */
		if (csv_formula_start(ev->entries[s->entry].name))
			put(buf, cap, &at, "'");
		for (const char *c = ev->entries[s->entry].name; *c; c++)
			put(buf, cap, &at, "%s%c", *c == '"' ? "\"" : "", *c);
		put(buf, cap, &at, "\"");
		put_quarters(buf, cap, &at, s->points);
		for (int t = 0; t < ntb; t++)
			put_quarters(buf, cap, &at, s->tb[t]);
		put(buf, cap, &at, ",%d,%d,%d,%d,%d\r\n", s->games, s->wins, s->draws, s->losses,
			s->withdrawn);
	}
	free(st);
	return (long)at;
}
