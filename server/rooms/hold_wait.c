/* hold_wait.c: see hold_wait.h. */
#include <stdlib.h>
#include <string.h>

#include "server/rooms/hold_wait.h"

hw_take *hw_add(hw_take **list, const char *id, room_member *m, const proto_msg *msg,
                int64_t deadline, const rooms_io *io)
{
	hw_take *t;
	hw_waiter *w = malloc(sizeof *w);
	size_t n = strlen(id);

	for (t = *list; t && strcmp(t->id, id); t = t->next)
		;
	if (!w || n >= sizeof t->id || (!t && !(t = calloc(1, sizeof *t)))) {
		free(w);
		io->error(m, PROTO_E_INTERNAL, "out of memory; try again");
		return NULL;
	}
	w->m = m;
	w->deadline = deadline;
	w->msg = *msg;
	w->next = t->waiters;
	t->waiters = w;
	m->waiting = 1;
	if (t->id[0])
		return NULL; /* its take is under way */
	memcpy(t->id, id, n + 1);
	t->next = *list;
	*list = t;
	return t;
}

void hw_unlink(hw_take **list, hw_take *t)
{
	while (*list != t)
		list = &(*list)->next;
	*list = t->next;
}

hw_waiter *hw_next(hw_take *t)
{
	hw_waiter *w = t->waiters;

	if (!w)
		return NULL;
	t->waiters = w->next;
	if (w->m)
		w->m->waiting = 0;
	return w;
}

int hw_relay(hw_take *t, const rooms_io *io, const char *addr, const char *key, int lease_ms)
{
	if (!io->relay || !addr[0] || !key[0])
		return 0;
	for (hw_waiter *w = t->waiters; w; w = w->next)
		if (w->m) {
			w->m->waiting = 0;
			if (io->relay(w->m, addr, key, &w->msg, w->deadline, lease_ms) < 0)
				io->error(w->m, PROTO_E_INTERNAL, "out of memory; try again");
			w->m = NULL;
		}
	return 1;
}

void hw_stale(hw_take *list)
{
	for (hw_take *t = list; t; t = t->next)
		t->stale = 1;
}

void hw_forget(hw_take *list, const room_member *m)
{
	for (hw_take *t = list; t; t = t->next)
		for (hw_waiter *w = t->waiters; w; w = w->next)
			if (w->m == m)
				w->m = NULL;
}
