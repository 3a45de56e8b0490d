/* trf.c: TRF-16 reading and writing (see trf.h). */
#include "server/rules/trf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The number in columns [at, at + n) of a line of len bytes, blanks
 * around it allowed: -1 when blank, -2 when not a number. */
static long field_num(const char *line, size_t len, size_t at, size_t n)
{
	long v = 0;
	int digits = 0, done = 0;
	for (size_t i = at; i < at + n && i < len; i++) {
		char c = line[i];
		if (c == ' ') {
			if (digits)
				done = 1;
			continue;
		}
		if (c < '0' || c > '9' || done || digits >= 9)
			return -2;
		v = v * 10 + (c - '0');
		digits++;
	}
	return digits ? v : -1;
}

/* c as a reason may quote it: itself if printable ASCII, else \xNN */
static const char *shown(char c, char buf[5])
{
	unsigned char u = (unsigned char)c;
	if (u >= 0x20 && u < 0x7f)
		snprintf(buf, 5, "%c", c);
	else
		snprintf(buf, 5, "\\x%02x", u);
	return buf;
}

/* The bytes of the character at s (len > 0 bytes left): a valid UTF-8
 * sequence's length, else 1 (a stray byte is a column of its own). */
static size_t char_len(const char *s, size_t len)
{
	unsigned char c = (unsigned char)s[0];
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
	         : c >= 0xF0 && c <= 0xF4 ? 4 : 1;

	if (n > len)
		return 1;
	for (size_t i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			return 1;
	return n;
}

/* The bytes of the first max characters (at most) of s (len bytes),
 * their number in *chars. */
static size_t chars_prefix(const char *s, size_t len, size_t max, size_t *chars)
{
	size_t at = 0, k = 0;

	while (at < len && k < max) {
		at += char_len(s + at, len - at);
		k++;
	}
	*chars = k;
	return at;
}

size_t trf_cut(char *dst, size_t cap, const char *src, size_t max)
{
	size_t k, n = chars_prefix(src, strlen(src), max, &k);

	if (n >= cap) /* the caller's cap is below its contract: cut short */
		n = chars_prefix(src, cap - 1, max, &k);
	memcpy(dst, src, n);
	dst[n] = 0;
	return k;
}

/* The longest 001 line read, in characters (91 columns and 32 rounds of
 * ten need 411). */
#define LINE_COLS 2048

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* The rounds of a 001 line, columns 92 on (line: len characters, each
 * non-ASCII one as 0x80), into the player of starting rank id: 0 or
 * PAIR_E*. */
static int read_rounds(const char *line, size_t len, long id, trf_file *f, int lineno,
                       char *err, size_t errlen)
{
	pair_player *pl = &f->ev.p[id - 1];
	int skipped = 0;
	for (size_t at = 91; at + 8 <= len; at += 10) {
		const char *c = line + at;
		long opp = field_num(line, len, at, 4);
		if (opp == -2 || (opp > 0 && opp > PAIR_MAX_PLAYERS) || opp == id) {
			pair__set_err(err, errlen, "line %d: an opponent in columns %zu-%zu that is not a starting rank", lineno, at + 1, at + 4);
			return PAIR_EINVAL;
		}
		char col = c[5], res = upper(c[7]);
		char sb[5];
		if (col != 'w' && col != 'b' && col != '-' && col != ' ') {
			pair__set_err(err, errlen, "line %d: colour '%s'", lineno, shown(col, sb));
			return PAIR_EINVAL;
		}
		if (!strchr("10=WDL+-HFUZ ", res)) {
			pair__set_err(err, errlen, "line %d: result '%s'", lineno, shown(c[7], sb));
			return PAIR_EINVAL;
		}
		if (opp == -1 && col == ' ' && res == ' ') {
			skipped++;
			continue;
		}
		if (pl->nrounds + skipped + 1 > PAIR_MAX_ROUNDS) {
			pair__set_err(err, errlen, "line %d: more than %d rounds", lineno, PAIR_MAX_ROUNDS);
			return PAIR_ERANGE;
		}
		for (; skipped; skipped--) {
			pair_game *g = &pl->rounds[pl->nrounds++];
			g->opp = -1;
			g->color = PAIR_NOCOLOR;
			g->result = ' ';
		}
		pair_game *g = &pl->rounds[pl->nrounds++];
		g->opp = (int16_t)(opp > 0 ? opp - 1 : -1);
		g->color = col == 'w' ? PAIR_WHITE : col == 'b' ? PAIR_BLACK : PAIR_NOCOLOR;
		g->result = res;
		if (g->opp >= 0 && g->opp + 1 > f->ev.nplayers)
			f->ev.nplayers = g->opp + 1;
	}
	return 0;
}

/* Reads a 001 line of raw bytes (rlen): its columns are characters, so
 * the numbers are read from a copy with one byte a character (any
 * character not ASCII stands there as 0x80: never a digit nor blank),
 * and the name from the raw bytes of columns 15-47. */
static int read_player(const char *raw, size_t rlen, trf_file *f, int lineno, char *err, size_t errlen)
{
	char line[LINE_COLS];
	size_t len = 0, name_at = rlen, name_end = rlen;

	for (size_t at = 0; at < rlen; len++) {
		size_t n = char_len(raw + at, rlen - at);

		if (len == LINE_COLS) {
			pair__set_err(err, errlen, "line %d: longer than %d characters", lineno, LINE_COLS);
			return PAIR_ERANGE;
		}
		if (len == 14)
			name_at = at;
		if (len == 14 + TRF_NAME_LEN)
			name_end = at;
		line[len] = n == 1 && (unsigned char)raw[at] < 0x80 ? raw[at] : (char)0x80;
		at += n;
	}
	long id = field_num(line, len, 4, 4);
	if (id < 1 || id > PAIR_MAX_PLAYERS) {
		pair__set_err(err, errlen, "line %d: starting rank %ld: 1 to %d", lineno, id, PAIR_MAX_PLAYERS);
		return PAIR_ERANGE;
	}
	pair_player *pl = &f->ev.p[id - 1];
	if (pl->nrounds || f->names[id - 1][0]) {
		pair__set_err(err, errlen, "line %d: starting rank %ld twice", lineno, id);
		return PAIR_EINVAL;
	}
	char *name = f->names[id - 1];
	size_t nl = 0;
	for (size_t i = 14; i < 14 + TRF_NAME_LEN && i < len; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f) {
			pair__set_err(err, errlen, "line %d: a control character in the name", lineno);
			return PAIR_EINVAL;
		}
	/* left-aligned; a leading blank would read as the empty-name mark */
	while (name_at < name_end && raw[name_at] == ' ')
		name_at++;
	for (size_t i = name_at; i < name_end; i++)
		name[nl++] = raw[i];
	while (nl && name[nl - 1] == ' ')
		nl--;
	memset(name + nl, 0, TRF_NAME_BYTES + 1 - nl);
	if (!nl)
		name[0] = ' ', name[1] = 0;  /* marks the rank as taken */
	long rating = field_num(line, len, 48, 4);
	pl->rating = rating > 0 ? (int)rating : 0;
	int rc = read_rounds(line, len, id, f, lineno, err, errlen);
	if (rc)
		return rc;
	if (id > f->ev.nplayers)
		f->ev.nplayers = (int)id;
	return 0;
}

int trf_read(const char *text, size_t len, trf_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	size_t i = 0;
	int lineno = 0;
	while (i < len) {
		size_t start = i;
		while (i < len && text[i] != '\n' && text[i] != '\r')
			i++;
		size_t ll = i - start;
		const char *line = text + start;
		if (i < len && text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
			i++;
		i++;
		lineno++;
		if (ll < 3)
			continue;
		if (!memcmp(line, "001", 3)) {
			int rc = read_player(line, ll, f, lineno, err, errlen);
			if (rc)
				return rc;
		} else if (!memcmp(line, "012", 3)) {
			size_t chars, k = chars_prefix(line + (ll > 4 ? 4 : ll), ll > 4 ? ll - 4 : 0,
			                               TRF_TITLE_LEN, &chars);
			memcpy(f->title, line + (ll > 4 ? 4 : ll), k);
			f->title[k] = 0;
		} else if (!memcmp(line, "XXR", 3)) {
			long r = field_num(line, ll, 3, ll - 3);
			if (r < 1 || r > PAIR_MAX_ROUNDS) {
				pair__set_err(err, errlen, "line %d: XXR %ld: 1 to %d rounds", lineno, r, PAIR_MAX_ROUNDS);
				return PAIR_ERANGE;
			}
			f->ev.total_rounds = (int)r;
		} else if (!memcmp(line, "XXS", 3)) {
			/* the rules the event follows: "FIDE Dutch 2025" or "... 2017" */
			for (size_t k = 3; k + 4 <= ll; k++) {
				if (!memcmp(line + k, "2017", 4))
					f->ev.rules = PAIR_DUTCH_2017;
				else if (!memcmp(line + k, "2025", 4))
					f->ev.rules = PAIR_DUTCH_2025;
			}
		} else if (!memcmp(line, "XXC", 3)) {
			for (size_t k = 3; k + 6 <= ll; k++) {
				if (!memcmp(line + k, "white1", 6))
					f->ev.first_color = PAIR_WHITE;
				else if (!memcmp(line + k, "black1", 6))
					f->ev.first_color = PAIR_BLACK;
			}
		}
	}
	for (int p = 0; p < f->ev.nplayers; p++)
		if (!f->names[p][0]) {
			pair__set_err(err, errlen, "starting rank %d has no 001 line", p + 1);
			return PAIR_EINVAL;
		}
	if (f->ev.total_rounds == 0) {
		int most = 0;
		for (int p = 0; p < f->ev.nplayers; p++)
			if (f->ev.p[p].nrounds > most)
				most = f->ev.p[p].nrounds;
		f->ev.total_rounds = most;
	}
	return pair_check(&f->ev, err, errlen);
}

/* appends like snprintf, counting what would not fit */
__attribute__((format(printf, 4, 5)))
static void put(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(*at < cap ? buf + *at : NULL, *at < cap ? cap - *at : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

size_t trf_write(const trf_file *f, char *buf, size_t cap)
{
	size_t at = 0;
	const pair_event *ev = &f->ev;
	if (cap)
		buf[0] = 0;
	put(buf, cap, &at, "012 %s\n", f->title);
	if (ev->total_rounds)
		put(buf, cap, &at, "XXR %d\n", ev->total_rounds);
	put(buf, cap, &at, "XXS FIDE Dutch %s\n", ev->rules == PAIR_DUTCH_2017 ? "2017" : "2025");
	if (ev->first_color)
		put(buf, cap, &at, "XXC %s\n", ev->first_color == PAIR_BLACK ? "black1" : "white1");
	for (int i = 0; i < ev->nplayers; i++) {
		const pair_player *pl = &ev->p[i];
		int pts = pair_score_halves(pl, pl->nrounds), rank = f->rank[i];
		/* the rank column, unless given: by points, then starting rank */
		for (int j = 0; !f->rank[i] && j < ev->nplayers; j++) {
			int o = pair_score_halves(&ev->p[j], ev->p[j].nrounds);
			if (o > pts || (o == pts && j < i))
				rank++;
		}
		rank += !f->rank[i];
		/* The name in 33 characters, padded by characters, not bytes. */
		const char *name = f->names[i][0] == ' ' ? "" : f->names[i];
		size_t chars, nb = chars_prefix(name, strlen(name), TRF_NAME_LEN, &chars);
		put(buf, cap, &at, "001 %4d      %.*s%*s %4d %3s %11s %10s %2d.%d %4d  ",
			i + 1, (int)nb, name, (int)(TRF_NAME_LEN - chars), "", pl->rating, "", "", "",
			pts / 2, pts % 2 ? 5 : 0, rank);
		for (int r = 0; r < pl->nrounds; r++) {
			const pair_game *g = &pl->rounds[r];
			char col = g->color == PAIR_WHITE ? 'w' : g->color == PAIR_BLACK ? 'b' : '-';
			if (g->opp >= 0)
				put(buf, cap, &at, "%s%4d %c %c", r ? "  " : "", g->opp + 1, col, g->result);
			else
				put(buf, cap, &at, "%s0000 - %c", r ? "  " : "", g->result);
		}
		put(buf, cap, &at, "\n");
	}
	return at;
}
