/* oware.c: the rules of docs/rules-oware.md: sowing, captures, feeding, games
 * (their end conditions are in oware_internal.h, shared with the search), and
 * perft. See oware.h for the contracts. */
#include "engine/oware.h"
#include "engine/oware_internal.h"

const char *ow_strerror(int err)
{
	switch (err) {
	case OW_OK: return "";
	case OW_E_NOT_PIT: return "not a pit";
	case OW_E_NOT_YOURS: return "not a pit of the side to move";
	case OW_E_EMPTY: return "the pit is empty";
	case OW_E_MUST_FEED: return "the opponent has no seeds and this move does not feed them";
	case OW_E_OVER: return "the game is over";
	case OW_E_NEGATIVE: return "negative count";
	case OW_E_SUM: return "pits and scores must add up to 48";
	case OW_E_TURN: return "turn must be south or north";
	}
	return "unknown error";
}

int ow_pit_parse(int letter)
{
	if (letter >= 'a' && letter <= 'f')
		return letter - 'a';
	if (letter >= 'A' && letter <= 'F')
		return OW_ROW + letter - 'A';
	return -1;
}

char ow_pit_letter(int pit)
{
	if (pit >= 0 && pit < OW_ROW)
		return (char)('a' + pit);
	if (pit >= OW_ROW && pit < OW_PITS)
		return (char)('A' + pit - OW_ROW);
	return '?';
}

void ow_pos_start(ow_pos *p)
{
	for (int i = 0; i < OW_PITS; i++)
		p->pits[i] = 4;
	p->captured[OW_SOUTH] = p->captured[OW_NORTH] = 0;
	p->turn = OW_SOUTH;
	p->pad_ = 0;
}

int ow_pos_set(ow_pos *p, const int pits[OW_PITS], const int captured[2],
               int turn, int *field)
{
	int v[OW_PITS + 2], sum = 0, bad = -1, err = OW_OK;

	for (int i = 0; i < OW_PITS; i++)
		v[i] = pits[i];
	v[OW_PITS] = captured[OW_SOUTH];
	v[OW_PITS + 1] = captured[OW_NORTH];
	for (int i = 0; i < OW_PITS + 2 && err == OW_OK; i++) {
		if (v[i] < 0)
			err = OW_E_NEGATIVE, bad = i;
		else if (v[i] > OW_SEEDS)
			err = OW_E_SUM, bad = i;
		else
			sum += v[i];
	}
	if (err == OW_OK && sum != OW_SEEDS)
		err = OW_E_SUM, bad = -1;
	if (err == OW_OK && turn != OW_SOUTH && turn != OW_NORTH)
		err = OW_E_TURN, bad = OW_PITS + 2;
	if (err != OW_OK) {
		if (field)
			*field = bad;
		return err;
	}
	for (int i = 0; i < OW_PITS; i++)
		p->pits[i] = (uint8_t)v[i];
	p->captured[OW_SOUTH] = (uint8_t)v[OW_PITS];
	p->captured[OW_NORTH] = (uint8_t)v[OW_PITS + 1];
	p->turn = (uint8_t)turn;
	p->pad_ = 0;
	return OW_OK;
}

unsigned ow_legal_mask(const ow_pos *p)
{
	int own = p->turn * OW_ROW, opp = OW_ROW - own;
	int starving = 1;
	unsigned mask = 0;

	for (int i = 0; i < OW_ROW; i++)
		if (p->pits[opp + i])
			starving = 0;
	for (int i = 0; i < OW_ROW; i++) {
		int n = p->pits[own + i];
		/* A pit reaches the opponent's row iff it holds 6 - i seeds. */
		if (n && (!starving || n >= OW_ROW - i))
			mask |= 1u << (own + i);
	}
	return mask;
}

int ow_pos_check(const ow_pos *p, int pit)
{
	if (pit < 0 || pit >= OW_PITS)
		return OW_E_NOT_PIT;
	if (pit / OW_ROW != p->turn)
		return OW_E_NOT_YOURS;
	if (!p->pits[pit])
		return OW_E_EMPTY;
	if (!(ow_legal_mask(p) & (1u << pit)))
		return OW_E_MUST_FEED;
	return OW_OK;
}

/* Sows pit, captures, passes the turn; returns the seeds captured. */
static int sow(ow_pos *p, int pit, ow_move_info *info)
{
	int n = p->pits[pit], at = pit, me = p->turn;
	int lo = (1 - me) * OW_ROW, hi = lo + OW_ROW - 1; /* opponent's row */
	int take = 0, left = 0, ncap = 0, from;

	p->pits[pit] = 0;
	if (info) {
		info->pit = (uint8_t)pit;
		info->nsown = (uint8_t)n;
		info->ncaptured = 0;
		info->seeds = 0;
		info->grand_slam = 0;
	}
	for (int k = 0; k < n; k++) {
		at = at == OW_PITS - 1 ? 0 : at + 1;
		if (at == pit) /* the origin is skipped on every lap */
			at = at == OW_PITS - 1 ? 0 : at + 1;
		p->pits[at]++;
		if (info)
			info->sown[k] = (uint8_t)at;
	}
	p->turn = (uint8_t)(1 - me);

	for (from = at; from >= lo && from <= hi && (p->pits[from] == 2 || p->pits[from] == 3); from--) {
		take += p->pits[from];
		ncap++;
	}
	if (!take)
		return 0;
	for (int i = lo; i <= hi; i++)
		left += p->pits[i];
	if (left == take) { /* grand slam: the capture is annulled */
		if (info)
			info->grand_slam = 1;
		return 0;
	}
	for (int k = 0; k < ncap; k++) {
		if (info)
			info->captured[k] = (uint8_t)(at - k);
		p->pits[at - k] = 0;
	}
	p->captured[me] = (uint8_t)(p->captured[me] + take);
	if (info) {
		info->ncaptured = (uint8_t)ncap;
		info->seeds = (uint8_t)take;
	}
	return take;
}

