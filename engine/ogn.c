/* ogn.c: Aualé's record format (OGN) and position text (FEN), written and
 * read without allocation. See ogn.h for the format and the contracts. */
#include "engine/ogn.h"

#define VARIANT "Oware Abapa"
#define LINE_MAX_COLS 80 /* Aualé's lines stay shorter than this */
#define CONTINUED "{Continued:" /* opens the moves Aualé would refuse */

/* A bounded text builder over the caller's buffer (cap >= 1). */
struct sb {
	char *buf;
	size_t cap, len;
	int full; /* something did not fit */
};

static void sb_putc(struct sb *b, char c)
{
	if (b->len + 1 < b->cap)
		b->buf[b->len++] = c;
	else
		b->full = 1;
}

static void sb_puts(struct sb *b, const char *s)
{
	while (*s)
		sb_putc(b, *s++);
}

static void sb_int(struct sb *b, long v)
{
	char d[24];
	int n = 0;

	if (v < 0) {
		sb_putc(b, '-');
		v = -v;
	}
	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		sb_putc(b, d[--n]);
}

static void sb_end(struct sb *b)
{
	b->buf[b->len < b->cap ? b->len : b->cap - 1] = 0;
}

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* OGN's letter of our pit: South (0..5) upper case, North lower case. */
static char ogn_letter(int pit)
{
	return pit < OW_ROW ? (char)('A' + pit) : (char)('a' + pit - OW_ROW);
}

/* Our pit of an OGN letter, or -1. */
static int ogn_pit(int c)
{
	if (c >= 'A' && c <= 'F')
		return c - 'A';
	if (c >= 'a' && c <= 'f')
		return OW_ROW + c - 'a';
	return -1;
}

int ow_fen_write(char buf[OW_FEN_SIZE], const ow_pos *p)
{
	struct sb b = {buf, OW_FEN_SIZE, 0, 0};

	for (int i = 0; i < OW_PITS; i++) {
		sb_int(&b, p->pits[i]);
		sb_putc(&b, '-');
	}
	sb_int(&b, p->captured[OW_SOUTH]);
	sb_putc(&b, '-');
	sb_int(&b, p->captured[OW_NORTH]);
	sb_putc(&b, '-');
	sb_putc(&b, p->turn == OW_SOUTH ? 'S' : 'N');
	sb_end(&b);
	return (int)b.len;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int ow_fen_read(const char *text, size_t len, ow_pos *p)
{
	int v[OW_PITS + 2], turn;
	size_t i = 0;

	while (len && is_space(text[len - 1]))
		len--;
	while (i < len && is_space(text[i]))
		i++;
	for (int k = 0; k < OW_PITS + 2; k++) {
		int n = 0, digits = 0;

		while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 3) {
			n = n * 10 + (text[i++] - '0');
			digits++;
		}
		if (!digits || digits > 2 || i >= len || text[i] != '-')
			return -1;
		i++;
		v[k] = n;
	}
	if (i + 1 != len || (text[i] != 'S' && text[i] != 'N'))
		return -1;
	turn = text[i] == 'S' ? OW_SOUTH : OW_NORTH;
	return ow_pos_set(p, v, v + OW_PITS, turn, 0);
}

