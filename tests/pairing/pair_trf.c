/* pair_trf: pairs the next round of a TRF-16 file by the Dutch system
 * (server/rules/pairing.h), for comparisons with other pairing programs.
 *
 *   pair_trf [--rules 2017|2025] [--round R] FILE.trf
 *
 * prints the number of boards, then a line per board: the starting ranks
 * of white and black, and "N 0" for the player with the pairing-allocated
 * bye (the output form of the JaVaFo-style programs' -p). The rules are
 * --rules, else the file's XXS line, else 2025. --round R pairs round R of
 * a longer file: the rounds after it are dropped, and of round R only the
 * entries made before its pairing are kept (a bye asked for, an absence:
 * 'H' 'F' 'Z' without an opponent). Exit 0 on success, 1 when no pairing
 * exists, 2 on a bad file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/pairing.h"
#include "server/rules/trf.h"
#include "tests/pairing/cut.h"

static int usage(void)
{
	fprintf(stderr, "usage: pair_trf [--rules 2017|2025] [--round R] FILE.trf\n");
	return 2;
}

int main(int argc, char **argv)
{
	int rules = -1, round = 0, a = 1;
	for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
		if (!strcmp(argv[a], "--rules") && !strcmp(argv[a + 1], "2017"))
			rules = PAIR_DUTCH_2017;
		else if (!strcmp(argv[a], "--rules") && !strcmp(argv[a + 1], "2025"))
			rules = PAIR_DUTCH_2025;
		else if (!strcmp(argv[a], "--round") && atoi(argv[a + 1]) > 0)
			round = atoi(argv[a + 1]);
		else
			return usage();
	}
	if (a + 1 != argc)
		return usage();
	FILE *fp = fopen(argv[a], "rb");
	if (!fp) {
		perror(argv[a]);
		return 2;
	}
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text, fp);
	fclose(fp);
	static trf_file f;
	char err[200];
	if (trf_read(text, len, &f, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", argv[a], err);
		return 2;
	}
	if (rules >= 0)
		f.ev.rules = rules;
	if (round)
		cut_to_round(&f.ev, round);
	size_t wl = pair_work_size(f.ev.nplayers);
	void *work = malloc(wl);
	if (!work)
		return 2;
	pair_board boards[PAIR_MAX_PLAYERS / 2 + 1];
	int nb = 0;
	int rc = pair_dutch(&f.ev, work, wl, boards, &nb, err, sizeof err);
	free(work);
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[a], err);
		return rc == PAIR_ENOPAIRING ? 1 : 2;
	}
	printf("%d\n", nb);
	for (int i = 0; i < nb; i++)
		printf("%d %d\n", boards[i].white + 1, boards[i].black + 1);
	return 0;
}
