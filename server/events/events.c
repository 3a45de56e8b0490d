/* events.c: see events.h. Each action is decided by server/rules/event.h, its
 * change written to the store's open batch (with the rooms of a new
 * round), then applied, then shown to every follower: the messages wait
 * for the commit as the rooms' do, so nothing is shown that a crash could
 * take back. The store keeps an event as its settings and its changes,
 * as short texts (settings_text, change_text); replaying them rebuilds
 * it without pairing again. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uuid/uuid.h>

#include "protocol/game.h"
#include "server/base/clock.h"
#include "server/rules/event.h"
#include "server/events/events.h"
#include "server/events/events_shell.h"
#include "server/base/iptable.h"
#include "server/base/log.h"

static events_config evs_cfg;
static store *evs_st;
static rooms_io evs_io;
/* The event being read from the store (evs_load_event sets it, and
 * evs_load_change applies to it; NULL after a failure). */
static event_ent *evs_loading;
static events_stats stats;
static event_ent *table[EV_BUCKETS];
static int nevents;
static jw out;
static jw you, cache_text; /* an event_you's `you`; an export's text being built */
static ev_standing standings[EV_MAX_PLAYERS];

const events_stats *events_get_stats(void)
{
	return &stats;
}

int events_count(void)
{
	return nevents;
}

static unsigned bucket(const char *id)
{
	unsigned h = 2166136261u;

	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h % EV_BUCKETS;
}

static event_ent *evs_find(const char *id)
{
	for (event_ent *e = table[bucket(id)]; e; e = e->hnext)
		if (!strcmp(e->id, id))
			return e;
	return NULL;
}

static void insert(event_ent *e)
{
	unsigned b = bucket(e->id);

	e->hnext = table[b];
	table[b] = e;
	nevents++;
}


static void cache_drop(event_ent *e);
static void evs_unwatch(ev_watcher *w);
static int evs_export(event_ent *e, int what, const char *inm, jw *w, char etag[20]);

static void evs_ent_free(event_ent *e)
{
	cache_drop(e);
	if (e->pairing)
		e->pairing->e = NULL; /* its result is dropped when it comes */
	while (e->watchers)
		evs_unwatch(e->watchers);
	for (int r = 0; r < EV_MAX_ROUNDS; r++) {
		free(e->rooms[r]);
		free(e->by[r]);
	}
	if (e->owner)
		e->owner->events_held--;
	if (e->owner_net)
		e->owner_net->events_held--;
	free(e);
}

static void evs_unlink_free(event_ent *e)
{
	for (event_ent **p = &table[bucket(e->id)]; *p; p = &(*p)->hnext)
		if (*p == e) {
			*p = e->hnext;
			nevents--;
			break;
		}
	evs_ent_free(e);
}

static event_ent *evs_any(void)
{
	for (unsigned b = 0; b < EV_BUCKETS; b++)
		if (table[b])
			return table[b];
	return NULL;
}

void events_free_all(void)
{
	evpair_stop();
	for (unsigned b = 0; b < EV_BUCKETS; b++)
		while (table[b])
			evs_unlink_free(table[b]);
	jw_free(&out);
	jw_free(&you);
	jw_free(&cache_text);
}

/* ---- errors ---- */

static int proto_code(int ev_err)
{
	switch (ev_err) {
	case EV_E_INVAL: case EV_E_NAME: case EV_E_RESULT: return PROTO_E_BAD_MESSAGE;
	case EV_E_STATE: case EV_E_DONE: return PROTO_E_EVENT_STATE;
	case EV_E_NAME_TAKEN: return PROTO_E_NAME_TAKEN;
	case EV_E_NAME_WORD: return PROTO_E_NAME_RESERVED;
	case EV_E_FULL: return PROTO_E_EVENT_FULL;
	case EV_E_LATE: return PROTO_E_ENTRIES_CLOSED;
	case EV_E_PLAYER: return PROTO_E_BAD_TOKEN;
	case EV_E_WITHDRAWN: return PROTO_E_WITHDRAWN;
	case EV_E_FEW: return PROTO_E_TOO_FEW_PLAYERS;
	case EV_E_ROUND: case EV_E_BOARD: return PROTO_E_BAD_BOARD;
	case EV_E_PENDING: return PROTO_E_ROUND_PENDING;
	case EV_E_OVER: return PROTO_E_EVENT_OVER;
	case EV_E_PAIRING: return PROTO_E_CANNOT_PAIR;
	case EV_E_NOMEM: return PROTO_E_INTERNAL;
	}
	return PROTO_E_INTERNAL;
}

static void refuse(room_member *m, int ev_err)
{
	char why[128];

	snprintf(why, sizeof why, "%s%s", ev_err == EV_E_NAME ? "name: " : "", ev_strerror(ev_err));
	evs_io.error(m, proto_code(ev_err), why);
}

/* ---- the stored texts ---- */

static void settings_text(const event_ent *e, char *buf, size_t cap)
{
	const ev_event *ev = &e->ev;

	snprintf(buf, cap, "2 %s %d %d %d %d %d %d %d %d %d\n%s", ev->kind, ev->format,
	         ev->format == EV_SWISS ? ev->total_rounds : 0, ev->clock.kind, ev->clock.initial,
	         ev->clock.increment, ev->clock.days, ev->max_players, e->auto_next, ev->rules,
	         ev->title);
}

static int settings_parse(event_ent *e, const char *text)
{
	char kind[PROTO_KIND_MAX + 1];
	const char *title = strchr(text, '\n');
	ev_settings s;
	int v, n = 0;

	/* Version 1, before the rules were an option, is an event of 2017's. */
	memset(&s, 0, sizeof s);
	s.rules = EV_RULES_2017;
	if (!title || sscanf(text, "%d %15s %d %d %d %d %d %d %d %d%n", &v, kind, &s.format,
	                     &s.rounds, &s.clock.kind, &s.clock.initial, &s.clock.increment,
	                     &s.clock.days, &s.max_players, &e->auto_next, &n) != 10)
		return -1;
	if (v == 2 && sscanf(text + n, "%d", &s.rules) != 1)
		return -1;
	if (v != 1 && v != 2)
		return -1;
	s.kind = kind;
	s.title = title + 1;
	return ev_create(&e->ev, &s) ? -1 : 0;
}

/* The text of change ch; rooms: a ROUND's room ids (NULL: none); by: a
 * RESULT's BY_*. */
static void change_text(jw *w, const ev_change *ch, char (*rooms)[ROOM_ID_LEN + 1], int by)
{
	char line[128];

	jw_reset(w);
	switch (ch->op) {
	case EV_OP_JOIN:
		snprintf(line, sizeof line, "J %d %d\n", ch->entry, ch->round);
		jw_bytes(w, line, strlen(line));
		jw_bytes(w, ch->name, strlen(ch->name));
		break;
	case EV_OP_WITHDRAW:
		snprintf(line, sizeof line, "W %d %d %d", ch->entry, ch->round, ch->board);
		jw_bytes(w, line, strlen(line));
		break;
	case EV_OP_ROUND:
		/* " t": its rooms' seat tokens are the players' own tokens
		 * (without it, in rounds written before: derived). */
		snprintf(line, sizeof line, "R %d %d t", ch->round, ch->nboards);
		jw_bytes(w, line, strlen(line));
		for (int b = 0; b < ch->nboards; b++) {
			const ev_board *bd = &ch->boards[b];

			snprintf(line, sizeof line, "\n%d %d %c %d %d %s", bd->white, bd->black,
			         bd->result ? bd->result : '.', bd->seeds[0], bd->seeds[1],
			         rooms && rooms[b][0] ? rooms[b] : "-");
			jw_bytes(w, line, strlen(line));
		}
		break;
	case EV_OP_RESULT:
		snprintf(line, sizeof line, "S %d %d %c %d %d %c", ch->round, ch->board, ch->result,
		         ch->seeds[0], ch->seeds[1], by == BY_ROOM ? 'r' : 'o');
		jw_bytes(w, line, strlen(line));
		break;
	case EV_OP_END:
		jw_bytes(w, "E", 1);
		break;
	}
	jw_bytes(w, "", 1); /* the NUL */
}

/* Reads a change's text into ch, the rooms of a ROUND into rooms (room
 * for EV_MAX_BOARDS), a RESULT's BY_* into *by, and into *derived 1 for
 * a ROUND written before seat tokens were the players' own: 0 or -1. */