/* 1 when s is valid UTF-8 with no control character and fits a tag. */
static int tag_value_ok(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = 0;

	while (u[n]) {
		unsigned c = u[n];
		int more;
		unsigned cp;

		if (c < 0x20 || c == 0x7f)
			return 0;
		if (c < 0x80) {
			n++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			more = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3, cp = c & 0x07;
		else
			return 0;
		for (int k = 1; k <= more; k++) {
			if ((u[n + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (u[n + k] & 0x3f);
		}
		if ((more == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (more == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		n += (size_t)more + 1;
	}
	return n < OW_OGN_VALUE;
}

/* 1 when s is "*" or "S-N" with S and N from 0 to 48. */
static int result_ok(const char *s)
{
	int n = 0, digits = 0, parts = 0;

	if (str_eq(s, "*"))
		return 1;
	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			n = n * 10 + (*s - '0');
			if (++digits > 2 || n > OW_SEEDS)
				return 0;
		} else if ((*s == '-' && parts == 0) || (!*s && parts == 1)) {
			if (!digits)
				return 0;
			parts++;
			n = digits = 0;
			if (!*s)
				return 1;
		} else {
			return 0;
		}
	}
}

static void write_tag(struct sb *b, const char *name, const char *value)
{
	sb_putc(b, '[');
	sb_puts(b, name);
	sb_puts(b, " \"");
	for (; *value; value++) {
		if (*value == '"' || *value == '\\')
			sb_putc(b, '\\');
		sb_putc(b, *value);
	}
	sb_puts(b, "\"]\n");
}

/* "S-N" of g's scores into buf (at least 8 bytes). */
static void scores_text(char *buf, const ow_game *g)
{
	struct sb b = {buf, 8, 0, 0};

	sb_int(&b, g->pos.captured[OW_SOUTH]);
	sb_putc(&b, '-');
	sb_int(&b, g->pos.captured[OW_NORTH]);
	sb_end(&b);
}

static int pos_equal(const ow_pos *a, const ow_pos *b)
{
	for (int i = 0; i < OW_PITS; i++)
		if (a->pits[i] != b->pits[i])
			return 0;
	return a->captured[0] == b->captured[0] &&
	       a->captured[1] == b->captured[1] && a->turn == b->turn;
}

/* 1 when the move just played in g made a position occur a second time
 * (a capture empties the history, so only quiet moves can). */
static int repeated(const ow_game *g)
{
	for (int i = 0; i + 1 < g->nseen; i++)
		if (g->seen[i] == g->seen[g->nseen - 1])
			return 1;
	return 0;
}

/* The four tag values of meta (South, North, Date, Result) into vals,
 * the defaults for the empty ones; final: the scores "S-N" of g, the game
 * after the moves. 0, or the index of one that is not allowed. */
static int tag_values(const ow_ogn_meta *meta, const ow_game *g, const char *final,
                      const char *vals[4])
{
	vals[0] = meta->south;
	vals[1] = meta->north;
	vals[2] = meta->date;
	vals[3] = meta->result;
	for (int i = 0; i < 4; i++) {
		if (!vals[i] || !vals[i][0])
			vals[i] = i == 3 ? (g->end != OW_END_NONE ? final : "*") : "?";
		if (!tag_value_ok(vals[i]) || (i == 3 && !result_ok(vals[i])) ||
		    (i == 3 && g->end != OW_END_NONE && !str_eq(vals[i], "*") &&
		     !str_eq(vals[i], final)))
			return i;
	}
	return -1;
}

/* The tags, in Aualé's order, and [FEN] when start is not std. */
static void write_tags(struct sb *b, const char *const vals[4], const ow_pos *start,
                       const ow_pos *std)
{
	char fen[OW_FEN_SIZE];

	write_tag(b, "Variant", VARIANT);
	write_tag(b, "Event", "?");
	write_tag(b, "Site", "?");
	write_tag(b, "Date", vals[2]);
	write_tag(b, "Round", "?");
	write_tag(b, "South", vals[0]);
	write_tag(b, "North", vals[1]);
	write_tag(b, "Result", vals[3]);
	if (!pos_equal(start, std)) {
		ow_fen_write(fen, start);
		write_tag(b, "FEN", fen);
	}
}

/* The movetext's line being filled: tokens joined by spaces, a new line
 * before a token that would make it 80 characters or more. */
struct lines {
	struct sb *b;
	char line[LINE_MAX_COLS + 1];
	size_t ll;
};

static void line_end(struct lines *l)
{
	if (!l->ll)
		return;
	l->line[l->ll] = 0;
	sb_puts(l->b, l->line);
	sb_putc(l->b, '\n');
	l->ll = 0;
}

static void line_add(struct lines *l, const char *tok)
{
	size_t tl = str_len(tok);

	if (l->ll && 1 + l->ll + tl < LINE_MAX_COLS)
		l->line[l->ll++] = ' ';
	else
		line_end(l);
	for (size_t c = 0; c < tl; c++)
		l->line[l->ll++] = tok[c];
}

/* The movetext of the n moves (known legal) from start, then result
 * unless it is "*". Aualé ends a game at a position's second occurrence
 * and then refuses every further move: the moves after that one go into
 * the comment CONTINUED. */
static void write_movetext(struct sb *b, const ow_pos *start, const uint8_t *moves, int n,
                           const char *result)
{
	struct lines l = {b, {0}, 0};
	int cont = 0; /* 1: the move just played repeated; 2: inside CONTINUED */
	char tok[16];
	ow_game g;

	if (n > 0)
		sb_putc(b, '\n');
	ow_game_from(&g, start);
	for (int i = 0; i < n; i++) {
		int me = g.pos.turn, was = g.pos.captured[me];
		struct sb t = {tok, sizeof tok, 0, 0};

		if (cont == 1)
			line_add(&l, CONTINUED);
		if (i % 2 == 0 || cont == 1) {
			sb_int(&t, i / 2 + 1);
			sb_puts(&t, i % 2 ? "..." : ".");
			sb_end(&t);
			line_add(&l, tok);
			t = (struct sb){tok, sizeof tok, 0, 0};
		}
		if (cont == 1)
			cont = 2;
		ow_game_play(&g, moves[i], 0);
		if (!cont && repeated(&g))
			cont = 1;
		sb_putc(&t, ogn_letter(moves[i]));
		if (g.pos.captured[me] != was) {
			sb_putc(&t, '+');
			sb_int(&t, g.pos.captured[me] - was);
		}
		sb_end(&t);
		line_add(&l, tok);
	}
	if (cont == 2)
		line_add(&l, "}");
	if (n > 0 && !str_eq(result, "*"))
		line_add(&l, result);
	line_end(&l);
}

int ow_ogn_write(char *buf, size_t cap, const ow_pos *start,
                 const uint8_t *moves, int n, const ow_ogn_meta *meta,
                 int *bad)
{
	static const ow_ogn_meta none = {0, 0, 0, 0};
	const char *vals[4];
	char final[8];
	struct sb b = {buf, cap, 0, 0};
	ow_pos std;
	ow_game g;
	int dummy;

	if (!bad)
		bad = &dummy;
	*bad = -1;
	if (!meta)
		meta = &none;
	if (!cap)
		return OW_OGN_E_SPACE;
	ow_pos_start(&std);
	if (!start)
		start = &std;
	ow_game_from(&g, start);
	for (int i = 0; i < n; i++) {
		int rc = ow_game_play(&g, moves[i], 0);

		if (rc != OW_OK) {
			*bad = i;
			return rc;
		}
	}
	scores_text(final, &g);
	if ((*bad = tag_values(meta, &g, final, vals)) >= 0)
		return OW_OGN_E_TAG;
	write_tags(&b, vals, start, &std);
	write_movetext(&b, start, moves, n, vals[3]);
	sb_end(&b);
	return b.full ? OW_OGN_E_SPACE : (int)b.len;
}

/* --- reading --- */

/* The reader's state over the text. */
struct rd {
	const char *s;
	size_t len, i;
	int line;
	ow_ogn *out;
};

/* Sets the error of the record (line, then the text pieces). */
static int fail(struct rd *r, int line, const char *a, const char *quote,
                size_t qlen, const char *b)
{
	struct sb e = {r->out->err, OW_OGN_ERR, 0, 0};

	r->out->line = line;
	sb_puts(&e, a);
	if (quote) {
		sb_putc(&e, '"');
		for (size_t k = 0; k < qlen && k < 24; k++) {
			char c = quote[k];

			sb_putc(&e, c >= 0x20 && c < 0x7f ? c : '?');
		}
		if (qlen > 24)
			sb_puts(&e, "...");
		sb_putc(&e, '"');
	}
	if (b)
		sb_puts(&e, b);
	sb_end(&e);
	return -1;
}

static int failn(struct rd *r, int line, const char *a, long n, const char *b)
{
	struct sb e = {r->out->err, OW_OGN_ERR, 0, 0};

	r->out->line = line;
	sb_puts(&e, a);
	sb_int(&e, n);
	sb_puts(&e, b);
	sb_end(&e);
	return -1;
}

/* Skips whitespace, counting lines. */
static void skip_space(struct rd *r)
{
	while (r->i < r->len && is_space(r->s[r->i])) {
		if (r->s[r->i] == '\n')
			r->line++;
		r->i++;
	}
}

static int is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Reads one tag at r->i ('['). */
static int read_tag(struct rd *r)
{
	ow_ogn *o = r->out;
	ow_ogn_tag *t;
	size_t n = 0, start;
	int line = r->line;

	if (o->ntags >= OW_OGN_MAX_TAGS)
		return failn(r, line, "more than ", OW_OGN_MAX_TAGS, " tags");
	t = &o->tags[o->ntags];
	t->line = line;
	r->i++;
	while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
		r->i++;
	start = r->i;
	while (r->i < r->len && is_name_char(r->s[r->i])) {
		if (n + 1 >= OW_OGN_NAME)
			return fail(r, line, "tag name longer than 31 bytes", 0, 0, 0);
		t->name[n++] = r->s[r->i++];
	}
	t->name[n] = 0;
	if (!n)
		return fail(r, line, "a tag needs a name: [Name \"value\"]", 0, 0, 0);
	if (r->i >= r->len || (r->s[r->i] != ' ' && r->s[r->i] != '\t'))
		return fail(r, line, "malformed tag ", r->s + start - 1,
		            r->i - start + 1, ": [Name \"value\"]");
	while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
		r->i++;
	if (r->i >= r->len || r->s[r->i] != '"')
		return fail(r, line, "tag ", t->name, n, ": the value must be in double quotes");
	r->i++;
	n = 0;
	for (;;) {
		char c;

		if (r->i >= r->len || r->s[r->i] == '\n')
			return fail(r, line, "tag ", t->name, str_len(t->name),
			            ": the value has no closing quote");
		c = r->s[r->i++];
		if (c == '"')
			break;
		if (c == '\\' && r->i < r->len && (r->s[r->i] == '"' || r->s[r->i] == '\\'))
			c = r->s[r->i++];
		if (n + 1 >= OW_OGN_VALUE)
			return fail(r, line, "tag ", t->name, str_len(t->name),
			            ": value longer than 255 bytes");
		t->value[n++] = c;
	}
	t->value[n] = 0;
	while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
		r->i++;
	if (r->i >= r->len || r->s[r->i] != ']')
		return fail(r, line, "tag ", t->name, str_len(t->name),
		            ": ']' expected after the value");
	r->i++;
	if (!tag_value_ok(t->value))
		return fail(r, line, "tag ", t->name, str_len(t->name),
		            ": the value must be UTF-8 text without control characters");
	for (int k = 0; k < o->ntags; k++)
		if (str_eq(o->tags[k].name, t->name))
			return fail(r, line, "tag ", t->name, str_len(t->name), " given twice");
	if (str_eq(t->name, "Variant") && !str_eq(t->value, VARIANT))
		return fail(r, line, "Variant ", t->value, str_len(t->value),
		            " is not \"" VARIANT "\"");
	if (str_eq(t->name, "FEN")) {
		int rc = ow_fen_read(t->value, str_len(t->value), &o->start);

		if (rc == -1)
			return fail(r, line, "FEN ", t->value, str_len(t->value),
			            ": 14 counts (pits a-f, A-F, South's and North's scores) and S or N, joined by '-'");
		if (rc)
			return fail(r, line, "FEN ", t->value, str_len(t->value),
			            rc == OW_E_SUM ? ": pits and scores must add up to 48" : ": invalid");
		o->has_fen = 1;
	}
	o->ntags++;
	return 0;
}

/* Skips a comment { } or a variation ( ) (nested) at r->i. */
static int skip_aside(struct rd *r)
{
	char open = r->s[r->i], close = open == '{' ? '}' : ')';
	int line = r->line, depth = 0;

	for (; r->i < r->len; r->i++) {
		char c = r->s[r->i];

		if (c == '\n')
			r->line++;
		else if (c == open && (open == '(' || depth == 0))
			depth++;
		else if (c == close && --depth == 0) {
			r->i++;
			return 0;
		}
	}
	return fail(r, line, open == '{' ? "comment '{' never closed" :
	            "variation '(' never closed", 0, 0, 0);
}

/* At a '{': when the comment is CONTINUED, steps over its opening and
 * returns 1 (its moves are read as moves, until its '}'). */
static int continued(struct rd *r)
{
	size_t n = str_len(CONTINUED);

	if (r->len - r->i < n)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (r->s[r->i + k] != CONTINUED[k])
			return 0;
	r->i += n;
	return 1;
}

static int after_continued(struct rd *r, size_t t0, size_t tl)
{
	return fail(r, r->line, "", r->s + t0, tl,
	            " after the moves of \"" CONTINUED "\" (only the result may follow)");
}

const char *ow_ogn_tag_value(const ow_ogn *o, const char *name)
{
	for (int k = 0; k < o->ntags; k++)
		if (str_eq(o->tags[k].name, name))
			return o->tags[k].value;
	return 0;
}

/* A capture mark not yet checked: checked strictly when another move
 * follows, with Aualé's end-of-game count allowed when it is the last. */
struct mark {
	int on;       /* a mark is pending */
	int value;    /* what it says */
	int line;
	int ply;      /* 1-based */
	int seeds;    /* seeds the move captured */
	int gain;     /* the mover's score gain, gathered seeds included */
	int gather;   /* seeds + the mover's own row after the move */
	char tok[16];
	size_t toklen;
};

static int check_mark(struct rd *r, const struct mark *m, int last)
{
	if (!m->on || m->value == m->seeds || m->value == m->gain ||
	    (last && m->value == m->gather))
		return 0;
	{
		struct sb e = {r->out->err, OW_OGN_ERR, 0, 0};

		r->out->line = m->line;
		sb_puts(&e, "move ");
		sb_int(&e, m->ply);
		sb_puts(&e, " \"");
		for (size_t k = 0; k < m->toklen; k++)
			sb_putc(&e, m->tok[k]);
		sb_puts(&e, "\": it captures ");
		sb_int(&e, m->seeds);
		sb_puts(&e, m->seeds == 1 ? " seed" : " seeds");
		sb_end(&e);
	}
	return -1;
}

/* Plays the move token tok (a letter, maybe "+N") of tl bytes. */
static int read_move(struct rd *r, const char *tok, size_t tl, struct mark *m)
{
	ow_ogn *o = r->out;
	ow_move_info info;
	int pit = ogn_pit(tok[0]), mark = -1, rc, me, was, ply = o->nmoves + 1;

	if (tl > 1) {
		size_t k = 2;

		if (tok[1] != '+' || tl == 2 || tl > 4)
			return fail(r, r->line, "not a move: ", tok, tl,
			            " (a letter A-F for South, a-f for North, maybe +N)");
		mark = 0;
		for (; k < tl; k++) {
			if (tok[k] < '0' || tok[k] > '9')
				return fail(r, r->line, "not a move: ", tok, tl,
				            " (a letter A-F for South, a-f for North, maybe +N)");
			mark = mark * 10 + (tok[k] - '0');
		}
	}
	if (check_mark(r, m, 0))
		return -1;
	m->on = 0;
	if (o->nmoves >= OW_OGN_MAX_PLIES)
		return failn(r, r->line, "more than ", OW_OGN_MAX_PLIES, " moves");
	me = o->game.pos.turn;
	was = o->game.pos.captured[me];
	rc = ow_game_play(&o->game, pit, &info);
	if (rc) {
		const char *why = rc == OW_E_NOT_YOURS
			? (me == OW_SOUTH ? ": a pit of North (lower case); South (upper case) is to move"
			                  : ": a pit of South (upper case); North (lower case) is to move")
			: rc == OW_E_EMPTY ? ": the pit is empty"
			: rc == OW_E_MUST_FEED ? ": North has no seeds and this move does not feed them"
			: ": the game is over";

		if (rc == OW_E_MUST_FEED && me == OW_NORTH)
			why = ": South has no seeds and this move does not feed them";
		{
			struct sb e = {o->err, OW_OGN_ERR, 0, 0};

			o->line = r->line;
			sb_puts(&e, "move ");
			sb_int(&e, ply);
			sb_puts(&e, " \"");
			sb_putc(&e, tok[0]);
			sb_puts(&e, "\"");
			sb_puts(&e, why);
			sb_end(&e);
		}
		return -1;
	}
	o->moves[o->nmoves++] = (uint8_t)pit;
	if (mark >= 0) {
		int row = 0;

		for (int k = me * OW_ROW; k < me * OW_ROW + OW_ROW; k++)
			row += o->game.pos.pits[k];
		m->on = 1;
		m->value = mark;
		m->line = r->line;
		m->ply = ply;
		m->seeds = info.seeds;
		m->gain = o->game.pos.captured[me] - was;
		m->gather = info.seeds + row;
		m->toklen = tl;
		for (size_t k = 0; k < tl; k++)
			m->tok[k] = tok[k];
	}
	return 0;
}

/* Where the reader is in the movetext. */
struct mt {
	struct mark m;       /* the last move's capture mark, not yet checked */
	const char *result;  /* the result token, once read */
	size_t result_len;
	int result_line;
	int moving;          /* the movetext has begun: no more tags */
	int cont, cont_line; /* CONTINUED: 1 open (since cont_line), 2 closed */
};

static void set_result(struct rd *r, struct mt *st, size_t t0, size_t tl)
{
	st->result = r->s + t0;
	st->result_len = tl;
	st->result_line = r->line;
}

/* A token of tl bytes at t0 that opens with a digit: a move number "12."
 * or "12...", maybe glued to a move, or a result "S-N". */
static int read_number(struct rd *r, struct mt *st, size_t t0, size_t tl)
{
	const char *text = r->s;
	size_t k = t0;
	char tmp[8];
	size_t n = tl < 7 ? tl : 7;

	while (k < r->i && text[k] >= '0' && text[k] <= '9')
		k++;
	if (k < r->i && text[k] == '.') {
		if (st->cont == 2)
			return after_continued(r, t0, tl);
		while (k < r->i && text[k] == '.')
			k++;
		if (k == r->i)
			return 0;
		if (ogn_pit(text[k]) < 0)
			return fail(r, r->line, "unexpected ", text + t0, tl, 0);
		return read_move(r, text + k, r->i - k, &st->m);
	}
	for (size_t q = 0; q < n; q++)
		tmp[q] = text[t0 + q];
	tmp[n] = 0;
	if (tl > 5 || !result_ok(tmp) || str_eq(tmp, "*"))
		return fail(r, r->line, "unexpected ", text + t0, tl,
		            " (a move number \"N.\" or a result \"S-N\")");
	if (st->cont == 1)
		return fail(r, r->line, "the result ", text + t0, tl,
		            " inside \"" CONTINUED "\" (it goes after its '}')");
	set_result(r, st, t0, tl);
	return 0;
}

/* A token of tl bytes at t0 (ending at r->i): a move number, a move or a
 * result. */
static int read_token(struct rd *r, struct mt *st, size_t t0, size_t tl)
{
	const char *text = r->s;

	if (st->result)
		return fail(r, r->line, "", text + t0, tl, " after the result");
	if (text[t0] >= '0' && text[t0] <= '9')
		return read_number(r, st, t0, tl);
	if (tl == 1 && text[t0] == '*' && st->cont != 1) {
		set_result(r, st, t0, tl);
		return 0;
	}
	if (st->cont == 2)
		return after_continued(r, t0, tl);
	if (ogn_pit(text[t0]) < 0)
		return fail(r, r->line, "unexpected ", text + t0, tl,
		            " (moves are A-F for South, a-f for North)");
	return read_move(r, text + t0, tl, &st->m);
}

/* One item at r->i, which is not a space: a tag, a comment or a
 * variation, CONTINUED's opening or its '}', or a token. */
static int read_item(struct rd *r, struct mt *st)
{
	const char *text = r->s;
	char c = text[r->i];
	size_t t0;

	if (c == '[') {
		if (st->moving)
			return fail(r, r->line, "a tag after the moves", 0, 0, 0);
		return read_tag(r);
	}
	if (!st->moving) {
		st->moving = 1;
		ow_game_from(&r->out->game, &r->out->start);
	}
	if (c == '{' && !st->cont && continued(r)) {
		st->cont = 1;
		st->cont_line = r->line;
		return 0;
	}
	if ((c == '{' || c == '(') && st->cont == 1)
		return fail(r, r->line, "unexpected ", text + r->i, 1,
		            " in \"" CONTINUED "\" (only moves until its '}')");
	if (c == '{' || c == '(')
		return skip_aside(r);
	if (c == '}' && st->cont == 1) {
		st->cont = 2;
		r->i++;
		return 0;
	}
	if (c == '}' || c == ')')
		return fail(r, r->line, "unexpected ", text + r->i, 1, " (nothing open to close)");
	t0 = r->i;
	while (r->i < r->len && !is_space(text[r->i]) && text[r->i] != '{' &&
	       text[r->i] != '(' && text[r->i] != '}' && text[r->i] != ')' &&
	       text[r->i] != '[')
		r->i++;
	return read_token(r, st, t0, r->i - t0);
}

static int same_text(const char *a, const char *b, size_t blen)
{
	size_t n = str_len(a);
	int same = n == blen;

	for (size_t k = 0; same && k < n; k++)
		same = a[k] == b[k];
	return same;
}

/* After the movetext: the result token and the Result tag agree, and
 * final scores match the end of a game that is over. */
static int check_result(struct rd *r, const struct mt *st)
{
	ow_ogn *out = r->out;
	const char *tag_result = ow_ogn_tag_value(out, "Result");
	int result_tag_line = 0;
	char final[8], why[40];
	struct sb w = {why, sizeof why, 0, 0};

	scores_text(final, &out->game);
	for (int k = 0; k < out->ntags; k++)
		if (str_eq(out->tags[k].name, "Result"))
			result_tag_line = out->tags[k].line;
	if (st->result && tag_result && !same_text(tag_result, st->result, st->result_len))
		return fail(r, st->result_line, "the result ", st->result, st->result_len,
		            " differs from the Result tag");
	if (out->game.end == OW_END_NONE)
		return 0;
	sb_puts(&w, " but the game ends ");
	sb_puts(&w, final);
	sb_end(&w);
	if (tag_result && result_ok(tag_result) && !str_eq(tag_result, "*") &&
	    !str_eq(tag_result, final))
		return fail(r, result_tag_line, "Result ", tag_result, str_len(tag_result), why);
	if (st->result && st->result_len > 1 && !same_text(final, st->result, st->result_len))
		return fail(r, st->result_line, "the result ", st->result, st->result_len, why);
	return 0;
}

int ow_ogn_read(const char *text, size_t len, ow_ogn *out)
{
	struct rd r = {text, len, 0, 1, out};
	struct mt st = {0};

	out->has_fen = 0;
	out->ntags = 0;
	out->nmoves = 0;
	out->line = 0;
	out->err[0] = 0;
	ow_pos_start(&out->start);
	if (len >= 3 && (unsigned char)text[0] == 0xef &&
	    (unsigned char)text[1] == 0xbb && (unsigned char)text[2] == 0xbf)
		r.i = 3; /* a UTF-8 byte order mark */
	for (;;) {
		skip_space(&r);
		if (r.i >= r.len)
			break;
		if (read_item(&r, &st))
			return -1;
	}
	if (st.cont == 1)
		return fail(&r, st.cont_line, "\"" CONTINUED "\" never closed", 0, 0, 0);
	if (!st.moving)
		ow_game_from(&out->game, &out->start);
	if (check_mark(&r, &st.m, 1))
		return -1;
	return check_result(&r, &st);
}
