/* reasm.h: one WebSocket message put together from its fragments, as the
 * transport receives them (in chunks of any size, empty ones included),
 * bounded in size. No I/O: the fuzz target drives it as net.c does. */
#ifndef SRV_REASM_H
#define SRV_REASM_H

#include <stddef.h>

/* The caller's storage (zeroed to start); buf is its own. */
typedef struct reasm {
	char *buf;
	size_t len, cap;
} reasm;

enum {
	REASM_MORE = 0,      /* wait for the next chunk */
	REASM_DONE = 1,      /* *msg, *msglen: the whole message */
	REASM_TOO_LARGE = -1, /* the message passes max bytes: close the connection */
	REASM_NOMEM = -2     /* out of memory */
};

/* Adds a chunk of len bytes (in may be NULL when len is 0); first: it
 * starts a message, last: it ends one. On REASM_DONE *msg points to the
 * message (in itself when the message came in one chunk, else r's buffer;
 * never NULL), valid until the next call. */
int reasm_add(reasm *r, const char *in, size_t len, int first, int last, size_t max,
              const char **msg, size_t *msglen);
/* Releases r's buffer; r is then as zeroed. */
void reasm_free(reasm *r);

#endif
