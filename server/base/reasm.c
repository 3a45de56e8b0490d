/* reasm.c: WebSocket messages from their fragments (reasm.h). */
#include <stdlib.h>
#include <string.h>

#include "server/base/reasm.h"

int reasm_add(reasm *r, const char *in, size_t len, int first, int last, size_t max,
              const char **msg, size_t *msglen)
{
	if (first)
		r->len = 0;
	if (len > max || r->len > max - len)
		return REASM_TOO_LARGE;
	if (!r->len && first && last) {
		*msg = len ? in : ""; /* the whole message in one chunk: no copy */
		*msglen = len;
		return REASM_DONE;
	}
	if (r->len + len > r->cap) {
		size_t cap = r->cap ? r->cap : 512;
		char *p;

		while (cap < r->len + len)
			cap *= 2;
		p = realloc(r->buf, cap);
		if (!p)
			return REASM_NOMEM;
		r->buf = p;
		r->cap = cap;
	}
	if (len)
		memcpy(r->buf + r->len, in, len);
	r->len += len;
	if (!last)
		return REASM_MORE;
	*msg = r->buf ? r->buf : "";
	*msglen = r->len;
	r->len = 0;
	return REASM_DONE;
}

void reasm_free(reasm *r)
{
	free(r->buf);
	r->buf = NULL;
	r->len = r->cap = 0;
}
