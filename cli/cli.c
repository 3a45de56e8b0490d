/* cli.c: see cli.h. */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/search.h"
#include "engine/togyz_search.h"

int cli_bad(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (cmd)
		fprintf(stderr, "oware: %s: ", cmd);
	else
		fputs("oware: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_BAD_INPUT;
}

int cli_print(const jw *w)
{
	if (w->oom) {
		fprintf(stderr, "oware: out of memory\n");
		return 1;
	}
	if (fwrite(w->buf, 1, w->len, stdout) != w->len || putchar('\n') == EOF || fflush(stdout))
		return 1;
	return 0;
}

int cli_egdb_open(const char *cmd, const char *path, const ow_egdb **db)
{
	static ow_egdb egdb;
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len = -1;
	int rc;

	if (!f)
		return cli_bad(cmd, "--egdb %s: %s", path, strerror(errno));
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)len + 1)) && fread(buf, 1, (size_t)len, f) != (size_t)len)
		len = -1;
	fclose(f);
	if (len < 0 || !buf) {
		free(buf);
		return cli_bad(cmd, "--egdb %s: cannot read the file", path);
	}
	if ((rc = ow_egdb_open(&egdb, buf, (size_t)len))) {
		free(buf);
		return cli_bad(cmd, "--egdb %s: %s", path, rc == OW_EGDB_E_CHECKSUM
		               ? "its checksum does not match (a damaged file)"
		               : "not an endgame database of this version (make egdb writes one)");
	}
	*db = &egdb;
	return 0;
}

int cli_parse_num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static const char *const oware_levels[] = {
	"starter", "easy", "learner", "amateur", "improver", "steady", "medium",
	"club", "advanced", "strong", "expert", "master", "hard",
};
static const char *const togyz_levels[] = {
	"starter", "easy", "learner", "amateur", "improver", "steady",
	"medium", "advanced", "strong", "master", "hard",
};
_Static_assert(sizeof oware_levels / sizeof *oware_levels == OW_LADDER_LEVELS &&
               sizeof togyz_levels / sizeof *togyz_levels == TG_LADDER_LEVELS,
               "a name for each step of the engine's ladders");
const struct cli_ladder cli_oware_ladder = {OW_LADDER_LEVELS, oware_levels};
const struct cli_ladder cli_togyz_ladder = {TG_LADDER_LEVELS, togyz_levels};

int cli_level_parse(const struct cli_ladder *l, const char *s)
{
	long n;

	/* A number as written: no sign, no leading zero. */
	if (s[0] >= '1' && s[0] <= '9' && !cli_parse_num(s, 1, l->n, &n) &&
	    strspn(s, "0123456789") == strlen(s))
		return (int)n;
	for (int i = 0; i < l->n; i++)
		if (!strcmp(s, l->names[i]))
			return i + 1;
	return -1;
}

int cli_bad_level(const struct cli_ladder *l, const char *s)
{
	char names[256];
	size_t len = 0;

	names[0] = 0;
	for (int i = 0; i < l->n && len < sizeof names; i++)
		len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
		                        i == 0 ? "" : i == l->n - 1 ? " or " : ", ", l->names[i]);
	return cli_bad("best", "--level must be 1-%d or %s, not \"%s\"", l->n, names, s);
}

uint32_t cli_now_ms(void *ctx)
{
	struct timespec t;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)((uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u);
}
