/* fuzz_engine.c: libFuzzer target: the rules engine (engine/oware.h) fed
 * arbitrary positions and moves, checked move by move against a naive
 * reference model of docs/rules-oware.md written here from the rules text.
 *
 * Input: bytes 0..14 are the 12 pits, the two scores and the turn given to
 * ow_pos_set (a signed byte each; 0x80 is INT_MIN, 0x7f INT_MAX). When they
 * are not a valid position they are folded into one (48 seeds, turn 0/1) so
 * the moves still run. Every later byte is a move: below 0xc0 a pit of the
 * side to move (b % 6), 0xc0..0xef any pit (b % 12), 0xf0..0xff an
 * out-of-range int (-1, 12, INT_MIN, ...). */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/oware.h"
#include "tests/fuzz/fuzz.h"

#define MAX_MOVES 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: plain ints, every position of the game kept, nothing
 * shared with the engine but the constants of docs/rules-oware.md. */
struct ref {
	int pits[OW_PITS];
	int cap[2];
	int turn;
	int end;    /* ow_end */
	int winner; /* ow_winner */
	int ply, quiet;
	int nhist;
	struct ref_seen {
		int pits[OW_PITS];
		int turn;
	} hist[MAX_MOVES + 1];
};

/* What the reference's sowing did, to compare with ow_move_info. */
struct ref_move {
	int nsown, sown[OW_SEEDS];
	int ncap, capped[OW_ROW];
	int seeds, grand_slam;
};

static struct ref ref; /* static: about 53 KB */

/* Compares n bytes without memcmp, which libFuzzer hooks (and would slow
 * down: the checks are not what the search should learn from). */
static int same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/* The used part of two games is equal: position, counters and history. */
static int same_game(const ow_game *a, const ow_game *b)
{
	return same_bytes(a, b, offsetof(ow_game, seen)) &&
	       same_bytes(a->seen, b->seen, a->nseen * sizeof a->seen[0]);
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
	-1, 12, 13, -2, INT_MIN, INT_MAX, 255, 256, -6, 18, 24, 63, 64, -12, 1000, INT_MIN + 1
};

static int decode_move(uint8_t b, int turn)
{
	if (b < 0xc0)
		return turn * OW_ROW + b % OW_ROW;
	if (b < 0xf0)
		return b % OW_PITS;
	return odd_pits[b - 0xf0];
}

/* ow_pos_set's contract, written out: the first bad field in order. */
static int model_set(const int v[OW_PITS + 3], int *field)
{
	int sum = 0;

	for (int i = 0; i < OW_PITS + 2; i++) {
		if (v[i] < 0) {
			*field = i;
			return OW_E_NEGATIVE;
		}
		if (v[i] > OW_SEEDS) {
			*field = i;
			return OW_E_SUM;
		}
		sum += v[i];
	}
	if (sum != OW_SEEDS) {
		*field = -1;
		return OW_E_SUM;
	}
	if (v[OW_PITS + 2] != OW_SOUTH && v[OW_PITS + 2] != OW_NORTH) {
		*field = OW_PITS + 2;
		return OW_E_TURN;
	}
	return OW_OK;
}

/* Sows pit on pits[] seed by seed, skipping the origin; returns the last pit. */
static int ref_sow_seeds(int pits[OW_PITS], int pit, struct ref_move *m)
{
	int n = pits[pit], at = pit;

	pits[pit] = 0;
	for (int k = 0; k < n; k++) {
		do
			at = (at + 1) % OW_PITS;
		while (at == pit);
		pits[at]++;
		if (m)
			m->sown[k] = at;
	}
	if (m)
		m->nsown = n;
	return at;
}

static int opp_row_seeds(const int pits[OW_PITS], int turn)
{
	int lo = (1 - turn) * OW_ROW, n = 0;

	for (int i = lo; i < lo + OW_ROW; i++)
		n += pits[i];
	return n;
}

/* 0 if pit is legal for the side to move, else the OW_E_* reason. */
static int ref_check(const struct ref *r, int pit)
{
	int copy[OW_PITS];

	if (pit < 0 || pit >= OW_PITS)
		return OW_E_NOT_PIT;
	if ((pit < OW_ROW ? OW_SOUTH : OW_NORTH) != r->turn)
		return OW_E_NOT_YOURS;
	if (!r->pits[pit])
		return OW_E_EMPTY;
	if (opp_row_seeds(r->pits, r->turn) == 0) {
		memcpy(copy, r->pits, sizeof copy);
		ref_sow_seeds(copy, pit, NULL);
		if (opp_row_seeds(copy, r->turn) == 0)
			return OW_E_MUST_FEED;
	}
	return OW_OK;
}

