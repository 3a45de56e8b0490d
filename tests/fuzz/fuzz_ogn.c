/* fuzz_ogn.c: libFuzzer target: Aualé's records (engine/ogn.h) from any
 * bytes. Checks: ow_ogn_read either refuses with a line inside the text and
 * a one-line ASCII reason, or gives a record whose every move is legal
 * (replayed from its start) and which, written again with its own tags by
 * ow_ogn_write and read back, gives the same start, moves and game; and
 * ow_fen_read agrees with ow_fen_write on whatever it accepts. Memory
 * errors anywhere are caught by ASan. */
#include <stdint.h>
#include <string.h>

#include "engine/ogn.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ow_ogn rec, again;
static char text[16 * OW_OGN_MAX_PLIES + 2048];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	int lines = 1;
	ow_pos p;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (ow_ogn_read(in, size, &rec)) {
		FUZZ_CHECK(rec.line >= 1 && rec.line <= lines);
		FUZZ_CHECK(rec.err[0]);
		for (const char *c = rec.err; *c; c++)
			FUZZ_CHECK(*c >= 0x20 && *c < 0x7f);
	} else {
		ow_ogn_meta meta = {ow_ogn_tag_value(&rec, "South"), ow_ogn_tag_value(&rec, "North"),
		                    ow_ogn_tag_value(&rec, "Date"), NULL};
		const char *result = ow_ogn_tag_value(&rec, "Result");
		ow_game g;
		int n, bad;

		ow_game_from(&g, &rec.start);
		for (int i = 0; i < rec.nmoves; i++)
			FUZZ_CHECK_EQ(ow_game_play(&g, rec.moves[i], NULL), OW_OK);
		FUZZ_CHECK(!memcmp(&g.pos, &rec.game.pos, sizeof g.pos));
		FUZZ_CHECK_EQ(g.end, rec.game.end);
		/* A Result the writer takes ("*" or scores fitting the game). */
		meta.result = result;
		n = ow_ogn_write(text, sizeof text, &rec.start, rec.moves, rec.nmoves, &meta, &bad);
		if (n == OW_OGN_E_TAG) {
			FUZZ_CHECK_EQ(bad, 3);
			meta.result = NULL;
			n = ow_ogn_write(text, sizeof text, &rec.start, rec.moves, rec.nmoves, &meta, &bad);
		}
		FUZZ_CHECK(n > 0);
		FUZZ_CHECK_EQ(ow_ogn_read(text, (size_t)n, &again), 0);
		FUZZ_CHECK(!memcmp(&again.start, &rec.start, sizeof rec.start));
		FUZZ_CHECK_EQ(again.nmoves, rec.nmoves);
		FUZZ_CHECK(!memcmp(again.moves, rec.moves, (size_t)rec.nmoves));
		FUZZ_CHECK(!memcmp(&again.game.pos, &rec.game.pos, sizeof g.pos));
	}
	if (!ow_fen_read(in, size, &p)) {
		char fen[OW_FEN_SIZE];
		ow_pos q;
		int n = ow_fen_write(fen, &p);

		FUZZ_CHECK_EQ(ow_fen_read(fen, (size_t)n, &q), 0);
		FUZZ_CHECK(!memcmp(&p, &q, sizeof p));
	}
	return 0;
}
