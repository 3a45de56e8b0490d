/* fuzz_togyz.c: libFuzzer target: the Togyz Kumalak engine (engine/togyz.h)
 * fed arbitrary positions and moves, checked move by move against a naive
 * reference model of docs/rules-togyz.md written here from the rules text.
 *
 * The model keeps its own representation: a tuzdyk is an owner mark on a
 * hole, and the seeds sown into it stay there (as on a real board, and as
 * some programs keep them) until they are counted for the owner; the
 * engine sends them to the owner's store at once. So the engine's score of
 * a side is the model's store plus what the side's tuzdyk holds.
 *
 * Input: bytes 0..22 are the 18 pits, the two scores, the two tuzdyks
 * (hole numbers, 0 none) and the turn given to tg_pos_set (a signed byte
 * each; 0x80 is INT_MIN, 0x7f INT_MAX). When they are not a valid position
 * they are folded into one so the moves still run. Every later byte is a
 * move: below 0xc0 a hole of the side to move (b % 9), 0xc0..0xef any pit
 * (b % 18), 0xf0..0xff an out-of-range int (-1, 18, INT_MIN, ...). */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/togyz.h"
#include "tests/fuzz/fuzz.h"

#define MAX_MOVES 1024
#define NVALUES (TG_PITS + 5)
#define HOLES 18
#define ROW 9

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: plain ints; owner[h] is the side whose tuzdyk hole h is,
 * or -1. Nothing shared with the engine but the numbers of the rules. */
struct ref {
	int pits[HOLES];
	int owner[HOLES];
	int store[2];
	int turn;
	int end;    /* ow_end */
	int winner; /* ow_winner */
	int ply;
};

/* What the reference's move did, to compare with tg_move_info. */
struct ref_move {
	int nsown, sown[TG_SEEDS];
	int into_tuzdyk[2];
	int last, taken_hole, seeds, made;
};

/* Compares n bytes without memcmp, which libFuzzer hooks. */
static int same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

static int decode_int(uint8_t b)
{
	if (b == 0x80)
		return INT_MIN;
	if (b == 0x7f)
		return INT_MAX;
	return (int8_t)b;
}

static const int odd_pits[16] = {
	-1, 18, 19, -2, INT_MIN, INT_MAX, 255, 256, -9, 27, 36, 63, 64, -18, 1000, INT_MIN + 1
};

static int decode_move(uint8_t b, int turn)
{
	if (b < 0xc0)
		return turn * ROW + b % ROW;
	if (b < 0xf0)
		return b % HOLES;
	return odd_pits[b - 0xf0];
}

/* The side whose row hole h is on. */
static int side_of(int h)
{
	return h < ROW ? OW_SOUTH : OW_NORTH;
}

/* tg_pos_set's contract, written out: the first bad field in order. */
static int model_set(const int v[NVALUES], int *field)
{
	int sum = 0;

	for (int i = 0; i < HOLES + 2; i++) {
		if (v[i] < 0) {
			*field = i;
			return TG_E_NEGATIVE;
		}
		if (v[i] > TG_SEEDS) {
			*field = i;
			return TG_E_SUM;
		}
		sum += v[i];
	}
	if (sum != TG_SEEDS) {
		*field = -1;
		return TG_E_SUM;
	}
	for (int s = 0; s < 2; s++)
		if (v[HOLES + 2 + s] < 0 || v[HOLES + 2 + s] > 8) {
			*field = HOLES + 2 + s;
			return TG_E_TUZDYK_HOLE;
		}
	if (v[HOLES + 2] != 0 && v[HOLES + 2] == v[HOLES + 3]) {
		*field = HOLES + 3;
		return TG_E_TUZDYK_TWIN;
	}
	for (int s = 0; s < 2; s++) {
		int number = v[HOLES + 2 + s];

		/* South's tuzdyk sits on North's row, and the other way round. */
		if (number && v[(s == OW_SOUTH ? ROW : 0) + number - 1] != 0) {
			*field = HOLES + 2 + s;
			return TG_E_TUZDYK_SEEDS;
		}
	}
	if (v[HOLES + 4] != OW_SOUTH && v[HOLES + 4] != OW_NORTH) {
		*field = HOLES + 4;
		return TG_E_TURN;
	}
	return TG_OK;
}

static int tuzdyk_hole(const struct ref *r, int side)
{
	for (int h = 0; h < HOLES; h++)
		if (r->owner[h] == side)
			return h;
	return -1;
}

/* A side's score: its store and what its tuzdyk holds. */
static int ref_score(const struct ref *r, int side)
{
	int t = tuzdyk_hole(r, side);

	return r->store[side] + (t >= 0 ? r->pits[t] : 0);
}

