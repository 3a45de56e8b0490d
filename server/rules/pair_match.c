/* pair_match.c: the maximum-weight matching (see pair_match.h). */
#include "server/rules/pair_match.h"


static const word *bw(const blossom *b, int u, int v)
{
	return b->W + ((size_t)(u - 1) * (size_t)b->dim + (size_t)(v - 1)) * (size_t)b->nw;
}

/* slack of the edge stored at (x, y) into out: the duals of its ends
 * less twice its weight, in one pass (the hottest loop of the matching) */
static void e_delta(const blossom *b, int x, int y, word *out)
{
	int u = b->gu[x][y], v = b->gv[x][y];
	const word *lu = b->lab[u], *lv = b->lab[v], *w = bw(b, u, v);
	__int128 carry = 0;
	for (int i = 0; i < b->nw; i++) {
		__int128 s = carry + (__int128)lu[i] + lv[i] - 2 * (__int128)w[i];
		out[i] = (word)s;
		carry = s >> 64;
	}
}

static int delta_less(const blossom *b, int x1, int y1, int x2, int y2)
{
	word d1[NWMAX], d2[NWMAX];
	e_delta(b, x1, y1, d1);
	e_delta(b, x2, y2, d2);
	return b_cmp(d1, d2, b->nw) < 0;
}

/* The slack of x's best edge (slack[x], x), kept from the last time it
 * was computed while no dual or blossom changed since (epoch). */
static const word *slack_of(blossom *b, int x)
{
	if (b->svep[x] != b->epoch) {
		e_delta(b, b->slack[x], x, b->sv[x]);
		b->svep[x] = b->epoch;
	}
	return b->sv[x];
}

/* Keeps (u, x) as x's best edge if its slack (tu, when known) is smaller. */
static void update_slack(blossom *b, int u, int x, const word *tu)
{
	word t[NWMAX];
	if (b->slack[x]) {
		if (!tu) {
			e_delta(b, u, x, t);
			tu = t;
		}
		if (b_cmp(tu, slack_of(b, x), b->nw) >= 0)
			return;
	}
	b->slack[x] = u;
	b->svep[x] = 0;
	if (tu) {
		b_copy(b->sv[x], tu, b->nw);
		b->svep[x] = b->epoch;
	}
}

static void set_slack(blossom *b, int x)
{
	b->slack[x] = 0;
	for (int u = 1; u <= b->n; u++)
		if (b->gu[u][x] && b->st[u] != x && b->S[b->st[u]] == 0)
			update_slack(b, u, x, NULL);
}

static void q_push(blossom *b, int x)
{
	if (x <= b->n) {
		if (b->qt < (int)(sizeof b->q / sizeof b->q[0]))
			b->q[b->qt++] = x;
		return;
	}
	for (int i = 0; i < b->flen[x]; i++)
		q_push(b, b->flower[x][i]);
}

static void set_st(blossom *b, int x, int t)
{
	b->st[x] = t;
	if (x > b->n)
		for (int i = 0; i < b->flen[x]; i++)
			set_st(b, b->flower[x][i], t);
}

static void reverse16(int16_t *a, int lo, int hi)
{
	for (hi--; lo < hi; lo++, hi--) {
		int16_t t = a[lo];
		a[lo] = a[hi];
		a[hi] = t;
	}
}

static int get_pr(blossom *b, int bl, int xr)
{
	int pr = 0;
	while (b->flower[bl][pr] != xr)
		pr++;
	if (pr % 2 == 1) {
		reverse16(b->flower[bl], 1, b->flen[bl]);
		return b->flen[bl] - pr;
	}
	return pr;
}

static void set_match(blossom *b, int u, int v)
{
	b->match[u] = b->gv[u][v];
	if (u > b->n) {
		int xr = b->from[u][b->gu[u][v]], pr = get_pr(b, u, xr);
		for (int i = 0; i < pr; i++)
			set_match(b, b->flower[u][i], b->flower[u][i ^ 1]);
		set_match(b, xr, v);
		/* rotate so that xr leads */
		reverse16(b->flower[u], 0, pr);
		reverse16(b->flower[u], pr, b->flen[u]);
		reverse16(b->flower[u], 0, b->flen[u]);
	}
}

static void augment(blossom *b, int u, int v)
{
	for (;;) {
		int xnv = b->st[b->match[u]];
		set_match(b, u, v);
		if (!xnv)
			return;
		set_match(b, xnv, b->st[b->pa[xnv]]);
		u = b->st[b->pa[xnv]];
		v = xnv;
	}
}

