/* clock.h: the server's monotonic clock in milliseconds. */
#ifndef SRV_CLOCK_H
#define SRV_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
