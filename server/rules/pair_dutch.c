/* pair_dutch.c: the Dutch system, FIDE Handbook C.04.3, the text in force
 * (applied from 1 February 2026: "the 2025 rules") and, an event's option,
 * that of 2017; see pairing.h.
 * A rule of the 2017 text is named after its article (A.9, C.12, D.1);
 * one the 2025 text changed has a function of its own named after its
 * 2025 article (1.4.3, C.2, C.5-C.9, C.15, C.17-C.21; see "The 2025
 * rules" below). The 2025 articles are quoted in short, in our words.
 *
 * The Dutch pairing follows the approach of the weighted-matching pairing
 * programs: each quality criterion of C.04.3 is a field of one large edge
 * weight, the most important field highest, and each bracket is paired by a
 * maximum-weight matching (Edmonds' blossom algorithm) over the bracket and
 * the score group below it, so that the criteria that look ahead (the next
 * bracket can be completed, its pairs) are weighed with the bracket's own.
 * A second matching over all players with weights 0 or 1 says whether the
 * round can still be completed; when a bracket's choice would not allow it,
 * the bracket is the penultimate one and is paired together with the rest.
 * (The 2025 rules have no second matching and no PPB: see below.)
 * Ties between matchings of equal weight are then broken the way C.04.3
 * orders transpositions and exchanges: fewest exchanges, smallest
 * difference of the exchanged numbers, then the highest players first. */
#include "server/rules/pair_match.h"

#include <stdio.h>
#include <string.h>

/* ---- The Dutch system ------------------------------------------------ */

enum { FLOAT_DOWN, FLOAT_UP, FLOAT_NONE };

/* A player in the pairing of the round, as the criteria see them. Scores
 * are in tenths of a point (a win 10) so that a score difference and a
 * difference shifted by a whole point (+10) are distinct numbers. */
typedef struct dplayer {
	int id;                      /* index in pair_event.p */
	int score;
	int rank;                    /* among the players who take part: the pairing number - 1 */
	int imb;                     /* |games as white - games as black| */
	int pref;                    /* colour preference, or PAIR_NOCOLOR */
	int rep;                     /* the colour of the last two played games if equal */
	int strong;                  /* a strong preference (not absolute) */
	int bye_ok;                  /* may get the pairing-allocated bye */
	int games;                   /* games played over the board */
	int fl[3];                   /* float 1 and 2 rounds before (index 1, 2) */
} dplayer;

typedef struct dutch_work {
	blossom bl;
	int nw;                      /* words of this bracket's weights */
	int played, total, first;
	dplayer sp[PAIR_MAX_PLAYERS]; /* the players to pair, by score then number */
	int ns;
	int vdim;
	word vW[DMAX * DMAX];        /* can the round still be completed (0/1) */
	int vmate[DMAX];
	int pb[PAIR_MAX_PLAYERS], m; /* the bracket (its first nsgb) and the next group */
	int sm[PAIR_MAX_PLAYERS];
	char matched[PAIR_MAX_PLAYERS];
	int mate[PAIR_MAX_PLAYERS];  /* by sp index, -1 none */
	int rem[PAIR_MAX_PLAYERS];
	unsigned shift_of[PAIR_MAX_ROUNDS * 10 + 16];
	int diffs[PAIR_MAX_PLAYERS * PAIR_MAX_PLAYERS / 2 + PAIR_MAX_PLAYERS];
	word maxw[NWMAX];
	word *base, *cur;            /* m x m weights, after the struct */
	const pair_event *ev;
	int warm;                    /* bl holds the last solve of this bracket */
	blossom vbl;                 /* the last matching of vW */
	int vwarm;
	char vchanged[DMAX];         /* whose edges in vW changed since */
	char changed[PAIR_MAX_PLAYERS]; /* whose weights in cur changed since */
	int rules;                   /* enum pair_rules */
	/* The 2025 rules: one layout of the weights for the whole round. */
	unsigned sg_bits;            /* bits of the largest scoregroup's size */
	unsigned sg_width;           /* the fields of every scoregroup */
	unsigned sg_shift[PAIR_MAX_ROUNDS * 10 + 16]; /* a score's field in them */
	int bye_score;               /* the PAB assignee's score (C.5) */
	int single, single0;         /* C.9 weighs: now, and in the outside weights */
	int urank[PAIR_MAX_ROUNDS + 1]; /* C.9: a PAB candidate's rank by games */
} dutch_work;

static int invert(int c)
{
	return c == PAIR_WHITE ? PAIR_BLACK : c == PAIR_BLACK ? PAIR_WHITE : PAIR_NOCOLOR;
}

static const pair_game *game_at(const pair_player *pl, int r)
{
	static const pair_game none = { -1, PAIR_NOCOLOR, 'Z' };
	return r < pl->nrounds ? &pl->rounds[r] : &none;
}

static int score_tenths(const pair_player *pl, int rounds)
{
	return pair_score_halves(pl, rounds) * 5;
}

size_t pair_work_size(int n)
{
	if (n < 0 || n > PAIR_MAX_PLAYERS)
		return 0;
	size_t cells = (size_t)(n ? n : 1) * (size_t)(n ? n : 1) * NWMAX;
	return sizeof(dutch_work) + 2 * cells * sizeof(word);
}

static int abs_imb(const dplayer *p) { return p->imb > 1; }
static int abs_pref(const dplayer *p) { return p->imb > 1 || p->rep != PAIR_NOCOLOR; }

static int prefs_compatible(int a, int b)
{
	return a != b || a == PAIR_NOCOLOR || b == PAIR_NOCOLOR;
}

static int have_met(const dutch_work *w, const dplayer *a, const dplayer *b)
{
	const pair_player *pl = &w->ev->p[a->id];
	for (int r = 0; r < pl->nrounds; r++)
		if (pl->rounds[r].opp == b->id && pair__played(&pl->rounds[r]))
			return 1;
	return 0;
}

/* Whether a and b may meet (C.2, the bye, is c2_bye_ok).
 * C.1 "Two players shall not play against each other more than once";
 * C.3 "non-topscorers with the same absolute colour preference shall not meet" */
static int c1_c3_compatible(const dutch_work *w, const dplayer *a, const dplayer *b)
{
	if (have_met(w, a, b))
		return 0;
	if (!abs_pref(a) || !abs_pref(b) || a->pref != b->pref)
		return 1;
	/* The last round: topscorers (more than half the maximum score) may
	 * be paired against an absolute preference (C.04.3 A.7, C3). */
	int top = w->played * 10 / 2;
	return w->total > 0 && w->played >= w->total - 1
		&& (a->score > top || b->score > top);
}

/* 2025 1.4.3 "A downfloat is also given to any player who receives a pairing-allocated bye (see Article 1.5) or who, without playing in a round, scores more points than those rewarded for a loss." */
static int a1_4_3_unplayed_float(const pair_game *g)
{
	return pair_result_halves(g->result) > 0 ? FLOAT_DOWN : FLOAT_NONE;
}

/* The float of p in the round `back` rounds before this one (C.04.3 A.4):
 * a game not played (a bye, a forfeit, an absence) counts as a downfloat. */
static int float_of(const dutch_work *w, const pair_player *pl, int back)
{
	int r = w->played - back;
	const pair_game *g = game_at(pl, r);
	if (!pair__played(g))
		return w->rules == PAIR_DUTCH_2025 ? a1_4_3_unplayed_float(g) : FLOAT_DOWN;
	const pair_player *op = &w->ev->p[g->opp];
	int mine = score_tenths(pl, w->played), theirs = score_tenths(op, w->played);
	for (int k = r; k < w->played; k++) {
		mine -= pair_result_halves(game_at(pl, k)->result) * 5;
		theirs -= pair_result_halves(game_at(op, k)->result) * 5;
	}
	return mine > theirs ? FLOAT_DOWN : mine < theirs ? FLOAT_UP : FLOAT_NONE;
}

