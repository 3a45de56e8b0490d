/* cpu-of: runs a command and writes the CPU seconds (user + system) it and
 * every process under it used to a file, for tests/run-suites.sh.
 *
 * Usage: cpu-of FILE COMMAND [ARG...]; exits with COMMAND's status.
 *
 * The shell's `times` counts only the children a parent waited for: a
 * browser's renderers whose browser process ended first, or a daemon that
 * forked away, are handed to init and never counted (a browser suite
 * showed a twentieth of its CPU). As a child subreaper (PR_SET_CHILD_SUBREAPER)
 * this process is handed them instead and reaps them, so their CPU is in
 * RUSAGE_CHILDREN. It waits only for COMMAND: what is still running then
 * (a server a test left behind) is not waited for, and not counted. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t child, pid;
	int status = 0, rc;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: cpu-of FILE COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		perror("cpu-of: PR_SET_CHILD_SUBREAPER"); /* counts less, runs the same */
	child = fork();
	if (child < 0) {
		perror("cpu-of: fork");
		return 2;
	}
	if (child == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	for (;;) {
		pid = waitpid(-1, &rc, 0);
		if (pid == child) {
			status = rc;
			break;
		}
		if (pid < 0 && errno != EINTR) {
			perror("cpu-of: waitpid");
			return 2;
		}
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		; /* the handed-over processes that have ended */
	getrusage(RUSAGE_CHILDREN, &ru);
	f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%.0f\n", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		        (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
		fclose(f);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
