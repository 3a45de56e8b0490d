/* test_text.c: Check unit tests of names and chat lines (issue 14): the
 * checks of protocol/text.h, the `name` and `chat` messages and the names
 * of create/join (protocol/message.h), the chat messages written, and the
 * body of POST /api/rooms. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>
#include <unicode/uchar.h>

#include "protocol/message.h"
#include "protocol/text.h"
#include "protocol/text_words.h"

/* proto_text_clean of s (strlen) with max code points: the result, the
 * kept text in out. */
static int clean(const char *s, int max, char *out)
{
	const char *why = NULL;
	int n = proto_text_clean(s, strlen(s), max, out, (size_t)max * 4 + 1, &why);

	if (n < 0)
		ck_assert_msg(why && why[0], "a refusal without a reason for %s", s);
	return n;
}

START_TEST(test_trim_and_keep)
{
	char out[PROTO_CHAT_BYTES + 1];

	ck_assert_int_eq(clean("Ana", 24, out), 3);
	ck_assert_str_eq(out, "Ana");
	ck_assert_int_eq(clean("  \t Ana María \r\n", 24, out), (int)strlen("Ana María"));
	ck_assert_str_eq(out, "Ana María");
	/* Unicode spaces trimmed at the ends (NBSP, ideographic space), kept inside. */
	ck_assert_int_eq(clean("\xc2\xa0" "a\xc2\xa0" "b\xe3\x80\x80", 24, out), 4);
	ck_assert_str_eq(out, "a\xc2\xa0" "b");
	/* Markup is text like any other. */
	ck_assert_int_eq(clean("<script>alert(1)</script>", 300, out), 25);
	ck_assert_str_eq(out, "<script>alert(1)</script>");
}
END_TEST

START_TEST(test_lengths_in_code_points)
{
	char in[2048], out[PROTO_CHAT_BYTES + 1];

	memset(in, 'x', 24);
	in[24] = 0;
	ck_assert_int_eq(clean(in, 24, out), 24);
	in[24] = 'x';
	in[25] = 0;
	ck_assert_int_eq(clean(in, 24, out), -1);
	/* 24 emoji of 4 bytes each: 96 bytes, 24 code points. */
	in[0] = 0;
	for (int i = 0; i < 24; i++)
		strcat(in, "\xf0\x9f\x98\x80");
	ck_assert_int_eq(clean(in, 24, out), 96);
	strcat(in, "\xf0\x9f\x98\x80");
	ck_assert_int_eq(clean(in, 24, out), -1);
	/* 300 characters of chat (accented: 2 bytes each), then 301. */
	in[0] = 0;
	for (int i = 0; i < 300; i++)
		strcat(in, "\xc3\xa9");
	ck_assert_int_eq(clean(in, 300, out), 600);
	strcat(in, "e");
	ck_assert_int_eq(clean(in, 300, out), -1);
	/* Spaces around do not count. */
	in[0] = 0;
	strcat(in, "   ");
	for (int i = 0; i < 24; i++)
		strcat(in, "y");
	strcat(in, "   ");
	ck_assert_int_eq(clean(in, 24, out), 24);
}
END_TEST

