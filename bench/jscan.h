/* jscan.h: reads fields out of JSON text in place, without building a
 * tree or allocating: what owload needs to follow the server's `state`
 * messages at tens of thousands a second (jansson's tree cost the load
 * generator half its CPU). Values are spans of the original text. */
#ifndef BENCH_JSCAN_H
#define BENCH_JSCAN_H

#include <stddef.h>

/* One JSON value: the text [p, e). */
typedef struct jval {
	const char *p, *e;
} jval;

/* The whole of text as one value, surrounding white space trimmed; 0, or
 * -1 when it is not exactly one well-formed value. */
int js_parse(const char *text, size_t len, jval *out);

/* The value of key in object o: 0, or -1 when o is not an object or has no
 * such key. Keys are compared as written (no escapes in ours). */
int js_get(jval o, const char *key, jval *out);

/* The elements of array a in turn: *it starts zeroed; each call returns 1
 * with the next element in *out, 0 at the end, -1 when a is not an array. */
int js_next(jval a, const char **it, jval *out);

/* Number of elements of array a, or -1 when a is not an array. */
int js_count(jval a);

/* A string value without escapes, copied NUL-terminated into buf of n
 * bytes: its length, or -1 (not a string, escapes, or too long). */
int js_str(jval v, char *buf, size_t n);

/* v is the literal true / null. */
int js_true(jval v);
int js_null(jval v);

/* An integer value: 0 and *out, or -1. */
int js_int(jval v, long long *out);

#endif
