/* game.c: `oware play` and `oware perft` for every kind (cli/kind.h), and
 * the start and replay of a game that `best` shares with them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kind.h"

int cli_start(const cli_kind *k, const char *cmd, const char *text, proto_play *g)
{
	char err[256];
	proto_pos p;

	if (!text) {
		k->proto->begin(g, NULL);
		return 0;
	}
	if (k->proto->position_parse(text, strlen(text), &p, err, k->position_errlen))
		return cli_bad(cmd, "--position: %s", err);
	k->proto->begin(g, &p);
	return 0;
}

int cli_replay(const cli_kind *k, const char *cmd, proto_play *g, char **moves, int n,
               int detailed, uint8_t *pits)
{
	for (int i = 0; i < n; i++) {
		int pit = k->move_parse(g, moves[i]), rc;

		if (pit < 0)
			return cli_bad(cmd, "ply %d: \"%s\" is not %s", i + 1, moves[i], k->move_form);
		if ((rc = k->proto->play(g, pit)))
			return cli_bad(cmd, "ply %d: %s", i + 1,
			               detailed ? k->play_error(g, rc) : k->proto->strerror(rc));
		if (pits)
			pits[i] = (uint8_t)pit;
	}
	return 0;
}

int cli_play(const cli_kind *k, int argc, char **argv)
{
	const char *position = NULL;
	proto_play g;
	int i = 0, rc;
	jw w;

	if (argc > 0 && !strcmp(argv[0], "--position")) {
		if (argc < 2)
			return cli_bad(NULL, "--position needs a JSON argument");
		position = argv[1];
		i = 2;
	}
	if ((rc = cli_start(k, NULL, position, &g)) ||
	    (rc = cli_replay(k, NULL, &g, argv + i, argc - i, 1, NULL)))
		return rc;
	jw_init(&w);
	k->proto->game_write(&w, &g, NULL, OW_NOBODY);
	rc = cli_print(&w);
	jw_free(&w);
	return rc;
}

int cli_perft(const cli_kind *k, int argc, char **argv, const char *usage)
{
	const char *position = NULL;
	char *end;
	long depth;
	proto_play g;
	int rc;

	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "--position")))
		return cli_bad(NULL, "perft needs DEPTH [--position JSON]%s%s",
		               k->perft_usage ? "\n" : "", k->perft_usage ? usage : "");
	errno = 0;
	depth = strtol(argv[0], &end, 10);
	if (errno || end == argv[0] || *end || depth < 0 || depth > 64)
		return cli_bad(NULL, "perft: DEPTH must be an integer from 0 to 64, not \"%s\"", argv[0]);
	if (argc == 3)
		position = argv[2];
	if ((rc = cli_start(k, NULL, position, &g)))
		return rc;
	printf("%llu\n", (unsigned long long)k->proto->perft(&g, (int)depth));
	return fflush(stdout) ? 1 : 0;
}