START_TEST(test_refused)
{
	static const char *const bad[] = {
		"", "   ", "\xc2\xa0\xe3\x80\x80", "\t\n",
		"a\x07" "b", "a\nb", "a\tb", "a\rb", "a\x7f", "a\xc2\x85" "b", /* Cc, C1 */
		"a\xc2\xad" "b",          /* soft hyphen (Cf) */
		"a\xe2\x80\x8b" "b",      /* zero-width space */
		"a\xe2\x80\x8d" "b",      /* zero-width joiner */
		"\xe2\x80\xae" "abc",     /* right-to-left override */
		"a\xe2\x81\xa6" "b",      /* left-to-right isolate */
		"a\xef\xbb\xbf",          /* byte order mark */
		"a\xe2\x80\xa8" "b",      /* line separator */
		"a\xe2\x80\xa9" "b",      /* paragraph separator */
		"\xee\x80\x80",           /* private use U+E000 */
		"\xf3\xb0\x80\x80",       /* private use U+F0000 */
		"\xef\xbf\xbe",           /* noncharacter U+FFFE */
		"\xef\xb7\x90",           /* noncharacter U+FDD0 */
		"\xf3\xa0\x80\x81",       /* language tag U+E0001 */
		"\xc3",                   /* truncated UTF-8 */
		"\xc0\xaf",               /* overlong */
		"\xed\xa0\x80",           /* a surrogate */
		"\xf4\x90\x80\x80",       /* past U+10FFFF */
		"\xff",
	};
	char out[PROTO_CHAT_BYTES + 1];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(clean(bad[i], 300, out) == -1, "accepted bad text %zu", i);
	/* NUL inside (jansson passes \u0000 through with its length). */
	{
		const char *why;

		ck_assert_int_eq(proto_text_clean("a\0b", 3, 24, out, sizeof out, &why), -1);
	}
	/* Printable characters of other scripts and symbols pass. */
	ck_assert_int_gt(clean("\xd8\xb9\xd9\x84\xd9\x8a", 24, out), 0); /* Arabic */
	ck_assert_int_gt(clean("\xe5\xbc\xa0\xe4\xbc\x9f", 24, out), 0); /* CJK */
	ck_assert_int_gt(clean("e\xcc\x81", 24, out), 0);                 /* combining acute */
	ck_assert_int_gt(clean("\xe2\x9d\xa4\xef\xb8\x8f", 24, out), 0); /* heart + VS16 */
}
END_TEST

static int parse(const char *s, proto_msg *m, char *err)
{
	return proto_msg_parse(s, strlen(s), m, err, 128);
}

/* proto_name_check of a cleaned name: 0 or -1. */
static int name_ok(const char *name)
{
	const char *why = NULL;
	int r = proto_name_check(name, &why);

	if (r < 0)
		ck_assert_msg(why && why[0], "a refusal without a reason for %s", name);
	return r;
}

