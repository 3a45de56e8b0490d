/* text.c: names and chat lines checked and trimmed (text.h). */
#include <stdint.h>
#include <string.h>

#include "protocol/text.h"
#include "protocol/text_tables.h"

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

/* 1 when c lies in one of the n sorted ranges of t. */
static int in_ranges(const struct text_range *t, size_t n, long c)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c < t[mid].lo)
			hi = mid;
		else if (c > t[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

/* A combining mark (Mn, Me): drawn on the character before it. */
static int is_mark(long c)
{
	return c >= 0x300 && in_ranges(text_marks, sizeof text_marks / sizeof text_marks[0], c);
}

/* Letters and symbols drawn as nothing at all (the Hangul fillers, the
 * blank Braille pattern). */
static int is_filler(long c)
{
	return c == 0x115f || c == 0x1160 || c == 0x3164 || c == 0xffa0 || c == 0x2800;
}

/* The ASCII letter or digit c (outside ASCII) reads as, or 0. */
static int fold_char(long c)
{
	size_t lo = 0, hi = sizeof text_folds / sizeof text_folds[0];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c < text_folds[mid].lo)
			hi = mid;
		else if (c > text_folds[mid].hi)
			lo = mid + 1;
		else
			return text_folds[mid].first +
			       (text_folds[mid].step ? (int)(c - text_folds[mid].lo) : 0);
	}
	return 0;
}

int proto_text_clean(const char *text, size_t len, int max_cp, char *out, size_t outsz,
                     const char **why)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, start = len, end = 0;
	int cps = 0, marks = 0, k;

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
		long c = utf8_next(s + i, end - i, &k);

		if (refused(c)) {
			*why = "a control, format, private-use or separator character";
			return -1;
		}
		if (!is_mark(c))
			marks = 0;
		else if (++marks > PROTO_MARKS_MAX) {
			*why = "more than 4 combining marks on one character";
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

/* The sides' names in the client's languages and games, as the skeleton
 * below reads them. */
static const char *const side_names[] = {
	"south", "north", "sur", "norte", "white", "black", "blancas", "negras",
};

int proto_name_check(const char *name, const char **why)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t len = strlen(name);
	char skel[PROTO_NAME_MAX + 1];
	int n = 0, visible = 0, other = 0, k;

	/* The skeleton: letters and digits as the ASCII ones they read as,
	 * lower case; marks, punctuation, symbols and spaces passed over;
	 * any other character makes it no side's name. */
	for (size_t i = 0; i < len; i += (size_t)k) {
		long c = utf8_next(s + i, len - i, &k);
		int f;

		if (c < 0) {
			*why = "not valid UTF-8";
			return -1;
		}
		if (!is_space(c) && !is_mark(c) && !is_filler(c))
			visible = 1;
		if (is_mark(c) || n == PROTO_NAME_MAX)
			continue;
		if (c < 0x80) {
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
				skel[n++] = (char)c;
			else if (c >= 'A' && c <= 'Z')
				skel[n++] = (char)(c - 'A' + 'a');
		} else if ((f = fold_char(c)))
			skel[n++] = (char)f;
		else if (!is_space(c) && !is_filler(c) &&
		         !in_ranges(text_skip, sizeof text_skip / sizeof text_skip[0], c))
			other = 1;
	}
	skel[n] = 0;
	if (!visible) {
		*why = "no visible character";
		return -1;
	}
	for (size_t i = 0; !other && i < sizeof side_names / sizeof side_names[0]; i++)
		if (!strcmp(skel, side_names[i])) {
			*why = "reads as the name of a side (South, North, Sur, Norte, White, Black,"
			       " Blancas, Negras)";
			return -1;
		}
	return 0;
}
