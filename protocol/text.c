/* text.c: names and chat lines checked and trimmed (text.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "protocol/text.h"
#include "protocol/text_tables.h"
#include "protocol/text_words.h"

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


/* ---- a name read: as a side's name, a word of an event, a look-alike ---- */

/* The words a name may not read as (protocol/text_words.h, made from the
 * page's language files by protocol/gen_words.mjs): the sides' names in
 * every form the page shows, in every language; a club event's words for
 * results, byes, forfeits, withdrawals and its organiser; what the event
 * page puts after a withdrawn player's name. */
#define NSIDES (sizeof text_side_words / sizeof text_side_words[0])
#define NEVENT (sizeof text_event_words / sizeof text_event_words[0])
#define NSUFFIX (sizeof text_event_suffixes / sizeof text_event_suffixes[0])
/* UTF-16 units of a reading being made: a name of 24 code points grows at
 * most 18-fold under NFKC (U+FDFA) and a few times under the skeleton. */
#define READ_CAP 4096
#define WORD_CAP 64
#define SMALL_CAPS_MAX 64
_Static_assert(PROTO_NAME_KEY_BYTES > READ_CAP * 3, "a key of READ_CAP units fits");

/* A word's reading (case folded). */
struct word_reading {
	UChar r[WORD_CAP];
	int32_t n;
};

static struct {
	int ok;                     /* ICU and the tables below are ready */
	const UNormalizer2 *nfkc, *nfkc_cf;
	USpoofChecker *spoof;
	/* The skeletons of the small capitals (ᴋ's is ĸ, the one of Cyrillic
	 * к too), each with the letter it reads as. */
	UChar32 proto[SMALL_CAPS_MAX];
	char proto_letter[SMALL_CAPS_MAX];
	int nproto;
	struct word_reading side[NSIDES], event[NEVENT], suffix[NSUFFIX];
	char event_letters[NEVENT]; /* 0 for a result written without a letter ("1–0") */
	char side_why[NSIDES][96];  /* "reads as the name of a side (South)" */
} rd;

static pthread_once_t rd_once = PTHREAD_ONCE_INIT;

/* The text_letters entry of c, or NULL. */
static const struct text_letter *letter_of(UChar32 c)
{
	size_t lo = 0, hi = sizeof text_letters / sizeof text_letters[0];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c < text_letters[mid].c)
			hi = mid;
		else if (c > text_letters[mid].c)
			lo = mid + 1;
		else
			return &text_letters[mid];
	}
	return NULL;
}

/* Passed over in a reading: white space, punctuation, symbols and
 * separators (the fillers drawn as nothing are default ignorable, which
 * NFKC_Casefold has already removed; U+2800 is a symbol). */
static int passed_over(UChar32 c)
{
	return u_isUWhiteSpace(c) ||
	       (U_GET_GC_MASK(c) & (U_GC_P_MASK | U_GC_S_MASK | U_GC_Z_MASK | U_GC_CC_MASK |
	                            U_GC_CF_MASK)) != 0;
}

/* 1 when the code point c, a symbol or punctuation as typed, is drawn as
 * a letter: a letter symbol (text_letters), or one that NFKC_Casefold
 * turns into text with a letter (Ⓢ, ⒮, ™, ₨). */
static int drawn_as_letter(UChar32 c)
{
	UChar u[2], v[32];
	UErrorCode e = U_ZERO_ERROR;
	int32_t n = 0, nv;
	const struct text_letter *l = letter_of(c);

	if (l && !l->small_capital)
		return 1;
	U16_APPEND_UNSAFE(u, n, c);
	nv = unorm2_normalize(rd.nfkc_cf, u, n, v, 32, &e);
	for (int32_t i = 0; U_SUCCESS(e) && i < nv;) {
		UChar32 ch;

		U16_NEXT(v, i, nv, ch);
		if (u_hasBinaryProperty(ch, UCHAR_ALPHABETIC))
			return 1;
	}
	return 0;
}