static void colour_data(dplayer *d, const pair_player *pl, int played)
{
	int white = 0, black = 0, run = 0, last = PAIR_NOCOLOR;
	for (int r = 0; r < played; r++) {
		const pair_game *g = game_at(pl, r);
		if (!pair__played(g))
			continue;
		if (g->color == PAIR_WHITE)
			white++;
		else
			black++;
		run = run && g->color == last ? run + 1 : 1;
		last = g->color;
	}
	int lower = white > black ? PAIR_BLACK : PAIR_WHITE;
	d->imb = white > black ? white - black : black - white;
	d->pref = d->imb > 1 ? lower
		: run > 1 ? invert(last)
		: d->imb > 0 ? lower
		: run ? invert(last)
		: PAIR_NOCOLOR;
	d->rep = run > 1 ? last : PAIR_NOCOLOR;
	d->strong = !abs_pref(d) && d->imb;
}

/* The colours of the two players in the latest round both played in which
 * they differed (C.04.3 E.3), NOCOLOR when there is none. */
static void first_difference(const dutch_work *w, const dplayer *a, const dplayer *b, int *ca, int *cb)
{
	const pair_player *pa = &w->ev->p[a->id], *pb = &w->ev->p[b->id];
	int i = pa->nrounds - 1, j = pb->nrounds - 1;
	for (;;) {
		while (i >= 0 && !pair__played(&pa->rounds[i]))
			i--;
		while (j >= 0 && !pair__played(&pb->rounds[j]))
			j--;
		if (i < 0 || j < 0 || pa->rounds[i].color != pb->rounds[j].color)
			break;
		i--;
		j--;
	}
	*ca = i >= 0 ? pa->rounds[i].color : PAIR_NOCOLOR;
	*cb = j >= 0 ? pb->rounds[j].color : PAIR_NOCOLOR;
}

/* b ranks above a (score, then pairing number) */
static int ranks_below(const dplayer *a, const dplayer *b)
{
	return a->score != b->score ? a->score < b->score : a->rank > b->rank;
}

/* The colour a gets against b (C.04.3 E.1-E.5). */
static int colour_for(const dutch_work *w, const dplayer *a, const dplayer *b)
{
	int c = PAIR_NOCOLOR;
	if (prefs_compatible(a->pref, b->pref)) {
		c = a->pref != PAIR_NOCOLOR ? a->pref : invert(b->pref);
	} else if (abs_pref(a) && (a->imb > b->imb || !abs_pref(b))) {
		c = a->pref;
	} else if (abs_pref(b) && (b->imb > a->imb || !abs_pref(a))) {
		c = invert(b->pref);
	} else if (a->strong && !b->strong) {
		c = a->pref;
	} else if (b->strong && !a->strong) {
		c = invert(b->pref);
	} else {
		int ca, cb;
		first_difference(w, a, b, &ca, &cb);
		if (ca != PAIR_NOCOLOR && cb != PAIR_NOCOLOR)
			c = cb;
	}
	if (c != PAIR_NOCOLOR)
		return c;
	/* Equal histories: the higher ranked player gets his preference, or
	 * with none, the colour of the first round's rule by his number. */
	const dplayer *hi = ranks_below(a, b) ? b : a;
	int hc;
	if (a->pref == PAIR_NOCOLOR)
		hc = hi->rank & 1 ? invert(w->first) : w->first;
	else
		hc = hi->pref;
	return hi == a ? hc : invert(hc);
}

static unsigned bits_of(unsigned long v)
{
	unsigned b = 0;
	while (v) {
		b++;
		v >>= 1;
	}
	return b;
}

static word *cell(dutch_work *w, word *mat, int i, int j)
{
	return mat + ((size_t)i * (size_t)w->m + (size_t)j) * (size_t)w->nw;
}

static void set_cur(dutch_work *w, int i, int j, const word *v)
{
	word *c = cell(w, w->cur, i, j);
	if (b_cmp(c, v, w->nw) == 0)
		return;
	b_copy(c, v, w->nw);
	b_copy(cell(w, w->cur, j, i), v, w->nw);
	w->changed[i] = 1;          /* i's dual covers the edge */
}

static void set_cur_zero(dutch_work *w, int i, int j)
{
	word *c = cell(w, w->cur, i, j);
	if (b_iszero(c, w->nw))
		return;
	b_zero(c, w->nw);
	b_zero(cell(w, w->cur, j, i), w->nw);
	w->changed[i] = 1;          /* i's dual covers the edge */
}

#define SP(i) (&w->sp[w->pb[i]])

typedef struct wparams {
	int special, final, sgb, nsgb;
	int mnext;                   /* the end of the next scoregroup in pb */
	unsigned pbits, nbits, sbits;
	int minscore;
} wparams;

/* A weight being built, its fields appended from the most important down:
 * each shift makes room for the next field. With on 0 only the width is
 * counted (bits). */
typedef struct wfield {
	word *r;
	int nw, on;
	unsigned bits;
} wfield;

static void f_shift(wfield *f, unsigned k)
{
	f->bits += k;
	if (f->on)
		b_shl(f->r, f->nw, k);
}

static void f_add(wfield *f, int64_t v)
{
	if (f->on)
		b_addsmall(f->r, f->nw, v);
}

/* adds v in the field of score difference diff (see bracket_weights) */
static void f_addsd(wfield *f, const dutch_work *w, int diff, int64_t v)
{
	if (f->on)
		b_addpow(f->r, f->nw, w->shift_of[diff], v);
}

/* A possible pair of the bracket: h ranks above l; each is a resident of
 * the bracket (in) or of the group below it. */
typedef struct edge {
	const dplayer *h, *l;
	int hin, lin;
} edge;

/* The SD of a downfloater: its score against one point less than the
 * bracket's lowest (A.8), as an index of bracket_weights' fields. */
static int float_sd(const wparams *P, const dplayer *p)
{
	return p->score - P->minscore + 10;
}

/* A pair of who may not get the bye weighs more.
 * C.4 "choose the set of downfloaters in order to complete the round-pairing" */
static void c4_completion(wfield *f, const edge *e)
{
	f_add(f, 1 + !e->h->bye_ok + !e->l->bye_ok);
}

/* C.5 "maximize the number of pairs" */
static void c5_pairs(wfield *f, const wparams *P, const edge *e)
{
	f_shift(f, P->pbits);
	f_add(f, e->lin);
}

/* A pair removes the SDs of two downfloaters and adds its own.
 * C.6 "minimize the PSD" */
static void c6_psd(wfield *f, const dutch_work *w, const wparams *P, const edge *e)
{
	f_shift(f, P->sbits);
	if (!e->lin)
		return;
	f_addsd(f, w, float_sd(P, e->h), 1);
	f_addsd(f, w, float_sd(P, e->l), 1);
	f_addsd(f, w, e->h->score - e->l->score, -1);
}

/* With the last bracket next, its completion and the bye weigh here (C.4).
 * C.7 "... maximize the number of pairs and then ... minimize the PSD in the following bracket" */
static void c7_next_bracket(wfield *f, const dutch_work *w, const wparams *P, const edge *e)
{
	if (P->final) {
		f_shift(f, P->pbits > P->nbits ? P->pbits : P->nbits);
		f_shift(f, 3);
		c4_completion(f, e);
	} else {
		f_shift(f, P->nbits);
		f_add(f, !e->lin);
	}
	f_shift(f, P->sbits);
	if (e->hin)
		f_addsd(f, w, float_sd(P, e->h), 1);
	if (e->lin)
		f_addsd(f, w, float_sd(P, e->l), 1);
}