/* 0 if pit is legal for the side to move, else the TG_E_* reason. */
static int ref_check(const struct ref *r, int pit)
{
	if (pit < 0 || pit >= HOLES)
		return TG_E_NOT_PIT;
	if (side_of(pit) != r->turn)
		return TG_E_NOT_YOURS;
	if (r->owner[pit] >= 0)
		return TG_E_TUZDYK;
	if (r->pits[pit] == 0)
		return TG_E_EMPTY;
	return TG_OK;
}

static int ref_has_move(const struct ref *r)
{
	for (int pit = 0; pit < HOLES; pit++)
		if (ref_check(r, pit) == TG_OK)
			return 1;
	return 0;
}

/* The end, as docs/rules-togyz.md says: 82 or 81-81 first; then a side to
 * move without a move, after which every seed goes to the side it belongs
 * to. */
static void ref_check_end(struct ref *r)
{
	int s = ref_score(r, OW_SOUTH), n = ref_score(r, OW_NORTH);

	if (s >= 82 || n >= 82 || (s == 81 && n == 81)) {
		r->end = OW_END_SCORE;
	} else if (!ref_has_move(r)) {
		r->end = OW_END_NO_MOVES;
		for (int h = 0; h < HOLES; h++) {
			r->store[r->owner[h] >= 0 ? r->owner[h] : side_of(h)] += r->pits[h];
			r->pits[h] = 0;
		}
	} else {
		return;
	}
	s = ref_score(r, OW_SOUTH);
	n = ref_score(r, OW_NORTH);
	r->winner = s > n ? OW_WINNER_SOUTH : n > s ? OW_WINNER_NORTH : OW_DRAW;
}

static void ref_from(struct ref *r, const int v[NVALUES])
{
	memcpy(r->pits, v, sizeof r->pits);
	for (int h = 0; h < HOLES; h++)
		r->owner[h] = -1;
	if (v[HOLES + 2])
		r->owner[ROW + v[HOLES + 2] - 1] = OW_SOUTH;
	if (v[HOLES + 3])
		r->owner[v[HOLES + 3] - 1] = OW_NORTH;
	r->store[0] = v[HOLES];
	r->store[1] = v[HOLES + 1];
	r->turn = v[HOLES + 4];
	r->end = OW_END_NONE;
	r->winner = OW_NOBODY;
	r->ply = 0;
	ref_check_end(r);
}

/* Plays a pit ref_check accepted, seed by seed. */
static void ref_play(struct ref *r, int pit, struct ref_move *m)
{
	int me = r->turn, opp = 1 - me, n = r->pits[pit], at = pit;

	memset(m, 0, sizeof *m);
	m->taken_hole = -1;
	r->pits[pit] = 0;
	for (int k = 0; k < n; k++) {
		/* With one seed the move starts at the next hole; else at pit. */
		if (k > 0 || n == 1)
			at = (at + 1) % HOLES;
		r->pits[at]++;
		m->sown[m->nsown++] = at;
		if (r->owner[at] >= 0)
			m->into_tuzdyk[r->owner[at]]++;
	}
	m->last = at;
	if (side_of(at) == opp && r->owner[at] < 0) {
		int count = r->pits[at], number = at % ROW + 1, theirs = tuzdyk_hole(r, opp);

		if (count % 2 == 0) {
			r->store[me] += count;
			r->pits[at] = 0;
			m->taken_hole = at;
			m->seeds = count;
		} else if (count == 3 && tuzdyk_hole(r, me) < 0 && number != 9 &&
		           (theirs < 0 || theirs % ROW + 1 != number)) {
			r->store[me] += 3;
			r->pits[at] = 0;
			r->owner[at] = me;
			m->taken_hole = at;
			m->seeds = 3;
			m->made = 1;
		}
	}
	r->turn = opp;
	r->ply++;
	ref_check_end(r);
}

