/* togyz.c: the rules of docs/rules-togyz.md: sowing, seeds into tuzdyks,
 * captures, tuzdyks, games and their end, perft. See togyz.h for the
 * contracts. */
#include "engine/togyz.h"

const char *tg_strerror(int err)
{
	switch (err) {
	case TG_OK: return "";
	case TG_E_NOT_PIT: return "not a hole";
	case TG_E_NOT_YOURS: return "not a hole of the side to move";
	case TG_E_EMPTY: return "the hole is empty";
	case TG_E_TUZDYK: return "the hole is the opponent's tuzdyk";
	case TG_E_OVER: return "the game is over";
	case TG_E_NEGATIVE: return "negative count";
	case TG_E_SUM: return "pits and scores must add up to 162";
	case TG_E_TURN: return "turn must be south or north";
	case TG_E_TUZDYK_HOLE: return "a tuzdyk must be a hole number from 1 to 8";
	case TG_E_TUZDYK_TWIN: return "the two tuzdyks cannot have the same hole number";
	case TG_E_TUZDYK_SEEDS: return "a tuzdyk's hole must be empty";
	}
	return "unknown error";
}

int tg_pit_of(int side, int number)
{
	if ((side != OW_SOUTH && side != OW_NORTH) || number < 1 || number > TG_ROW)
		return -1;
	return side * TG_ROW + number - 1;
}

int tg_hole_number(int pit)
{
	return pit >= 0 && pit < TG_PITS ? pit % TG_ROW + 1 : 0;
}

void tg_pos_start(tg_pos *p)
{
	for (int i = 0; i < TG_PITS; i++)
		p->pits[i] = TG_ROW;
	p->captured[OW_SOUTH] = p->captured[OW_NORTH] = 0;
	p->tuzdyk[OW_SOUTH] = p->tuzdyk[OW_NORTH] = TG_NONE;
	p->turn = OW_SOUTH;
	p->pad_ = 0;
}

/* Field numbers of tg_pos_set. */
enum { F_CAPTURED = TG_PITS, F_TUZDYK = TG_PITS + 2, F_TURN = TG_PITS + 4 };

int tg_pos_set(tg_pos *p, const int pits[TG_PITS], const int captured[2],
               const int tuzdyk[2], int turn, int *field)
{
	int v[TG_PITS + 2], tz[2] = {TG_NONE, TG_NONE};
	int sum = 0, bad = -1, err = TG_OK;

	for (int i = 0; i < TG_PITS; i++)
		v[i] = pits[i];
	v[F_CAPTURED] = captured[OW_SOUTH];
	v[F_CAPTURED + 1] = captured[OW_NORTH];
	for (int i = 0; i < TG_PITS + 2 && err == TG_OK; i++) {
		if (v[i] < 0)
			err = TG_E_NEGATIVE, bad = i;
		else if (v[i] > TG_SEEDS)
			err = TG_E_SUM, bad = i;
		else
			sum += v[i];
	}
	if (err == TG_OK && sum != TG_SEEDS)
		err = TG_E_SUM, bad = -1;
	/* A side's tuzdyk sits on the opponent's row. */
	for (int s = 0; s < 2 && err == TG_OK; s++) {
		if (tuzdyk[s] < 0 || tuzdyk[s] >= TG_ROW)
			err = TG_E_TUZDYK_HOLE, bad = F_TUZDYK + s;
		else if (tuzdyk[s])
			tz[s] = tg_pit_of(1 - s, tuzdyk[s]);
	}
	if (err == TG_OK && tuzdyk[0] && tuzdyk[0] == tuzdyk[1])
		err = TG_E_TUZDYK_TWIN, bad = F_TUZDYK + 1;
	for (int s = 0; s < 2 && err == TG_OK; s++)
		if (tz[s] != TG_NONE && v[tz[s]])
			err = TG_E_TUZDYK_SEEDS, bad = F_TUZDYK + s;
	if (err == TG_OK && turn != OW_SOUTH && turn != OW_NORTH)
		err = TG_E_TURN, bad = F_TURN;
	if (err != TG_OK) {
		if (field)
			*field = bad;
		return err;
	}
	for (int i = 0; i < TG_PITS; i++)
		p->pits[i] = (uint8_t)v[i];
	p->captured[OW_SOUTH] = (uint8_t)v[F_CAPTURED];
	p->captured[OW_NORTH] = (uint8_t)v[F_CAPTURED + 1];
	p->tuzdyk[OW_SOUTH] = (uint8_t)tz[OW_SOUTH];
	p->tuzdyk[OW_NORTH] = (uint8_t)tz[OW_NORTH];
	p->turn = (uint8_t)turn;
	p->pad_ = 0;
	return TG_OK;
}

uint32_t tg_legal_mask(const tg_pos *p)
{
	int own = p->turn * TG_ROW;
	uint32_t mask = 0;

	for (int i = 0; i < TG_ROW; i++)
		if (p->pits[own + i])
			mask |= 1u << (own + i);
	return mask;
}

int tg_pos_check(const tg_pos *p, int pit)
{
	if (pit < 0 || pit >= TG_PITS)
		return TG_E_NOT_PIT;
	if (pit / TG_ROW != p->turn)
		return TG_E_NOT_YOURS;
	if (pit == p->tuzdyk[1 - p->turn])
		return TG_E_TUZDYK;
	if (!p->pits[pit])
		return TG_E_EMPTY;
	return TG_OK;
}

/* Sows pit, sends seeds sown into tuzdyks to their owners, captures or makes
 * a tuzdyk, passes the turn. */