/* C.8 "minimize the number of topscorers ... who get a colour difference higher than +2 ..." */
static void c8_colour_difference(wfield *f, const wparams *P, const edge *e)
{
	const dplayer *h = e->h, *l = e->l;
	f_shift(f, P->pbits);
	f_add(f, e->lin && (!abs_imb(l) || !abs_imb(h) || l->pref != h->pref));
}

/* C.9 "minimize the number of topscorers ... who get the same colour three times in a row" */
static void c9_three_in_a_row(wfield *f, const wparams *P, const edge *e)
{
	const dplayer *h = e->h, *l = e->l;
	f_shift(f, P->pbits);
	f_add(f, e->lin && (!abs_pref(l) || !abs_pref(h) || l->pref != h->pref
		|| (l->imb == h->imb
			? l->rep == PAIR_NOCOLOR || l->rep != h->rep
			: (l->imb > h->imb ? h : l)->rep != invert(l->pref))));
}

/* C.10 "minimize the number of players who do not get their colour preference" */
static void c10_colour_preference(wfield *f, const wparams *P, const edge *e)
{
	f_shift(f, P->pbits);
	f_add(f, e->lin && prefs_compatible(e->l->pref, e->h->pref));
}

/* C.11 "minimize the number of players who do not get their strong colour preference" */
static void c11_strong_preference(wfield *f, const wparams *P, const edge *e)
{
	const dplayer *h = e->h, *l = e->l;
	f_shift(f, P->pbits);
	f_add(f, e->lin && ((!l->strong && !abs_pref(l)) || (!h->strong && !abs_pref(h))
		|| (abs_pref(l) && abs_pref(h)) || l->pref != h->pref));
}

/* back 1: C.12; back 2: C.14 "... as two rounds before"
 * C.12 "minimize the number of players who receive the same downfloat as the previous round" */
static void c12_c14_same_downfloat(wfield *f, const wparams *P, const edge *e, int back)
{
	f_shift(f, P->pbits);
	if (e->lin) {
		f_add(f, e->l->fl[back] == FLOAT_DOWN);
		f_add(f, e->h->score <= e->l->score && e->h->fl[back] == FLOAT_DOWN);
	}
}

/* back 1: C.13; back 2: C.15 "... as two rounds before"
 * C.13 "minimize the number of players who receive the same upfloat as the previous round" */
static void c13_c15_same_upfloat(wfield *f, const wparams *P, const edge *e, int back)
{
	f_shift(f, P->pbits);
	f_add(f, -(int64_t)(e->lin && e->h->score > e->l->score && e->l->fl[back] == FLOAT_UP));
}

/* back 1: C.16; back 2: C.18 "... as two rounds before"
 * C.16 "minimize the score differences of players who receive the same downfloat as the previous round" */
static void c16_c18_downfloat_sd(wfield *f, const dutch_work *w, const wparams *P, const edge *e, int back)
{
	const dplayer *h = e->h, *l = e->l;
	f_shift(f, P->sbits);
	if (!e->lin)
		return;
	if (l->fl[back] == FLOAT_DOWN)
		f_addsd(f, w, float_sd(P, l), 1);
	if (h->fl[back] == FLOAT_DOWN) {
		f_addsd(f, w, float_sd(P, h), 1);
		if (h->score > l->score)
			f_addsd(f, w, h->score - l->score, -1);
	}
}

/* back 1: C.17; back 2: C.19 "... as two rounds before"
 * C.17 "minimize the score differences of players who receive the same upfloat as the previous round" */
static void c17_c19_upfloat_sd(wfield *f, const dutch_work *w, const wparams *P, const edge *e, int back)
{
	f_shift(f, P->sbits);
	if (e->lin && e->l->fl[back] == FLOAT_UP && e->h->score > e->l->score)
		f_addsd(f, w, e->h->score - e->l->score, -1);
}

/* The weight of the pair (hi, lo), hi < lo in the bracket's order: the
 * quality criteria C.4-C.19 as fields, the first the highest, 0 for a pair
 * the absolute criteria forbid. With out == NULL returns the number of
 * bits the weights need. */
static unsigned edge_weight(dutch_work *w, const wparams *P, int hi, int lo, word *out)
{
	word dummy[NWMAX];
	wfield f = { out ? out : dummy, w->nw, out != NULL, 0 };
	edge e = { SP(hi), SP(lo), hi < P->nsgb, lo < P->nsgb };

	b_zero(f.r, f.nw);
	if (f.on && !c1_c3_compatible(w, e.h, e.l))
		return 0;
	if (P->special)
		c4_completion(&f, &e);
	c5_pairs(&f, P, &e);
	c6_psd(&f, w, P, &e);
	if (!P->special)
		c7_next_bracket(&f, w, P, &e);
	c8_colour_difference(&f, P, &e);
	c9_three_in_a_row(&f, P, &e);
	c10_colour_preference(&f, P, &e);
	c11_strong_preference(&f, P, &e);
	for (int back = 1; back <= 2 && w->played >= back; back++) {
		c12_c14_same_downfloat(&f, P, &e, back);
		c13_c15_same_upfloat(&f, P, &e, back);
	}
	for (int back = 1; back <= 2 && w->played >= back; back++) {
		c16_c18_downfloat_sd(&f, w, P, &e, back);
		c17_c19_upfloat_sd(&f, w, P, &e, back);
	}
	/* Room for the order of transpositions and exchanges (D.1, D.2). */
	f_shift(&f, 3 * P->pbits + 1);
	return f.bits;
}

/* The words of weights of `bits` bits (w->nw), and a forced pair's
 * weight: every bit below `ones` set (w->maxw). 0, or -1 past NWMAX. */
static int size_weights(dutch_work *w, unsigned bits, unsigned ones)
{
	int nw = (int)(bits / 64) + 1;

	if (nw > NWMAX)
		return -1;
	w->nw = nw;
	b_zero(w->maxw, nw);
	w->maxw[0] = 1;
	b_shl(w->maxw, nw, ones);
	b_addsmall(w->maxw, nw, -1);
	return 0;
}

/* Sets the weights of the bracket (pb[0..nsgb-1]) and the group below it. */
static int bracket_weights(dutch_work *w, wparams *P)
{
	int nd = 0;
	P->minscore = SP(w->m - 1)->score;
	int cap = (int)(sizeof w->diffs / sizeof w->diffs[0]);
	for (int p = 0; p < P->nsgb; p++) {
		if (nd + P->nsgb + 1 > cap)
			return PAIR_ERANGE;
		w->diffs[nd++] = SP(p)->score - P->minscore + 10;
		int first = P->sgb > p + 1 ? P->sgb : p + 1;
		for (int o = first; o < P->nsgb; o++)
			if (o == first || SP(o)->score < SP(o - 1)->score)
				w->diffs[nd++] = SP(p)->score - SP(o)->score;
	}
	/* counting sort of the differences, then a field for each value wide
	 * enough for all its occurrences, the larger differences higher */
	unsigned nvals = sizeof w->shift_of / sizeof w->shift_of[0];
	int count[sizeof w->shift_of / sizeof w->shift_of[0]];
	memset(count, 0, sizeof count);
	for (int i = 0; i < nd; i++) {
		if (w->diffs[i] < 0 || (unsigned)w->diffs[i] >= nvals)
			return PAIR_ERANGE;
		count[w->diffs[i]]++;
	}
	unsigned s = 0;
	for (unsigned v = 0; v < nvals; v++) {
		w->shift_of[v] = s;
		if (count[v])
			s += bits_of((unsigned long)count[v]);
	}
	P->sbits = s;
	P->pbits = bits_of((unsigned long)(P->nsgb - P->sgb));
	P->nbits = bits_of((unsigned long)(w->m - P->nsgb));
	/* the largest weight: the top field, then every field, then two bits
	 * for the matching's doubled weights */
	w->nw = 1;
	unsigned bits = edge_weight(w, P, 0, 0, NULL) + 2 + 16;
	if (size_weights(w, bits, P->special ? bits - 16 : bits - 16 - 2 - P->pbits + 1) < 0)
		return PAIR_ERANGE;
	int nw = w->nw;
	for (int i = 0; i < w->m; i++)
		for (int j = 0; j < w->m; j++) {
			word *c = cell(w, w->base, i, j);
			if (i == j || (i < P->sgb && j < P->sgb))
				b_zero(c, nw);
			else if (i < j)
				edge_weight(w, P, i, j, c);
			else
				b_copy(c, cell(w, w->base, j, i), nw);
		}
	memcpy(w->cur, w->base, (size_t)w->m * (size_t)w->m * (size_t)nw * sizeof(word));
	w->warm = 0;
	return 0;
}

