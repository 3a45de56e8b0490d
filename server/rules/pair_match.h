/* pair_match.h: the weights and the maximum-weight matching under the
 * Dutch pairing (server/rules/pair_dutch.c): unsigned integers of up to NWMAX
 * 64-bit words, and Edmonds' blossom algorithm over a dense graph of them.
 * It knows nothing of players or rules. It allocates nothing: the caller
 * owns the matching's state (a blossom, a few MB). Internal to the
 * pairing. */
#ifndef SRV_PAIR_MATCH_H
#define SRV_PAIR_MATCH_H

#include <stdint.h>
#include <string.h>

#include "server/rules/pairing.h"


/* Words of an edge weight at most. A weight's width grows with the
 * bracket (its players, its distinct score differences, the rounds
 * played): the widest of the 15,158 rounds compared with bbpPairings (up
 * to 200 players and 20 rounds) needed 229 bits of the 1024 here. A
 * bracket that would need more fails with PAIR_ERANGE. */
#define NWMAX 16
#define VMAX (2 * (PAIR_MAX_PLAYERS + 1) + 2)
#define DMAX (PAIR_MAX_PLAYERS + 1)

typedef uint64_t word;

static inline void b_zero(word *a, int nw) { memset(a, 0, sizeof *a * (size_t)nw); }
static inline void b_copy(word *d, const word *s, int nw) { memcpy(d, s, sizeof *d * (size_t)nw); }

static inline int b_iszero(const word *a, int nw)
{
	for (int i = 0; i < nw; i++)
		if (a[i])
			return 0;
	return 1;
}

static inline int b_cmp(const word *a, const word *b, int nw)
{
	for (int i = nw - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static inline void b_add(word *d, const word *a, const word *b, int nw)
{
	word c = 0;
	for (int i = 0; i < nw; i++) {
		word s = a[i] + c;
		c = s < c;
		word t = s + b[i];
		c += t < s;
		d[i] = t;
	}
}

static inline void b_sub(word *d, const word *a, const word *b, int nw)
{
	word br = 0;
	for (int i = 0; i < nw; i++) {
		word s = a[i] - br;
		br = a[i] < br;
		word t = s - b[i];
		br += s < b[i];
		d[i] = t;
	}
}

static inline void b_shr1(word *a, int nw)
{
	for (int i = 0; i < nw; i++)
		a[i] = (a[i] >> 1) | (i + 1 < nw ? a[i + 1] << 63 : 0);
}

static inline void b_shl(word *a, int nw, unsigned k)
{
	unsigned q = k / 64, r = k % 64;
	for (int i = nw - 1; i >= 0; i--) {
		word v = (int)q <= i ? a[i - q] << r : 0;
		if (r && (int)q < i)
			v |= a[i - q - 1] >> (64 - r);
		a[i] = v;
	}
}

/* a += v * 2^e, v signed (two's complement over nw words) */
static inline void b_addpow(word *a, int nw, unsigned e, int64_t v)
{
	word t[NWMAX];
	b_zero(t, nw);
	word neg = v < 0;
	word mag = neg ? (word)(-v) : (word)v;
	t[0] = mag;
	b_shl(t, nw, e);
	if (neg)
		b_sub(a, a, t, nw);
	else
		b_add(a, a, t, nw);
}

static inline void b_addsmall(word *a, int nw, int64_t v) { b_addpow(a, nw, 0, v); }

/* ---- Maximum-weight matching (Edmonds' blossom algorithm) ------------
 * Over the vertices 1..n of a dense graph whose weights are W[(u-1)*dim +
 * v-1] (nw words each, zero meaning no edge): the O(n^3) primal-dual
 * method, vertices 1..n, blossoms n+1..2n, a blossom's sub-blossoms in
 * flower[] from its base around the odd cycle. */
typedef struct blossom {
	int n, nx, dim, nw;
	const word *W;
	int16_t gu[VMAX][VMAX], gv[VMAX][VMAX]; /* the best edge between two tops */
	word lab[VMAX][NWMAX];
	int match[VMAX], slack[VMAX], st[VMAX], pa[VMAX], S[VMAX], vis[VMAX];
	int vt;
	int16_t flower[VMAX][DMAX + 1];
	int flen[VMAX];
	int16_t from[VMAX][DMAX + 1];
	int q[8 * VMAX];
	int qh, qt;
	word sv[VMAX][NWMAX];         /* the slack of (slack[x], x) in epoch svep[x] */
	unsigned svep[VMAX], epoch;
} blossom;

/* A maximum-weight matching of the n vertices of W (dim x dim, nw words a
 * weight, zero meaning no edge): mate[i] is i's partner, or i itself if
 * unmatched. */
void pair__match(blossom *b, const word *W, int n, int dim, int nw, int *mate);

/* The same after the weights of W changed, only on the edges of the
 * vertices i with changed[i] set, from the matching and duals of the last
 * pair__match or pair__match_again on b (same W, n, dim, nw). */
void pair__match_again(blossom *b, const char *changed, int *mate);

#endif