/* The ways a name is read (reading()'s early): punctuation and symbols
 * passed over at the end only; also before the skeletons, as typed,
 * unless drawn as a letter; all of them before the skeletons. */
enum { READ_LATE = 0, READ_EARLY = 1, READ_EARLY_ALL = 2 };

/* The reading of the n units at in into out (cap units), as PROTOCOL.md
 * ("Names and chat") states it: with early READ_EARLY, the characters
 * typed as white space, punctuation or symbols passed over at once
 * unless drawn as a letter (the skeleton of an em dash is a letter, ー:
 * "South—" must read as South), with READ_EARLY_ALL all of them (™ after
 * "South"); NFKC_Casefold (fold 1) or NFKC (fold 0); the letter symbols
 * as their letter; then, until it stays the same (4 rounds at most), the
 * UTS #39 skeleton, its marks dropped, the small capitals and their
 * skeletons as their letter, NFKC_Casefold; last, white space,
 * punctuation and symbols dropped. Its length, or -1 when ICU fails (a
 * buffer too small included). */
static int32_t reading(const UChar *in, int32_t n, int fold, int early, UChar *out, int32_t cap)
{
	UChar a[READ_CAP], b[READ_CAP];
	UErrorCode e = U_ZERO_ERROR;
	int32_t na, nb, i, o;

	if (early != READ_LATE) {
		for (i = 0, o = 0; i < n;) {
			UChar32 c;

			U16_NEXT(in, i, n, c);
			if (passed_over(c) && (early == READ_EARLY_ALL || !drawn_as_letter(c)))
				continue;
			U16_APPEND_UNSAFE(a, o, c); /* o <= i <= n < READ_CAP */
		}
		in = a;
		n = o;
	}
	nb = unorm2_normalize(fold ? rd.nfkc_cf : rd.nfkc, in, n, b, READ_CAP, &e);
	if (U_FAILURE(e))
		return -1;
	for (i = 0, na = 0; i < nb;) {
		UChar32 c;
		const struct text_letter *l;

		U16_NEXT(b, i, nb, c);
		if ((l = letter_of(c)) && !l->small_capital)
			c = (UChar32)(unsigned char)l->letter;
		U16_APPEND_UNSAFE(a, na, c); /* na <= i: a letter takes no more units */
	}
	for (int round = 0; round < 4; round++) {
		UChar c[READ_CAP];
		int32_t nc;

		nb = uspoof_getSkeleton(rd.spoof, 0, a, na, b, READ_CAP, &e);
		if (U_FAILURE(e))
			return -1;
		/* The marks go (ø's skeleton is o and a solidus overlay), small
		 * capitals become their letters (in place: it only shrinks). */
		for (i = 0, o = 0; i < nb;) {
			UChar32 ch;

			U16_NEXT(b, i, nb, ch);
			if (U_GET_GC_MASK(ch) & (U_GC_MN_MASK | U_GC_ME_MASK))
				continue;
			for (int k = 0; k < rd.nproto; k++)
				if (rd.proto[k] == ch) {
					ch = (UChar32)(unsigned char)rd.proto_letter[k];
					break;
				}
			U16_APPEND_UNSAFE(b, o, ch);
		}
		nc = unorm2_normalize(rd.nfkc_cf, b, o, c, READ_CAP, &e);
		if (U_FAILURE(e))
			return -1;
		if (nc == na && !u_memcmp(c, a, na))
			break;
		u_memcpy(a, c, nc);
		na = nc;
	}
	for (i = 0, o = 0; i < na;) {
		UChar32 c;

		U16_NEXT(a, i, na, c);
		if (passed_over(c))
			continue;
		if (o + 2 > cap)
			return -1;
		U16_APPEND_UNSAFE(out, o, c);
	}
	return o;
}

/* The words' readings (case folded, symbols passed over early) into w;
 * 0 or -1. */