/* The engine's game equals the reference, and its own invariants hold. */
static void check_game(const tg_game *g, const struct ref *r)
{
	const tg_pos *p = &g->pos;
	int total = p->captured[0] + p->captured[1];

	for (int h = 0; h < HOLES; h++) {
		FUZZ_CHECK_EQ(p->pits[h], r->owner[h] >= 0 ? 0 : r->pits[h]);
		total += p->pits[h];
	}
	FUZZ_CHECK_EQ(total, TG_SEEDS);
	for (int s = 0; s < 2; s++) {
		int t = tuzdyk_hole(r, s);

		FUZZ_CHECK_EQ(p->captured[s], ref_score(r, s));
		FUZZ_CHECK_EQ(p->tuzdyk[s], t >= 0 ? t : TG_NONE);
	}
	FUZZ_CHECK_EQ(p->turn, r->turn);
	FUZZ_CHECK_EQ(p->pad_, 0);
	FUZZ_CHECK_EQ(g->end, r->end);
	FUZZ_CHECK_EQ(g->winner, r->winner);
	FUZZ_CHECK_EQ(g->ply, r->ply);
	if (g->end == OW_END_NONE) {
		FUZZ_CHECK(tg_legal_mask(p) != 0);
		FUZZ_CHECK(p->captured[0] < 82 && p->captured[1] < 82);
	} else {
		FUZZ_CHECK(g->winner != OW_NOBODY);
	}
}

/* tg_legal_mask, tg_pos_check and tg_perft agree with the reference. */
static void check_moves(const tg_game *g, const struct ref *r, int deep)
{
	uint32_t mask = tg_legal_mask(&g->pos), want = 0;
	uint64_t perft2 = 0;

	for (int pit = -2; pit < HOLES + 2; pit++) {
		int rc = ref_check(r, pit);

		FUZZ_CHECK_EQ(tg_pos_check(&g->pos, pit), rc);
		if (rc == TG_OK)
			want |= 1u << pit;
	}
	if (g->end != OW_END_NONE) {
		FUZZ_CHECK_EQ(tg_perft(g, 1), 0);
		FUZZ_CHECK_EQ(tg_perft(g, 2), 0);
		return;
	}
	FUZZ_CHECK_EQ(mask, want);
	FUZZ_CHECK_EQ(tg_perft(g, 0), 1);
	FUZZ_CHECK_EQ(tg_perft(g, 1), __builtin_popcount(mask));
	if (!deep)
		return;
	for (int pit = 0; pit < HOLES; pit++) {
		tg_game child;

		if (!(mask & (1u << pit)))
			continue;
		child = *g;
		FUZZ_CHECK_EQ(tg_game_play(&child, pit, NULL), TG_OK);
		if (child.end == OW_END_NONE)
			perft2 += (uint64_t)__builtin_popcount(tg_legal_mask(&child.pos));
	}
	FUZZ_CHECK_EQ(tg_perft(g, 2), perft2);
}

/* What tg_game_play reported in info matches the reference's move. */
static void check_info(const tg_move_info *info, int pit, const struct ref_move *m)
{
	char text[4];

	FUZZ_CHECK_EQ(info->pit, pit);
	FUZZ_CHECK_EQ(info->nsown, m->nsown);
	for (int k = 0; k < m->nsown; k++)
		FUZZ_CHECK_EQ(info->sown[k], m->sown[k]);
	FUZZ_CHECK_EQ(info->last, m->last);
	FUZZ_CHECK_EQ(info->captured, m->taken_hole >= 0 ? m->taken_hole : TG_NONE);
	FUZZ_CHECK_EQ(info->seeds, m->seeds);
	FUZZ_CHECK_EQ(info->tuzdyk, m->made);
	FUZZ_CHECK_EQ(info->to_tuzdyk[0], m->into_tuzdyk[0]);
	FUZZ_CHECK_EQ(info->to_tuzdyk[1], m->into_tuzdyk[1]);
	FUZZ_CHECK_EQ(tg_notation(info, text), 2 + m->made);
	FUZZ_CHECK_EQ(text[0], '0' + pit % ROW + 1);
	FUZZ_CHECK_EQ(text[1], '0' + m->last % ROW + 1);
	FUZZ_CHECK_EQ(text[2], m->made ? 'X' : 0);
}