/* A maximum-weight matching of cur into sm: the bracket's first from
 * scratch, the next from the last one, only the changed players' edges
 * looked at again. */
static void solve(dutch_work *w)
{
	if (w->warm)
		pair__match_again(&w->bl, w->changed, w->sm);
	else
		pair__match(&w->bl, w->cur, w->m, w->m, w->nw, w->sm);
	w->warm = 1;
	memset(w->changed, 0, (size_t)w->m);
}

/* Whether the round can still be completed (A.9): a perfect matching of
 * vW, from the last one after the first. */
static int valid_complete(dutch_work *w)
{
	if (w->vwarm)
		pair__match_again(&w->vbl, w->vchanged, w->vmate);
	else
		pair__match(&w->vbl, w->vW, w->vdim, w->vdim, 1, w->vmate);
	w->vwarm = 1;
	memset(w->vchanged, 0, (size_t)w->vdim);
	for (int i = 0; i < w->vdim; i++)
		if (w->vmate[i] == i)
			return 0;
	return 1;
}

/* Forces the pair (a, b): its edge gets weight v, every other edge of a
 * and b none. */
static void finalize(dutch_work *w, int a, int b)
{
	for (int u = 0; u < w->m; u++) {
		if (u != a) {
			if (u == b)
				set_cur(w, a, u, w->maxw);
			else
				set_cur_zero(w, a, u);
		}
		if (u != b) {
			if (u == a)
				set_cur(w, b, u, w->maxw);
			else
				set_cur_zero(w, b, u);
		}
	}
}

static void vfinalize(dutch_work *w, int a, int b)
{
	w->vchanged[a] = w->vchanged[b] = 1;
	for (int u = 0; u < w->vdim; u++) {
		if (u != a)
			w->vW[a * w->vdim + u] = w->vW[u * w->vdim + a] = u == b;
		if (u != b)
			w->vW[b * w->vdim + u] = w->vW[u * w->vdim + b] = u == a;
	}
}

/* base weight of (i, j) plus the exchange fields: whether i is in the
 * remainder's first half (its S1), and the order of i in the remainder */
static void xweight(dutch_work *w, const wparams *P, int i, int j, int iri, int rp, word *out)
{
	b_copy(out, cell(w, w->base, i, j), w->nw);
	if (b_iszero(out, w->nw))
		return;
	int64_t add = ((int64_t)(iri < rp) << (2 * P->pbits)) - iri;
	b_addsmall(out, w->nw, add * 2);
}

/* The remainder of a bracket (B.7): its players rem[0..n-1] in order, S1
 * the first rp of them, and the exchanges between S1 and S2 its best
 * pairing needs. */
typedef struct remainder {
	int n, rp, exchanges;
} remainder;

/* x, a match of the last solve, is a resident of the bracket */
static int resident(const wparams *P, int x)
{
	return x >= P->sgb && x < P->nsgb;
}

/* The remainder's player p is paired downwards in the bracket: he is in S1. */
static int pairs_down(const dutch_work *w, const wparams *P, int p)
{
	return w->sm[p] > p && w->sm[p] < P->nsgb;
}

/* Makes the pair (p, o) worth add more than its base weight, if allowed. */
static void bump(dutch_work *w, int p, int o, int64_t add)
{
	word t[NWMAX];
	b_copy(t, cell(w, w->base, o, p), w->nw);
	if (!b_iszero(t, w->nw)) {
		b_addsmall(t, w->nw, add);
		set_cur(w, p, o, t);
	}
}

/* The same with the exchange fields of the remainder (xweight). */
static void xbump(dutch_work *w, const wparams *P, const remainder *R, int it, int oi, int64_t add)
{
	word t[NWMAX];
	xweight(w, P, w->rem[it], w->rem[oi], it, R->rp, t);
	if (!b_iszero(t, w->nw)) {
		b_addsmall(t, w->nw, add);
		set_cur(w, w->rem[it], w->rem[oi], t);
	}
}

/* Fixes the pair (p, its match) in both matchings. */
static void fix_pair(dutch_work *w, int p)
{
	int mi = w->sm[p];
	w->matched[p] = w->matched[mi] = 1;
	finalize(w, p, mi);
	if (w->rules == PAIR_DUTCH_2017)
		vfinalize(w, w->pb[p], w->pb[mi]);
}

/* Which MDPs are paired (S1), the others staying in the Limbo (B.2): as
 * many as can be, the higher scores and then the higher numbers first.
 * D.3 "the highest different score ... the lowest lexicographic value of the BSN(s)" */
static void d3_mdps_in_s1(dutch_work *w, const wparams *P)
{
	int sgb = P->sgb, nsgb = P->nsgb;
	int mds = 0, left = 0, left_matched = 0;
	for (int p = 0; p < sgb; p++) {
		if (p == 0 || SP(p)->score < mds) {
			mds = SP(p)->score;
			left = left_matched = 0;
			for (int q = p; q < w->m && SP(q)->score >= mds; q++) {
				left++;
				if (resident(P, w->sm[q]))
					left_matched++;
			}
		}
		if (!left_matched)
			continue;
		if (left <= left_matched) {
			w->matched[p] = 1;
			continue;
		}
		left--;
		if (!resident(P, w->sm[p])) {
			for (int o = sgb; o < nsgb; o++)
				bump(w, p, o, 1);
			solve(w);
		}
		if (resident(P, w->sm[p])) {
			w->matched[p] = 1;
			left_matched--;
			for (int o = sgb; o < nsgb; o++)
				bump(w, p, o, (nsgb - sgb) + 1);
		}
	}
}

/* Each MDP of S1 in order gets the highest resident that keeps the
 * bracket's best pairing.
 * D.1 "transpositions are sorted depending on the lexicographic value of their first N1 BSN(s)" */
static void d1_mdp_pairing(dutch_work *w, const wparams *P)
{
	for (int p = 0; p < P->sgb; p++) {
		if (!w->matched[p])
			continue;
		int64_t add = P->mnext;
		for (int o = P->nsgb - 1; o >= P->sgb; o--)
			if (!w->matched[o] && !b_iszero(cell(w, w->base, o, p), w->nw))
				bump(w, p, o, add++);
		solve(w);
		fix_pair(w, p);
	}
}

/* The residents not paired to an MDP, S1 those its best pairing pairs
 * downwards, weighed with the exchange fields (D.2 a, b: xweight).
 * B.7 "Operate on the remainder with the same rules used for homogeneous brackets" */
static void b7_remainder(dutch_work *w, const wparams *P, remainder *R)
{
	word t[NWMAX];
	R->n = R->rp = 0;
	for (int p = P->sgb; p < P->nsgb; p++) {
		if (w->sm[p] < P->sgb)
			continue;
		w->rem[R->n++] = p;
		if (w->sm[p] < p)
			R->rp++;
	}
	for (int oi = 0; oi < R->n; oi++)
		for (int pi = 0; pi < oi; pi++) {
			xweight(w, P, w->rem[pi], w->rem[oi], pi, R->rp, t);
			set_cur(w, w->rem[pi], w->rem[oi], t);
		}
	solve(w);
	R->exchanges = 0;
	for (int i = 0; i < R->rp && i < R->n; i++)
		R->exchanges += !pairs_down(w, P, w->rem[i]);
}

