/* egdb_load.c: see egdb_load.h. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/bench/egdb_load.h"

const ow_egdb *bench_egdb_load(void)
{
	static ow_egdb db;
	const char *path = getenv("OW_EGDB") ? getenv("OW_EGDB") : "build/oware.egdb";
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;
	int rc;

	if (!f) {
		fprintf(stderr, "bench: no endgame database at %s\n", path);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		fprintf(stderr, "bench: cannot read %s\n", path);
		return NULL;
	}
	fclose(f);
	if ((rc = ow_egdb_open(&db, buf, (size_t)len))) {
		fprintf(stderr, "bench: %s refused (%d)\n", path, rc);
		return NULL;
	}
	return &db;
}
