/* fuzz_notation.c: libFuzzer target: move notation, through ow_pit_parse and
 * the `oware play` command line itself (cli/oware.c is compiled in with its
 * main() renamed ow_cli_main).
 *
 * Input: newline-separated arguments after `oware play`, e.g. "a\nF\nc" or
 * "--position\n{...}\nb". Checks: ow_pit_parse and ow_pit_letter agree with
 * the letter table of docs/rules-oware.md for every byte of every argument,
 * and the CLI's exit status is the one a model of its contract predicts: 0
 * when every argument is one pit letter and every move is legal in turn,
 * else 2 (bad input); with "--game togyz" (docs/cli.md: anywhere but as the
 * value of --position) every move must be one hole digit 1-9 legal in
 * turn. Memory errors anywhere on the way are caught by ASan. */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "protocol/togyz.h"
#include "engine/oware.h"
#include "engine/togyz.h"
#include "protocol/game.h"
#include "tests/fuzz/fuzz.h"

#define MAX_ARGS 256
#define MAX_TEXT 4096

int ow_cli_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char letters[] = "abcdefABCDEF";

/* The pit of a letter by docs/rules-oware.md's table, -1 for anything else. */
static int table_pit(int c)
{
	for (int i = 0; i < OW_PITS; i++)
		if (c == letters[i])
			return i;
	return -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	json_object_seed(1);
	/* The CLI prints a game or an error line on every run: drop both (the
	 * checks write to fd 2 directly, and ASan does too). */
	stdout = fopen("/dev/null", "w");
	stderr = fopen("/dev/null", "w");
	if (!stdout || !stderr)
		abort();
	/* Every int near the letters, once. */
	for (int c = -1000; c < 1000; c++) {
		FUZZ_CHECK_EQ(ow_pit_parse(c), table_pit(c));
		FUZZ_CHECK_EQ(ow_pit_letter(c), c >= 0 && c < OW_PITS ? letters[c] : '?');
	}
	return 0;
}

/* The exit status of `oware play --game togyz ARGS`, from the contract. */
static int model_togyz(int argc, char **argv)
{
	char err[200];
	tg_game g;
	tg_pos p;
	int i = 0;

	if (argc > 0 && !strcmp(argv[0], "--position")) {
		if (argc < 2 || proto_togyz_position_parse(argv[1], strlen(argv[1]), &p, err, sizeof err))
			return 2;
		tg_game_from(&g, &p);
		i = 2;
	} else {
		tg_game_start(&g);
	}
	for (; i < argc; i++) {
		const char *m = argv[i];
		int hole = strlen(m) == 1 && m[0] >= '1' && m[0] <= '9' ? m[0] - '0' : 0;

		if (!hole || tg_game_play(&g, tg_pit_of(g.pos.turn, hole), NULL) != TG_OK)
			return 2;
	}
	return 0;
}

/* The exit status `oware play ARGS` should have, from the contract. */
static int model_status(int argc, char **argv)
{
	char err[160], *rest[MAX_ARGS + 1];
	int game = -1, n = 0;
	ow_game g;
	ow_pos p;
	int i = 0;

	/* "--game NAME" once, anywhere but as the value of --position. */
	for (int k = 0; k < argc; k++) {
		if (!strcmp(argv[k], "--game")) {
			if (game >= 0 || k + 1 >= argc)
				return 2;
			if (!strcmp(argv[k + 1], "oware"))
				game = 0;
			else if (!strcmp(argv[k + 1], "togyz"))
				game = 1;
			else
				return 2;
			k++;
			continue;
		}
		rest[n++] = argv[k];
		if (!strcmp(argv[k], "--position") && k + 1 < argc)
			rest[n++] = argv[++k];
	}
	argc = n;
	argv = rest;
	if (game == 1)
		return model_togyz(argc, argv);

	if (argc > 0 && !strcmp(argv[0], "--position")) {
		if (argc < 2 || proto_position_parse(argv[1], strlen(argv[1]), &p, err, sizeof err))
			return 2;
		ow_game_from(&g, &p);
		i = 2;
	} else {
		ow_game_start(&g);
	}
	for (; i < argc; i++) {
		int pit = strlen(argv[i]) == 1 ? table_pit(argv[i][0]) : -1;

		if (pit < 0 || ow_game_play(&g, pit, NULL) != OW_OK)
			return 2;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[MAX_TEXT + 1], prog[] = "oware", play[] = "play";
	char *argv[MAX_ARGS + 3];
	int argc = 2, status, want;

	if (size > MAX_TEXT)
		return -1; /* not worth keeping */
	memcpy(text, data, size);
	text[size] = 0;
	argv[0] = prog;
	argv[1] = play;
	for (char *s = text; argc < MAX_ARGS + 2; ) {
		char *nl = strchr(s, '\n');

		argv[argc++] = s;
		if (!nl)
			break;
		*nl = 0;
		s = nl + 1;
	}
	if (size == 0)
		argc = 2; /* `oware play` alone: the start position */
	argv[argc] = NULL;

	for (int i = 2; i < argc; i++)
		for (const char *c = argv[i]; *c; c++) {
			int pit = ow_pit_parse((unsigned char)*c);

			FUZZ_CHECK_EQ(pit, table_pit((unsigned char)*c));
			if (pit >= 0)
				FUZZ_CHECK_EQ(ow_pit_letter(pit), *c);
		}

	/* The model first: the CLI may rearrange argv (it takes --game out). */
	want = model_status(argc - 2, argv + 2);
	status = ow_cli_main(argc, argv);
	FUZZ_CHECK_EQ(status, want);
	return 0;
}