static int get_lca(blossom *b, int u, int v)
{
	++b->vt;
	while (u || v) {
		if (u) {
			if (b->vis[u] == b->vt)
				return u;
			b->vis[u] = b->vt;
			u = b->st[b->match[u]];
			if (u)
				u = b->st[b->pa[u]];
		}
		int t = u; u = v; v = t;
	}
	return 0;
}

static void add_blossom(blossom *b, int u, int lca, int v)
{
	b->epoch++;
	int bl = b->n + 1;
	while (bl <= b->nx && b->st[bl])
		bl++;
	if (bl > b->nx)
		b->nx++;
	b_zero(b->lab[bl], b->nw);
	b->S[bl] = 0;
	b->match[bl] = b->match[lca];
	b->flen[bl] = 0;
	b->flower[bl][b->flen[bl]++] = (int16_t)lca;
	for (int x = u, y; x != lca; x = b->st[b->pa[y]]) {
		b->flower[bl][b->flen[bl]++] = (int16_t)x;
		y = b->st[b->match[x]];
		b->flower[bl][b->flen[bl]++] = (int16_t)y;
		q_push(b, y);
	}
	reverse16(b->flower[bl], 1, b->flen[bl]);
	for (int x = v, y; x != lca; x = b->st[b->pa[y]]) {
		b->flower[bl][b->flen[bl]++] = (int16_t)x;
		y = b->st[b->match[x]];
		b->flower[bl][b->flen[bl]++] = (int16_t)y;
		q_push(b, y);
	}
	set_st(b, bl, bl);
	for (int x = 1; x <= b->nx; x++)
		b->gu[bl][x] = b->gv[bl][x] = b->gu[x][bl] = b->gv[x][bl] = 0;
	for (int x = 1; x <= b->n; x++)
		b->from[bl][x] = 0;
	for (int i = 0; i < b->flen[bl]; i++) {
		int xs = b->flower[bl][i];
		for (int x = 1; x <= b->nx; x++)
			if (b->gu[xs][x] && (!b->gu[bl][x] || delta_less(b, xs, x, bl, x))) {
				b->gu[bl][x] = b->gu[xs][x];
				b->gv[bl][x] = b->gv[xs][x];
				b->gu[x][bl] = b->gu[x][xs];
				b->gv[x][bl] = b->gv[x][xs];
			}
		for (int x = 1; x <= b->n; x++)
			if (b->from[xs][x])
				b->from[bl][x] = (int16_t)xs;
	}
	set_slack(b, bl);
}

static void expand_blossom(blossom *b, int bl)
{
	b->epoch++;
	for (int i = 0; i < b->flen[bl]; i++)
		set_st(b, b->flower[bl][i], b->flower[bl][i]);
	int xr = b->from[bl][b->gu[bl][b->pa[bl]]], pr = get_pr(b, bl, xr);
	for (int i = 0; i < pr; i += 2) {
		int xs = b->flower[bl][i], xns = b->flower[bl][i + 1];
		b->pa[xs] = b->gu[xns][xs];
		b->S[xs] = 1;
		b->S[xns] = 0;
		b->slack[xs] = 0;
		set_slack(b, xns);
		q_push(b, xns);
	}
	b->S[xr] = 1;
	b->pa[xr] = b->pa[bl];
	for (int i = pr + 1; i < b->flen[bl]; i++) {
		int xs = b->flower[bl][i];
		b->S[xs] = -1;
		set_slack(b, xs);
	}
	b->st[bl] = 0;
}

static int on_found_edge(blossom *b, int x, int y)
{
	int eu = b->gu[x][y], ev = b->gv[x][y];
	int u = b->st[eu], v = b->st[ev];
	if (b->S[v] == -1 && !b->match[v]) {
		/* a free vertex whose dual is zero: it may stay free */
		augment(b, u, v);
		augment(b, v, u);
		return 1;
	}
	if (b->S[v] == -1) {
		b->pa[v] = eu;
		b->S[v] = 1;
		int nu = b->st[b->match[v]];
		b->slack[v] = b->slack[nu] = 0;
		b->S[nu] = 0;
		q_push(b, nu);
	} else if (b->S[v] == 0) {
		int lca = get_lca(b, u, v);
		if (!lca) {
			augment(b, u, v);
			augment(b, v, u);
			return 1;
		}
		add_blossom(b, u, lca, v);
	}
	return 0;
}

/* Grows the trees along the tight edges of the queued outer vertices,
 * noting the slack of the others. Returns 1 when it augmented. */
