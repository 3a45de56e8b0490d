/* text.c: names and chat lines checked and trimmed (text.h). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

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


/* ---- a name that reads as a side's name ---- */

/* The sides' names in every language the page speaks or is being
 * translated to (English, Spanish, French, Russian, Kazakh), both games:
 * Oware's South and North, Togyz Kumalak's White and Black. A name whose
 * reading (below) is one of theirs is refused with why. */
static const struct {
	const char *name, *why;
} sides[] = {
#define SIDE(s) {s, "reads as the name of a side (" s ")"}
	SIDE("South"), SIDE("North"), SIDE("White"), SIDE("Black"),                  /* en */
	SIDE("Sur"), SIDE("Norte"), SIDE("Blancas"), SIDE("Negras"),                 /* es */
	SIDE("Sud"), SIDE("Nord"), SIDE("Blancs"), SIDE("Noirs"),                    /* fr */
	SIDE("\xd0\xae\xd0\xb3"),                                                    /* ru Юг */
	SIDE("\xd0\xa1\xd0\xb5\xd0\xb2\xd0\xb5\xd1\x80"),                            /* Север */
	SIDE("\xd0\x91\xd0\xb5\xd0\xbb\xd1\x8b\xd0\xb5"),                            /* Белые */
	SIDE("\xd0\xa7\xd1\x91\xd1\x80\xd0\xbd\xd1\x8b\xd0\xb5"),                    /* Чёрные */
	SIDE("\xd0\x9e\xd2\xa3\xd1\x82\xd2\xaf\xd1\x81\xd1\x82\xd1\x96\xd0\xba"),    /* kk Оңтүстік */
	SIDE("\xd0\xa1\xd0\xbe\xd0\xbb\xd1\x82\xd2\xaf\xd1\x81\xd1\x82\xd1\x96\xd0\xba"), /* Солтүстік */
	SIDE("\xd0\x90\xd2\x9b"),                                                    /* Ақ */
	SIDE("\xd2\x9a\xd0\xb0\xd1\x80\xd0\xb0"),                                    /* Қара */
#undef SIDE
};

#define NSIDES (sizeof sides / sizeof sides[0])
/* UTF-16 units of a reading being made: a name of 24 code points grows at
 * most 18-fold under NFKC (U+FDFA) and a few times under the skeleton. */
#define READ_CAP 4096
#define SIDE_CAP 32
#define SMALL_CAPS_MAX 64

static struct {
	int ok;                     /* ICU and the tables below are ready */
	const UNormalizer2 *nfkc, *nfkc_cf;
	USpoofChecker *spoof;
	/* The skeletons of the small capitals (ᴋ's is ĸ, the one of Cyrillic
	 * к too), each with the letter it reads as. */
	UChar32 proto[SMALL_CAPS_MAX];
	char proto_letter[SMALL_CAPS_MAX];
	int nproto;
	UChar side[NSIDES][SIDE_CAP]; /* the sides' readings */
	int32_t side_len[NSIDES];
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

/* The reading of the n units at in into out (cap units), as PROTOCOL.md
 * ("Names and chat") states it: NFKC_Casefold (fold 1) or NFKC (fold 0);
 * the letter symbols as their letter; then, until it stays the same (4
 * rounds at most), the UTS #39 skeleton, its marks dropped, the small
 * capitals and their skeletons as their letter, NFKC_Casefold; last,
 * white space, punctuation and symbols dropped. Its length, or -1 when
 * ICU fails (a buffer too small included). */
static int32_t reading(const UChar *in, int32_t n, int fold, UChar *out, int32_t cap)
{
	UChar a[READ_CAP], b[READ_CAP];
	UErrorCode e = U_ZERO_ERROR;
	int32_t na, nb, i, o;

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

/* Once: ICU's normalizers and spoof checker, the small capitals'
 * skeletons, the sides' readings. rd.ok stays 0 when any fails. */
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
	for (size_t i = 0; i < NSIDES; i++) {
		UChar u[SIDE_CAP];
		int32_t n;

		u_strFromUTF8(u, SIDE_CAP, &n, sides[i].name, -1, &e);
		if (U_FAILURE(e) || (rd.side_len[i] = reading(u, n, 1, rd.side[i], SIDE_CAP)) < 0)
			return;
	}
	rd.ok = 1;
}

/* The side whose reading r (n units) is, or -1. */
static int side_read(const UChar *r, int32_t n)
{
	for (size_t i = 0; i < NSIDES; i++)
		if (n == rd.side_len[i] && !u_memcmp(r, rd.side[i], n))
			return (int)i;
	return -1;
}

int proto_name_check(const char *name, const char **why)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t len = strlen(name);
	int visible = 0, k;
	UChar u[PROTO_NAME_BYTES + 1], r[READ_CAP];
	UErrorCode e = U_ZERO_ERROR;
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
	pthread_once(&rd_once, rd_init);
	u_strFromUTF8(u, PROTO_NAME_BYTES + 1, &n, name, (int32_t)len, &e);
	if (!rd.ok || U_FAILURE(e)) {
		*why = "cannot be compared with the sides' names (the server lacks ICU's data)";
		return -1;
	}
	/* Read case folded first, and as typed (a capital I drawn as an l,
	 * "BIack", reads as Black only before folding). */
	for (int fold = 1; fold >= 0; fold--) {
		int32_t nr = reading(u, n, fold, r, READ_CAP);
		int side;

		if (nr < 0) {
			*why = "cannot be compared with the sides' names";
			return -1;
		}
		if ((side = side_read(r, nr)) >= 0) {
			*why = sides[side].why;
			return -1;
		}
	}
	return 0;
}