/* From the lowest of S1 up, who may go to S2 does.
 * D.2 c "the highest different BSN among those moved from the original S1 to S2" */
static void d2c_s1_to_s2(dutch_work *w, const wparams *P, const remainder *R)
{
	int xleft = R->exchanges;
	for (int it = R->rp; it > 0 && xleft;) {
		int from = it;
		it--;
		int p = w->rem[it];
		if (pairs_down(w, P, p)) {
			for (int oi = from; oi < R->n; oi++)
				xbump(w, P, R, it, oi, -1);
			solve(w);
		}
		int ex = !pairs_down(w, P, p);
		xleft -= ex;
		for (int oi = it + 1; oi < R->n; oi++) {
			int o = w->rem[oi];
			word t[NWMAX];
			if (ex) {
				b_zero(cell(w, w->base, o, p), w->nw);
				b_zero(cell(w, w->base, p, o), w->nw);
			}
			xweight(w, P, p, o, it, R->rp, t);
			set_cur(w, p, o, t);
		}
	}
}

/* Forbids the pairs of p with the players above it in the remainder and
 * with the group below the bracket: p has moved from S2 to S1. */
static void moved_to_s1(dutch_work *w, const wparams *P, int it)
{
	int p = w->rem[it];
	for (int oi = 0; oi < it; oi++) {
		int o = w->rem[oi];
		b_zero(cell(w, w->base, p, o), w->nw);
		b_zero(cell(w, w->base, o, p), w->nw);
		set_cur_zero(w, p, o);
	}
	for (int o = P->nsgb; o < P->mnext; o++) {
		b_zero(cell(w, w->base, p, o), w->nw);
		b_zero(cell(w, w->base, o, p), w->nw);
		set_cur_zero(w, p, o);
	}
}

/* From the top of S2 down, who may come to S1 does.
 * D.2 d "the lowest different BSN among those moved from the original S2 to S1" */
static void d2d_s2_to_s1(dutch_work *w, const wparams *P, const remainder *R)
{
	int xleft = R->exchanges;
	for (int it = R->rp; it < R->n && xleft > 1; it++) {
		int p = w->rem[it];
		int already = pairs_down(w, P, p);
		if (!already) {
			for (int oi = it + 1; oi < R->n; oi++)
				xbump(w, P, R, it, oi, 1);
			solve(w);
		}
		if (pairs_down(w, P, p)) {
			xleft--;
			moved_to_s1(w, P, it);
		}
		if (!already)
			for (int oi = it + 1; oi < R->n; oi++) {
				word t[NWMAX];
				xweight(w, P, p, w->rem[oi], it, R->rp, t);
				set_cur(w, p, w->rem[oi], t);
			}
	}
}

/* The exchanges settled, S1 players pair only downwards, S2 players only
 * upwards.
 * B.2 "each bracket will be usually divided into two subgroups, called S1 and S2" */
static void b2_s1_s2_settled(dutch_work *w, const wparams *P, const remainder *R)
{
	for (int it = 0; it < R->n; it++) {
		int p = w->rem[it];
		for (int oi = it + 1; oi < R->n; oi++) {
			int o = w->rem[oi];
			if (!pairs_down(w, P, p) || pairs_down(w, P, o)) {
				b_zero(cell(w, w->base, o, p), w->nw);
				b_zero(cell(w, w->base, p, o), w->nw);
			}
			set_cur(w, p, o, cell(w, w->base, o, p));
		}
	}
}

/* Each S1 player in order gets the highest S2 player that keeps the
 * bracket's best pairing.
 * D.1 "transpositions are sorted depending on the lexicographic value of their first N1 BSN(s)" */
static void d1_transpositions(dutch_work *w, const wparams *P, const remainder *R)
{
	for (int it = 0; it < R->n; it++) {
		int p = w->rem[it];
		if (!pairs_down(w, P, p))
			continue;
		int64_t add = 0;
		for (int oi = R->n - 1; oi >= 0; oi--) {
			int o = w->rem[oi];
			if (o <= p || w->matched[o])
				continue;
			bump(w, p, o, add);
			add++;
		}
		solve(w);
		fix_pair(w, p);
	}
}

/* Pairs one bracket (B.3-B.8): the candidates are not tried one by one;
 * the matching finds the best by the criteria, then the order of B.6 and
 * B.7 picks among the equally good: the MDPs first, then the remainder's S1
 * against S2 with the fewest and smallest exchanges, highest first. */
static void pair_bracket(dutch_work *w, const wparams *P)
{
	remainder R;
	memset(w->matched, 0, (size_t)w->m);
	solve(w);
	d3_mdps_in_s1(w, P);
	d1_mdp_pairing(w, P);
	b7_remainder(w, P, &R);
	d2c_s1_to_s2(w, P, &R);
	d2d_s2_to_s1(w, P, &R);
	b2_s1_s2_settled(w, P, &R);
	d1_transpositions(w, P, &R);
}

