/* rng.h: the generator's random numbers (splitmix64): fast, seeded per
 * process, shared by the players' workers and the attackers. */
#ifndef BENCH_RNG_H
#define BENCH_RNG_H

#include <stdint.h>

/* The next number of the sequence whose state is *s. */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number in [0, 1) from the same sequence. */
static inline double rng_01(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

#endif