START_TEST(test_names_hostile)
{
	static const char *const bad[] = {
		"South", "south", "SOUTH", "North", "Sur", "Norte", "White", "Black",
		"Blancas", "Negras", "nOrTe",
		"S o u t h", "South!", "south.", "-North-", "\xc2\xbf" "Sur?",  /* ¿Sur? */
		"South \xf0\x9f\x98\x80",                       /* South 😀 */
		"\xef\xbc\xb3\xef\xbd\x8f\xef\xbd\x95\xef\xbd\x94\xef\xbd\x88", /* fullwidth Ｓｏｕｔｈ */
		"\xf0\x9d\x90\x92\xf0\x9d\x90\xa8\xf0\x9d\x90\xae\xf0\x9d\x90\xad\xf0\x9d\x90\xa1", /* 𝐒𝐨𝐮𝐭𝐡 */
		"\xd0\x85\xd0\xbe\x75\x74\x68",                 /* Cyrillic Ѕо + "uth" */
		"N\xce\x9f" "RTH",                              /* Greek capital omicron */
		"S\xc3\xb6" "uth", "So\xcc\x88" "uth",          /* Söuth, o + combining diaeresis */
		"\xc3\x91" "orte",                              /* Ñorte */
		"S o u t h!", "Negras \xf0\x9f\x98\x80",        /* PROTOCOL.md's examples */
		"\xef\xbc\xb3\xef\xbc\xaf\xef\xbc\xb5\xef\xbc\xb4\xef\xbc\xa8", /* ＳＯＵＴＨ */
		"\xe2\x93\x8c\xe2\x93\x97\xe2\x93\x98\xe2\x93\xa3\xe2\x93\x94", /* circled ⓌⒽⒾⓉⒺ */
		"Negra\xc5\xbf",                                /* long s */
		"\xe3\x85\xa4",                                 /* Hangul filler U+3164 alone */
		"\xe3\x85\xa4\xe3\x85\xa4\xe3\x85\xa4",
		"\xe2\xa0\x80",                                 /* blank Braille U+2800 */
		"\xe1\x85\x9f\xe1\x85\xa0",                     /* U+115F U+1160 */
		"\xef\xbe\xa0",                                 /* halfwidth filler U+FFA0 */
		"\xcc\x81\xcc\x81",                             /* combining marks alone */
		"\xe3\x85\xa4\xc2\xa0\xe2\xa0\x80",             /* filler, no-break space, blank */
		"South\xe3\x85\xa4",                           /* a filler after it, passed over */
	};
	static const char *const good[] = {
		"Ana", "Ana Mar\xc3\xad" "a", "Southpaw", "North Star", "Blanca", "Sur2",
		"S", "\xe5\x8c\x97",                            /* 北 */
		"Kofi \xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", ".", "Sou\xe5\x8c\x97th",
		"\xe3\x85\xa4" "a",                             /* a filler beside a letter */
		"Nguy\xe1\xbb\x85n",                            /* Nguyễn */
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(name_ok(bad[i]) == -1, "accepted name %zu: %s", i, bad[i]);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(name_ok(good[i]) == 0, "refused name %zu: %s", i, good[i]);
}
END_TEST

/* The look-alikes (issue 40, item 5) and the sides of every language
 * the page speaks or will: refused; ordinary names of those languages,
 * some close to a side's, accepted. */
START_TEST(test_names_confusable)
{
	static const char *const bad[] = {
		"\xea\x9c\xb1\xe1\xb4\x8f\xe1\xb4\x9c\xe1\xb4\x9b\xca\x9c", /* ꜱᴏᴜᴛʜ */
		"\xc9\xb4\xe1\xb4\x8f\xca\x80\xe1\xb4\x9b\xca\x9c", /* ɴᴏʀᴛʜ */
		"\xe1\xb4\xa1\xca\x9c\xc9\xaa\xe1\xb4\x9b\xe1\xb4\x87", /* ᴡʜɪᴛᴇ */
		"\xca\x99\xca\x9f\xe1\xb4\x80\xe1\xb4\x84\xe1\xb4\x8b", /* ʙʟᴀᴄᴋ */
		"\xea\x93\xa2\xea\x93\xb3\xea\x93\xb4\xea\x93\x94\xea\x93\xa7", /* ꓢꓳꓴꓔꓧ */
		"\xf0\x9f\x86\x82\xf0\x9f\x85\xbe\xf0\x9f\x86\x84\xf0\x9f\x86\x83\xf0\x9f\x85\xb7", /* 🆂🅾🆄🆃🅷 */
		"\xe2\x92\xae\xe2\x92\xaa\xe2\x92\xb0\xe2\x92\xaf\xe2\x92\xa3", /* ⒮⒪⒰⒯⒣ */
		"\xf0\x9f\x87\xb8\xf0\x9f\x87\xb4\xf0\x9f\x87\xba\xf0\x9f\x87\xb9\xf0\x9f\x87\xad", /* 🇸🇴🇺🇹🇭 */
		"\xf0\x9f\x87\xb3\xf0\x9f\x87\xb4\xf0\x9f\x87\xb7\xf0\x9f\x87\xb9\xf0\x9f\x87\xad", /* 🇳🇴🇷🇹🇭 */
		"S\xc3\xb8uth", /* Søuth */
		"B\xc5\x82" "ack", /* Błack */
		"Wh\xc4\xb1te", /* Whıte */
		"Bl\xc9\x91" "ck", /* Blɑck */
		"Sou\xd1\x82h", /* Souтh */
		"S0uth", /* S0uth */
		"B1ack", /* B1ack */
		"\xd0\x85\xd0\xbeuth", /* Ѕоuth */
		"BIack", /* BIack */
		"N\xd0\xberth", /* Nоrth */
		"\xd0\x85\xd0\x9eU\xd0\xa2\xd0\x9d", /* ЅОUТН */
		"Sud", /* Sud */
		"NORD", /* NORD */
		"Blancs", /* Blancs */
		"noirs", /* noirs */
		"N\xc3\xb8rd", /* Nørd */
		"\xd0\x85ud", /* Ѕud */
		"\xd0\xae\xd0\xb3", /* Юг */
		"\xd0\xae\xd0\x93", /* ЮГ */
		"\xd0\xa1\xd0\xb5\xd0\xb2\xd0\xb5\xd1\x80", /* Север */
		"\xd0\xa1\xd0\x95\xd0\x92\xd0\x95\xd0\xa0", /* СЕВЕР */
		"Cebep", /* Cebep */
		"\xd0\x91\xd0\xb5\xd0\xbb\xd1\x8b\xd0\xb5", /* Белые */
		"\xd0\xa7\xd1\x91\xd1\x80\xd0\xbd\xd1\x8b\xd0\xb5", /* Чёрные */
		"\xd0\xa7\xd0\xb5\xd1\x80\xd0\xbd\xd1\x8b\xd0\xb5", /* Черные */
		"\xd0\xa7\xd0\x95\xd0\xa0\xd0\x9d\xd0\xab\xd0\x95", /* ЧЕРНЫЕ */
		"\xd0\x9e\xd2\xa3\xd1\x82\xd2\xaf\xd1\x81\xd1\x82\xd1\x96\xd0\xba", /* Оңтүстік */
		"\xd0\x9e\xd0\xbd\xd1\x82\xd1\x83\xd1\x81\xd1\x82\xd1\x96\xd0\xba", /* Онтустік: н, у for ң, ү */
		"\xd0\xa1\xd0\xbe\xd0\xbb\xd1\x82\xd2\xaf\xd1\x81\xd1\x82\xd1\x96\xd0\xba", /* Солтүстік */
		"\xd0\x90\xd2\x9b", /* Ақ */
		"\xd0\x90\xd0\xba", /* Ак */
		"Ak", /* Ak */
		"AK", /* AK */
		"\xd2\x9a\xd0\xb0\xd1\x80\xd0\xb0", /* Қара */
		"\xd0\x9a\xd0\xb0\xd1\x80\xd0\xb0", /* Кара */
		"Kapa", /* Kapa */
		"\xe2\x93\x88\xe2\x93\xa4\xe2\x93\x93", /* Ⓢⓤⓓ */
		"S u d !", /* S u d ! */
		"South\xe3\x85\xa4", /* South<U+3164> */
		"\xe3\x85\xa4South", /* <U+3164>South */
		"Sou\xe3\x85\xa4th", /* Sou<U+3164>th */
		"S\xe2\xa0\x80outh", /* S<U+2800>outh */
	};
	static const char *const good[] = {
		"Ana", /* Ana */
		"Sudhir", /* Sudhir */
		"Nordine", /* Nordine */
		"Norberto", /* Norberto */
		"Blanca", /* Blanca */
		"Noir", /* Noir */
		"Kara", /* Kara */
		"Akira", /* Akira */
		"Sudo", /* Sudo */
		"\xd0\xae\xd0\xb6\xd0\xb0\xd0\xbd\xd0\xb8\xd0\xbd", /* Южанин */
		"\xd0\xa1\xd0\xb5\xd0\xb2\xd0\xb5\xd1\x80\xd0\xb8\xd0\xbd", /* Северин */
		"\xd0\x91\xd0\xb5\xd0\xbb\xd0\xbb\xd0\xb0", /* Белла */
		"\xd0\x90\xd2\x9b\xd0\xb1\xd0\xbe\xd1\x82\xd0\xb0", /* Ақбота */
		"\xd2\x9a\xd0\xb0\xd1\x80\xd0\xbb\xd1\x8b\xd2\x93\xd0\xb0\xd1\x88", /* Қарлығаш */
		"\xd0\x90\xd0\xb9\xd0\xb3\xd2\xaf\xd0\xbb", /* Айгүл */
		"\xd0\x95\xd1\x80\xd0\xbb\xd0\xb0\xd0\xbd", /* Ерлан */
		"Southpaw", /* Southpaw */
		"Noirs et blancs", /* Noirs et blancs */
		"Sur del r\xc3\xado", /* Sur del río */
		"Nguy\xe1\xbb\x85n", /* Nguyễn */
		"\xc5\x8cta", /* Ōta */
		"Jos\xc3\xa9", /* José */
		"\xc5\x81ukasz", /* Łukasz */
		"S\xc3\xb8ren", /* Søren */
		"Bj\xc3\xb6rn", /* Björn */
		"\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd", /* Иван */
		"\xd0\x9e\xd0\xbd\xd1\x82\xd1\x83\xd1\x81\xd1\x82\xd0\xb8\xd0\xba", /* Онтустик: и is no і */
		"\xd0\xa1\xd0\xbe\xd0\xbd\xd1\x8f", /* Соня */
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(name_ok(bad[i]) == -1, "accepted name %zu: %s", i, bad[i]);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(name_ok(good[i]) == 0, "refused name %zu: %s", i, good[i]);
}
END_TEST

/* The reason names the side the name reads as. */
START_TEST(test_names_say_which_side)
{
	const char *why = NULL;

	ck_assert_int_eq(proto_name_check("\xea\x9c\xb1\xe1\xb4\x8f\xe1\xb4\x9c\xe1\xb4\x9b\xca\x9c", &why), -1);
	ck_assert_str_eq(why, "reads as the name of a side (South)");           /* ꜱᴏᴜᴛʜ */
	ck_assert_int_eq(proto_name_check("Cebep", &why), -1);
	ck_assert_str_eq(why, "reads as the name of a side (\xd0\xa1\xd0\xb5\xd0\xb2\xd0\xb5\xd1\x80)"); /* Север */
	ck_assert_int_eq(proto_name_check("noirs", &why), -1);
	ck_assert_str_eq(why, "reads as the name of a side (Noirs)");
}
END_TEST

/* Issue 52, part 2: every form of a side's name the page shows, in every
 * language (the list made from the language files), is refused; the
 * Kazakh sides' plurals by name. */
START_TEST(test_names_every_form_shown)
{
	static const char *const bad[] = {
		"\xd0\x90\xd2\x9b\xd1\x82\xd0\xb0\xd1\x80",                 /* Ақтар */
		"\xd2\x9a\xd0\xb0\xd1\x80\xd0\xb0\xd0\xbb\xd0\xb0\xd1\x80",     /* Қаралар */
		"\xd2\x9b\xd0\xb0\xd1\x80\xd0\xb0\xd0\xbb\xd0\xb0\xd1\x80",     /* қаралар */
		"\xd0\x90\xd2\x9b\xd1\x82\xd0\xb0\xd1\x80\xd0\xb4\xd1\x8b\xd2\xa3", /* Ақтардың */
		"el Sur", "EL NORTE", "las Negras", "del Sur", "les Noirs", "du Nord",
		"\xd0\xae\xd0\xb3\xd0\xb0",                                 /* Юга */
		"\xd1\x87\xd1\x91\xd1\x80\xd0\xbd\xd1\x8b\xd1\x85",             /* чёрных */
		"\xd0\x90\xd2\x9b",                                         /* Ақ, the explanation's */
	};
	const char *why = NULL;

	for (size_t i = 0; i < sizeof text_side_words / sizeof text_side_words[0]; i++)
		ck_assert_msg(name_ok(text_side_words[i].word) == -1, "accepted the side %s (%s)",
		              text_side_words[i].word, text_side_words[i].where);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(name_ok(bad[i]) == -1, "accepted name %zu: %s", i, bad[i]);
	ck_assert_int_eq(proto_name_check("\xd2\x9a\xd0\xb0\xd1\x80\xd0\xb0\xd0\xbb\xd0\xb0\xd1\x80", &why), -1);
	ck_assert_str_eq(why, "reads as the name of a side (\xd2\x9a\xd0\xb0\xd1\x80\xd0\xb0\xd0\xbb\xd0\xb0\xd1\x80)");
	ck_assert_int_eq(name_ok("Sur del r\xc3\xado"), 0);                  /* Sur del río */
	ck_assert_int_eq(name_ok("\xd0\x90\xd2\x9b\xd0\xb1\xd0\xbe\xd1\x82\xd0\xb0"), 0); /* Ақбота */
}
END_TEST

/* Issue 52, part 2: a side's name followed by a dash-like character (whose
 * confusable skeleton is a letter: the em dash's is ー) is refused, and so
 * is every other character of categories P and S after a side's name,
 * with or without a space between. */
START_TEST(test_names_side_then_punctuation)
{
	static const char *const bad[] = {
		"South\xe2\x80\x94",          /* South— (em dash) */
		"sUr \xe2\x80\x94",           /* sUr — */
		"North\xe2\x80\x95",          /* North― (horizontal bar) */
		"White\xe2\x94\x80",          /* White─ (box drawing) */
		"South -", "South \xe2\x80\x93", "South\xe2\x80\xa6", /* South -, South –, South… */
		"\xe2\x80\x94South",          /* —South */
		"\xe2\x88\xa9orth",           /* ∩orth: a symbol read as a letter still is */
	};
	static const char *const sides[] = { "South", "north", "WHITE", "Negras", "sUr ",
		"\xd0\x90\xd2\x9b\xd1\x82\xd0\xb0\xd1\x80" };            /* Ақтар */
	int tried = 0;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(name_ok(bad[i]) == -1, "accepted name %zu: %s", i, bad[i]);
	for (UChar32 c = 0x20; c <= 0x10ffff; c++) {
		char name[32];
		size_t n;

		if (!(U_GET_GC_MASK(c) & (U_GC_P_MASK | U_GC_S_MASK)))
			continue;
		n = (size_t)snprintf(name, sizeof name, "%s", sides[tried % 6]);
		if (c < 0x80)
			name[n++] = (char)c;
		else if (c < 0x800) {
			name[n++] = (char)(0xc0 | c >> 6);
			name[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			name[n++] = (char)(0xe0 | c >> 12);
			name[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			name[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			name[n++] = (char)(0xf0 | c >> 18);
			name[n++] = (char)(0x80 | (c >> 12 & 0x3f));
			name[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			name[n++] = (char)(0x80 | (c & 0x3f));
		}
		name[n] = 0;
		ck_assert_msg(name_ok(name) == -1, "accepted %s followed by U+%04X", sides[tried % 6],
		              (unsigned)c);
		tried++;
	}
	ck_assert_int_gt(tried, 7000);                  /* Unicode 15: 8,000 and more */
}
END_TEST

/* proto_name_key of s, checked to succeed. */
static const char *key(const char *s, char *out)
{
	ck_assert_msg(proto_name_key(s, out, PROTO_NAME_KEY_BYTES) >= 0, "no key for %s", s);
	return out;
}

/* Issue 49, item 9: look-alike names have one key; honest distinct names
 * have two. José and Jose are one (marks are dropped). */
START_TEST(test_names_alike)
{
	static const char *const same[][2] = {
		{"Ama", "\xd0\x90m\xd0\xb0"},                        /* Cyrillic Аmа */
		{"Ama", "\xce\x91ma"},                                 /* Greek Αma */
		{"Ama", "\xef\xbc\xa1\xef\xbd\x8d\xef\xbd\x81"},           /* fullwidth Ａｍａ */
		{"Ama", "\xf0\x9d\x90\x80ma"},                         /* bold 𝐀ma */
		{"Ama", "AMA"}, {"Ama", "ama"},
		{"Jos\xc3\xa9", "Jose\xcc\x81"},                        /* José NFC, NFD */
		{"Jos\xc3\xa9", "Jose"},
		{"Kofi", "Kofi\xe3\x85\xa4"},                          /* Kofi + U+3164 */
		{"Kofi", "K0fi"},
		{"Kofi", "Ko fi"}, {"Kofi", "Kofi."},
	};
	static const char *const apart[][2] = {
		{"Ama", "Amma"}, {"Ana", "Anna"}, {"Kofi", "Kofe"}, {"Ama", "Ema"},
		{"\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd", "Ivan"},               /* Иван, Ivan */
		{"\xe5\x8c\x97", "\xe5\x8d\x97"},                           /* 北, 南 */
	};
	char a[PROTO_NAME_KEY_BYTES], b[PROTO_NAME_KEY_BYTES];

	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
		ck_assert_msg(!strcmp(key(same[i][0], a), key(same[i][1], b)), "%s and %s apart: %s, %s",
		              same[i][0], same[i][1], a, b);
	for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++)
		ck_assert_msg(strcmp(key(apart[i][0], a), key(apart[i][1], b)), "%s and %s alike: %s",
		              apart[i][0], apart[i][1], a);
	ck_assert_int_eq(proto_name_key("Ama", a, 3), -1);     /* no room for the NUL */
	ck_assert_int_eq(proto_name_key("Ama", a, 5), 4);      /* arna */
}
END_TEST

/* Issue 49, item 9: the words of an event's page, protocol and exports,
 * in every language, and names that read as nothing, are not names in an
 * event; names near them are. */
START_TEST(test_names_event_words)
{
	static const char *const bad[] = {
		"bye", "(bye)", "organiser", "withdrawn", "white_forfeit", "Draw", "1-0", "?",
		"Ama (withdrawn)", "BYE", "Organizer", "0-1", "1/2-1/2", "\xc2\xbd-\xc2\xbd", /* ½-½ */
		"Tablas", "exempt", "Partie nulle",
		"\xd0\x9d\xd0\xb8\xd1\x87\xd1\x8c\xd1\x8f",                         /* Ничья */
		"Ama (\xd0\xb2\xd0\xbd\xd0\xb5 \xd1\x82\xd1\x83\xd1\x80\xd0\xbd\xd0\xb8\xd1\x80\xd0\xb0)",  /* Ama (вне турнира) */
		"Ama (forfait)",                                            /* Ama (forfait) */
		"\xf0\x9f\x98\x80", "!!!",                                       /* 😀 */
		"\xd0\xac\xd1\x83\xd0\xb5",                                       /* Ьуе (Cyrillic bye) */
	};
	static const char *const good[] = {
		"Ama", "Byers", "Drawson", "Lo", "Io", "Organ", "Kofi 2", "Ama (Accra)",
	};
	const char *word = NULL;

	for (size_t i = 0; i < sizeof text_event_words / sizeof text_event_words[0]; i++)
		ck_assert_msg(proto_name_event_word(text_event_words[i].word, &word) == 1,
		              "%s is a name in an event", text_event_words[i].word);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(proto_name_event_word(bad[i], &word) == 1, "%s is a name in an event",
		              bad[i]);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(proto_name_event_word(good[i], &word) == 0, "%s refused (%s)", good[i],
		              word);
	ck_assert_int_eq(proto_name_event_word("(bye)", &word), 1);
	ck_assert_str_eq(word, "bye");
	ck_assert_int_eq(proto_name_event_word("?", &word), 1);
	ck_assert_str_eq(word, "");
	ck_assert_int_eq(proto_name_event_word("Ama (withdrawn)", &word), 1);
	ck_assert_str_eq(word, "(withdrawn)");
}
END_TEST

START_TEST(test_marks_in_a_row)
{
	char in[256], out[PROTO_CHAT_BYTES + 1];

	/* e and 4 combining acute accents: kept; 5: refused, in names and chat. */
	strcpy(in, "e");
	for (int i = 0; i < 4; i++)
		strcat(in, "\xcc\x81");
	ck_assert_int_eq(clean(in, 300, out), 9);
	strcat(in, "\xcc\x81");
	ck_assert_int_eq(clean(in, 300, out), -1);
	ck_assert_int_eq(clean(in, 24, out), -1);
	/* Four again after another letter. */
	strcpy(in, "e\xcc\x81\xcc\x81\xcc\x81\xcc\x81" "a\xcc\x81\xcc\x81\xcc\x81\xcc\x81");
	ck_assert_int_eq(clean(in, 300, out), (int)strlen(in));
}
END_TEST

START_TEST(test_messages)
{
	proto_msg m;
	char err[128];

	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":\" Ana \"}", &m, err), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_NAME);
	ck_assert_int_eq(m.has_name, 1);
	ck_assert_str_eq(m.name, "Ana");
	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":null}", &m, err), 0);
	ck_assert_int_eq(m.has_name, 1);
	ck_assert_str_eq(m.name, "");
	ck_assert_int_eq(parse("{\"type\":\"name\"}", &m, err), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":\"\"}", &m, err), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":7}", &m, err), PROTO_E_BAD_MESSAGE);
	/* jansson refuses \u0000 in a document (bad_json); other controls: */
	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":\"a\\u0000b\"}", &m, err),
	                 PROTO_E_BAD_JSON);
	ck_assert_int_eq(parse("{\"type\":\"name\",\"name\":\"a\\u0007b\"}", &m, err),
	                 PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(err, "name: a control, format, private-use or separator character"
	                      " (1 to 24 characters, printable)");
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\",\"name\":\"Bo\"}", &m, err), 0);
	ck_assert_int_eq(m.has_name, 1);
	ck_assert_str_eq(m.name, "Bo");
	ck_assert_int_eq(parse("{\"type\":\"create\",\"side\":\"south\"}", &m, err), 0);
	ck_assert_int_eq(m.has_name, 0);
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r\",\"token\":null,\"name\":null}", &m,
	                       err), 0);
	ck_assert_int_eq(m.has_name, 0);
	ck_assert_int_eq(parse("{\"type\":\"join\",\"room\":\"r\",\"name\":\"\\u202eX\"}", &m, err),
	                 PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"chat\",\"text\":\"  hi <b>you</b>  \"}", &m, err), 0);
	ck_assert_int_eq(m.type, PROTO_MSG_CHAT);
	ck_assert_str_eq(m.text, "hi <b>you</b>");
	ck_assert_int_eq(parse("{\"type\":\"chat\",\"text\":\"a\\nb\"}", &m, err), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"chat\",\"text\":\" \"}", &m, err), PROTO_E_BAD_MESSAGE);
	ck_assert_str_eq(err, "text: empty (1 to 300 characters, printable)");
	ck_assert_int_eq(parse("{\"type\":\"chat\"}", &m, err), PROTO_E_BAD_MESSAGE);
	ck_assert_int_eq(parse("{\"type\":\"chat\",\"text\":null}", &m, err), PROTO_E_BAD_MESSAGE);
}
END_TEST