static int cmp_dplayer(const dplayer *a, const dplayer *b)
{
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The colour starting rank 1 would have had in round 1: stated, else from
 * the first round with a colour, else white (as pairing programs infer it). */
static int first_colour(const pair_event *ev, const int *rank)
{
	if (ev->first_color == PAIR_WHITE || ev->first_color == PAIR_BLACK)
		return ev->first_color;
	for (int r = 0; r < PAIR_MAX_ROUNDS; r++) {
		int any = 0;
		for (int i = 0; i < ev->nplayers; i++)
			if (ev->p[i].nrounds > r && ev->p[i].rounds[r].color != PAIR_NOCOLOR)
				any = 1;
		if (!any)
			continue;
		for (int i = 0; i < ev->nplayers; i++) {
			if (rank[i] < 0)
				continue;
			const pair_game *g = game_at(&ev->p[i], r);
			if (g->color != PAIR_NOCOLOR)
				return rank[i] & 1 ? invert(g->color) : g->color;
		}
	}
	return PAIR_WHITE;
}

/* C.2 "A player who has already received a pairing-allocated bye, or ... a (forfeit) win ..." */
static int c2_bye_ok(const pair_player *pl)
{
	for (int r = 0; r < pl->nrounds; r++) {
		const pair_game *g = &pl->rounds[r];
		if (!pair__played(g) && pair__took_part(g) && pair_result_halves(g->result) == 2)
			return 0;
	}
	return 1;
}

/* 2025 C.2 (with C.04.2): no second PAB, and none to a player who scored without playing more than a loss (a forfeit win, a full-point bye) */
static int c2_bye_ok_2025(const pair_player *pl)
{
	for (int r = 0; r < pl->nrounds; r++) {
		const pair_game *g = &pl->rounds[r];
		if (!pair__played(g) && (pair_result_halves(g->result) == 2 || g->result == 'U'))
			return 0;
	}
	return 1;
}

static int games_played(const pair_player *pl, int rounds)
{
	int n = 0;
	for (int r = 0; r < rounds && r < pl->nrounds; r++)
		n += pair__played(&pl->rounds[r]);
	return n;
}

/* The players to pair (those without an entry for the round already) in
 * sp[], with what the criteria need of their history.
 * A.2 "the players are ranked in order of, respectively a score b pairing numbers" */
static void a2_order(dutch_work *w, const pair_event *ev)
{
	int rank[PAIR_MAX_PLAYERS];
	int nr = 0;
	for (int i = 0; i < ev->nplayers; i++) {
		const pair_player *pl = &ev->p[i];
		int valid = pl->nrounds <= w->played;
		for (int r = 0; r < pl->nrounds; r++)
			valid |= pair__took_part(&pl->rounds[r]);
		rank[i] = valid ? nr++ : -1;
	}
	w->first = first_colour(ev, rank);
	w->ns = 0;
	for (int i = 0; i < ev->nplayers; i++) {
		const pair_player *pl = &ev->p[i];
		if (pl->nrounds > w->played)
			continue;
		dplayer *d = &w->sp[w->ns++];
		memset(d, 0, sizeof *d);
		d->id = i;
		d->rank = rank[i];
		d->score = score_tenths(pl, w->played);
		colour_data(d, pl, w->played);
		d->bye_ok = w->rules == PAIR_DUTCH_2025 ? c2_bye_ok_2025(pl) : c2_bye_ok(pl);
		d->games = games_played(pl, w->played);
		d->fl[1] = w->played >= 1 ? float_of(w, pl, 1) : FLOAT_NONE;
		d->fl[2] = w->played >= 2 ? float_of(w, pl, 2) : FLOAT_NONE;
	}
	/* insertion sort: stable and small */
	for (int i = 1; i < w->ns; i++) {
		dplayer d = w->sp[i];
		int j = i;
		while (j > 0 && cmp_dplayer(&d, &w->sp[j - 1]) < 0) {
			w->sp[j] = w->sp[j - 1];
			j--;
		}
		w->sp[j] = d;
	}
}

/* The graph of the pairs C.1-C.3 allow, with a vertex for the bye when the
 * field is odd.
 * A.9 "The pairing of a round is complete if all the players (except at most one ...)" */
static void a9_completion_graph(dutch_work *w)
{
	int ns = w->ns;
	w->vdim = ns + (ns & 1);
	w->vwarm = 0;
	for (int a = 0; a < w->vdim; a++)
		for (int b = 0; b < w->vdim; b++) {
			word v = 0;
			if (a != b) {
				if (a < ns && b < ns)
					v = (word)c1_c3_compatible(w, &w->sp[a], &w->sp[b]);
				else if (a < ns)
					v = (word)w->sp[a].bye_ok;
				else if (b < ns)
					v = (word)w->sp[b].bye_ok;
			}
			w->vW[a * w->vdim + b] = v;
		}
}

/* After a bracket: its pairs are recorded in mate[], its downfloaters
 * (its unpaired players) join the next score group. Returns how many
 * downfloaters there are. */
static int keep_downfloaters(dutch_work *w, const wparams *P)
{
	int nm = 0, sgb = 0;
	for (int p = 0; p < P->nsgb; p++)
		if (w->matched[p]) {
			w->mate[w->pb[p]] = w->pb[w->sm[p]];
			w->mate[w->pb[w->sm[p]]] = w->pb[p];
		}
	for (int p = 0; p < w->m; p++) {
		if (!(p < P->nsgb && w->matched[p])) {
			w->pb[nm++] = w->pb[p];
			if (p < P->nsgb)
				sgb++;
		}
	}
	w->m = nm;
	return sgb;
}

/* Each bracket weighed with the score group below it; a bracket after
 * which the round cannot be completed is the PPB, paired again with all
 * the players below it as the CLB.
 * A.9 "the pairing process starts with the top scoregroup, and continues bracket by bracket" */
static int a9_pair_brackets(dutch_work *w, char *err, size_t errlen)
{
	int ns = w->ns, next = 0, sgb = 0;
	w->m = 0;
	while (next < ns && w->sp[next].score >= w->sp[0].score)
		w->pb[w->m++] = next++;
	int special = next == ns;
	for (int guard = 0; w->m > 1 || next < ns; guard++) {
		if (guard > 4 * ns + 8) {
			pair__set_err(err, errlen, "the brackets did not converge");
			return PAIR_ENOPAIRING;
		}
		wparams P = { 0 };
		P.nsgb = w->m;
		P.sgb = sgb;
		int sgi = next;
		while (next < ns && (special || w->sp[next].score >= w->sp[sgi].score))
			w->pb[w->m++] = next++;
		P.mnext = w->m;
		P.special = special;
		P.final = next == ns;
		int rc = bracket_weights(w, &P);
		if (rc) {
			pair__set_err(err, errlen, "a bracket needs weights wider than %d bits", NWMAX * 64);
			return rc;
		}
		pair_bracket(w, &P);
		if (!special && !valid_complete(w)) {
			w->m = P.nsgb;
			next = sgi;
			special = 1;
			continue;
		}
		special = next == ns;
		sgb = keep_downfloaters(w, &P);
	}
	return 0;
}

/* ---- The 2025 rules --------------------------------------------------
 * One layout of the weights serves the whole round, and the matching is
 * over every player still to pair: a pair outside the bracket and the
 * scoregroup below it weighs only what completes the round (C.4, C.5,
 * C.9), so that no bracket is paired in a way the round cannot follow,
 * without the 2017 text's PPB and CLB (A.9). */

/* adds v in the field of the scoregroup of score (see round_layout) */
static void f_addsg(wfield *f, const dutch_work *w, int score, int64_t v)
{
	if (f->on)
		b_addpow(f->r, f->nw, w->sg_shift[score], v);
}

/* A field per scoregroup, the lowest score lowest, each as wide as its
 * size needs; and the width of the largest scoregroup. */
static void round_layout(dutch_work *w)
{
	unsigned shift = 0, biggest = 0;
	for (int i = w->ns - 1; i >= 0;) {
		int j = i;
		while (j >= 0 && w->sp[j].score == w->sp[i].score)
			j--;
		unsigned size = (unsigned)(i - j);
		w->sg_shift[w->sp[i].score] = shift;
		shift += bits_of(size);
		if (size > biggest)
			biggest = size;
		i = j;
	}
	w->sg_width = shift;
	w->sg_bits = bits_of(biggest);
}

/* A player the PAB may go to: eligible (C.2), with the lowest score it
 * can have (C.5: bye_score, once known). */
static int pab_candidate(const dutch_work *w, const dplayer *p)
{
	return p->bye_ok && p->score <= w->bye_score;
}

/* A pair that keeps two players from the PAB weighs more.
 * C.4 "choose the set of downfloaters in order to complete the round-pairing"; C.5 "minimise the score of the PAB assignee" */
static void c4_c5_completion(wfield *f, const dutch_work *w, const edge *e)
{
	f_add(f, 1 + !pab_candidate(w, e->h) + !pab_candidate(w, e->l));
}

/* The pairs of the bracket, each worth its higher player's scoregroup.
 * C.7 "minimise the scores of the downfloaters" */
static void c7_downfloater_scores(wfield *f, const dutch_work *w, const edge *e)
{
	f_shift(f, w->sg_width);
	if (e->lin)
		f_addsg(f, w, e->h->score, 1);
}

/* The pairs the scoregroup below can make with the downfloaters.
 * C.8 "choose the set of downfloaters in order to maximise the number of pairs and minimise the scores of the downfloaters in the following bracket" */
static void c8_next_bracket(wfield *f, const dutch_work *w, const edge *e, int lnext)
{
	f_shift(f, w->sg_bits);
	f_add(f, lnext);
	f_shift(f, w->sg_width);
	if (lnext)
		f_addsg(f, w, e->h->score, 1);
}

/* Each player at the PAB's score who stays paired, by his rank in games
 * played (fewest ranked last): the PAB goes to who played most.
 * C.9 "minimise the number of unplayed games of the PAB assignee" */
static void c9_pab_unplayed_games(wfield *f, const dutch_work *w, const edge *e, int single)
{
	f_shift(f, 2 * w->sg_bits);
	if (!single)
		return;
	if (e->h->score == w->bye_score)
		f_add(f, w->urank[e->h->games]);
	if (e->l->score == w->bye_score)
		f_add(f, w->urank[e->l->games]);
}

/* Counted up from the pairs that are no repeated upfloat, as the field
 * of the other criteria (2017: C.13, C.15, counted down).
 * back 1: C.15; back 2: C.17 "... as two rounds before"
 * C.15 "minimise the number of players who receive the same upfloat as the previous round" */
static void c15_c17_same_upfloat(wfield *f, const wparams *P, const edge *e, int back)
{
	f_shift(f, P->pbits);
	f_add(f, e->lin && !(e->h->score > e->l->score && e->l->fl[back] == FLOAT_UP));
}

/* back 1: C.18; back 2: C.20 "... as two rounds before"
 * C.18 "minimise the scores of the players who receive the same downfloat as the previous round" */
static void c18_c20_downfloat_scores(wfield *f, const dutch_work *w, const edge *e, int back)
{
	f_shift(f, w->sg_width);
	if (!e->lin)
		return;
	if (e->l->fl[back] == FLOAT_DOWN)
		f_addsg(f, w, e->l->score, 1);
	if (e->h->fl[back] == FLOAT_DOWN)
		f_addsg(f, w, e->h->score, 1);
}

/* back 1: C.19; back 2: C.21 "... as two rounds before"
 * C.19 "minimise the scores of the opponents of the players who receive the same upfloat as the previous round" */
static void c19_c21_upfloat_scores(wfield *f, const dutch_work *w, const edge *e, int back)
{
	f_shift(f, w->sg_width);
	if (e->lin && !(e->l->fl[back] == FLOAT_UP && e->h->score > e->l->score))
		f_addsg(f, w, e->h->score, 1);
}

/* The weight of the pair (h, l), h ranked higher, by the 2025 criteria:
 * lin, l is of the bracket; lnext, of the scoregroup below it; neither, a
 * pair outside them. C.10-C.14 and C.16 are the 2017 C.8-C.12 and C.14
 * renumbered. Returns
 * the bits the weights need (out NULL: counted only). */
static unsigned edge_weight_2025(dutch_work *w, const dplayer *h, const dplayer *l,
	int lin, int lnext, int single, word *out)
{
	word dummy[NWMAX];
	wfield f = { out ? out : dummy, w->nw, out != NULL, 0 };
	edge e = { h, l, 1, lin };
	wparams P = { 0 };
	P.pbits = w->sg_bits;

	b_zero(f.r, f.nw);
	if (f.on && !c1_c3_compatible(w, h, l))
		return 0;
	c4_c5_completion(&f, w, &e);
	c5_pairs(&f, &P, &e);                    /* C.6 "maximise the number of pairs" */
	c7_downfloater_scores(&f, w, &e);
	c8_next_bracket(&f, w, &e, lnext);
	c9_pab_unplayed_games(&f, w, &e, single);
	c8_colour_difference(&f, &P, &e);        /* C.10 */
	c9_three_in_a_row(&f, &P, &e);           /* C.11 */
	c10_colour_preference(&f, &P, &e);       /* C.12 */
	c11_strong_preference(&f, &P, &e);       /* C.13 */
	for (int back = 1; back <= 2 && w->played >= back; back++) {
		c12_c14_same_downfloat(&f, &P, &e, back); /* C.14, C.16 */
		c15_c17_same_upfloat(&f, &P, &e, back);
	}
	for (int back = 1; back <= 2 && w->played >= back; back++) {
		c18_c20_downfloat_scores(&f, w, &e, back);
		c19_c21_upfloat_scores(&f, w, &e, back);
	}
	/* Room for the order of transpositions and exchanges (as D.1, D.2). */
	f_shift(&f, 3 * w->sg_bits + 1);
	return f.bits;
}

/* The words of the round's weights, and a forced pair's weight. */
static int weights_2025(dutch_work *w)
{
	w->nw = 1;
	unsigned bits = edge_weight_2025(w, &w->sp[0], &w->sp[0], 1, 0, 0, NULL) + 2 + 16;
	return size_weights(w, bits, bits - 16) < 0 ? PAIR_ERANGE : 0;
}

/* The first matching, over all the players: as many pairs as can be, the
 * PAB to an eligible player of the lowest score; then pairs inside the top
 * scoregroup. Sets bye_score and what C.9 needs. Returns 0, or
 * PAIR_ENOPAIRING when the round cannot be completed.
 * C.5 "minimise the score of the PAB assignee" */
static int c5_pab_score(dutch_work *w)
{
	int ns = w->ns;
	w->m = ns;
	for (int i = 0; i < ns; i++)
		w->pb[i] = i;
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < ns; j++) {
			word *c = cell(w, w->cur, i, j);
			const dplayer *a = &w->sp[i], *b = &w->sp[j];
			b_zero(c, w->nw);
			if (i == j || !c1_c3_compatible(w, a, b))
				continue;
			b_addsmall(c, w->nw, 1 + !a->bye_ok + !b->bye_ok);
			b_shl(c, w->nw, w->sg_width);
			b_addsmall(c, w->nw, w->sg_shift[a->score] + w->sg_shift[b->score]);
			b_shl(c, w->nw, w->sg_bits);
			b_addsmall(c, w->nw, (i > j ? a : b)->score >= w->sp[0].score);
			b_shl(c, w->nw, 2);
		}
	pair__match(&w->bl, w->cur, ns, ns, w->nw, w->sm);
	int bye = -1;
	for (int i = 0; i < ns; i++)
		if (w->sm[i] == i) {
			if (bye >= 0 || !w->sp[i].bye_ok)
				return PAIR_ENOPAIRING;
			bye = i;
		}
	w->bye_score = bye >= 0 ? w->sp[bye].score : 0;
	w->single = bye >= 0 && w->bye_score >= w->sp[0].score;
	for (int i = 0; w->single && i < ns && w->sp[i].score >= w->sp[0].score; i++)
		if (w->sp[w->sm[i]].score < w->sp[0].score)
			w->single = 0;
	w->single0 = w->single;
	return 0;
}