static int change_parse(const char *text, ev_change *ch, char (*rooms)[ROOM_ID_LEN + 1], int *by,
                        int *derived)
{
	const char *p;
	char c, r;
	int n;

	memset(ch, 0, sizeof *ch);
	ch->board = -1;
	switch (text[0]) {
	case 'J':
		p = strchr(text, '\n');
		ch->op = EV_OP_JOIN;
		if (!p || sscanf(text, "J %d %d", &ch->entry, &ch->round) != 2 ||
		    strlen(p + 1) > EV_NAME_BYTES)
			return -1;
		strcpy(ch->name, p + 1);
		return 0;
	case 'W':
		ch->op = EV_OP_WITHDRAW;
		return sscanf(text, "W %d %d %d", &ch->entry, &ch->round, &ch->board) == 3 ? 0 : -1;
	case 'R':
		ch->op = EV_OP_ROUND;
		if (sscanf(text, "R %d %d%n", &ch->round, &ch->nboards, &n) != 2 || ch->nboards < 0 ||
		    ch->nboards > EV_MAX_BOARDS)
			return -1;
		p = text + n;
		*derived = strncmp(p, " t", 2) != 0;
		if (!*derived)
			p += 2;
		for (int b = 0; b < ch->nboards; b++) {
			int w, bl, s0, s1, k;
			char id[ROOM_ID_LEN + 2];

			if (sscanf(p, "\n%d %d %c %d %d %37s%n", &w, &bl, &r, &s0, &s1, id, &k) != 6 ||
			    strlen(id) > ROOM_ID_LEN)
				return -1;
			p += k;
			ch->boards[b] = (ev_board){(int16_t)w, (int16_t)bl, r == '.' ? 0 : r,
			                           {(int16_t)s0, (int16_t)s1}};
			snprintf(rooms[b], sizeof rooms[b], "%s", strcmp(id, "-") ? id : "");
		}
		return 0;
	case 'S':
		ch->op = EV_OP_RESULT;
		if (sscanf(text, "S %d %d %c %d %d %c", &ch->round, &ch->board, &ch->result,
		           &ch->seeds[0], &ch->seeds[1], &c) != 6)
			return -1;
		*by = c == 'r' ? BY_ROOM : BY_ORGANISER;
		return 0;
	case 'E':
		ch->op = EV_OP_END;
		return 0;
	}
	return -1;
}

/* Checks that a replayed change fits the event it is applied to (a
 * damaged store must not index past the arrays). */
static int change_fits(const event_ent *e, const ev_change *ch)
{
	const ev_event *ev = &e->ev;

	switch (ch->op) {
	case EV_OP_JOIN:
		return ch->entry == ev->nentries && ev->nentries < EV_MAX_ENTRIES;
	case EV_OP_WITHDRAW:
		return ch->entry >= 0 && ch->entry < ev->nentries &&
		       (ch->board < 0 || (ch->round >= 1 && ch->round <= ev->nrounds &&
		        ch->board < ev->rounds[ch->round - 1].nboards));
	case EV_OP_ROUND:
		return ch->round == ev->nrounds + 1 && ev->nrounds < EV_MAX_ROUNDS;
	case EV_OP_RESULT:
		return ch->round >= 1 && ch->round <= ev->nrounds && ch->board >= 0 &&
		       ch->board < ev->rounds[ch->round - 1].nboards;
	case EV_OP_END:
		return 1;
	}
	return 0;
}

/* Applies ch with what the shell keeps beside the event (derived: a
 * ROUND's seat tokens are derived ones, see event_ent). */
static int apply(event_ent *e, const ev_change *ch, char (*rooms)[ROOM_ID_LEN + 1], int by,
                 int derived)
{
	if (ch->op == EV_OP_ROUND) {
		int r = ch->round - 1, n = ch->nboards ? ch->nboards : 1;

		e->derived_seats[r] = (uint8_t)derived;
		e->rooms[r] = calloc((size_t)n, sizeof e->rooms[r][0]);
		e->by[r] = calloc((size_t)n, 1);
		if (!e->rooms[r] || !e->by[r])
			return -1;
		if (rooms)
			memcpy(e->rooms[r], rooms, (size_t)ch->nboards * sizeof rooms[0]);
	}
	if (ch->op == EV_OP_RESULT)
		e->by[ch->round - 1][ch->board] = (uint8_t)by;
	if (ch->op == EV_OP_WITHDRAW && ch->board >= 0)
		e->by[ch->round - 1][ch->board] = BY_NONE;
	ev_apply(&e->ev, ch);
	return 0;
}

/* Writes ch (and a join's token) to the open batch, then applies it:
 * 0, or -1 with nothing changed. */
static int commit(event_ent *e, const ev_change *ch, char (*rooms)[ROOM_ID_LEN + 1], int by,
                  const uint8_t *tok)
{
	static jw text;
	store_event_change c;
	int64_t now = (int64_t)time(NULL);

	change_text(&text, ch, rooms, by);
	if (text.oom)
		return -1;
	memset(&c, 0, sizeof c);
	c.seq = e->seq + 1;
	c.body = text.buf;
	if (tok) {
		c.has_tok = 1;
		memcpy(c.tok, tok, SHA256_LEN);
	}
	if (!evs_st->ops->ev_append || evs_st->ops->ev_append(evs_st, e->id, now, &c) < 0)
		return -1;
	evhold_note_write(e->id, now, &c, NULL);
	if (apply(e, ch, rooms, by, 0) < 0)
		log_event(LOG_ERROR, "event_apply_failed", "event=%s seq=%lld", e->id,
		          (long long)c.seq);
	if (tok)
		memcpy(e->tok[ch->entry], tok, SHA256_LEN);
	e->seq = c.seq;
	e->updated = now;
	e->dirty_seq = rooms_release_seq();
	stats.changes++;
	return 0;
}

/* ---- the view ---- */

static void put_points(jw *w, int quarters)
{
	char buf[24];
	static const char *const frac[] = {"", ".25", ".5", ".75"};

	snprintf(buf, sizeof buf, "%d%s", quarters / 4, frac[quarters % 4]);
	jw_raw(w, buf, strlen(buf));
}

static const char *result_name(char r)
{
	switch (r) {
	case EV_RES_WHITE: return "white";
	case EV_RES_DRAW: return "draw";
	case EV_RES_BLACK: return "black";
	case EV_RES_WHITE_FF: return "white_forfeit";
	case EV_RES_BLACK_FF: return "black_forfeit";
	case EV_RES_DOUBLE_FF: return "double_forfeit";
	case EV_RES_BYE: return "bye";
	case EV_RES_RR_BYE: return "rr_bye";
	}
	return NULL;
}

static const char *format_name(int f)
{
	return f == EV_SWISS ? "swiss" : f == EV_DOUBLE_ROUND_ROBIN ? "double_round_robin"
	       : "round_robin";
}

static void put_clock(jw *w, const ev_clock *c)
{
	if (c->kind == PROTO_CLOCK_NONE) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	if (c->kind == PROTO_CLOCK_CORRESPONDENCE) {
		jw_key(w, "days");
		jw_int(w, c->days);
	} else {
		jw_key(w, "initial");
		jw_int(w, c->initial);
		jw_key(w, "increment");
		jw_int(w, c->increment);
	}
	jw_obj_end(w);
}

static int entry_of(const ev_event *ev, int rank0)
{
	return rank0 >= 0 && rank0 < ev->nfield ? ev->field[rank0] : -1;
}

static void put_entry(jw *w, int entry)
{
	if (entry < 0)
		jw_null(w);
	else
		jw_int(w, entry);
}