START_TEST(test_chat_written)
{
	proto_chat c[2] = {{3, 1700000000123LL, OW_NORTH, "Ana", "<i>\"hi\"</i>"},
	                   {4, 1700000000456LL, OW_SOUTH, NULL, "ok"}};
	jw w;
	json_t *o;

	jw_init(&w);
	proto_chat_write(&w, &c[0]);
	o = json_loadb(w.buf, w.len, 0, NULL);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(json_string_value(json_object_get(o, "type")), "chat");
	ck_assert_int_eq(json_integer_value(json_object_get(o, "id")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(o, "from")), "north");
	ck_assert_str_eq(json_string_value(json_object_get(o, "name")), "Ana");
	ck_assert_str_eq(json_string_value(json_object_get(o, "text")), "<i>\"hi\"</i>");
	ck_assert(json_integer_value(json_object_get(o, "at")) == 1700000000123LL);
	ck_assert_int_eq(json_object_size(o), 6);
	json_decref(o);
	jw_reset(&w);
	proto_chat_history_write(&w, c, 2);
	o = json_loadb(w.buf, w.len, 0, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(o, "type")), "chat_history");
	ck_assert_int_eq(json_array_size(json_object_get(o, "messages")), 2);
	ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(o, "messages"), 1),
	                                       "name")));
	json_decref(o);
	jw_free(&w);
}
END_TEST