/* C.9's ranks: among the players at the PAB's score, by games played,
 * most first (equal numbers share the last of their ranks). */
static void c9_ranks(dutch_work *w)
{
	int count[PAIR_MAX_ROUNDS + 1] = { 0 };
	for (int i = 0; i < w->ns; i++)
		if (w->sp[i].score == w->bye_score)
			count[w->sp[i].games]++;
	int above = 0;
	for (int g = PAIR_MAX_ROUNDS; g >= 0; g--) {
		above += count[g];
		w->urank[g] = above - 1;
	}
}

/* The weights of the bracket (pb[0..nsgb-1]), the scoregroup below it
 * (to mnext) and every other player still to pair (to m). */
static void bracket_weights_2025(dutch_work *w, const wparams *P)
{
	int k = P->sgb;
	for (int a = 0; a < k; a++)          /* kept by keep_mdp_edges */
		for (int b = 0; b < k; b++)
			b_copy(cell(w, w->cur, a, b), w->base + ((size_t)a * k + b) * w->nw, w->nw);
	for (int i = 0; i < w->m; i++)
		for (int j = i; j < w->m; j++) {
			word *c = cell(w, w->base, i, j);
			if (i == j || j < k)
				b_zero(c, w->nw);
			else if (j < P->mnext)
				edge_weight_2025(w, SP(i), SP(j), j < P->nsgb, j >= P->nsgb, w->single, c);
			else
				edge_weight_2025(w, SP(i), SP(j), 0, 0, w->single0, c);
			b_copy(cell(w, w->base, j, i), c, w->nw);
			if (j >= k) {
				b_copy(cell(w, w->cur, i, j), c, w->nw);
				b_copy(cell(w, w->cur, j, i), c, w->nw);
			}
		}
	w->warm = 0;
}

/* The downfloaters' edges among themselves as the bracket's matching left
 * them: in the next bracket, where they are MDPs, no criterion weighs
 * them again (the pair of two MDPs is no pair of the bracket), and the
 * one matching across the brackets of the reference programs keeps them
 * so. Stored in base (k x k, k downfloaters) for bracket_weights_2025. */