static int read_words(const struct text_word *t, size_t n, struct word_reading *w)
{
	for (size_t i = 0; i < n; i++) {
		UChar u[WORD_CAP];
		UErrorCode e = U_ZERO_ERROR;
		int32_t nu;

		u_strFromUTF8(u, WORD_CAP, &nu, t[i].word, -1, &e);
		if (U_FAILURE(e) || (w[i].n = reading(u, nu, 1, READ_EARLY, w[i].r, WORD_CAP)) < 0)
			return -1;
	}
	return 0;
}

/* 1 when the UTF-8 text s has a letter (Unicode's Alphabetic). */
static int has_letter(const char *s)
{
	int k;

	for (size_t i = 0, len = strlen(s); i < len; i += (size_t)k) {
		long c = utf8_next((const unsigned char *)s + i, len - i, &k);

		if (c < 0)
			return 0;
		if (u_hasBinaryProperty((UChar32)c, UCHAR_ALPHABETIC))
			return 1;
	}
	return 0;
}

/* Once: ICU's normalizers and spoof checker, the small capitals'
 * skeletons, the words' readings. rd.ok stays 0 when any fails. */
static void rd_init(void)
{
	UErrorCode e = U_ZERO_ERROR;

	rd.nfkc = unorm2_getNFKCInstance(&e);
	rd.nfkc_cf = unorm2_getNFKCCasefoldInstance(&e);
	rd.spoof = uspoof_open(&e);
	if (U_FAILURE(e))
		return;
	for (size_t i = 0; i < sizeof text_letters / sizeof text_letters[0]; i++) {
		UChar c[2], sk[8];
		int32_t n = 0, nsk;
		UChar32 p;

		if (!text_letters[i].small_capital || rd.nproto + 2 > SMALL_CAPS_MAX)
			continue;
		U16_APPEND_UNSAFE(c, n, (UChar32)text_letters[i].c);
		rd.proto[rd.nproto] = (UChar32)text_letters[i].c;
		rd.proto_letter[rd.nproto++] = text_letters[i].letter;
		nsk = uspoof_getSkeleton(rd.spoof, 0, c, n, sk, 8, &e);
		if (U_FAILURE(e))
			return;
		n = 0;
		U16_NEXT(sk, n, nsk, p);
		if (n == nsk && p != (UChar32)text_letters[i].c) {
			rd.proto[rd.nproto] = p;
			rd.proto_letter[rd.nproto++] = text_letters[i].letter;
		}
	}
	for (size_t i = 0; i < NSIDES; i++)
		snprintf(rd.side_why[i], sizeof rd.side_why[i], "reads as the name of a side (%s)",
		         text_side_words[i].word);
	for (size_t i = 0; i < NEVENT; i++)
		rd.event_letters[i] = has_letter(text_event_words[i].word);
	if (read_words(text_side_words, NSIDES, rd.side) < 0 ||
	    read_words(text_event_words, NEVENT, rd.event) < 0 ||
	    read_words(text_event_suffixes, NSUFFIX, rd.suffix) < 0)
		return;
	rd.ok = 1;
}

/* The cleaned name (UTF-8) as UTF-16 in u (PROTO_NAME_BYTES + 1 units):
 * its length, or -1 when ICU's data is missing or it does not convert. */
static int32_t name_units(const char *name, UChar *u)
{
	UErrorCode e = U_ZERO_ERROR;
	int32_t n;

	pthread_once(&rd_once, rd_init);
	if (!rd.ok || strlen(name) > PROTO_NAME_BYTES)
		return -1;
	u_strFromUTF8(u, PROTO_NAME_BYTES + 1, &n, name, -1, &e);
	return U_FAILURE(e) ? -1 : n;
}

