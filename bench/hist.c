/* hist.c: log-linear latency histograms (see hist.h). */
#include "bench/hist.h"

/* Bucket of v: exact below HIST_SUB, then HIST_SUB buckets per octave. */
static unsigned bucket_of(uint64_t v)
{
	unsigned e, b;

	if (v < HIST_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v) - HIST_SUB_BITS; /* octave above the exact range */
	b = (e + 1) * HIST_SUB + (unsigned)((v >> e) & (HIST_SUB - 1));
	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

/* The largest value that falls into bucket b. */
static uint64_t bucket_top(unsigned b)
{
	unsigned e;

	if (b < HIST_SUB)
		return b;
	e = b / HIST_SUB - 1;
	return (((uint64_t)HIST_SUB + (b % HIST_SUB)) << e) + ((1ull << e) - 1);
}

void hist_add(hist *h, uint64_t us)
{
	h->n++;
	h->sum_us += us;
	if (us > h->max_us)
		h->max_us = us;
	h->b[bucket_of(us)]++;
}

void hist_merge(hist *dst, const hist *src)
{
	dst->n += src->n;
	dst->sum_us += src->sum_us;
	if (src->max_us > dst->max_us)
		dst->max_us = src->max_us;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t hist_quantile(const hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	rank = (uint64_t)(q * (double)h->n);
	if (rank >= h->n)
		rank = h->n - 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen > rank) {
			uint64_t top = bucket_top(i);

			return top < h->max_us ? top : h->max_us;
		}
	}
	return h->max_us;
}