void ow_pos_sow(ow_pos *p, int pit, ow_move_info *info)
{
	sow(p, pit, info);
}

/* An exact key of the pits and the side to move: 6 bits a pit. */
static struct ow_key key_of(const ow_pos *p)
{
	struct ow_key k = {0, 0};

	for (int i = 0; i < 10; i++)
		k.lo |= (uint64_t)p->pits[i] << (6 * i);
	k.lo |= (uint64_t)p->turn << 60;
	k.hi = (uint64_t)p->pits[10] | (uint64_t)p->pits[11] << 6;
	return k;
}

struct ow_key ow_pos_key(const ow_pos *p)
{
	return key_of(p);
}

/* Occurrences of g's position among g->seen (its last entry), as
 * ow__occurrences counts them. */
static int occurrences(const ow_game *g)
{
	int count = 0, top = g->nseen - 1;

	for (int i = top; i >= 0; i -= 2)
		count += g->seen[i] == g->seen[top];
	return count;
}

/* Ends g, scores settled, if its position meets an end condition (the
 * order of ow__end_of). */
static void check_end(ow_game *g)
{
	unsigned mask;
	ow_end why = ow__score_over(&g->pos) ? OW_END_SCORE
	             : g->nseen > 4 && occurrences(g) >= 3 ? OW_END_REPETITION
	             : ow__end_rest(&g->pos, g->quiet, &mask);

	if (why != OW_END_NONE) {
		g->winner = (int8_t)ow__settle(&g->pos, why);
		g->end = (int8_t)why;
	}
}

void ow_game_from(ow_game *g, const ow_pos *p)
{
	g->pos = *p;
	g->pos.pad_ = 0;
	g->ply = 0;
	g->quiet = 0;
	g->end = OW_END_NONE;
	g->winner = OW_NOBODY;
	g->nseen = 1;
	g->seen[0] = ow__hkey(p);
	check_end(g); /* no history yet: only score or no legal move */
}

void ow_game_start(ow_game *g)
{
	ow_pos p;

	ow_pos_start(&p);
	ow_game_from(g, &p);
}

int ow_game_play(ow_game *g, int pit, ow_move_info *info)
{
	int err;

	if (g->end != OW_END_NONE)
		return OW_E_OVER;
	if ((err = ow_pos_check(&g->pos, pit)) != OW_OK)
		return err;
	g->ply++;
	if (sow(&g->pos, pit, info)) {
		g->quiet = 0;
		g->nseen = 0;
	} else {
		g->quiet++;
	}
	g->seen[g->nseen++] = ow__hkey(&g->pos);
	check_end(g);
	return OW_OK;
}

/* perft: make/unmake over a key stack that, unlike ow_game.seen, is never
 * rewound on a capture (a frame remembers where its history starts). */
#define PERFT_MAX_DEPTH 64

struct perft {
	struct ow_key stack[OW_HISTORY + PERFT_MAX_DEPTH];
};

/* Lines of depth plies from p (stack[top] its key, stack[base] the first
 * position since the last capture); 0 if p ends the game. */
static uint64_t perft_rec(struct perft *pf, ow_pos *p, int top, int base,
                          int quiet, int depth)
{
	unsigned mask;
	uint64_t total = 0;
	ow_pos saved = *p;

	if (ow__end_of(p, pf->stack, top, base, quiet, &mask) != OW_END_NONE)
		return 0;
	if (depth == 1)
		return (uint64_t)__builtin_popcount(mask);
	while (mask) {
		int pit = __builtin_ctz(mask);
		int nbase = base, nquiet = quiet + 1;

		mask &= mask - 1;
		if (sow(p, pit, 0)) {
			nbase = top + 1;
			nquiet = 0;
		}
		pf->stack[top + 1] = key_of(p);
		total += perft_rec(pf, p, top + 1, nbase, nquiet, depth - 1);
		*p = saved;
	}
	return total;
}

void ow__history_keys(const ow_game *g, struct ow_key *keys)
{
	ow_pos q = g->pos;
	int board = ow__board(&g->pos);

	for (int i = 0; i < g->nseen; i++) {
		ow__hkey_pos(g->seen[i], board, &q);
		keys[i] = key_of(&q);
	}
}

uint64_t ow_perft(const ow_game *g, int depth)
{
	struct perft pf;
	ow_pos p = g->pos;

	if (g->end != OW_END_NONE || depth < 0 || depth > PERFT_MAX_DEPTH)
		return 0;
	if (depth == 0)
		return 1;
	ow__history_keys(g, pf.stack);
	return perft_rec(&pf, &p, g->nseen - 1, 0, g->quiet, depth);
}