/* The word of w (nw readings) that one of the readings of the name's n
 * units at u is (suffix 0), or ends with (suffix 1: a reading longer than
 * the word), skip[i] != 0 leaving word i out (skip NULL: none): its
 * index, -1 for none, -2 when ICU fails. The name is read
 * case folded and as typed (a capital I drawn as an l, "BIack", reads as
 * Black only before folding), each in reading()'s three ways (punctuation
 * and symbols passed over before the skeletons, or after them: "∩orth"
 * reads as North only after). */
static int read_as(const UChar *u, int32_t n, const struct word_reading *w, size_t nw, int suffix,
                   const char *skip)
{
	UChar r[READ_CAP];

	for (int way = 0; way < 6; way++) {
		int32_t nr = reading(u, n, way < 3, way % 3, r, READ_CAP);

		if (nr < 0)
			return -2;
		for (size_t i = 0; i < nw; i++) {
			if (skip && skip[i])
				continue;
			if (!suffix && nr == w[i].n && !u_memcmp(r, w[i].r, nr))
				return (int)i;
			if (suffix && w[i].n > 0 && nr > w[i].n &&
			    !u_memcmp(r + nr - w[i].n, w[i].r, w[i].n))
				return (int)i;
		}
	}
	return -1;
}

int proto_name_check(const char *name, const char **why)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t len = strlen(name);
	int visible = 0, k, side;
	UChar u[PROTO_NAME_BYTES + 1];
	int32_t n;

	for (size_t i = 0; i < len; i += (size_t)k) {
		long c = utf8_next(s + i, len - i, &k);

		if (c < 0) {
			*why = "not valid UTF-8";
			return -1;
		}
		if (!is_space(c) && !is_mark(c) && !is_filler(c))
			visible = 1;
	}
	if (!visible) {
		*why = "no visible character";
		return -1;
	}
	if (len > PROTO_NAME_BYTES) {
		*why = "too long";
		return -1;
	}
	if ((n = name_units(name, u)) < 0) {
		*why = "cannot be compared with the sides' names (the server lacks ICU's data)";
		return -1;
	}
	if ((side = read_as(u, n, rd.side, NSIDES, 0, NULL)) == -2) {
		*why = "cannot be compared with the sides' names";
		return -1;
	}
	if (side >= 0) {
		*why = rd.side_why[side];
		return -1;
	}
	return 0;
}

int proto_name_event_word(const char *name, const char **word)
{
	UChar u[PROTO_NAME_BYTES + 1], r[READ_CAP];
	char skip[NEVENT] = {0};
	int32_t n, nr;
	int i;

	if ((n = name_units(name, u)) < 0 || (nr = reading(u, n, 1, READ_EARLY, r, READ_CAP)) < 0)
		return -1;
	if (nr == 0) {
		*word = "";
		return 1;
	}
	/* A name with a letter is not a result written without one: "Lo"
	 * reads as 1-0 only through the skeletons of the digits. */
	if (has_letter(name))
		for (size_t j = 0; j < NEVENT; j++)
			skip[j] = !rd.event_letters[j];
	if ((i = read_as(u, n, rd.event, NEVENT, 0, skip)) >= 0) {
		*word = text_event_words[i].word;
		return 1;
	}
	if (i == -1 && (i = read_as(u, n, rd.suffix, NSUFFIX, 1, NULL)) >= 0) {
		*word = text_event_suffixes[i].word;
		return 1;
	}
	return i == -1 ? 0 : -1;
}

int proto_name_key(const char *name, char *out, size_t outsz)
{
	UChar u[PROTO_NAME_BYTES + 1], r[READ_CAP];
	UErrorCode e = U_ZERO_ERROR;
	int32_t n, nr, len;

	if ((n = name_units(name, u)) < 0 || (nr = reading(u, n, 1, READ_EARLY, r, READ_CAP)) < 0 ||
	    outsz > INT32_MAX)
		return -1;
	u_strToUTF8(out, (int32_t)outsz, &len, r, nr, &e);
	if (U_FAILURE(e) || (size_t)len >= outsz)
		return -1;
	out[len] = 0;
	return len;
}
