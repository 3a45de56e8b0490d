/* hist.h: fixed-size latency histograms (log-linear buckets, about 3%
 * precision from 1 us to 68 s) that live in plain memory, so worker
 * processes can fill them in shared pages and the parent can add them. */
#ifndef BENCH_HIST_H
#define BENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 5                       /* 32 buckets per power of two */
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS (HIST_SUB * 27)          /* up to 2^31 us */

/* Plain data, zero-initialised; owned by whoever holds the memory. */
typedef struct hist {
	uint64_t n;
	uint64_t max_us;
	uint64_t sum_us;
	uint64_t b[HIST_BUCKETS];
} hist;

/* Records one value in microseconds (values past the range land in the last
 * bucket; max_us stays exact). */
void hist_add(hist *h, uint64_t us);
/* Adds every count of src into dst. */
void hist_merge(hist *dst, const hist *src);
/* The value (us, upper edge of its bucket, capped by max) at quantile q in
 * [0, 1]; 0 when the histogram is empty. */
uint64_t hist_quantile(const hist *h, double q);

#endif
