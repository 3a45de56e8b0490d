/* jw.c: see jw.h. */
#include <stdlib.h>
#include <string.h>

#include "protocol/jw.h"

void jw_init(jw *w)
{
	memset(w, 0, sizeof *w);
}

void jw_reset(jw *w)
{
	w->len = 0;
	w->oom = 0;
}

void jw_free(jw *w)
{
	free(w->buf);
	jw_init(w);
}

/* Room for n more bytes: 0, or -1 (and oom set). */
static int reserve(jw *w, size_t n)
{
	size_t cap;
	char *b;

	if (w->oom)
		return -1;
	if (w->cap - w->len >= n)
		return 0;
	cap = w->cap ? w->cap : 256;
	while (cap - w->len < n) {
		if (cap > (size_t)-1 / 2) {
			w->oom = 1;
			return -1;
		}
		cap *= 2;
	}
	if (!(b = realloc(w->buf, cap))) {
		w->oom = 1;
		return -1;
	}
	w->buf = b;
	w->cap = cap;
	return 0;
}

static void put(jw *w, const char *s, size_t n)
{
	if (reserve(w, n) == 0) {
		memcpy(w->buf + w->len, s, n);
		w->len += n;
	}
}

/* The comma before a value or key that follows another in its container. */
static void sep(jw *w)
{
	char c = w->len ? w->buf[w->len - 1] : '{';

	if (c != '{' && c != '[' && c != ':')
		put(w, ",", 1);
}

void jw_obj(jw *w)
{
	sep(w);
	put(w, "{", 1);
}

void jw_obj_end(jw *w)
{
	put(w, "}", 1);
}

void jw_arr(jw *w)
{
	sep(w);
	put(w, "[", 1);
}

void jw_arr_end(jw *w)
{
	put(w, "]", 1);
}

void jw_key(jw *w, const char *k)
{
	size_t n = strlen(k);

	sep(w);
	if (reserve(w, n + 3) == 0) {
		w->buf[w->len++] = '"';
		memcpy(w->buf + w->len, k, n);
		w->len += n;
		w->buf[w->len++] = '"';
		w->buf[w->len++] = ':';
	}
}

/* Length of the valid UTF-8 sequence at s (first byte >= 0x80), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n;
	unsigned c = s[0], min;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

void jw_str(jw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		jw_null(w);
		return;
	}
	sep(w);
	put(w, "\"", 1);
	while (*p) {
		const unsigned char *run = p;

		while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		put(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p == '"' || *p == '\\') {
			char e[2] = {'\\', (char)*p};

			put(w, e, 2);
			p++;
		} else if (*p < 0x20) {
			char e[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};

			put(w, e, 6);
			p++;
		} else {
			int n = utf8_len(p);

			put(w, n ? (const char *)p : "?", n ? (size_t)n : 1);
			p += n ? n : 1;
		}
	}
	put(w, "\"", 1);
}

void jw_char(jw *w, char c)
{
	char s[2] = {c, 0};

	jw_str(w, s);
}

void jw_int(jw *w, long long x)
{
	char d[24], *p = d + sizeof d;
	unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (x < 0)
		*--p = '-';
	sep(w);
	put(w, p, (size_t)(d + sizeof d - p));
}

void jw_bool(jw *w, int b)
{
	sep(w);
	put(w, b ? "true" : "false", b ? 4 : 5);
}

void jw_null(jw *w)
{
	sep(w);
	put(w, "null", 4);
}

void jw_raw(jw *w, const char *s, size_t n)
{
	sep(w);
	put(w, s, n);
}

void jw_bytes(jw *w, const char *s, size_t n)
{
	put(w, s, n);
}
