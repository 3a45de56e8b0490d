/* syncprobe.c: what the disk under a folder answers a durable write: N
 * writes of 4 KiB, each followed by fdatasync, into a file of 1 MiB
 * written once beforehand (so that, as in SQLite's write-ahead log once it
 * has been around, each write overwrites blocks already allocated and the
 * sync flushes data, not the file's size). Prints the latency's p50, p99,
 * p99.9 and max: the floor under any durable commit's latency there.
 *
 * usage: syncprobe DIR [N]   (N: 2000 by default) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/hist.h"

#define BLOCK 4096
#define SPAN (256 * BLOCK)

static uint64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

int main(int argc, char **argv)
{
	static char buf[BLOCK];
	static hist h;
	char path[4096];
	long n = argc > 2 ? atol(argv[2]) : 2000;
	int fd;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: syncprobe DIR [N]\n");
		return 2;
	}
	snprintf(path, sizeof path, "%s/syncprobe.XXXXXX", argv[1]);
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	unlink(path);
	for (off_t o = 0; o < SPAN; o += BLOCK) {
		memset(buf, (int)(o / BLOCK), sizeof buf);
		if (pwrite(fd, buf, BLOCK, o) != BLOCK) {
			perror("write");
			return 1;
		}
	}
	if (fsync(fd) < 0) {
		perror("fsync");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		uint64_t t0 = now_us();

		memset(buf, (int)i, 64);
		if (pwrite(fd, buf, BLOCK, (off_t)(i % (SPAN / BLOCK)) * BLOCK) != BLOCK ||
		    fdatasync(fd) < 0) {
			perror("write and sync");
			return 1;
		}
		hist_add(&h, now_us() - t0);
	}
	close(fd);
	printf("disk: write 4 KiB + fdatasync  p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms (n=%ld)\n",
	       hist_quantile(&h, 0.5) / 1e3, hist_quantile(&h, 0.99) / 1e3,
	       hist_quantile(&h, 0.999) / 1e3, h.max_us / 1e3, n);
	return 0;
}
