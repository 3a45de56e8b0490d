/* store_pg.c: the store of store.h on PostgreSQL (not built yet). */
#include <stdio.h>

#include "server/store.h"

store *store_pg_open(struct ev_loop *loop, const char *conninfo, const char *node,
                     double wait_s, char *err, size_t errlen)
{
	(void)loop;
	(void)conninfo;
	(void)node;
	(void)wait_s;
	snprintf(err, errlen, "the PostgreSQL store is not built yet");
	return NULL;
}