static void sow(tg_pos *p, int pit, tg_move_info *info)
{
	int n = p->pits[pit], me = p->turn, opp = 1 - me, at, c;

	p->pits[pit] = 0;
	if (n == 1) { /* a lone seed moves on */
		at = pit == TG_PITS - 1 ? 0 : pit + 1;
		p->pits[at]++;
		if (info)
			info->sown[0] = (uint8_t)at;
	} else { /* the first seed back into pit, laps included */
		at = pit;
		for (int k = 0; k < n; k++) {
			p->pits[at]++;
			if (info)
				info->sown[k] = (uint8_t)at;
			at = at == TG_PITS - 1 ? 0 : at + 1;
		}
		at = at == 0 ? TG_PITS - 1 : at - 1;
	}
	if (info) {
		info->pit = (uint8_t)pit;
		info->nsown = (uint8_t)n;
		info->last = (uint8_t)at;
		info->captured = TG_NONE;
		info->seeds = 0;
		info->tuzdyk = 0;
		info->to_tuzdyk[0] = info->to_tuzdyk[1] = 0;
	}
	/* A tuzdyk holds nothing before the move: what it holds now was sown. */
	for (int s = 0; s < 2; s++) {
		int t = p->tuzdyk[s];

		if (t != TG_NONE && p->pits[t]) {
			if (info)
				info->to_tuzdyk[s] = p->pits[t];
			p->captured[s] = (uint8_t)(p->captured[s] + p->pits[t]);
			p->pits[t] = 0;
		}
	}
	p->turn = (uint8_t)opp;
	if (at / TG_ROW != opp || at == p->tuzdyk[me])
		return;
	c = p->pits[at];
	if (c % 2 == 0) {
		p->captured[me] = (uint8_t)(p->captured[me] + c);
		p->pits[at] = 0;
	} else if (c == 3 && p->tuzdyk[me] == TG_NONE && at % TG_ROW != TG_ROW - 1 &&
	           (p->tuzdyk[opp] == TG_NONE || p->tuzdyk[opp] % TG_ROW != at % TG_ROW)) {
		p->captured[me] = (uint8_t)(p->captured[me] + c);
		p->pits[at] = 0;
		p->tuzdyk[me] = (uint8_t)at;
		if (info)
			info->tuzdyk = 1;
	} else {
		return;
	}
	if (info) {
		info->captured = (uint8_t)at;
		info->seeds = (uint8_t)c;
	}
}

void tg_pos_sow(tg_pos *p, int pit, tg_move_info *info)
{
	sow(p, pit, info);
}

int tg_notation(const tg_move_info *info, char out[4])
{
	int n = 0;

	out[n++] = (char)('0' + tg_hole_number(info->pit));
	out[n++] = (char)('0' + tg_hole_number(info->last));
	if (info->tuzdyk)
		out[n++] = 'X';
	out[n] = '\0';
	return n;
}

/* Nonzero when p ends the game by score: 82 or more, or 81-81. */
static int score_over(const tg_pos *p)
{
	int s = p->captured[OW_SOUTH], n = p->captured[OW_NORTH];

	return s >= TG_WIN_SCORE || n >= TG_WIN_SCORE || (s == TG_SEEDS / 2 && n == TG_SEEDS / 2);
}

/* Ends g, scores settled, if its position meets an end condition: by score
 * the board stays; without a legal move each side collects its own row
 * (a tuzdyk holds nothing) and the board is cleared. */
static void check_end(tg_game *g)
{
	tg_pos *p = &g->pos;
	int s, n;

	if (score_over(p)) {
		g->end = OW_END_SCORE;
	} else if (!tg_legal_mask(p)) {
		for (int i = 0; i < TG_PITS; i++) {
			p->captured[i / TG_ROW] = (uint8_t)(p->captured[i / TG_ROW] + p->pits[i]);
			p->pits[i] = 0;
		}
		g->end = OW_END_NO_MOVES;
	} else {
		return;
	}
	s = p->captured[OW_SOUTH];
	n = p->captured[OW_NORTH];
	g->winner = (int8_t)(s > n ? OW_WINNER_SOUTH : n > s ? OW_WINNER_NORTH : OW_DRAW);
}

void tg_game_from(tg_game *g, const tg_pos *p)
{
	g->pos = *p;
	g->pos.pad_ = 0;
	g->ply = 0;
	g->end = OW_END_NONE;
	g->winner = OW_NOBODY;
	check_end(g);
}

void tg_game_start(tg_game *g)
{
	tg_pos p;

	tg_pos_start(&p);
	tg_game_from(g, &p);
}

int tg_game_play(tg_game *g, int pit, tg_move_info *info)
{
	int err;

	if (g->end != OW_END_NONE)
		return TG_E_OVER;
	if ((err = tg_pos_check(&g->pos, pit)) != TG_OK)
		return err;
	sow(&g->pos, pit, info);
	g->ply++;
	check_end(g);
	return TG_OK;
}

/* Lines of depth plies from p; 0 if p ends the game. */
static uint64_t perft_rec(const tg_pos *p, int depth)
{
	uint32_t mask;
	uint64_t total = 0;

	if (score_over(p) || !(mask = tg_legal_mask(p)))
		return 0;
	if (depth == 1)
		return (uint64_t)__builtin_popcount(mask);
	while (mask) {
		tg_pos child = *p;

		sow(&child, __builtin_ctz(mask), 0);
		mask &= mask - 1;
		total += perft_rec(&child, depth - 1);
	}
	return total;
}

uint64_t tg_perft(const tg_game *g, int depth)
{
	if (g->end != OW_END_NONE || depth < 0 || depth > 64)
		return 0;
	if (depth == 0)
		return 1;
	return perft_rec(&g->pos, depth);
}
