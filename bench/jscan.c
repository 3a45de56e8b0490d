/* jscan.c: see jscan.h. Structure is checked once by js_parse (strings,
 * nesting, separators); numbers and literals only by their characters,
 * and js_int / js_true / js_null read them exactly. */
#include <string.h>

#include "bench/jscan.h"

#define DEPTH_MAX 64

static const char *ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past the string starting at p ('"'), or NULL. */
static const char *skip_str(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\') {
			if (++p == e)
				return NULL;
		} else if (*p == '"') {
			return p + 1;
		} else if ((unsigned char)*p < 0x20) {
			return NULL;
		}
	}
	return NULL;
}

/* Past the value starting at p (no leading white space), or NULL. */
static const char *skip(const char *p, const char *e, int depth)
{
	if (p >= e)
		return NULL;
	if (*p == '"')
		return skip_str(p, e);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		if (depth >= DEPTH_MAX)
			return NULL;
		p = ws(p + 1, e);
		if (p < e && *p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (p >= e || *p != '"' || !(p = skip_str(p, e)))
					return NULL;
				p = ws(p, e);
				if (p >= e || *p != ':')
					return NULL;
				p = ws(p + 1, e);
			}
			if (!(p = skip(p, e, depth + 1)))
				return NULL;
			p = ws(p, e);
			if (p < e && *p == close)
				return p + 1;
			if (p >= e || *p != ',')
				return NULL;
			p = ws(p + 1, e);
		}
	}
	{
		const char *s = p;

		while (p < e && (strchr("+-.eE", *p) || (*p >= '0' && *p <= '9') ||
		                 (*p >= 'a' && *p <= 'z')))
			p++;
		return p > s ? p : NULL;
	}
}

int js_parse(const char *text, size_t len, jval *out)
{
	const char *e = text + len, *p = ws(text, e), *q = skip(p, e, 0);

	if (!q || ws(q, e) != e)
		return -1;
	out->p = p;
	out->e = q;
	return 0;
}

int js_get(jval o, const char *key, jval *out)
{
	size_t klen = strlen(key);
	const char *p, *e = o.e;

	if (o.p >= e || *o.p != '{')
		return -1;
	p = ws(o.p + 1, e);
	while (p < e && *p == '"') {
		const char *k = p + 1, *ke = skip_str(p, e), *v;

		if (!ke)
			return -1;
		p = ws(ke, e);
		if (p >= e || *p != ':')
			return -1;
		v = ws(p + 1, e);
		if (!(p = skip(v, e, 1)))
			return -1;
		if ((size_t)(ke - 1 - k) == klen && !memcmp(k, key, klen)) {
			out->p = v;
			out->e = p;
			return 0;
		}
		p = ws(p, e);
		if (p < e && *p == ',')
			p = ws(p + 1, e);
	}
	return -1;
}

int js_next(jval a, const char **it, jval *out)
{
	const char *p, *e = a.e;

	if (a.p >= e || *a.p != '[')
		return -1;
	p = ws(*it ? *it : a.p + 1, e);
	if (p < e && *p == ',')
		p = ws(p + 1, e);
	if (p >= e || *p == ']')
		return 0;
	out->p = p;
	if (!(out->e = skip(p, e, 1)))
		return -1;
	*it = out->e;
	return 1;
}

int js_count(jval a)
{
	const char *it = NULL;
	jval v;
	int n = 0, r;

	while ((r = js_next(a, &it, &v)) > 0)
		n++;
	return r < 0 ? -1 : n;
}

int js_str(jval v, char *buf, size_t n)
{
	size_t len = (size_t)(v.e - v.p);

	if (len < 2 || *v.p != '"' || v.e[-1] != '"' || len - 2 >= n ||
	    memchr(v.p + 1, '\\', len - 2))
		return -1;
	memcpy(buf, v.p + 1, len - 2);
	buf[len - 2] = 0;
	return (int)(len - 2);
}

static int is_word(jval v, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(v.e - v.p) == n && !memcmp(v.p, w, n);
}

int js_true(jval v)
{
	return is_word(v, "true");
}

int js_null(jval v)
{
	return is_word(v, "null");
}

int js_int(jval v, long long *out)
{
	const char *p = v.p;
	int neg = 0;
	long long x = 0;

	if (p < v.e && *p == '-') {
		neg = 1;
		p++;
	}
	if (p >= v.e || (*p == '0' && v.e - p > 1))
		return -1;
	for (; p < v.e; p++) {
		if (*p < '0' || *p > '9' || x > (0x7fffffffffffffffLL - 9) / 10)
			return -1;
		x = x * 10 + (*p - '0');
	}
	*out = neg ? -x : x;
	return 0;
}
