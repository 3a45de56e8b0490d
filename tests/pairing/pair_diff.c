/* pair_diff: the differential test of the Dutch pairing against the
 * pairings bbpPairings made of the same rounds (tests/pairing/diff/).
 *
 *   pair_diff --cut OUTDIR FILE.trf...
 *       writes each round of each tournament as the pairing program saw it
 *       before pairing it: OUTDIR/tT-rR.trf (T from the file's name tT.trf)
 *       and lists "T R" on stdout, one line a round (diff-refs.sh feeds
 *       them to bbpPairings).
 *   pair_diff --rules 2017|2025 REF FILE.trf...
 *       pairs every round listed in REF by server/rules/pairing.h and
 *       compares: REF has a line a round, "T R" then the boards as
 *       "white black" pairs (the bye "N 0") or "fail" when bbpPairings found
 *       no pairing. Prints each round that differs, then the count; exit 0
 *       when every round is equal, 1 otherwise, 2 on a bad file.
 *
 * The rounds of a tournament are 1 to the last one played, and the next
 * when rounds are left (a round no pairing satisfies ends a tournament of
 * pair_sim). A round is cut from the whole file: the rounds after it
 * dropped, of the round itself only the entries made before its pairing
 * (a bye asked for, an absence: 'H' 'F' 'Z' without an opponent). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rules/pairing.h"
#include "server/rules/trf.h"
#include "tests/pairing/cut.h"

#define NTOUR 10000

static trf_file whole[1];
static trf_file cut[1];

/* Reads path into whole; its number T from the name "tT.trf". */
static int load(const char *path, int *t)
{
	static char text[1 << 20];
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (sscanf(base, "t%d.trf", t) != 1) {
		fprintf(stderr, "%s: not named tT.trf\n", path);
		return 2;
	}
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		perror(path);
		return 2;
	}
	size_t len = fread(text, 1, sizeof text, fp);
	fclose(fp);
	char err[200];
	if (trf_read(text, len, whole, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", path, err);
		return 2;
	}
	return 0;
}

/* The rounds of the tournament in whole to pair. */
static int rounds_of(void)
{
	int played = pair_rounds_played(&whole->ev);
	return played < whole->ev.total_rounds ? played + 1 : played;
}

static int write_cuts(const char *outdir, int nfiles, char **files)
{
	static char text[1 << 20];
	for (int f = 0; f < nfiles; f++) {
		int t;
		if (load(files[f], &t))
			return 2;
		for (int r = 1; r <= rounds_of(); r++) {
			*cut = *whole;
			cut_to_round(&cut->ev, r);
			char path[512];
			snprintf(path, sizeof path, "%s/t%d-r%d.trf", outdir, t, r);
			size_t len = trf_write(cut, text, sizeof text);
			FILE *fp = fopen(path, "wb");
			if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp)) {
				perror(path);
				return 2;
			}
			printf("%d %d\n", t, r);
		}
	}
	return 0;
}

/* Our pairing of round r of whole as a REF line's tail. */
static void pair_round(int rules, int r, void *work, char *out, size_t cap)
{
	*cut = *whole;
	cut_to_round(&cut->ev, r);
	cut->ev.rules = rules;
	pair_board b[PAIR_MAX_PLAYERS / 2 + 1];
	int nb = 0;
	char err[200];
	if (pair_dutch(&cut->ev, work, pair_work_size(PAIR_MAX_PLAYERS), b, &nb, err, sizeof err)) {
		snprintf(out, cap, "fail");
		return;
	}
	size_t at = 0;
	out[0] = 0;
	for (int i = 0; i < nb && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%d %d", i ? " " : "", b[i].white + 1, b[i].black + 1);
}

/* REF's lines by tournament and round; NULL where none. */
static char *ref_line[NTOUR][PAIR_MAX_ROUNDS + 1];

static int read_ref(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		perror(path);
		return 2;
	}
	static char line[8192];
	while (fgets(line, sizeof line, fp)) {
		int t, r, n;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%d %d %n", &t, &r, &n) != 2 || t < 0 || t >= NTOUR
			|| r < 1 || r > PAIR_MAX_ROUNDS) {
			fprintf(stderr, "%s: bad line \"%s\"\n", path, line);
			fclose(fp);
			return 2;
		}
		ref_line[t][r] = strdup(line + n);
	}
	fclose(fp);
	return 0;
}

static int compare(int rules, const char *refpath, int nfiles, char **files)
{
	if (read_ref(refpath))
		return 2;
	void *work = malloc(pair_work_size(PAIR_MAX_PLAYERS));
	if (!work)
		return 2;
	int rounds = 0, equal = 0, missing = 0;
	static char ours[8192];
	for (int f = 0; f < nfiles; f++) {
		int t;
		if (load(files[f], &t)) {
			free(work);
			return 2;
		}
		for (int r = 1; r <= rounds_of(); r++) {
			if (t >= NTOUR || !ref_line[t][r]) {
				missing++;
				continue;
			}
			pair_round(rules, r, work, ours, sizeof ours);
			rounds++;
			if (!strcmp(ours, ref_line[t][r]))
				equal++;
			else
				printf("t%d r%d differs:\n  bbp:  %s\n  ours: %s\n", t, r, ref_line[t][r], ours);
		}
	}
	free(work);
	printf("pair_diff %d: %d tournaments, %d rounds, %d equal to bbpPairings'%s\n",
		rules == PAIR_DUTCH_2017 ? 2017 : 2025, nfiles, rounds, equal,
		missing ? " (rounds without a reference!)" : "");
	return rounds == equal && !missing ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--cut"))
		return write_cuts(argv[2], argc - 3, argv + 3);
	if (argc >= 4 && !strcmp(argv[1], "--rules") && (!strcmp(argv[2], "2017") || !strcmp(argv[2], "2025")))
		return compare(!strcmp(argv[2], "2017") ? PAIR_DUTCH_2017 : PAIR_DUTCH_2025,
			argv[3], argc - 4, argv + 4);
	fprintf(stderr, "usage: pair_diff --cut OUTDIR FILE.trf... | --rules 2017|2025 REF FILE.trf...\n");
	return 2;
}