static int ref_has_move(const struct ref *r)
{
	for (int pit = 0; pit < OW_PITS; pit++)
		if (ref_check(r, pit) == OW_OK)
			return 1;
	return 0;
}

static void ref_finish(struct ref *r, int why)
{
	if (why != OW_END_SCORE)
		for (int i = 0; i < OW_PITS; i++) {
			r->cap[i < OW_ROW ? OW_SOUTH : OW_NORTH] += r->pits[i];
			r->pits[i] = 0;
		}
	r->end = why;
	r->winner = r->cap[0] > r->cap[1] ? OW_WINNER_SOUTH
	          : r->cap[1] > r->cap[0] ? OW_WINNER_NORTH : OW_DRAW;
}

static int ref_score_over(const struct ref *r)
{
	return r->cap[0] >= OW_WIN_SCORE || r->cap[1] >= OW_WIN_SCORE ||
	       (r->cap[0] == 24 && r->cap[1] == 24);
}

static void ref_remember(struct ref *r)
{
	struct ref_seen *s = &r->hist[r->nhist++];

	memcpy(s->pits, r->pits, sizeof s->pits);
	s->turn = r->turn;
}

static int ref_same(const struct ref_seen *s, const struct ref *r)
{
	return s->turn == r->turn && same_bytes(s->pits, r->pits, sizeof s->pits);
}

static void ref_from(struct ref *r, const int v[OW_PITS + 3])
{
	memcpy(r->pits, v, sizeof r->pits);
	r->cap[0] = v[OW_PITS];
	r->cap[1] = v[OW_PITS + 1];
	r->turn = v[OW_PITS + 2];
	r->end = OW_END_NONE;
	r->winner = OW_NOBODY;
	r->ply = r->quiet = 0;
	r->nhist = 0;
	ref_remember(r);
	if (ref_score_over(r))
		ref_finish(r, OW_END_SCORE);
	else if (!ref_has_move(r))
		ref_finish(r, OW_END_NO_MOVES);
}

/* Plays a pit ref_check accepted; the end conditions in docs/rules-oware.md's
 * order. */
static void ref_play(struct ref *r, int pit, struct ref_move *m)
{
	int me = r->turn, lo = (1 - me) * OW_ROW, hi = lo + OW_ROW - 1;
	int at = ref_sow_seeds(r->pits, pit, m), take = 0, count = 0;

	m->ncap = m->seeds = m->grand_slam = 0;
	for (int i = at; i >= lo && i <= hi && (r->pits[i] == 2 || r->pits[i] == 3); i--)
		take += r->pits[i], m->capped[m->ncap++] = i;
	if (take && take == opp_row_seeds(r->pits, me)) {
		m->grand_slam = 1;
		m->ncap = 0;
		take = 0;
	}
	for (int k = 0; k < m->ncap; k++)
		r->pits[m->capped[k]] = 0;
	r->cap[me] += take;
	m->seeds = take;
	r->turn = 1 - me;
	r->ply++;
	r->quiet = take ? 0 : r->quiet + 1;
	ref_remember(r);
	for (int i = 0; i < r->nhist; i++)
		count += ref_same(&r->hist[i], r);
	if (ref_score_over(r))
		ref_finish(r, OW_END_SCORE);
	else if (count >= 3)
		ref_finish(r, OW_END_REPETITION);
	else if (r->quiet >= OW_MOVE_LIMIT)
		ref_finish(r, OW_END_MOVE_LIMIT);
	else if (!ref_has_move(r))
		ref_finish(r, OW_END_NO_MOVES);
}

/* The engine's game equals the reference, and its own invariants hold. */
static void check_game(const ow_game *g, const struct ref *r)
{
	const ow_pos *p = &g->pos;
	int total = p->captured[0] + p->captured[1];

	for (int i = 0; i < OW_PITS; i++) {
		FUZZ_CHECK_EQ(p->pits[i], r->pits[i]);
		total += p->pits[i];
	}
	FUZZ_CHECK_EQ(total, OW_SEEDS);
	FUZZ_CHECK_EQ(p->captured[0], r->cap[0]);
	FUZZ_CHECK_EQ(p->captured[1], r->cap[1]);
	FUZZ_CHECK_EQ(p->turn, r->turn);
	FUZZ_CHECK_EQ(p->pad_, 0);
	FUZZ_CHECK_EQ(g->end, r->end);
	FUZZ_CHECK_EQ(g->winner, r->winner);
	FUZZ_CHECK_EQ(g->ply, r->ply);
	FUZZ_CHECK_EQ(g->quiet, r->quiet);
	FUZZ_CHECK(g->nseen >= 1 && g->nseen <= OW_HISTORY);
	FUZZ_CHECK(g->nseen <= g->quiet + 1);
	if (g->end == OW_END_NONE) {
		FUZZ_CHECK(ow_legal_mask(p) != 0);
		FUZZ_CHECK(r->cap[0] < OW_WIN_SCORE && r->cap[1] < OW_WIN_SCORE);
	} else {
		FUZZ_CHECK(g->winner != OW_NOBODY);
	}
}

