/* pair_trf: pairs the next round of a TRF-16 file by the Dutch system
 * (server/rules/pairing.h), for comparisons with other pairing programs.
 *
 *   pair_trf FILE.trf
 *
 * prints the number of boards, then a line per board: the starting ranks
 * of white and black, and "N 0" for the player with the pairing-allocated
 * bye (the output form of the JaVaFo-style programs' -p). Exit 0 on
 * success, 1 when no pairing exists, 2 on a bad file. */
#include <stdio.h>
#include <stdlib.h>

#include "server/rules/pairing.h"
#include "server/rules/trf.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pair_trf FILE.trf\n");
		return 2;
	}
	FILE *fp = fopen(argv[1], "rb");
	if (!fp) {
		perror(argv[1]);
		return 2;
	}
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text, fp);
	fclose(fp);
	static trf_file f;
	char err[200];
	if (trf_read(text, len, &f, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return 2;
	}
	size_t wl = pair_work_size(f.ev.nplayers);
	void *work = malloc(wl);
	if (!work)
		return 2;
	pair_board boards[PAIR_MAX_PLAYERS / 2 + 1];
	int nb = 0;
	int rc = pair_dutch(&f.ev, work, wl, boards, &nb, err, sizeof err);
	free(work);
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return rc == PAIR_ENOPAIRING ? 1 : 2;
	}
	printf("%d\n", nb);
	for (int i = 0; i < nb; i++)
		printf("%d %d\n", boards[i].white + 1, boards[i].black + 1);
	return 0;
}
