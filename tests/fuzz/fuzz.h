/* fuzz.h: checks shared by the libFuzzer targets of tests/fuzz/. A failed
 * check prints the file, line, expression and both values, then aborts,
 * which libFuzzer reports as a crash and saves the input. */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noreturn)) static inline void
fuzz_fail(const char *file, int line, const char *expr, long long a, long long b, int values)
{
	/* To fd 2, not stderr: a target may point stderr at /dev/null. */
	if (values)
		dprintf(STDERR_FILENO, "%s:%d: check failed: %s (%lld vs %lld)\n", file, line, expr, a, b);
	else
		dprintf(STDERR_FILENO, "%s:%d: check failed: %s\n", file, line, expr);
	abort();
}

/* Aborts unless c holds. */
#define FUZZ_CHECK(c) \
	((c) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #c, 0, 0, 0))

/* Aborts unless a == b, printing both. */
#define FUZZ_CHECK_EQ(a, b) do { \
	long long fa_ = (long long)(a), fb_ = (long long)(b); \
	if (fa_ != fb_) \
		fuzz_fail(__FILE__, __LINE__, #a " == " #b, fa_, fb_, 1); \
} while (0)

#endif
