/* fault.h: test-only fault injection for the store, so that tests can walk
 * its failure paths against the real server. Compiled in only with
 * -DOW_FAULTS=1 (make FAULTS=1: build/fault/owared); in any other build
 * every function below is an inline no-op and server/store/fault.c is empty.
 *
 * The plan is a text file named by the environment variable OW_FAULT_FILE.
 * A missing or empty file (or no variable) means no faults. One directive
 * a line; words are separated by blanks; blank lines and lines starting
 * with '#' are ignored; a line not understood is logged (fault_plan_bad)
 * and ignored:
 *
 *   full            the disk is full: every write to the database file, its
 *                   -wal or its rollback journal fails with SQLITE_FULL (what
 *                   the unix VFS reports for ENOSPC); reads, syncs,
 *                   truncations and deletions still work
 *   readonly        the file system went read-only (EROFS): writes fail with
 *                   SQLITE_IOERR_WRITE, truncations with SQLITE_IOERR_TRUNCATE,
 *                   deletions with SQLITE_IOERR_DELETE; reads and syncs work
 *   fail POINT [N]  the next N (default 1, at most 1000000) calls of
 *                   fault_hit("POINT") return 1. POINT is a word of up to
 *                   23 characters; the store uses "write" (a room's write
 *                   statement) and "commit" (a batch's COMMIT)
 *
 * When "full" and "readonly" both appear, the last one counts. The file is
 * re-read whenever its inode, size or modification time changes, checked
 * at most every FAULT_CHECK_MS; a re-read replaces the whole plan (counts
 * not used up are dropped, and a "fail" line counts afresh). So: write the
 * file whole (a temporary name, then rename), give each version a
 * different content (a "# n" line will do), and wait FAULT_CHECK_MS before
 * counting on it.
 *
 * The -shm file is left alone: SQLite maps it into memory and never writes
 * it through the VFS's file methods. Temporary files are left alone too
 * (they may live on another file system). */
#ifndef SRV_FAULT_H
#define SRV_FAULT_H

#define FAULT_CHECK_MS 20

#if defined(OW_FAULTS) && OW_FAULTS
/* Reads the plan file named by OW_FAULT_FILE (if set) and makes the
 * failing VFS SQLite's default, wrapping the default ("unix") one; call it
 * before any sqlite3_open (the fault build also registers the VFS by
 * itself at program start). Safe to call again. Returns 0, or -1 (logged)
 * when the VFS could not be registered. */
int fault_init(void);
/* 1 when the plan says the fault point named point fails now (consuming
 * one of its "fail" count), else 0. Thread-safe. */
int fault_hit(const char *point);
#else
static inline int fault_init(void)
{
	return 0;
}

static inline int fault_hit(const char *point)
{
	(void)point;
	return 0;
}
#endif

#endif