static int grow_tight(blossom *b)
{
	word t[NWMAX];
	while (b->qh < b->qt) {
		int u = b->q[b->qh++];
		if (b->S[b->st[u]] == 1)
			continue;
		for (int v = 1; v <= b->n; v++)
			if (b->gu[u][v] && b->st[u] != b->st[v]) {
				e_delta(b, u, v, t);
				if (b_iszero(t, b->nw)) {
					if (on_found_edge(b, u, v))
						return 1;
				} else
					update_slack(b, u, b->st[v], b->st[v] == v ? t : NULL);
			}
	}
	return 0;
}

static void keep_min(word *d, const word *t, int *have, int nw)
{
	if (!*have || b_cmp(t, d, nw) < 0) {
		b_copy(d, t, nw);
		*have = 1;
	}
}

/* The largest change of the duals that keeps them feasible: half an inner
 * blossom's dual, the slack of an edge to an unlabelled vertex, half the
 * slack of an edge between outer vertices. Returns 0 when there is none. */
static int dual_delta(blossom *b, word *d)
{
	int nw = b->nw, have = 0;
	word t[NWMAX];
	for (int bl = b->n + 1; bl <= b->nx; bl++)
		if (b->st[bl] == bl && b->S[bl] == 1) {
			b_copy(t, b->lab[bl], nw);
			b_shr1(t, nw);
			keep_min(d, t, &have, nw);
		}
	for (int x = 1; x <= b->nx; x++)
		if (b->st[x] == x && b->slack[x]) {
			if (b->S[x] == -1) {
				b_copy(t, slack_of(b, x), nw);
			} else if (b->S[x] == 0) {
				b_copy(t, slack_of(b, x), nw);
				b_shr1(t, nw);
			} else
				continue;
			keep_min(d, t, &have, nw);
		}
	return have;
}

/* Changes the duals by d: outer vertices down, inner up, blossoms the
 * other way twice. */
static void dual_apply(blossom *b, const word *d)
{
	int nw = b->nw;
	b->epoch++;
	for (int u = 1; u <= b->n; u++) {
		if (b->S[b->st[u]] == 0)
			b_sub(b->lab[u], b->lab[u], d, nw);
		else if (b->S[b->st[u]] == 1)
			b_add(b->lab[u], b->lab[u], d, nw);
	}
	for (int bl = b->n + 1; bl <= b->nx; bl++)
		if (b->st[bl] == bl) {
			if (b->S[bl] == 0) {
				b_add(b->lab[bl], b->lab[bl], d, nw);
				b_add(b->lab[bl], b->lab[bl], d, nw);
			} else if (b->S[bl] == 1) {
				b_sub(b->lab[bl], b->lab[bl], d, nw);
				b_sub(b->lab[bl], b->lab[bl], d, nw);
			}
		}
}

/* The outer vertex of smallest dual (the first of equals) and its dual in
 * m; 0 when there is no outer vertex. */
static int outer_min(const blossom *b, word *m)
{
	int at = 0;
	for (int u = 1; u <= b->n; u++)
		if (b->S[b->st[u]] == 0 && (!at || b_cmp(b->lab[u], m, b->nw) < 0)) {
			b_copy(m, b->lab[u], b->nw);
			at = u;
		}
	return at;
}

/* After a change of the duals: follows the edges it made tight, expands
 * the inner blossoms whose dual reached zero. Returns 1 when it augmented. */
static int after_adjust(blossom *b)
{
	b->qh = b->qt = 0;
	for (int x = 1; x <= b->nx; x++)
		if (b->st[x] == x && b->slack[x] && b->st[b->slack[x]] != x) {
			if (b_iszero(slack_of(b, x), b->nw) && on_found_edge(b, b->slack[x], x))
				return 1;
		}
	for (int bl = b->n + 1; bl <= b->nx; bl++)
		if (b->st[bl] == bl && b->S[bl] == 1 && b_iszero(b->lab[bl], b->nw))
			expand_blossom(b, bl);
	return 0;
}

static int stage(blossom *b);

/* A solve's start: each vertex's dual is its heaviest edge (twice the
 * weight: every edge is then feasible), the pairs whose edge is tight are
 * matched greedily, and the free vertices' duals made even (all roots'
 * alike, so the slack between two trees halves exactly). */
