/* fuzz_trf.c: libFuzzer target: Tournament Report Files (server/rules/trf.h)
 * from any bytes, and the Dutch pairing of what they hold
 * (server/rules/pairing.h). Checks: trf_read either refuses with a one-line
 * ASCII reason, or gives an event that, written by trf_write and read
 * back, is the same; and pair_dutch on it (fields of up to 16 players: the matching is cubic)
 * either finds no pairing or pairs every player it should exactly once,
 * nobody against an opponent met before, the bye to at most one player
 * who had neither a bye nor a forfeit win (under the 2025 rules, nor a
 * full-point bye). Memory errors anywhere are
 * caught by ASan. */
#include <stdint.h>
#include <string.h>

#include "server/rules/pairing.h"
#include "server/rules/trf.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static trf_file f, again;
static char text[1 << 17];
static uint64_t work[(40u << 20) / sizeof(uint64_t)];

static void check_pairing(const pair_event *ev)
{
	pair_board b[PAIR_MAX_PLAYERS / 2 + 1];
	int nb = -1, seen[PAIR_MAX_PLAYERS] = { 0 };
	char err[160] = "";
	size_t need = pair_work_size(ev->nplayers);

	FUZZ_CHECK(need > 0 && need <= sizeof work);
	int rc = pair_dutch(ev, work, sizeof work, b, &nb, err, sizeof err);
	if (rc) {
		FUZZ_CHECK(rc == PAIR_ENOPAIRING || rc == PAIR_ERANGE);
		FUZZ_CHECK(err[0]);
		return;
	}
	int played = pair_rounds_played(ev), byes = 0;
	for (int i = 0; i < nb; i++) {
		int w = b[i].white, k = b[i].black;
		FUZZ_CHECK(w >= 0 && w < ev->nplayers);
		seen[w]++;
		if (k < 0) {
			byes++;
			const pair_player *pl = &ev->p[w];
			for (int r = 0; r < pl->nrounds; r++)
				FUZZ_CHECK(pl->rounds[r].result != 'U'
					&& !(pl->rounds[r].result == '+')
					&& !(ev->rules == PAIR_DUTCH_2025 && pl->rounds[r].result == 'F'));
			continue;
		}
		FUZZ_CHECK(k < ev->nplayers && k != w);
		seen[k]++;
		const pair_player *pl = &ev->p[w];
		for (int r = 0; r < pl->nrounds; r++)
			FUZZ_CHECK(!(pl->rounds[r].opp == k && strchr("10=WDL", pl->rounds[r].result)));
	}
	FUZZ_CHECK(byes <= 1);
	for (int p = 0; p < ev->nplayers; p++)
		FUZZ_CHECK_EQ(seen[p], ev->p[p].nrounds <= played);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[160] = "";

	if (trf_read((const char *)data, size, &f, err, sizeof err)) {
		FUZZ_CHECK(err[0]);
		for (const char *c = err; *c; c++)
			FUZZ_CHECK(*c >= 0x20 && *c < 0x7f);
		return 0;
	}
	size_t n = trf_write(&f, text, sizeof text);
	FUZZ_CHECK(n < sizeof text);
	FUZZ_CHECK_EQ(strlen(text), n);
	FUZZ_CHECK_EQ(trf_read(text, n, &again, err, sizeof err), 0);
	FUZZ_CHECK(!memcmp(&f.ev, &again.ev, sizeof f.ev));
	FUZZ_CHECK(!memcmp(f.names, again.names, sizeof f.names));
	FUZZ_CHECK(!strcmp(f.title, again.title));
	if (f.ev.nplayers <= 16)
		check_pairing(&f.ev);
	return 0;
}