static void put_schedule(jw *w, const event_ent *e)
{
	const ev_event *ev = &e->ev;

	jw_arr(w);
	for (int r = 0; r < ev->nrounds; r++) {
		jw_obj(w);
		jw_key(w, "round");
		jw_int(w, r + 1);
		jw_key(w, "boards");
		jw_arr(w);
		for (int b = 0; b < ev->rounds[r].nboards; b++) {
			const ev_board *bd = &ev->rounds[r].boards[b];
			int played = bd->black >= 0 && !strchr("+-*UZ", bd->result ? bd->result : 'x');

			jw_obj(w);
			jw_key(w, "board");
			jw_int(w, b + 1);
			jw_key(w, "white");
			put_entry(w, entry_of(ev, bd->white));
			jw_key(w, "black");
			put_entry(w, bd->black >= 0 ? entry_of(ev, bd->black) : -1);
			jw_key(w, "result");
			jw_str(w, result_name(bd->result));
			jw_key(w, "seeds");
			if (bd->result && played) {
				jw_arr(w);
				jw_int(w, bd->seeds[0]);
				jw_int(w, bd->seeds[1]);
				jw_arr_end(w);
			} else
				jw_null(w);
			jw_key(w, "room");
			jw_str(w, e->rooms[r] && e->rooms[r][b][0] ? e->rooms[r][b] : NULL);
			jw_key(w, "by");
			jw_str(w, !bd->result ? NULL : e->by[r][b] == BY_ROOM ? "room"
			          : e->by[r][b] == BY_ORGANISER ? "organiser" : NULL);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void put_standings(jw *w, const event_ent *e)
{
	const ev_event *ev = &e->ev;
	int tb[EV_TB_MAX], ntb = ev_tiebreaks(ev, tb);
	int n = ev->state == EV_ENTRY ? 0 : ev_standings(ev, standings);

	jw_key(w, "tiebreaks");
	jw_arr(w);
	for (int i = 0; i < ntb; i++)
		jw_str(w, ev_tb_name(tb[i]));
	jw_arr_end(w);
	jw_key(w, "standings");
	jw_arr(w);
	for (int i = 0; i < n; i++) {
		const ev_standing *s = &standings[i];
		char place[32];

		if (s->place < s->place_last)
			snprintf(place, sizeof place, "%d-%d", s->place, s->place_last);
		else
			snprintf(place, sizeof place, "%d", s->place);
		jw_obj(w);
		jw_key(w, "place");
		jw_str(w, place);
		jw_key(w, "entry");
		jw_int(w, s->entry);
		jw_key(w, "number");
		jw_int(w, s->number);
		jw_key(w, "points");
		put_points(w, s->points);
		jw_key(w, "tiebreaks");
		jw_arr(w);
		for (int t = 0; t < ntb; t++)
			put_points(w, s->tb[t]);
		jw_arr_end(w);
		jw_key(w, "games");
		jw_int(w, s->games);
		jw_key(w, "wins");
		jw_int(w, s->wins);
		jw_key(w, "draws");
		jw_int(w, s->draws);
		jw_key(w, "losses");
		jw_int(w, s->losses);
		jw_key(w, "withdrawn");
		jw_bool(w, s->withdrawn);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The `event` message without its closing brace (and without `you`). */
/* The last failed attempt to pair e's round: {code, message}, or null. */
static void put_pairing_error(jw *w, const event_ent *e)
{
	if (!e->pair_err) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "code");
	jw_str(w, proto_err_code(e->pair_err));
	jw_key(w, "message");
	jw_str(w, e->pair_why);
	jw_obj_end(w);
}

/* The entries of ev, in the order they came. */
static void put_players(jw *w, const ev_event *ev)
{
	jw_arr(w);
	for (int i = 0; i < ev->nentries; i++) {
		const ev_player *p = &ev->entries[i];

		jw_obj(w);
		jw_key(w, "entry");
		jw_int(w, i);
		jw_key(w, "name");
		jw_str(w, p->name);
		jw_key(w, "number");
		if (p->number)
			jw_int(w, p->number);
		else
			jw_null(w);
		jw_key(w, "late");
		jw_int(w, p->late);
		jw_key(w, "withdrawn");
		jw_bool(w, p->withdrawn != 0);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void view_body(jw *w, const event_ent *e)
{
	const ev_event *ev = &e->ev;

	jw_reset(w);
	jw_obj(w);
	jw_key(w, "type");
	jw_str(w, "event");
	jw_key(w, "event");
	jw_str(w, e->id);
	jw_key(w, "version");
	jw_int(w, e->seq + 1);
	jw_key(w, "title");
	jw_str(w, ev->title);
	jw_key(w, "kind");
	jw_str(w, ev->kind);
	jw_key(w, "format");
	jw_str(w, format_name(ev->format));
	jw_key(w, "rounds");
	if (ev->total_rounds)
		jw_int(w, ev->total_rounds);
	else
		jw_null(w);
	jw_key(w, "round");
	jw_int(w, ev->nrounds);
	jw_key(w, "state");
	jw_str(w, ev->state == EV_ENTRY ? "entry" : ev->state == EV_RUNNING ? "running" : "over");
	jw_key(w, "clock");
	put_clock(w, &ev->clock);
	jw_key(w, "max_players");
	jw_int(w, ev->max_players);
	jw_key(w, "auto");
	jw_bool(w, e->auto_next);
	jw_key(w, "rules");
	jw_str(w, ev->rules == EV_RULES_2017 ? "fide_2017" : "fide_2025");
	jw_key(w, "pairing");
	jw_bool(w, e->pairing != NULL);
	jw_key(w, "join_open");
	jw_bool(w, ev_join_open(ev) && !e->closed);
	jw_key(w, "entries_open");
	jw_bool(w, !e->closed);
	jw_key(w, "per_address");
	jw_int(w, e->per_address ? e->per_address : EV_PER_ADDRESS_DEFAULT);
	jw_key(w, "pairing_error");
	put_pairing_error(w, e);
	jw_key(w, "created");
	jw_int(w, e->created);
	jw_key(w, "updated");
	jw_int(w, e->updated);
	jw_key(w, "players");
	put_players(w, ev);
	jw_key(w, "schedule");
	put_schedule(w, e);
	put_standings(w, e);
}

/* The seat token of entry's board room in `room` in a round paired
 * before seat tokens were the players' own (derived_seats): derived from
 * the player's token hash and the room's id, so that anyone with a copy
 * of the store could derive it too; kept only for those rounds' rooms,
 * which hold its hash. */
static void seat_token(const event_ent *e, int entry, const char *room_id,
                       char text[ROOMS_TOKEN_TEXT], uint8_t hash[SHA256_LEN])
{
	uint8_t in[SHA256_LEN + ROOM_ID_LEN + 8], raw[SHA256_LEN];

	memcpy(in, "evseat1:", 8);
	memcpy(in + 8, e->tok[entry], SHA256_LEN);
	memcpy(in + 8 + SHA256_LEN, room_id, ROOM_ID_LEN);
	sha256(in, sizeof in, raw);
	rooms_token(raw, text, hash);
}

/* A player's or the organiser's `you` object (PROTOCOL.md "event_you"). */
static void put_you(jw *w, const event_ent *e, const ev_watcher *wa)
{
	const ev_event *ev = &e->ev;

	jw_obj(w);
	jw_key(w, "role");
	jw_str(w, wa->role == ROLE_ORGANISER ? "organiser" : "player");
	if (wa->role == ROLE_PLAYER) {
		int number = ev->entries[wa->entry].number, r = ev->nrounds - 1, found = 0;

		jw_key(w, "entry");
		jw_int(w, wa->entry);
		jw_key(w, "game");
		for (int b = 0; number && r >= 0 && b < ev->rounds[r].nboards && !found; b++) {
			const ev_board *bd = &ev->rounds[r].boards[b];
			int side = bd->white == number - 1 ? OW_SOUTH
			         : bd->black == number - 1 ? OW_NORTH : -1;
			char tok[ROOMS_TOKEN_TEXT];
			uint8_t hash[SHA256_LEN];

			if (side < 0 || bd->result || !e->rooms[r][b][0])
				continue;
			found = 1;
			if (e->derived_seats[r])
				seat_token(e, wa->entry, e->rooms[r][b], tok, hash);
			else
				snprintf(tok, sizeof tok, "%s", wa->token);
			jw_obj(w);
			jw_key(w, "room");
			jw_str(w, e->rooms[r][b]);
			jw_key(w, "round");
			jw_int(w, r + 1);
			jw_key(w, "board");
			jw_int(w, b + 1);
			jw_key(w, "side");
			jw_str(w, proto_side_name(side));
			jw_key(w, "token");
			jw_str(w, tok);
			jw_obj_end(w);
		}
		if (!found)
			jw_null(w);
	}
	jw_obj_end(w);
}

static uint64_t fnv64(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

/* A follower with a token gets its own part of the view, `event_you`, a
 * small message of its own after the view, when it differs from the one
 * it was last sent (always with force): the view itself is the same
 * bytes for every follower. */
static void send_own(const event_ent *e, ev_watcher *wa, int force)
{
	uint64_t h;
	void *b;

	if (!wa->role)
		return;
	jw_reset(&you);
	put_you(&you, e, wa);
	if (you.oom)
		return;
	h = fnv64(you.buf, you.len) | 1;
	if (!force && h == wa->own_sent)
		return;
	jw_reset(&out);
	jw_obj(&out);
	jw_key(&out, "type");
	jw_str(&out, "event_you");
	jw_key(&out, "event");
	jw_str(&out, e->id);
	jw_key(&out, "version");
	jw_int(&out, e->seq + 1);
	jw_key(&out, "you");
	jw_raw(&out, you.buf, you.len);
	jw_obj_end(&out);
	if (!(b = evs_io.share(&out))) {
		log_event(LOG_ERROR, "event_send_failed", "event=%s error=\"out of memory\"", e->id);
		return;
	}
	wa->own_sent = h;
	evs_io.send_own(wa->m, b);
	evs_io.unshare(b);
}

static void cache_drop(event_ent *e)
{
	for (int i = 0; i < 3; i++) {
		free(e->cache[i]);
		e->cache[i] = NULL;
		e->cache_len[i] = 0;
		e->cached[i] = (evs_key){0, 0};
	}
	if (e->view) {
		evs_io.unshare(e->view);
		e->view = NULL;
	}
	e->view_key = (evs_key){0, 0};
}

/* What e's view shows now, and whether a text built for k still shows it. */
static evs_key view_key(const event_ent *e)
{
	return (evs_key){e->seq + 1, e->shown};
}

static int key_now(const event_ent *e, evs_key k)
{
	return k.seq == e->seq + 1 && k.shown == e->shown;
}

/* The last pairing of a round refused with code (a PROTO_E_*; 0: none
 * now) and why; the view shows it at the same version. Returns code. */
__attribute__((format(printf, 3, 4)))
static int set_pair_err(event_ent *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->pair_why, sizeof e->pair_why, fmt, ap);
	va_end(ap);
	e->pair_err = code;
	e->shown++;
	return code;
}

/* e's export what as it is now, built if what it shows has none yet:
 * 0, or -2 out of memory. */
static int cache_build(event_ent *e, int what)
{
	long n;
	char *buf;

	if (e->cache[what] && key_now(e, e->cached[what]))
		return 0;
	free(e->cache[what]);
	e->cache[what] = NULL;
	e->cached[what] = (evs_key){0, 0};
	if (what == EVS_JSON) {
		view_body(&cache_text, e);
		jw_obj_end(&cache_text);
		if (cache_text.oom || !(buf = malloc(cache_text.len ? cache_text.len : 1)))
			return -2;
		memcpy(buf, cache_text.buf, cache_text.len);
		n = (long)cache_text.len;
	} else {
		n = what == EVS_TRF ? ev_trf(&e->ev, NULL, 0) : ev_csv(&e->ev, NULL, 0);
		if (n < 0 || !(buf = malloc((size_t)n + 1)))
			return -2;
		n = what == EVS_TRF ? ev_trf(&e->ev, buf, (size_t)n + 1) : ev_csv(&e->ev, buf, (size_t)n + 1);
		if (n < 0) {
			free(buf);
			return -2;
		}
	}
	e->cache[what] = buf;
	e->cache_len[what] = (size_t)n;
	e->cached[what] = view_key(e);
	snprintf(e->etag[what], sizeof e->etag[what], "\"%016llx\"",
	         (unsigned long long)fnv64(buf, (size_t)n));
	return 0;
}

/* The view of e every follower gets (the `event` message), shared by
 * their queues and built once a version (the exports build their own
 * text only when asked); NULL when out of memory. */
static void *shared_view(event_ent *e)
{
	if (e->view && key_now(e, e->view_key))
		return e->view;
	if (e->view) {
		evs_io.unshare(e->view);
		e->view = NULL;
	}
	view_body(&cache_text, e);
	jw_obj_end(&cache_text);
	if (!(e->view = evs_io.share(&cache_text))) {
		log_event(LOG_ERROR, "event_send_failed", "event=%s error=\"out of memory\"", e->id);
		return NULL;
	}
	e->view_key = view_key(e);
	e->view_len = cache_text.len;
	return e->view;
}

/* wa gets e's view as it is now, then its own part: a newer one replaces
 * either in its queue while unsent. The bytes of the view: 0 if none. */
static size_t send_view(event_ent *e, ev_watcher *wa)
{
	void *v = shared_view(e);

	if (!v)
		return 0;
	evs_io.send_view(wa->m, v);
	send_own(e, wa, 1);
	return e->view_len;
}

/* Every follower gets the event as it is now (once committed): the view
 * is built once and the same bytes are queued, by reference, to each;
 * a follower with a token gets its own part when it changed. A follower
 * holds at most one unsent view and one unsent own part (net.c), so a
 * slow one costs at most them besides what its socket took. */
static void broadcast(event_ent *e)
{
	void *v = shared_view(e);

	if (!v)
		return;
	for (ev_watcher *wa = e->watchers; wa; wa = wa->next) {
		evs_io.send_view(wa->m, v);
		send_own(e, wa, 0);
	}
}

/* ---- followers ---- */

static void evs_unwatch(ev_watcher *w)
{
	event_ent *e = w->e;

	if (e->pairing && e->pairing->asker == w->m)
		e->pairing->asker = NULL;
	if (w->prev)
		w->prev->next = w->next;
	else
		e->watchers = w->next;
	if (w->next)
		w->next->prev = w->prev;
	e->nwatchers--;
	w->m->watch = NULL;
	free(w);
}

void events_leave(room_member *m)
{
	event_ent *e = m->watch ? m->watch->e : NULL;

	if (m->watch)
		evs_unwatch(m->watch);
	if (m->waiting)
		evhold_forget_member(m);
	if (e)
		evhold_follower_left(e);
}

/* m follows e with role (and entry, and the player's token as m gave it):
 * its watcher, or NULL after an error sent (the event's followers are too
 * many, or out of memory). */
static ev_watcher *watch(room_member *m, event_ent *e, int role, int entry, const char *token)
{
	ev_watcher *w = m->watch;

	if (w && w->e != e) {
		evs_unwatch(w);
		w = NULL;
	}
	if (!w) {
		if (e->nwatchers >= evs_cfg.max_watchers) {
			evs_io.error(m, PROTO_E_TOO_MANY_SPECTATORS, "the event has its maximum of followers");
			return NULL;
		}
		w = calloc(1, sizeof *w);
		if (!w) {
			evs_io.error(m, PROTO_E_INTERNAL, "out of memory; try again");
			return NULL;
		}
		w->m = m;
		w->e = e;
		w->next = e->watchers;
		if (e->watchers)
			e->watchers->prev = w;
		e->watchers = w;
		e->nwatchers++;
		m->watch = w;
	}
	if (role) {
		w->role = role;
		w->entry = entry;
		snprintf(w->token, sizeof w->token, "%s", role == ROLE_PLAYER && token ? token : "");
	}
	return w;
}

/* ---- the rounds' rooms ---- */

/* The entries of ch's boards by starting rank - 1: the event's field,
 * or at the start the one ev_apply will make (the entries not gone, in
 * the order of entry). */
static void field_of(const event_ent *e, const ev_change *ch, int16_t *field)
{
	int n = 0;

	if (ch->round != 1) {
		memcpy(field, e->ev.field, sizeof e->ev.field);
		return;
	}
	for (int i = 0; i < e->ev.nentries && n < EV_MAX_PLAYERS; i++)
		if (!(e->ev.entries[i].withdrawn && !e->ev.entries[i].number))
			field[n++] = (int16_t)i;
}

/* Takes back the rooms made for the first n boards of a round. */
static void drop_rooms(char (*rooms)[ROOM_ID_LEN + 1], int n)
{
	for (int b = 0; b < n; b++)
		if (rooms[b][0])
			rooms_drop_board(rooms[b]);
}

/* Why a round could not get its rooms (rooms_boards_room's code) into
 * e->pair_err and e->pair_why: the PROTO_E_* code. */
static int rooms_refused(event_ent *e, const ev_change *ch, int n, int rc)
{
	const char *why;

	switch (rc) {
	case ROOMS_E_IP:
		why = "would pass the rooms the event's creator's address may hold"
		      " (--max-rooms-per-ip)";
		break;
	case ROOMS_E_NET:
		why = "would pass the rooms the event's creator's network may hold"
		      " (--max-rooms-per-net)";
		break;
	case ROOMS_E_FULL:
		why = "do not fit: the server holds its maximum of rooms and not enough may make way";
		break;
	default:
		return set_pair_err(e, PROTO_E_INTERNAL, "the store cannot save changes now; round"
		                    " %d was not paired", ch->round);
	}
	return set_pair_err(e, PROTO_E_TOO_MANY_ROOMS, "the %d rooms of round %d %s; it was not"
	                    " paired: pair it again later", n, ch->round, why);
}

/* The rooms of a round being paired (ch: ROUND) into rooms, all or none:
 * 0, or a PROTO_E_* code (e->pair_why says why) with every room made for
 * it taken back. They count against the budgets of rooms held of the
 * event's creator's address and network while their games are on. */
static int make_rooms(event_ent *e, const ev_change *ch, char (*rooms)[ROOM_ID_LEN + 1])
{
	int16_t field[EV_MAX_PLAYERS];
	int n = 0, rc;

	for (int b = 0; b < ch->nboards; b++)
		if (!ch->boards[b].result && ch->boards[b].black >= 0)
			n++;
	if ((rc = rooms_boards_room(n, e->owner, e->owner_net)) < 0)
		return rooms_refused(e, ch, n, rc);
	field_of(e, ch, field);
	for (int b = 0; b < ch->nboards; b++) {
		const ev_board *bd = &ch->boards[b];
		int ent[2];
		uuid_t u;
		rooms_board rb;

		rooms[b][0] = 0;
		if (bd->result || bd->black < 0)
			continue;
		ent[0] = field[bd->white];
		ent[1] = field[bd->black];
		uuid_generate_random(u);
		uuid_unparse_lower(u, rooms[b]);
		/* Each seat's token is its player's token: the rooms hold its
		 * hash, as the event does, and nothing in the store gives it. */
		rb = (rooms_board){
			.event = e->id, .kind = e->ev.kind, .clock_kind = e->ev.clock.kind,
			.clock_initial = e->ev.clock.initial, .clock_increment = e->ev.clock.increment,
			.clock_days = e->ev.clock.days,
			.names = {e->ev.entries[ent[0]].name, e->ev.entries[ent[1]].name},
			.tok = {e->tok[ent[0]], e->tok[ent[1]]}, .owner = e->owner, .owner_net = e->owner_net,
		};
		if ((rc = rooms_create_board(&rb, rooms[b])) < 0) {
			rooms[b][0] = 0;
			drop_rooms(rooms, b);
			return rooms_refused(e, ch, n, rc == -2 ? ROOMS_E_FULL : ROOMS_E_STORE);
		}
	}
	return 0;
}

static char (*round_rooms)[ROOM_ID_LEN + 1];

/* Commits ch, a ROUND (with its rooms) or an END: 0 or a PROTO_E_* code. */
static int commit_step(event_ent *e, const ev_change *ch)
{
	int rc = 0;

	if (ch->op == EV_OP_ROUND) {
		if (!round_rooms && !(round_rooms = calloc(EV_MAX_BOARDS, sizeof round_rooms[0])))
			return PROTO_E_INTERNAL;
		rc = make_rooms(e, ch, round_rooms);
	}
	if (!rc && commit(e, ch, ch->op == EV_OP_ROUND ? round_rooms : NULL, BY_NONE, NULL) < 0) {
		if (ch->op == EV_OP_ROUND)
			drop_rooms(round_rooms, ch->nboards);
		rc = set_pair_err(e, PROTO_E_INTERNAL, "the store cannot save changes now;"
		                  " nothing changed");
	}
	if (!rc) {
		set_pair_err(e, 0, "%s", "");
		log_event(LOG_INFO, ch->op == EV_OP_ROUND ? "event_round" : "event_over",
		          "event=%s round=%d", e->id, e->ev.nrounds);
	}
	return rc;
}

/* ---- pairing off the loop ---- */

static void pairing_done(evpair_job *j);
static void auto_next(event_ent *e);

/* Pairs e's next Swiss round (or its first: ev_start) on a copy in the
 * worker; asker: the organiser who asked (a follower of e), or NULL.
 * Until it is applied, the event is "pairing": nothing else changes it
 * (handle refuses). Every follower sees that at once. */
static void start_pairing(event_ent *e, room_member *asker)
{
	evpair_job *j = malloc(sizeof *j);

	if (!j) {
		if (asker)
			evs_io.error(asker, PROTO_E_INTERNAL, "out of memory; try again");
		log_event(LOG_WARN, "event_next_failed", "event=%s round=%d why=\"out of memory\"",
		          e->id, e->ev.nrounds);
		return;
	}
	j->e = e;
	j->seq = e->seq;
	j->asker = asker;
	memcpy(&j->ev, &e->ev, sizeof j->ev);
	e->pairing = j;
	e->shown++; /* the view says "pairing" from now on */
	if (evpair_submit(j) < 0) {
		evpair_run(j);
		pairing_done(j);
		return;
	}
	broadcast(e);
}

/* A round the worker paired: applied to its event (its rooms made, the
 * change committed, every follower shown it) if the event is still the
 * version paired; else dropped, and paired again from the event as it is. */
static void pairing_done(evpair_job *j)
{
	event_ent *e = j->e;
	room_member *asker = j->asker;
	int rc = j->rc;

	if (!e) {
		free(j);
		return;
	}
	e->pairing = NULL;
	e->shown++;
	if (e->seq != j->seq) {
		log_event(LOG_WARN, "event_pairing_stale", "event=%s round=%d", e->id, e->ev.nrounds);
		free(j);
		if (asker)
			evs_io.error(asker, PROTO_E_PAIRING, "the event changed while its round was paired;"
			             " try again");
		auto_next(e);
		broadcast(e);
		return;
	}
	if (rc) {
		if (asker)
			refuse(asker, rc);
		log_event(LOG_WARN, "event_next_failed", "event=%s round=%d why=%s pair_ms=%lld", e->id,
		          e->ev.nrounds, ev_strerror(rc), (long long)j->ms);
	} else {
		log_event(LOG_INFO, "event_paired", "event=%s round=%d pair_ms=%lld", e->id,
		          j->ch.round, (long long)j->ms);
		rc = commit_step(e, &j->ch);
		if (rc && asker)
			evs_io.error(asker, rc, e->pair_err && e->pair_why[0] ? e->pair_why
			             : "the store cannot save changes now; nothing changed");
		else if (rc)
			log_event(LOG_WARN, "event_next_failed", "event=%s round=%d why=%s", e->id,
			          e->ev.nrounds, proto_err_code(rc));
	}
	free(j);
	broadcast(e);
}

static int pairing_closed;    /* the server stops: no round is applied now */

void events_pairings_done(void)
{
	for (evpair_job *j; !pairing_closed && (j = evpair_take_done());)
		pairing_done(j);
}

int events_pairing_init(void (*wake)(void))
{
	return evpair_start(wake);
}

void events_pairing_stop(void)
{
	pairing_closed = 1;
	evpair_cancel();
}

/* After a result or a withdrawal: with `auto`, the next round (or the
 * end) once the round is complete; a Swiss round is paired in the
 * worker. A round that cannot be paired waits for the organiser. */
static void auto_next(event_ent *e)
{
	static ev_change ch;
	int rc;

	if (!e->auto_next || e->ev.state != EV_RUNNING || e->pairing)
		return;
	if (ev_will_pair(&e->ev)) {
		start_pairing(e, NULL);
		return;
	}
	rc = ev_next(&e->ev, &ch);
	if (rc == EV_E_PENDING)
		return;
	if (rc) {
		set_pair_err(e, proto_code(rc), "%s", ev_strerror(rc));
		log_event(LOG_WARN, "event_next_failed", "event=%s round=%d why=%s", e->id,
		          e->ev.nrounds, ev_strerror(rc));
		return;
	}
	rc = commit_step(e, &ch);
	if (rc)
		log_event(LOG_WARN, "event_next_failed", "event=%s round=%d why=%s", e->id,
		          e->ev.nrounds, proto_err_code(rc));
}

/* ---- the rooms' results ---- */

/* The result r's ended game gives its board ('1' '=' '0'), or 0 for none
 * (aborted); seeds: what white (South) and black captured. */
static char room_result(const rules_room *rr, int seeds[2])
{
	int winner, reason = rules_end_reason(rr, &winner);
	proto_pos pos;
	const uint8_t *cap;

	if (reason == PROTO_END_ABORTED || reason == 0)
		return 0;
	rr->k->at(&rr->play, &pos);
	cap = !strcmp(rr->rec.kind, "togyz") ? pos.tg.captured : pos.ow.captured;
	seeds[0] = cap[OW_SOUTH];
	seeds[1] = cap[OW_NORTH];
	return winner == OW_WINNER_SOUTH ? EV_RES_WHITE : winner == OW_WINNER_NORTH ? EV_RES_BLACK
	       : winner == OW_DRAW ? EV_RES_DRAW : 0;
}

/* The board of e's current round whose room is id, or -1. */
static int board_of_room(const event_ent *e, const char *id)
{
	int r = e->ev.nrounds - 1;

	if (r < 0 || !e->rooms[r])
		return -1;
	for (int b = 0; b < e->ev.rounds[r].nboards; b++)
		if (!strcmp(e->rooms[r][b], id))
			return b;
	return -1;
}

/* rr's game ended: its board's result, then maybe the next round. 1 when
 * e changed. */
static int take_result(event_ent *e, const rules_room *rr)
{
	static ev_change ch;
	int b = board_of_room(e, rr->rec.id), seeds[2];
	char res = room_result(rr, seeds);

	if (b < 0 || !res)
		return 0;
	if (ev_result(&e->ev, EV_BY_ROOM, e->ev.nrounds, b, res, seeds, &ch))
		return 0;
	if (commit(e, &ch, NULL, BY_ROOM, NULL) < 0) {
		log_event(LOG_ERROR, "event_result_lost", "event=%s room=%s", e->id, rr->rec.id);
		return 0;
	}
	log_event(LOG_INFO, "event_result", "event=%s round=%d board=%d result=%c", e->id,
	          e->ev.nrounds, b + 1, res);
	auto_next(e);
	return 1;
}

static void game_ended(const rules_room *rr)
{
	event_ent *e = evs_find(rr->rec.event);

	if (e && take_result(e, rr))
		broadcast(e);
	else if (!e && evs_st->ops->ev_board && evs_st->ops->ev_board(evs_st, rr->rec.event) < 0)
		log_event(LOG_WARN, "event_board_untold", "event=%s room=%s", rr->rec.event,
		          rr->rec.id);
}

/* The result of a board's room another server holds (read as stored):
 * the event's, when its game ended. */
typedef struct peek_ctx {
	char event[ROOM_ID_LEN + 1];
} peek_ctx;

static void board_peeked(void *arg, const room_rec *rec, const uint8_t *pits, int n, int seats)
{
	const peek_ctx *p = arg;
	event_ent *e = evs_find(p->event);
	rules_room tmp;

	(void)seats;
	memset(&tmp, 0, sizeof tmp);
	if (e && rules_restore(&tmp, rec, pits, n, now_ms(), NULL) == 0 && rules_over(&tmp) &&
	    take_result(e, &tmp))
		broadcast(e);
	rules_room_free(&tmp);
}

static void board_peek_done(void *arg, int rc)
{
	(void)rc;
	free(arg);
}

/* Every board of e's current round whose game ended without its result
 * reaching the event (a store that failed between the two; on several
 * servers, a room another server holds, or held when the event was not
 * held anywhere) gets it: at once for the rooms here, from the store for
 * the others. */
static void sweep_boards(event_ent *e)
{
	int r = e->ev.nrounds - 1;

	for (int i = 0; e->ev.state == EV_RUNNING && r >= 0 && i < e->ev.rounds[r].nboards; i++) {
		const char *id = e->rooms[r][i];
		const rules_room *rr;
		peek_ctx *p;

		if (!id[0] || e->ev.rounds[r].boards[i].result)
			continue;
		if ((rr = rooms_find_rules(id))) {
			if (rules_over(rr) && take_result(e, rr))
				broadcast(e);
		} else if (evs_st->ops->peek && (p = malloc(sizeof *p))) {
			memcpy(p->event, e->id, sizeof p->event);
			evs_st->ops->peek(evs_st, id, board_peeked, board_peek_done, p);
		}
	}
	/* A complete round whose automatic pairing was not applied (the
	 * server stopped while it was being paired): paired now. */
	auto_next(e);
}

/* The winner (an ow_winner, OW_NOBODY for a double forfeit) that board b
 * of round r (from 0) gives its room's game: 0, or -1 when it has no
 * result. */
static int board_winner(const event_ent *e, int r, int b, int *winner)
{
	switch (e->ev.rounds[r].boards[b].result) {
	case EV_RES_WHITE: case EV_RES_WHITE_FF: *winner = OW_WINNER_SOUTH; return 0;
	case EV_RES_BLACK: case EV_RES_BLACK_FF: *winner = OW_WINNER_NORTH; return 0;
	case EV_RES_DRAW: *winner = OW_DRAW; return 0;
	case EV_RES_DOUBLE_FF: *winner = OW_NOBODY; return 0;
	default: return -1;
	}
}

static void sweep_all(void)
{
	for (unsigned b = 0; b < EV_BUCKETS; b++)
		for (event_ent *e = table[b], *next; e; e = next) {
			next = e->hnext;
			sweep_boards(e);
		}
}

/* Board b of round r (from 0) got a result the organiser gave (or a
 * withdrawal's forfeit): a game still on in its room ends there with it
 * (its players see "result recorded by the organiser"), in the same
 * batch, so that a later end in the room cannot contradict the event.
 * A room another server holds is told at the commit (store board_end:
 * its holder ends the game as room_told does); a room nobody holds is
 * ended when a server takes it (room_told again). */
static void end_room(const event_ent *e, int r, int b)
{
	const char *id = e->rooms[r] ? e->rooms[r][b] : "";
	int winner;

	if (!id[0] || board_winner(e, r, b, &winner) < 0)
		return;
	if (rooms_end_board(id, winner) >= 0)
		return;
	if (rooms_find_rules(id))
		log_event(LOG_WARN, "event_board_not_ended", "event=%s room=%s", e->id, id);
	else if (evs_st->ops->board_end && evs_st->ops->board_end(evs_st, id) < 0)
		log_event(LOG_WARN, "event_board_untold", "event=%s room=%s", e->id, id);
}

/* Board room id, held here, whose game may still be on, and e, its event
 * (held here or read from the store): when the organiser gave its board
 * a result (or a withdrawal a forfeit) the game ends with it, as
 * end_room ends it. 1 when it ended. */
static int room_told(const event_ent *e, const char *id)
{
	int winner;

	for (int r = 0; r < e->ev.nrounds; r++)
		for (int b = 0; e->rooms[r] && b < e->ev.rounds[r].nboards; b++) {
			if (strcmp(e->rooms[r][b], id))
				continue;
			if (e->by[r][b] == BY_ROOM || board_winner(e, r, b, &winner) < 0 ||
			    rooms_end_board(id, winner) != 0)
				return 0;
			log_event(LOG_INFO, "event_board_ended", "event=%s round=%d board=%d room=%s",
			          e->id, r + 1, b + 1, id);
			return 1;
		}
	return 0;
}

/* ---- the messages ---- */

static int role_of(const event_ent *e, const char *token, int *entry)
{
	uint8_t h[SHA256_LEN];
	int role = ROLE_NONE;

	if (!token[0])
		return ROLE_NONE;
	sha256(token, strlen(token), h);
	if (!memcmp(h, e->org_tok, SHA256_LEN))
		role = ROLE_ORGANISER;
	for (int i = 0; i < e->ev.nentries; i++)
		if (!memcmp(h, e->tok[i], SHA256_LEN) && role == ROLE_NONE) {
			role = ROLE_PLAYER;
			*entry = i;
		}
	return role;
}

/* The `event_welcome` of the organiser (entry unused) or of a player. */
static void send_welcome(room_member *m, const event_ent *e, int role, int entry,
                         const char *token)
{
	jw_reset(&out);
	jw_obj(&out);
	jw_key(&out, "type");
	jw_str(&out, "event_welcome");
	jw_key(&out, "event");
	jw_str(&out, e->id);
	jw_key(&out, "role");
	jw_str(&out, role == ROLE_ORGANISER ? "organiser" : "player");
	if (role == ROLE_PLAYER) {
		jw_key(&out, "entry");
		jw_int(&out, entry);
	}
	jw_key(&out, "token");
	jw_str(&out, token);
	jw_obj_end(&out);
	evs_io.send(m, &out);
}

#define EV_EMPTY_EXPIRE_S (7 * 86400)  /* idle before an empty event expires */
#define EV_UNSTARTED_EXPIRE_S (14 * 86400) /* ... one never started */

/* Entries not withdrawn of an event taking entries (0: nobody joined,
 * or all withdrew), or -1 once it started. */
static int waiting_entries(const event_ent *e)
{
	int n = 0;

	if (e->ev.state != EV_ENTRY)
		return -1;
	for (int i = 0; i < e->ev.nentries; i++)
		if (!e->ev.entries[i].withdrawn)
			n++;
	return n;
}

/* Seconds idle after which e expires. */
static int64_t expiry_of(const event_ent *e)
{
	int n = waiting_entries(e);
	int64_t t = n == 0 ? EV_EMPTY_EXPIRE_S : n > 0 ? EV_UNSTARTED_EXPIRE_S : evs_cfg.expire_events;

	return t < evs_cfg.expire_events ? t : evs_cfg.expire_events;
}

/* e leaves the table and the store (why: "expired" or "evicted"); its
 * followers are told (no_event) and follow nothing. 0, or -1 when the
 * store cannot delete it (nothing changed). */
static int drop_event(event_ent *e, const char *why, int64_t now)
{
	if (!evs_st->ops->ev_remove || evs_st->ops->ev_remove(evs_st, e->id) < 0)
		return -1;
	log_event(LOG_INFO, !strcmp(why, "expired") ? "event_expired" : "event_evicted",
	          "event=%s idle=%lld followers=%d", e->id, (long long)(now - e->updated),
	          e->nwatchers);
	while (e->watchers) {
		room_member *m = e->watchers->m;

		evs_unwatch(e->watchers);
		evs_io.error(m, PROTO_E_NO_EVENT, !strcmp(why, "expired") ? "the event expired"
		         : "the event made way for a new one (it had not started and was idle)");
	}
	evs_unlink_free(e);
	stats.expired++;
	return 0;
}

/* The server holds --max-events: of the events never started and idle
 * evs_cfg.make_way_s (an hour) or more, one goes: the one with fewest entries, then
 * without followers, then idle longest. 0, or -1 when none may. */
static int make_way(void)
{
	int64_t now = (int64_t)time(NULL);
	event_ent *best = NULL;
	int best_n = 0;

	for (unsigned b = 0; b < EV_BUCKETS; b++)
		for (event_ent *e = table[b]; e; e = e->hnext) {
			int n = waiting_entries(e);

			if (n < 0 || now - e->updated < evs_cfg.make_way_s)
				continue;
			if (!best || n < best_n || (n == best_n && (!e->watchers != !best->watchers
			    ? !e->watchers : e->updated < best->updated))) {
				best = e;
				best_n = n;
			}
		}
	return best ? drop_event(best, "evicted", now) : -1;
}

/* e, without one, gets m's address and network as its owners: their
 * budgets of events and of rooms held count it and its boards (after a
 * restart, the organiser's who acts first). */
static void own(event_ent *e, const room_member *m)
{
	if (e->owner || !m->ip)
		return;
	e->owner = m->ip;
	e->owner->events_held++;
	if ((e->owner_net = ip_net_get(m->addr)))
		e->owner_net->events_held++;
}

/* 1 after refusing m's event_create for a budget: the server's events,
 * the address's and its network's, the address's creations a minute. */
static int create_refused(room_member *m)
{
	ipent *net = NULL;

	if (nevents >= evs_cfg.max_events && (evs_cfg.max_events == 0 || make_way() < 0)) {
		evs_io.error(m, PROTO_E_TOO_MANY_EVENTS, "the server holds its maximum of events");
		return 1;
	}
	if (m->ip && m->ip->events_held >= evs_cfg.max_events_per_ip) {
		evs_io.error(m, PROTO_E_TOO_MANY_EVENTS, "too many events held from this address;"
		         " wait for some to expire");
		return 1;
	}
	if (m->ip && (net = ip_net_get(m->addr)) && net->events_held >= evs_cfg.max_events_per_net) {
		evs_io.error(m, PROTO_E_TOO_MANY_EVENTS, "too many events held from this network (an"
		         " IPv4 /24 or IPv6 /48); wait for some to expire");
		return 1;
	}
	if (m->ip && ip_room_allow(m->ip, now_ms(), evs_cfg.ip->rooms_per_min) < 0) {
		evs_io.error(m, PROTO_E_RATE_LIMITED, "too many rooms or events created from this address;"
		         " wait a minute");
		return 1;
	}
	return 0;
}

static void do_create(room_member *m, const proto_msg *msg)
{
	event_ent *e;
	ev_settings s;
	store_event se;
	char token[ROOMS_TOKEN_TEXT], settings[512];
	uuid_t u;
	int rc;
	ev_watcher *w;

	if (create_refused(m))
		return;
	if (msg->clock_kind == PROTO_CLOCK_REALTIME && msg->clock_initial[0] != msg->clock_initial[1]) {
		evs_io.error(m, PROTO_E_BAD_MESSAGE, "clock: an event's games give both sides the same time");
		return;
	}
	memset(&s, 0, sizeof s);
	s.title = msg->title;
	s.kind = msg->kind;
	s.format = msg->format;
	s.rounds = msg->format == PROTO_EV_SWISS ? msg->rounds : 0;
	s.clock = (ev_clock){msg->clock_kind, msg->clock_initial[0], msg->clock_increment,
	                     msg->clock_days};
	s.max_players = msg->max_players;
	s.rules = msg->rules == PROTO_EV_RULES_2017 ? EV_RULES_2017 : EV_RULES_2025;
	e = calloc(1, sizeof *e);
	if (!e) {
		evs_io.error(m, PROTO_E_INTERNAL, "out of memory; try again");
		return;
	}
	rc = ev_create(&e->ev, &s);
	if (rc) {
		free(e);
		refuse(m, rc);
		return;
	}
	uuid_generate_random(u);
	uuid_unparse_lower(u, e->id);
	rooms_token(NULL, token, e->org_tok);
	e->auto_next = msg->auto_next;
	e->created = e->updated = (int64_t)time(NULL);
	settings_text(e, settings, sizeof settings);
	memset(&se, 0, sizeof se);
	memcpy(se.id, e->id, sizeof se.id);
	se.created = se.updated = e->created;
	memcpy(se.org_tok, e->org_tok, SHA256_LEN);
	se.settings = settings;
	if (!evs_st->ops->ev_insert || evs_st->ops->ev_insert(evs_st, &se) < 0) {
		free(e);
		evs_io.error(m, PROTO_E_INTERNAL, "the store cannot save changes now; no event was created");
		return;
	}
	evhold_note_write(e->id, 0, NULL, &se);
	insert(e);
	e->dirty_seq = rooms_release_seq();
	own(e, m);
	stats.created++;
	log_event(LOG_INFO, "event_created", "event=%s kind=%s format=%s rounds=%d addr=%s", e->id,
	          e->ev.kind, format_name(e->ev.format), e->ev.total_rounds, m->addr);
	w = watch(m, e, ROLE_ORGANISER, 0, NULL);
	send_welcome(m, e, ROLE_ORGANISER, 0, token);
	if (w)
		send_view(e, w);
}

/* The hash of an address entry's key (never 0). */
static uint32_t addr_hash(const ipent *ip)
{
	uint32_t h = 2166136261u;

	for (const char *p = ip->addr; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h | 1;
}

static void do_join(room_member *m, event_ent *e, const proto_msg *msg)
{
	static ev_change ch;
	char token[ROOMS_TOKEN_TEXT];
	uint8_t hash[SHA256_LEN];
	int rc = ev_join(&e->ev, msg->name, strlen(msg->name), &ch), n = 0;
	int most = e->per_address ? e->per_address : EV_PER_ADDRESS_DEFAULT;
	uint32_t from = m->ip ? addr_hash(m->ip) : 0;

	if (rc) {
		refuse(m, rc);
		return;
	}
	if (e->closed) {
		evs_io.error(m, PROTO_E_ENTRIES_CLOSED, "the organiser closed entries");
		return;
	}
	for (int i = 0; from && i < e->ev.nentries; i++)
		n += e->from[i] == from && !e->ev.entries[i].withdrawn;
	if (n >= most) {
		char why[128];

		snprintf(why, sizeof why, "at most %d entries from one address in this event; the"
		         " organiser may allow more", most);
		evs_io.error(m, PROTO_E_RATE_LIMITED, why);
		return;
	}
	rooms_token(NULL, token, hash);
	if (commit(e, &ch, NULL, BY_NONE, hash) < 0) {
		evs_io.error(m, PROTO_E_INTERNAL, "the store cannot save changes now; nothing changed");
		return;
	}
	e->from[ch.entry] = from;
	log_event(LOG_INFO, "event_joined", "event=%s entry=%d late=%d addr=%s", e->id, ch.entry,
	          ch.round, m->addr);
	watch(m, e, ROLE_PLAYER, ch.entry, token);
	send_welcome(m, e, ROLE_PLAYER, ch.entry, token);
	broadcast(e);
}

/* Counts one of the organiser's changes to e against
 * --event-changes-per-min: 0, or -1 (nothing counted) past it. Each
 * change costs a view built and sent to every follower: the budget
 * bounds what one organiser's token makes the server do. */
static int change_allow(event_ent *e)
{
	int64_t now = now_ms();

	if (evs_cfg.changes_per_min <= 0)
		return 0;
	if (now - e->change_window >= 60000) {
		e->change_window = now;
		e->changes = 0;
	}
	if (e->changes >= evs_cfg.changes_per_min)
		return -1;
	e->changes++;
	return 0;
}

/* The text of an event_entries change: "C <closed> <per_address>". */
static int entries_parse(const char *text, int *closed, int *per)
{
	return sscanf(text, "C %d %d", closed, per) == 2 && (*closed == 0 || *closed == 1) &&
	       *per >= 0 && *per <= EV_MAX_PLAYERS ? 0 : -1;
}

/* The organiser opens or closes entries, or sets the entries one
 * address may make: written, applied, shown. */
static void do_entries(room_member *m, event_ent *e, const proto_msg *msg)
{
	char text[32];
	store_event_change c;
	int64_t now = (int64_t)time(NULL);
	int closed = msg->entries_open < 0 ? e->closed : !msg->entries_open;
	int per = msg->per_address ? msg->per_address : e->per_address;

	if (e->ev.state == EV_OVER) {
		refuse(m, EV_E_OVER);
		return;
	}
	snprintf(text, sizeof text, "C %d %d", closed, per);
	memset(&c, 0, sizeof c);
	c.seq = e->seq + 1;
	c.body = text;
	if (!evs_st->ops->ev_append || evs_st->ops->ev_append(evs_st, e->id, now, &c) < 0) {
		evs_io.error(m, PROTO_E_INTERNAL, "the store cannot save changes now; nothing changed");
		return;
	}
	evhold_note_write(e->id, now, &c, NULL);
	e->closed = (uint8_t)closed;
	e->per_address = per;
	e->seq = c.seq;
	e->updated = now;
	e->dirty_seq = rooms_release_seq();
	stats.changes++;
	log_event(LOG_INFO, "event_entries", "event=%s open=%d per_address=%d", e->id, !closed, per);
	watch(m, e, ROLE_ORGANISER, 0, msg->token);
	broadcast(e);
}

/* An organiser's or player's action (withdraw to finish). */
static void do_action(room_member *m, event_ent *e, const proto_msg *msg)
{
	static ev_change ch;
	int entry = -1, role = role_of(e, msg->token, &entry), rc, by = BY_NONE;

	if (role == ROLE_NONE) {
		evs_io.error(m, PROTO_E_BAD_TOKEN, "that token is neither the organiser's nor a player's"
		         " of this event");
		return;
	}
	if (msg->type == PROTO_MSG_EVENT_WITHDRAW && role == ROLE_PLAYER && msg->entry >= 0 &&
	    msg->entry != entry) {
		evs_io.error(m, PROTO_E_NOT_ORGANISER, "only the organiser may withdraw another player");
		return;
	}
	if (msg->type == PROTO_MSG_EVENT_WITHDRAW && role == ROLE_ORGANISER && msg->entry < 0) {
		evs_io.error(m, PROTO_E_BAD_MESSAGE, "entry: the organiser names the entry to withdraw");
		return;
	}
	if (msg->type != PROTO_MSG_EVENT_WITHDRAW && role != ROLE_ORGANISER) {
		evs_io.error(m, PROTO_E_NOT_ORGANISER, "only the organiser may do that");
		return;
	}
	if (role == ROLE_ORGANISER && change_allow(e) < 0) {
		evs_io.error(m, PROTO_E_RATE_LIMITED, "too many changes to this event; wait a minute");
		return;
	}
	if (role == ROLE_ORGANISER)
		own(e, m);
	switch (msg->type) {
	case PROTO_MSG_EVENT_ENTRIES:
		do_entries(m, e, msg);
		return;
	case PROTO_MSG_EVENT_WITHDRAW:
		rc = ev_withdraw(&e->ev, role == ROLE_ORGANISER ? msg->entry : entry, &ch);
		break;
	case PROTO_MSG_EVENT_START:
	case PROTO_MSG_EVENT_NEXT:
		if (ev_will_pair(&e->ev) &&
		    (e->ev.state == EV_ENTRY) == (msg->type == PROTO_MSG_EVENT_START)) {
			/* Answered when the worker has paired it. */
			watch(m, e, role, entry, msg->token);
			start_pairing(e, m->watch && m->watch->e == e ? m : NULL);
			return;
		}
		rc = msg->type == PROTO_MSG_EVENT_START ? ev_start(&e->ev, &ch) : ev_next(&e->ev, &ch);
		break;
	case PROTO_MSG_EVENT_RESULT:
		by = BY_ORGANISER;
		rc = ev_result(&e->ev, EV_BY_ORGANISER, msg->round, msg->board - 1, msg->result,
		               msg->seeds, &ch);
		break;
	default:
		rc = ev_finish(&e->ev, &ch);
	}
	if (rc) {
		refuse(m, rc);
		return;
	}
	if (ch.op == EV_OP_ROUND || ch.op == EV_OP_END)
		rc = commit_step(e, &ch);
	else if (commit(e, &ch, NULL, by, NULL) < 0)
		rc = PROTO_E_INTERNAL;
	if (rc) {
		evs_io.error(m, rc, ch.op == EV_OP_ROUND || ch.op == EV_OP_END ? e->pair_why
		         : "the store cannot save changes now; nothing changed");
		if (ch.op == EV_OP_ROUND)
			broadcast(e); /* everyone sees why the round waits */
		return;
	}
	watch(m, e, role, entry, msg->token);
	if ((ch.op == EV_OP_RESULT || ch.op == EV_OP_WITHDRAW) && ch.board >= 0)
		end_room(e, ch.round - 1, ch.board);
	if (ch.op == EV_OP_RESULT || ch.op == EV_OP_WITHDRAW)
		auto_next(e);
	broadcast(e);
}

static void handle(room_member *m, const proto_msg *msg, int counted);

void events_handle(room_member *m, const proto_msg *msg)
{
	handle(m, msg, 0);
}

/* counted: msg was counted against its address's joins already (it
 * waited for its event to be taken). */
static void handle(room_member *m, const proto_msg *msg, int counted)
{
	event_ent *e;
	int entry = -1, role;
	ev_watcher *w;

	if (m->room || m->waiting) {
		evs_io.error(m, PROTO_E_ALREADY_JOINED, "this connection is in a room");
		return;
	}
	if (msg->type == PROTO_MSG_EVENT_CREATE) {
		do_create(m, msg);
		return;
	}
	if (!counted && (msg->type == PROTO_MSG_EVENT_WATCH || msg->type == PROTO_MSG_EVENT_JOIN) &&
	    m->ip && ip_join_allow(m->ip, now_ms(), evs_cfg.ip->joins_per_min) < 0) {
		evs_io.error(m, PROTO_E_RATE_LIMITED, "too many joins from this address; wait a minute");
		return;
	}
	e = evs_find(msg->event);
	if (!e && !counted && evs_st->ops->ev_take && rooms_store_ok() &&
	    strlen(msg->event) <= ROOM_ID_LEN) {
		evhold_wait(m, msg, now_ms() + evs_cfg.join_wait_ms);
		return;
	}
	if (!e) {
		evs_io.error(m, PROTO_E_NO_EVENT, "no event has that id (or it expired)");
		return;
	}
	if (e->pairing && msg->type != PROTO_MSG_EVENT_WATCH) {
		evs_io.error(m, PROTO_E_PAIRING, "the event's next round is being paired; try again"
		             " in a moment");
		return;
	}
	switch (msg->type) {
	case PROTO_MSG_EVENT_WATCH:
		role = role_of(e, msg->token, &entry);
		if (msg->token[0] && role == ROLE_NONE) {
			evs_io.error(m, PROTO_E_BAD_TOKEN, "that token is neither the organiser's nor a"
			         " player's of this event");
			return;
		}
		if (m->ip && ip_view_left(m->ip, now_ms(), evs_cfg.ip->views_per_min) <= 0) {
			evs_io.error(m, PROTO_E_RATE_LIMITED, "too many event views sent to this address;"
			         " wait a minute");
			return;
		}
		w = watch(m, e, role, entry, msg->token);
		if (w && m->ip)
			ip_view_count(m->ip, (int64_t)send_view(e, w));
		return;
	case PROTO_MSG_EVENT_JOIN:
		do_join(m, e, msg);
		return;
	default:
		do_action(m, e, msg);
	}
}

/* ---- start-up, expiry ---- */

static int load_failed;

/* An event as stored, its changes still to apply (evs_load_change), or NULL. */
static event_ent *evs_ent_read(const store_event *se)
{
	event_ent *e = calloc(1, sizeof *e);

	if (!e || settings_parse(e, se->settings) < 0) {
		log_event(LOG_ERROR, "event_unreadable", "event=%s", se->id);
		free(e);
		load_failed++;
		return NULL;
	}
	memcpy(e->id, se->id, sizeof e->id);
	memcpy(e->org_tok, se->org_tok, SHA256_LEN);
	e->created = se->created;
	e->updated = se->updated;
	return e;
}

static void evs_load_event(void *arg, const store_event *se)
{
	(void)arg;
	evs_loading = NULL;
	if (evs_find(se->id)) {
		log_event(LOG_ERROR, "event_unreadable", "event=%s error=\"read twice\"", se->id);
		return;
	}
	if ((evs_loading = evs_ent_read(se)))
		insert(evs_loading);
}

static void evs_load_change(void *arg, const char *id, const store_event_change *c)
{
	static ev_change ch;
	event_ent *e = evs_loading;
	int by = BY_NONE, derived = 0;

	(void)arg;
	if (!e || strcmp(e->id, id))
		return;
	if (!round_rooms && !(round_rooms = calloc(EV_MAX_BOARDS, sizeof round_rooms[0])))
		return;
	if (c->seq == e->seq + 1 && c->body[0] == 'C') {
		int closed, per;

		if (entries_parse(c->body, &closed, &per) == 0) {
			e->closed = (uint8_t)closed;
			e->per_address = per;
			e->seq = c->seq;
			return;
		}
	}
	if (c->seq != e->seq + 1 || change_parse(c->body, &ch, round_rooms, &by, &derived) < 0 ||
	    !change_fits(e, &ch) || apply(e, &ch, round_rooms, by, derived) < 0) {
		log_event(LOG_ERROR, "event_unreadable", "event=%s seq=%lld", id, (long long)c->seq);
		evs_unlink_free(e);
		evs_loading = NULL;
		load_failed++;
		return;
	}
	if (ch.op == EV_OP_JOIN && c->has_tok)
		memcpy(e->tok[ch.entry], c->tok, SHA256_LEN);
	e->seq = c->seq;
}

int events_restore(void)
{
	int n;

	if (!evs_st->ops->ev_load)
		return 0;
	n = evs_st->ops->ev_load(evs_st, NULL, evs_load_event, evs_load_change, NULL, NULL);
	evs_loading = NULL;
	if (n < 0)
		return -1;
	sweep_all();
	evhold_restored();
	return nevents;
}

void events_expire(void)
{
	int64_t now = (int64_t)time(NULL);

	for (unsigned b = 0; b < EV_BUCKETS; b++)
		for (event_ent *e = table[b], *next; e; e = next) {
			next = e->hnext;
			if (!e->watchers)
				cache_drop(e); /* nobody follows: its texts wait for a reader */
			if (!e->pairing && now - e->updated >= expiry_of(e)) {
				drop_event(e, "expired", now);
				continue;
			}
			/* A round refused for want of rooms: paired again (with
			 * `auto`) once there is room. */
			if (e->pair_err && e->auto_next && e->ev.state == EV_RUNNING) {
				int64_t seq = e->seq;

				auto_next(e);
				if (e->seq != seq || !e->pair_err)
					broadcast(e);
			}
		}
	evhold_take_idle(now - (EV_EMPTY_EXPIRE_S < evs_cfg.expire_events ? EV_EMPTY_EXPIRE_S
	                                                                 : evs_cfg.expire_events));
}

static void reloaded(void *arg, int rc)
{
	(void)arg;
	evs_loading = NULL;
	if (rc < 0)
		log_event(LOG_ERROR, "event_reload_failed", "error=\"the store cannot be read\"");
}

/* A batch was lost: each event changed since the last confirmed commit is
 * read back from the store as it is there (or is gone, if its creation
 * was lost); its followers are closed to come back and see it so. */
static void batch_lost(void)
{
	char id[ROOM_ID_LEN + 1];

	evhold_batch_lost();

	for (unsigned b = 0; b < EV_BUCKETS; b++)
		for (event_ent *e = table[b], *next; e; e = next) {
			next = e->hnext;
			if (e->dirty_seq <= rooms_committed())
				continue;
			while (e->watchers) {
				room_member *m = e->watchers->m;

				evs_unwatch(e->watchers);
				evs_io.close(m, ROOMS_CLOSE_STORE_FAILED, "store failed");
			}
			memcpy(id, e->id, sizeof id);
			evs_unlink_free(e);
			log_event(LOG_WARN, "event_reloaded", "event=%s", id);
			evs_st->ops->ev_load(evs_st, id, evs_load_event, evs_load_change, reloaded, NULL);
		}
}

int events_init(const events_config *c, store *s, const rooms_io *i)
{
	evs_cfg = *c;
	evs_st = s;
	evs_io = *i;
	rooms_on_game_ended(game_ended);
	rooms_on_batch_lost(batch_lost);
	{
		const evhold_hooks h = {
			.st = evs_st, .io = &evs_io, .loading = &evs_loading,
			.find = evs_find, .any = evs_any, .count = events_count,
			.unlink_free = evs_unlink_free, .ent_free = evs_ent_free,
			.ent_read = evs_ent_read, .load_event = evs_load_event,
			.load_change = evs_load_change, .unwatch = evs_unwatch,
			.export_ent = evs_export, .export_id = events_export,
			.handle = handle, .sweep = sweep_boards, .sweep_all = sweep_all,
			.room_told = room_told,
		};

		evhold_init(&h);
	}
	return 0;
}

static int evs_export(event_ent *e, int what, const char *inm, jw *w, char etag[20])
{
	if (cache_build(e, what) < 0)
		return -2;
	memcpy(etag, e->etag[what], sizeof e->etag[what]);
	jw_reset(w);
	if (inm && !strcmp(inm, etag))
		return 1;
	jw_bytes(w, e->cache[what], e->cache_len[what]);
	return w->oom ? -2 : 0;
}

int events_export(const char *id, int what, const char *inm, jw *w, char etag[20])
{
	event_ent *e = evs_find(id);

	return e ? evs_export(e, what, inm, w, etag) : -1;
}
