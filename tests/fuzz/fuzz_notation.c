/* fuzz_notation.c: libFuzzer target: move notation, through ow_pit_parse and
 * the `oware play` command line itself (cli/oware.c is compiled in with its
 * main() renamed ow_cli_main).
 *
 * Input: newline-separated arguments after `oware play`, e.g. "a\nF\nc" or
 * "--position\n{...}\nb". Checks: ow_pit_parse and ow_pit_letter agree with
 * the letter table of RULES.md for every byte of every argument, and the
 * CLI's exit status is the one a model of its contract predicts: 0 when every
 * argument is one pit letter and every move is legal in turn, else 2 (bad
 * input). Memory errors anywhere on the way are caught by ASan. */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "engine/oware.h"
#include "protocol/game.h"
#include "tests/fuzz/fuzz.h"

#define MAX_ARGS 256
#define MAX_TEXT 4096

int ow_cli_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char letters[] = "abcdefABCDEF";

/* The pit of a letter by RULES.md's table, -1 for anything else. */
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

/* The exit status `oware play ARGS` should have, from the contract. */
static int model_status(int argc, char **argv)
{
	char err[160];
	ow_game g;
	ow_pos p;
	int i = 0;

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
	int argc = 2, status;

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

	status = ow_cli_main(argc, argv);
	FUZZ_CHECK_EQ(status, model_status(argc - 2, argv + 2));
	return 0;
}
