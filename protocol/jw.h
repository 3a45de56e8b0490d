/* jw.h: a JSON text writer into a growing buffer. Commas come by
 * themselves (a value or key after another gets one), strings are escaped,
 * and the first failure to grow sticks: writes after it do nothing and
 * `oom` says so. What the server's messages are written with, once per
 * broadcast, without building a tree of nodes first. */
#ifndef PROTO_JW_H
#define PROTO_JW_H

#include <stddef.h>

/* Owned by its caller; buf is the writer's own (jw_free releases it). */
typedef struct jw {
	char *buf;
	size_t len, cap;
	int oom; /* a write could not grow the buffer: the text is incomplete */
} jw;

/* An empty writer (no allocation until the first write). */
void jw_init(jw *w);
/* Empties w, keeping its buffer for the next text. */
void jw_reset(jw *w);
/* Releases w's buffer; w is then as after jw_init. */
void jw_free(jw *w);

/* Objects and arrays: open, then keys and values, then close. */
void jw_obj(jw *w);
void jw_obj_end(jw *w);
void jw_arr(jw *w);
void jw_arr_end(jw *w);
/* A key of the open object; k is written as is (no escapes: our keys are
 * identifiers). */
void jw_key(jw *w, const char *k);

/* A string, escaped, with bytes that are not valid UTF-8 written as '?';
 * NULL writes null. */
void jw_str(jw *w, const char *s);
/* A one-character string, e.g. a pit letter. */
void jw_char(jw *w, char c);
void jw_int(jw *w, long long x);
void jw_bool(jw *w, int b);
void jw_null(jw *w);
/* A value written as it is (n bytes of valid JSON, such as a number). */
void jw_raw(jw *w, const char *s, size_t n);
/* n bytes appended as they are (text that is not JSON). */
void jw_bytes(jw *w, const char *s, size_t n);

#endif