/* Reads the position values and makes them a valid position in pos. */
static void set_position(const uint8_t *data, size_t size, tg_pos *pos, int v[NVALUES])
{
	uint8_t b[NVALUES] = {0};
	tg_pos before;
	int field = 1000, want_field = 1000, rc, want, left = TG_SEEDS;

	memcpy(b, data, size < sizeof b ? size : sizeof b);
	for (int i = 0; i < NVALUES; i++)
		v[i] = decode_int(b[i]);
	memset(pos, 0xa5, sizeof *pos);
	before = *pos;
	rc = tg_pos_set(pos, v, v + HOLES, v + HOLES + 2, v[HOLES + 4], &field);
	want = model_set(v, &want_field);
	FUZZ_CHECK_EQ(rc, want);
	FUZZ_CHECK_EQ(tg_pos_set(pos, v, v + HOLES, v + HOLES + 2, v[HOLES + 4], NULL), want);
	FUZZ_CHECK(tg_strerror(rc) != NULL);
	if (rc == TG_OK)
		return;
	FUZZ_CHECK_EQ(field, want_field);
	FUZZ_CHECK(same_bytes(pos, &before, sizeof before));

	/* Fold into a valid position: tuzdyks b % 9 (a twin dropped), counts
	 * b % 163 while seeds last (a tuzdyk's hole none), the rest in one pit
	 * or, if that one is a tuzdyk, in South's score; turn from the low bit. */
	v[HOLES + 2] = b[HOLES + 2] % 9;
	v[HOLES + 3] = b[HOLES + 3] % 9;
	if (v[HOLES + 2] == v[HOLES + 3])
		v[HOLES + 3] = 0;
	for (int i = 0; i < HOLES + 2; i++) {
		int tz = (v[HOLES + 2] && i == ROW + v[HOLES + 2] - 1) ||
		         (v[HOLES + 3] && i == v[HOLES + 3] - 1);

		v[i] = tz ? 0 : b[i] % (TG_SEEDS + 1) < left ? b[i] % (TG_SEEDS + 1) : left;
		left -= v[i];
	}
	{
		int rest = b[HOLES + 4] % HOLES;

		if ((v[HOLES + 2] && rest == ROW + v[HOLES + 2] - 1) ||
		    (v[HOLES + 3] && rest == v[HOLES + 3] - 1))
			rest = HOLES;
		v[rest] += left;
	}
	v[HOLES + 4] = b[HOLES + 4] & 1;
	FUZZ_CHECK_EQ(model_set(v, &want_field), TG_OK);
	FUZZ_CHECK_EQ(tg_pos_set(pos, v, v + HOLES, v + HOLES + 2, v[HOLES + 4], &field), TG_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ref ref;
	tg_game g;
	tg_pos pos;
	int v[NVALUES];
	size_t nmoves;

	set_position(data, size, &pos, v);
	for (int i = 0; i < HOLES; i++)
		FUZZ_CHECK_EQ(pos.pits[i], v[i]);
	FUZZ_CHECK_EQ(pos.captured[0], v[HOLES]);
	FUZZ_CHECK_EQ(pos.captured[1], v[HOLES + 1]);
	FUZZ_CHECK_EQ(pos.turn, v[HOLES + 4]);
	FUZZ_CHECK_EQ(pos.pad_, 0);

	tg_game_from(&g, &pos);
	ref_from(&ref, v);
	check_game(&g, &ref);
	check_moves(&g, &ref, 1);

	nmoves = size > NVALUES ? size - NVALUES : 0;
	if (nmoves > MAX_MOVES)
		nmoves = MAX_MOVES;
	for (size_t i = 0; i < nmoves; i++) {
		int pit = decode_move(data[NVALUES + i], g.pos.turn);
		int want = g.end != OW_END_NONE ? TG_E_OVER : ref_check(&ref, pit);
		tg_game before = g;
		tg_pos sown = g.pos;
		tg_move_info info;
		struct ref_move m;
		int rc;

		memset(&info, 0x5a, sizeof info);
		rc = tg_game_play(&g, pit, &info);
		FUZZ_CHECK_EQ(rc, want);
		FUZZ_CHECK(tg_strerror(rc) != NULL);
		if (rc != TG_OK) {
			/* An illegal move changes nothing at all. */
			FUZZ_CHECK(same_bytes(&g, &before, sizeof g));
			continue;
		}
		ref_play(&ref, pit, &m);
		check_info(&info, pit, &m);
		check_game(&g, &ref);
		/* Scores never decrease; the mover's grows by what it took and
		 * what its tuzdyk received, the other's by its tuzdyk's seeds. */
		FUZZ_CHECK(g.pos.captured[0] >= before.pos.captured[0]);
		FUZZ_CHECK(g.pos.captured[1] >= before.pos.captured[1]);
		if (g.end != OW_END_NO_MOVES) {
			int me = before.pos.turn;

			FUZZ_CHECK_EQ(g.pos.captured[me],
			              before.pos.captured[me] + info.seeds + info.to_tuzdyk[me]);
			FUZZ_CHECK_EQ(g.pos.captured[1 - me],
			              before.pos.captured[1 - me] + info.to_tuzdyk[1 - me]);
			/* tg_pos_sow is the same move without the game. */
			tg_pos_sow(&sown, pit, NULL);
			FUZZ_CHECK(same_bytes(&sown, &g.pos, sizeof sown));
		}
		check_moves(&g, &ref, (g.ply & 3) == 0 || i + 1 == nmoves);
	}
	return 0;
}
