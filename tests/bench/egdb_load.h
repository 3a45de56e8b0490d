/* egdb_load.h: the endgame database file for the benchmarks (read into
 * memory once; see bench_egdb_load in egdb_load.c). */
#ifndef OW_BENCH_EGDB_LOAD_H
#define OW_BENCH_EGDB_LOAD_H

#include "engine/search.h"

/* The database of $OW_EGDB (default build/oware.egdb), or NULL when there
 * is none (a message on stderr) or it is refused. Lives until exit. */
const ow_egdb *bench_egdb_load(void);

#endif
