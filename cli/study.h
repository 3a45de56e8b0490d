/* study.h: `oware analyse` (engine/analysis.h) and `oware ogn` (records in
 * Aualé's notation, engine/ogn.h). */
#ifndef CLI_STUDY_H
#define CLI_STUDY_H

/* Each runs with the arguments after its command word (argc of them in
 * argv), prints its result on stdout and returns 0; on bad input prints
 * one line on stderr, nothing on stdout, and returns 2; on a failed write
 * or no memory returns 1. */
int cli_analyse(int argc, char **argv);
int cli_ogn(int argc, char **argv);

/* Their usage and help texts, for the tool's --help. */
extern const char cli_analyse_help[];
extern const char cli_ogn_help[];

#endif