START_TEST(test_rooms_query)
{
	proto_room_ref r[3];
	char err[128];
	const char *ok = "{\"rooms\":[{\"room\":\"a\",\"token\":\"t\"},{\"room\":\"b\"},"
	                 "{\"room\":\"c\",\"token\":null}]}";

	ck_assert_int_eq(proto_rooms_query_parse(ok, strlen(ok), r, 3, err, sizeof err), 3);
	ck_assert_str_eq(r[0].room, "a");
	ck_assert_str_eq(r[0].token, "t");
	ck_assert_str_eq(r[1].token, "");
	ck_assert_str_eq(r[2].token, "");
	ck_assert_int_eq(proto_rooms_query_parse(ok, strlen(ok), r, 2, err, sizeof err), -1);
	ck_assert_str_eq(err, "rooms: more than 2");
#define BAD(s) ck_assert_int_eq(proto_rooms_query_parse(s, strlen(s), r, 3, err, sizeof err), -1)
	BAD("[]");
	BAD("{}");
	BAD("{\"rooms\":{}}");
	BAD("{\"rooms\":[1]}");
	BAD("{\"rooms\":[{\"token\":\"t\"}]}");
	BAD("{\"rooms\":[{\"room\":\"\"}]}");
	BAD("{\"rooms\":[{\"room\":\"a\",\"token\":5}]}");
	ck_assert_str_eq(err, "rooms[0]: token: not a string");
#undef BAD
	ck_assert_int_eq(proto_rooms_query_parse("{\"rooms\":[]}", 12, r, 3, err, sizeof err), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_trim_and_keep);
	tcase_add_test(tc, test_lengths_in_code_points);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_names_hostile);
	tcase_add_test(tc, test_names_confusable);
	tcase_add_test(tc, test_names_say_which_side);
	tcase_add_test(tc, test_names_every_form_shown);
	tcase_add_test(tc, test_names_side_then_punctuation);
	tcase_add_test(tc, test_names_alike);
	tcase_add_test(tc, test_names_event_words);
	tcase_add_test(tc, test_marks_in_a_row);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_chat_written);
	tcase_add_test(tc, test_rooms_query);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