static void greedy_start(blossom *b)
{
	int nw = b->nw;
	for (int u = 1; u <= b->n; u++) {
		b_zero(b->lab[u], nw);
		for (int v = 1; v <= b->n; v++)
			if (b->gu[u][v] && b_cmp(bw(b, u, v), b->lab[u], nw) > 0)
				b_copy(b->lab[u], bw(b, u, v), nw);
	}
	for (int u = 1; u <= b->n; u++) {
		if (b->match[u])
			continue;
		for (int v = u + 1; v <= b->n; v++) {
			word t[NWMAX];
			if (!b->gu[u][v] || b->match[v])
				continue;
			e_delta(b, u, v, t);
			if (b_iszero(t, nw)) {
				b->match[u] = v;
				b->match[v] = u;
				break;
			}
		}
	}
	/* a free vertex's dual lowered to what its edges need, and matched to
	 * a free vertex its edge then makes tight */
	for (int u = 1; u <= b->n; u++) {
		if (b->match[u])
			continue;
		word need[NWMAX], t[NWMAX];
		b_zero(need, nw);
		for (int v = 1; v <= b->n; v++)
			if (b->gu[u][v]) {
				b_add(t, bw(b, u, v), bw(b, u, v), nw);
				b_sub(t, t, b->lab[v], nw);
				if (!(t[nw - 1] >> 63) && b_cmp(t, need, nw) > 0)
					b_copy(need, t, nw);
			}
		b_copy(b->lab[u], need, nw);
		for (int v = 1; v <= b->n; v++) {
			if (v == u || !b->gu[u][v] || b->match[v])
				continue;
			e_delta(b, u, v, t);
			if (b_iszero(t, nw)) {
				b->match[u] = v;
				b->match[v] = u;
				break;
			}
		}
	}
	for (int u = 1; u <= b->n; u++)
		if (!b->match[u] && (b->lab[u][0] & 1))
			b_addsmall(b->lab[u], nw, 1);
}

void pair__match(blossom *b, const word *W, int n, int dim, int nw, int *mate)
{
	b->n = b->nx = n;
	b->dim = dim;
	b->nw = nw;
	b->W = W;
	for (int u = 0; u <= 2 * n + 1 && u < VMAX; u++) {
		b->st[u] = u <= n ? u : 0;
		b->flen[u] = 0;
		b->match[u] = 0;
		b->vis[u] = 0;
	}
	b->vt = 0;
	b->epoch = 1;
	memset(b->svep, 0, sizeof b->svep);
	for (int u = 1; u <= n; u++)
		for (int v = 1; v <= n; v++) {
			b->from[u][v] = (int16_t)(u == v ? u : 0);
			const word *w = bw(b, u, v);
			if (u != v && !b_iszero(w, nw)) {
				b->gu[u][v] = (int16_t)u;
				b->gv[u][v] = (int16_t)v;
			} else
				b->gu[u][v] = b->gv[u][v] = 0;
		}
	greedy_start(b);
	while (stage(b))
		;
	for (int u = 1; u <= n; u++)
		mate[u - 1] = b->match[u] ? b->match[u] - 1 : u - 1;
}

/* ---- Starting again from the last matching ---------------------------
 * The duals a solve ends with are optimal: free vertices at zero, the
 * matched edges tight. When the weights of some vertices' edges change,
 * the blossoms are dissolved into their vertices' duals (which keeps every
 * edge feasible), the changed vertices' duals raised until their edges are
 * feasible again, and a matched edge no longer tight is unmatched: its two
 * vertices are then free with a positive dual, and the stages (below) run
 * from them alone. A change of one vertex's edges takes a few stages of
 * O(n^2), not the n/2 of a solve anew. */

/* Adds half of blossom bl's dual, and of those around it (add), to the
 * duals of its vertices. */
static void dissolve(blossom *b, int bl, const word *add)
{
	word a[NWMAX];
	b_copy(a, b->lab[bl], b->nw);
	b_shr1(a, b->nw);
	b_add(a, a, add, b->nw);
	for (int i = 0; i < b->flen[bl]; i++) {
		int x = b->flower[bl][i];
		if (x <= b->n)
			b_add(b->lab[x], b->lab[x], a, b->nw);
		else
			dissolve(b, x, a);
	}
	b->flen[bl] = 0;
}

/* twice the weight of (u, v) less the duals of u and v, positive when the
 * edge is not feasible: into out; returns 1 when positive */
static int infeasible(const blossom *b, int u, int v, word *out)
{
	word t[NWMAX];
	b_add(t, b->lab[u], b->lab[v], b->nw);
	b_add(out, bw(b, u, v), bw(b, u, v), b->nw);
	b_sub(out, out, t, b->nw);
	return !b_iszero(out, b->nw) && !(out[b->nw - 1] >> 63);
}

/* Raises the dual of u until its edges are feasible again. */
static void raise_dual(blossom *b, int u)
{
	word t[NWMAX];
	for (int v = 1; v <= b->n; v++)
		if (b->gu[u][v] && infeasible(b, u, v, t))
			b_add(b->lab[u], b->lab[u], t, b->nw);
}