/* ow_legal_mask, ow_pos_check and ow_perft agree with the reference. */
static void check_moves(const ow_game *g, const struct ref *r, int deep)
{
	unsigned mask = ow_legal_mask(&g->pos), want = 0;
	uint64_t perft2 = 0;

	for (int pit = -2; pit < OW_PITS + 2; pit++) {
		int rc = ref_check(r, pit);

		FUZZ_CHECK_EQ(ow_pos_check(&g->pos, pit), rc);
		if (rc == OW_OK)
			want |= 1u << pit;
	}
	/* The mask ignores the end of the game; the reference's turn is
	 * meaningless once the board is cleared, so compare live games only. */
	if (g->end != OW_END_NONE) {
		FUZZ_CHECK_EQ(ow_perft(g, 1), 0);
		FUZZ_CHECK_EQ(ow_perft(g, 2), 0);
		return;
	}
	FUZZ_CHECK_EQ(mask, want);
	FUZZ_CHECK_EQ(mask & ~(0x3fu << (g->pos.turn * OW_ROW)), 0);
	FUZZ_CHECK_EQ(ow_perft(g, 0), 1);
	FUZZ_CHECK_EQ(ow_perft(g, 1), __builtin_popcount(mask));
	/* Depth 2 costs a dozen moves: every fourth ply is enough to meet
	 * every kind of position, and keeps the search fast. */
	if (!deep)
		return;
	for (int pit = 0; pit < OW_PITS; pit++) {
		ow_game child;

		if (!(mask & (1u << pit)))
			continue;
		child = *g;
		FUZZ_CHECK_EQ(ow_game_play(&child, pit, NULL), OW_OK);
		if (child.end == OW_END_NONE)
			perft2 += (uint64_t)__builtin_popcount(ow_legal_mask(&child.pos));
	}
	FUZZ_CHECK_EQ(ow_perft(g, 2), perft2);
}

/* What ow_game_play reported in info matches the reference's move. */
static void check_info(const ow_move_info *info, int pit, const struct ref_move *m)
{
	FUZZ_CHECK_EQ(info->pit, pit);
	FUZZ_CHECK_EQ(info->nsown, m->nsown);
	for (int k = 0; k < m->nsown; k++)
		FUZZ_CHECK_EQ(info->sown[k], m->sown[k]);
	FUZZ_CHECK_EQ(info->ncaptured, m->ncap);
	for (int k = 0; k < m->ncap; k++)
		FUZZ_CHECK_EQ(info->captured[k], m->capped[k]);
	FUZZ_CHECK_EQ(info->seeds, m->seeds);
	FUZZ_CHECK_EQ(info->grand_slam, m->grand_slam);
}

static ow_pos pos_of_seen(const struct ref_seen *s)
{
	ow_pos q;

	memset(&q, 0, sizeof q);
	for (int j = 0; j < OW_PITS; j++)
		q.pits[j] = (uint8_t)s->pits[j];
	q.turn = (uint8_t)s->turn;
	return q;
}

/* ow_pos_key of the latest position matches the keys of the recent ones
 * exactly when the positions (pits and turn) are the same. */
static void check_keys(const struct ref *r)
{
	const struct ref_seen *last = &r->hist[r->nhist - 1];
	ow_pos q = pos_of_seen(last);
	struct ow_key now = ow_pos_key(&q);

	for (int i = r->nhist - 2; i >= 0 && i >= r->nhist - 12; i--) {
		const struct ref_seen *s = &r->hist[i];
		int same = s->turn == last->turn && same_bytes(s->pits, last->pits, sizeof s->pits);
		struct ow_key k;

		q = pos_of_seen(s);
		k = ow_pos_key(&q);
		FUZZ_CHECK_EQ(k.lo == now.lo && k.hi == now.hi, same);
	}
}