static void keep_mdp_edges(dutch_work *w, const wparams *P)
{
	int k = 0, pos[PAIR_MAX_PLAYERS];
	for (int p = 0; p < P->nsgb; p++)
		if (!w->matched[p])
			pos[k++] = p;
	for (int a = 0; a < k; a++)
		for (int b = 0; b < k; b++)
			b_copy(w->base + ((size_t)a * k + b) * w->nw, cell(w, w->cur, pos[a], pos[b]), w->nw);
}

/* After a bracket: C.9 weighs on in the next one while the PAB assignee
 * is still the only player to float down from it (in the last matching,
 * nobody of the next bracket is paired lower). */
static void c9_still_single(dutch_work *w, const wparams *P)
{
	if (P->mnext == P->nsgb) {
		w->single = 0;
		return;
	}
	int next = SP(P->nsgb)->score;
	w->single = (w->ns & 1) && w->bye_score >= next;
	for (int p = 0; w->single && p < P->mnext; p++)
		if (!(p < P->nsgb && w->matched[p]) && SP(w->sm[p])->score < next)
			w->single = 0;
}

/* The brackets from the top, each with the scoregroup below it.
 * (2017 A.9, kept in 2025 without the PPB and the CLB) "the pairing process starts with the top scoregroup, and continues bracket by bracket" */
static int pair_brackets_2025(dutch_work *w, char *err, size_t errlen)
{
	int nsgb = 0, sgb = 0;
	while (nsgb < w->m && w->sp[w->pb[nsgb]].score >= SP(0)->score)
		nsgb++;
	for (int guard = 0; nsgb > 1 || nsgb < w->m; guard++) {
		if (guard > 4 * w->ns + 8) {
			pair__set_err(err, errlen, "the brackets did not converge");
			return PAIR_ENOPAIRING;
		}
		wparams P = { 0 };
		P.sgb = sgb;
		P.nsgb = nsgb;
		P.mnext = nsgb;
		while (P.mnext < w->m && SP(P.mnext)->score >= SP(nsgb)->score)
			P.mnext++;
		P.pbits = w->sg_bits;
		bracket_weights_2025(w, &P);
		pair_bracket(w, &P);
		c9_still_single(w, &P);
		keep_mdp_edges(w, &P);
		sgb = keep_downfloaters(w, &P);
		nsgb = sgb + (P.mnext - P.nsgb);
	}
	return 0;
}

/* Pairs the round by the 2025 rules (see pair_dutch). */
static int pair_dutch_2025(dutch_work *w, char *err, size_t errlen)
{
	round_layout(w);
	if (weights_2025(w)) {
		pair__set_err(err, errlen, "the round needs weights wider than %d bits", NWMAX * 64);
		return PAIR_ERANGE;
	}
	if (c5_pab_score(w)) {
		pair__set_err(err, errlen, "no pairing satisfies the absolute criteria");
		return PAIR_ENOPAIRING;
	}
	c9_ranks(w);
	for (int i = 0; i < w->ns; i++)
		w->mate[i] = -1;
	return pair_brackets_2025(w, err, errlen);
}

/* The board of the pair (i, j) of sp[], colours by C.04.3 E. */
static pair_board board_of(const dutch_work *w, int i, int j)
{
	const dplayer *a = &w->sp[i], *b = &w->sp[j];
	const dplayer *lo = a->id < b->id ? a : b, *hi = lo == a ? b : a;
	int c = colour_for(w, lo, hi);
	pair_board bd = {
		(int16_t)(c == PAIR_WHITE ? lo->id : hi->id),
		(int16_t)(c == PAIR_WHITE ? hi->id : lo->id),
	};
	return bd;
}

/* The boards as pairing programs list them: by the higher player's score,
 * then the lower player's, then the higher player's number; the bye last.
 * Returns the number of boards, or PAIR_ENOPAIRING when more than one
 * player is left unpaired. */
static int list_boards(const dutch_work *w, pair_board *out, char *err, size_t errlen)
{
	int nb = 0, byes = 0, key[PAIR_MAX_PLAYERS / 2 + 1][3];
	for (int i = 0; i < w->ns; i++) {
		int j = w->mate[i];
		if (j < 0) {
			byes++;
			continue;
		}
		if (j < i)
			continue;
		const dplayer *a = &w->sp[i], *b = &w->sp[j];
		const dplayer *top = ranks_below(a, b) ? b : a, *bottom = top == a ? b : a;
		int k[3] = { -top->score, -bottom->score, top->rank };
		int at = nb++;
		while (at > 0 && (key[at - 1][0] > k[0] || (key[at - 1][0] == k[0]
			&& (key[at - 1][1] > k[1] || (key[at - 1][1] == k[1] && key[at - 1][2] > k[2]))))) {
			out[at] = out[at - 1];
			memcpy(key[at], key[at - 1], sizeof key[at]);
			at--;
		}
		out[at] = board_of(w, i, j);
		memcpy(key[at], k, sizeof k);
	}
	if (byes > 1) {
		pair__set_err(err, errlen, "%d players left unpaired", byes);
		return PAIR_ENOPAIRING;
	}
	for (int i = 0; i < w->ns; i++)
		if (w->mate[i] < 0) {
			out[nb].white = (int16_t)w->sp[i].id;
			out[nb].black = -1;
			nb++;
		}
	return nb;
}

/* Lays the work area out for ev; PAIR_ENOMEM or PAIR_ERANGE with a message. */
static int work_init(dutch_work **wp, const pair_event *ev, void *work, size_t work_len,
	char *err, size_t errlen)
{
	if (!work || work_len < pair_work_size(ev->nplayers)) {
		pair__set_err(err, errlen, "work area of %zu bytes, %zu needed", work_len, pair_work_size(ev->nplayers));
		return PAIR_ENOMEM;
	}
	dutch_work *w = work;
	size_t cells = (size_t)(ev->nplayers ? ev->nplayers : 1);
	cells *= cells * NWMAX;
	w->base = (word *)(w + 1);
	w->cur = w->base + cells;
	w->ev = ev;
	w->rules = ev->rules == PAIR_DUTCH_2017 ? PAIR_DUTCH_2017 : PAIR_DUTCH_2025;
	w->played = pair_rounds_played(ev);
	w->total = ev->total_rounds;
	if (w->played >= PAIR_MAX_ROUNDS) {
		pair__set_err(err, errlen, "%d rounds played: at most %d", w->played, PAIR_MAX_ROUNDS - 1);
		return PAIR_ERANGE;
	}
	*wp = w;
	return 0;
}

static int finish(const dutch_work *w, pair_board *out, int *nboards, char *err, size_t errlen)
{
	int nb = list_boards(w, out, err, errlen);
	if (nb < 0)
		return nb;
	*nboards = nb;
	return 0;
}

int pair_dutch(const pair_event *ev, void *work, size_t work_len,
	pair_board *out, int *nboards, char *err, size_t errlen)
{
	dutch_work *w;
	int rc = pair_check(ev, err, errlen);
	if (!rc)
		rc = work_init(&w, ev, work, work_len, err, errlen);
	if (rc)
		return rc;
	a2_order(w, ev);
	*nboards = 0;
	if (w->ns == 0)
		return 0;
	if (w->rules == PAIR_DUTCH_2025) {
		rc = pair_dutch_2025(w, err, errlen);
		if (rc)
			return rc;
		return finish(w, out, nboards, err, errlen);
	}
	a9_completion_graph(w);
	if (!valid_complete(w)) {
		pair__set_err(err, errlen, "no pairing satisfies the absolute criteria");
		return PAIR_ENOPAIRING;
	}
	for (int i = 0; i < w->ns; i++)
		w->mate[i] = -1;
	rc = a9_pair_brackets(w, err, errlen);
	if (rc)
		return rc;
	return finish(w, out, nboards, err, errlen);
}
