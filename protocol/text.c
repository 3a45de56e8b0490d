/* text.c: names and chat lines checked and trimmed (text.h). */
#include <stdint.h>
#include <string.h>

#include "protocol/text.h"

/* Decodes one UTF-8 sequence at s (n bytes left): the code point and its
 * length in *k, or -1 when it is not valid UTF-8 (overlong forms,
 * surrogates and values past U+10FFFF included). */
static long utf8_next(const unsigned char *s, size_t n, int *k)
{
	long c;
	int len;

	if (s[0] < 0x80) {
		*k = 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return -1;
	if ((size_t)len > n)
		return -1;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*k = len;
	return c;
}

/* Unicode's White_Space: trimmed at both ends. */
static int is_space(long c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	       c == 0x205f || c == 0x3000;
}

/* The format characters (general category Cf) of Unicode 15. */
static const struct {
	long lo, hi;
} format_chars[] = {
	{0xad, 0xad}, {0x600, 0x605}, {0x61c, 0x61c}, {0x6dd, 0x6dd}, {0x70f, 0x70f},
	{0x890, 0x891}, {0x8e2, 0x8e2}, {0x180e, 0x180e}, {0x200b, 0x200f}, {0x202a, 0x202e},
	{0x2060, 0x2064}, {0x2066, 0x206f}, {0xfeff, 0xfeff}, {0xfff9, 0xfffb},
	{0x110bd, 0x110bd}, {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
	{0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f},
};

/* 1 when c may not appear in a name or a chat line. */
static int refused(long c)
{
	if (c < 0x20 || (c >= 0x7f && c <= 0x9f))                 /* Cc */
		return 1;
	if (c == 0x2028 || c == 0x2029)                           /* Zl, Zp */
		return 1;
	if ((c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000)         /* Co */
		return 1;
	if ((c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe) /* noncharacters */
		return 1;
	for (size_t i = 0; i < sizeof format_chars / sizeof format_chars[0]; i++)
		if (c >= format_chars[i].lo && c <= format_chars[i].hi)
			return 1;
	return 0;
}

int proto_text_clean(const char *text, size_t len, int max_cp, char *out, size_t outsz,
                     const char **why)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, start = len, end = 0;
	int cps = 0, k;

	/* Every code point decoded; the first and the last that are not
	 * white space bound the text kept. */
	while (i < len) {
		long c = utf8_next(s + i, len - i, &k);

		if (c < 0) {
			*why = "not valid UTF-8";
			return -1;
		}
		if (!is_space(c)) {
			if (start == len)
				start = i;
			end = i + (size_t)k;
		}
		i += (size_t)k;
	}
	if (start == len) {
		*why = "empty";
		return -1;
	}
	/* What is kept: checked (white space inside, such as a tab or a
	 * newline, is refused like any control) and counted. */
	for (i = start; i < end; i += (size_t)k) {
		if (refused(utf8_next(s + i, end - i, &k))) {
			*why = "a control, format, private-use or separator character";
			return -1;
		}
		if (++cps > max_cp) {
			*why = "too long";
			return -1;
		}
	}
	if (end - start >= outsz) {
		*why = "too long";
		return -1;
	}
	memcpy(out, s + start, end - start);
	out[end - start] = 0;
	return (int)(end - start);
}