static void warm_start(blossom *b, const char *changed)
{
	b->epoch++;
	word zero[NWMAX];
	b_zero(zero, b->nw);
	for (int x = b->n + 1; x <= b->nx; x++)
		if (b->st[x] == x)
			dissolve(b, x, zero);
	for (int x = 0; x <= b->nx && x < VMAX; x++)
		b->st[x] = x <= b->n ? x : 0;
	b->nx = b->n;
	for (int u = 1; u <= b->n; u++) {
		if (!changed[u - 1])
			continue;
		for (int v = 1; v <= b->n; v++) {
			int on = u != v && !b_iszero(bw(b, u, v), b->nw);
			b->gu[u][v] = b->gv[v][u] = (int16_t)(on ? u : 0);
			b->gv[u][v] = b->gu[v][u] = (int16_t)(on ? v : 0);
		}
	}
	for (int u = 1; u <= b->n; u++)
		if (changed[u - 1])
			raise_dual(b, u);
	for (int u = 1; u <= b->n; u++) {
		int v = b->match[u];
		word t[NWMAX];
		if (!v)
			continue;
		b_add(t, bw(b, u, v), bw(b, u, v), b->nw);
		b_sub(t, b->lab[u], t, b->nw);
		b_add(t, t, b->lab[v], b->nw);
		if (!b->gu[u][v] || !b_iszero(t, b->nw))
			b->match[u] = b->match[v] = 0;
	}
	/* The free vertices' duals even, as all the roots' must be alike:
	 * the slack of an edge between two trees is then even, and halved
	 * exactly. */
	for (int u = 1; u <= b->n; u++)
		if (!b->match[u] && (b->lab[u][0] & 1))
			b_addsmall(b->lab[u], b->nw, 1);
}

/* The vertex of blossom x that is exposed (its base's base ...). */
static int base_vertex(const blossom *b, int x)
{
	while (x > b->n)
		x = b->flower[x][0];
	return x;
}

/* Leaves vertex x of the top blossom bl free, bl's base rotated to it. */
static void expose(blossom *b, int bl, int x)
{
	b->match[bl] = 0;
	if (bl <= b->n)
		return;
	int xr = b->from[bl][x], pr = get_pr(b, bl, xr);
	for (int i = 0; i < pr; i++)
		set_match(b, b->flower[bl][i], b->flower[bl][i ^ 1]);
	expose(b, xr, x);
	reverse16(b->flower[bl], 0, pr);
	reverse16(b->flower[bl], pr, b->flen[bl]);
	reverse16(b->flower[bl], 0, b->flen[bl]);
}

/* Outer vertex x's dual reached zero: x is left free, and the root of its
 * tree, if another, matched along the path between them. */
static void release(blossom *b, int x)
{
	int t = b->st[x];
	if (!b->match[t]) {
		expose(b, t, x);
		return;
	}
	int in = b->st[b->match[t]], up = b->st[b->pa[in]];
	expose(b, t, x);
	set_match(b, in, up);
	augment(b, up, in);
}

/* A stage: alternating trees grown from the free vertices of positive
 * dual, to a free vertex of dual zero or to each other (an augmentation),
 * the duals changed as far as they stay feasible; when an outer vertex's
 * dual reaches zero, it is left free in place of its tree's root (release).
 * Returns 0 when no free vertex has a positive dual: the matching is then
 * of maximum weight. */
static int stage(blossom *b)
{
	for (int x = 1; x <= b->nx; x++) {
		b->S[x] = -1;
		b->slack[x] = 0;
	}
	b->qh = b->qt = 0;
	for (int x = 1; x <= b->nx; x++)
		if (b->st[x] == x && !b->match[x] && !b_iszero(b->lab[base_vertex(b, x)], b->nw)) {
			b->pa[x] = 0;
			b->S[x] = 0;
			q_push(b, x);
		}
	if (b->qh == b->qt)
		return 0;
	for (;;) {
		word d[NWMAX], m[NWMAX];
		if (grow_tight(b))
			return 1;
		int have = dual_delta(b, d);
		int at = outer_min(b, m);
		if (at && (!have || b_cmp(m, d, b->nw) <= 0)) {
			dual_apply(b, m);
			release(b, at);
			return 1;
		}
		if (!have)
			return 0;
		dual_apply(b, d);
		if (after_adjust(b))
			return 1;
	}
}

void pair__match_again(blossom *b, const char *changed, int *mate)
{
	warm_start(b, changed);
	while (stage(b))
		;
	for (int u = 1; u <= b->n; u++)
		mate[u - 1] = b->match[u] ? b->match[u] - 1 : u - 1;
}
