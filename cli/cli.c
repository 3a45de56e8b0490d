/* cli.c: see cli.h. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>

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