/* Reads the position values and makes them a valid position in pos. */
static void set_position(const uint8_t *data, size_t size, ow_pos *pos, int v[OW_PITS + 3])
{
	uint8_t b[OW_PITS + 3] = {0};
	ow_pos before;
	int field = 1000, want_field = 1000, rc, want, left = OW_SEEDS;

	memcpy(b, data, size < sizeof b ? size : sizeof b);
	for (int i = 0; i < OW_PITS + 3; i++)
		v[i] = decode_int(b[i]);
	memset(pos, 0xa5, sizeof *pos);
	before = *pos;
	rc = ow_pos_set(pos, v, v + OW_PITS, v[OW_PITS + 2], &field);
	want = model_set(v, &want_field);
	FUZZ_CHECK_EQ(rc, want);
	FUZZ_CHECK_EQ(ow_pos_set(pos, v, v + OW_PITS, v[OW_PITS + 2], NULL), want);
	FUZZ_CHECK(ow_strerror(rc) != NULL);
	if (rc == OW_OK)
		return;
	FUZZ_CHECK_EQ(field, want_field);
	FUZZ_CHECK(same_bytes(pos, &before, sizeof before));

	/* Fold into a valid position: counts b % 49 while seeds last, the rest
	 * in one pit, the turn from the low bit. */
	for (int i = 0; i < OW_PITS + 2; i++) {
		v[i] = b[i] % (OW_SEEDS + 1) < left ? b[i] % (OW_SEEDS + 1) : left;
		left -= v[i];
	}
	v[b[OW_PITS + 2] % OW_PITS] += left;
	v[OW_PITS + 2] = b[OW_PITS + 2] & 1;
	FUZZ_CHECK_EQ(ow_pos_set(pos, v, v + OW_PITS, v[OW_PITS + 2], &field), OW_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ow_game g;
	ow_pos pos;
	int v[OW_PITS + 3];
	size_t nmoves;

	set_position(data, size, &pos, v);
	for (int i = 0; i < OW_PITS; i++)
		FUZZ_CHECK_EQ(pos.pits[i], v[i]);
	FUZZ_CHECK_EQ(pos.captured[0], v[OW_PITS]);
	FUZZ_CHECK_EQ(pos.captured[1], v[OW_PITS + 1]);
	FUZZ_CHECK_EQ(pos.turn, v[OW_PITS + 2]);
	FUZZ_CHECK_EQ(pos.pad_, 0);

	ow_game_from(&g, &pos);
	ref_from(&ref, v);
	check_game(&g, &ref);
	check_moves(&g, &ref, 1);

	nmoves = size > OW_PITS + 3 ? size - (OW_PITS + 3) : 0;
	if (nmoves > MAX_MOVES)
		nmoves = MAX_MOVES;
	for (size_t i = 0; i < nmoves; i++) {
		int pit = decode_move(data[OW_PITS + 3 + i], g.pos.turn);
		int want = g.end != OW_END_NONE ? OW_E_OVER : ref_check(&ref, pit);
		ow_game before = g;
		ow_pos sown = g.pos;
		ow_move_info info;
		struct ref_move m;
		int rc;

		memset(&info, 0x5a, sizeof info);
		rc = ow_game_play(&g, pit, &info);
		FUZZ_CHECK_EQ(rc, want);
		FUZZ_CHECK(ow_strerror(rc) != NULL);
		if (rc != OW_OK) {
			/* An illegal move changes nothing at all. */
			FUZZ_CHECK(same_game(&g, &before));
			continue;
		}
		ref_play(&ref, pit, &m);
		check_info(&info, pit, &m);
		check_game(&g, &ref);
		/* Scores never decrease; the mover's grows by the seeds taken. */
		FUZZ_CHECK(g.pos.captured[0] >= before.pos.captured[0]);
		FUZZ_CHECK(g.pos.captured[1] >= before.pos.captured[1]);
		if (g.end == OW_END_NONE || g.end == OW_END_SCORE) {
			FUZZ_CHECK_EQ(g.pos.captured[before.pos.turn],
			              before.pos.captured[before.pos.turn] + info.seeds);
			FUZZ_CHECK_EQ(g.pos.captured[1 - before.pos.turn],
			              before.pos.captured[1 - before.pos.turn]);
			/* ow_pos_sow is the same move without the game. */
			ow_pos_sow(&sown, pit, NULL);
			FUZZ_CHECK(same_bytes(&sown, &g.pos, sizeof sown));
		}
		check_moves(&g, &ref, (g.ply & 3) == 0 || i + 1 == nmoves);
		check_keys(&ref);
	}
	return 0;
}
