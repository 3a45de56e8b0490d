/* fault.c: the test build's fault plan (OW_FAULT_FILE) and a SQLite VFS that
 * makes the store's files fail as a full or read-only disk would (fault.h).
 * Empty unless compiled with -DOW_FAULTS=1. */
#include "server/store/fault.h"

#if defined(OW_FAULTS) && OW_FAULTS
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "server/base/log.h"

enum { MODE_NONE, MODE_FULL, MODE_READONLY };

#define MAX_POINTS 8
#define POINT_LEN 24
#define MAX_COUNT 1000000

/* The plan in force. One lock for all of it: the VFS runs on the event
 * loop's thread and on the checkpointer's. Lives for the process. */
static struct {
	pthread_mutex_t mu;
	int path_known;   /* path was looked up */
	const char *path; /* OW_FAULT_FILE (the environment's string), or NULL */
	int64_t checked_ms; /* when the file was last looked at; 0: never */
	/* The file last read, to notice a change: */
	int exists;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	/* What it said: */
	int mode;
	int npoints;
	struct {
		char name[POINT_LEN];
		int left;
	} point[MAX_POINTS];
} plan = {.mu = PTHREAD_MUTEX_INITIALIZER};

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *mode_name(int mode)
{
	return mode == MODE_FULL ? "full" : mode == MODE_READONLY ? "readonly" : "none";
}

/* One line of the plan into plan (lock held); lineno for the log. */
static void parse_line(char *line, int lineno)
{
	char *save = NULL, *word = strtok_r(line, " \t\r\n", &save);
	char *name, *count, *end;
	long n = 1;

	if (!word || word[0] == '#')
		return;
	if (!strcmp(word, "full") || !strcmp(word, "readonly")) {
		if (strtok_r(NULL, " \t\r\n", &save))
			goto bad;
		plan.mode = word[0] == 'f' ? MODE_FULL : MODE_READONLY;
		return;
	}
	if (strcmp(word, "fail"))
		goto bad;
	name = strtok_r(NULL, " \t\r\n", &save);
	count = strtok_r(NULL, " \t\r\n", &save);
	if (!name || strlen(name) >= POINT_LEN || strtok_r(NULL, " \t\r\n", &save))
		goto bad;
	if (count) {
		errno = 0;
		n = strtol(count, &end, 10);
		if (errno || *end || end == count || n < 1 || n > MAX_COUNT)
			goto bad;
	}
	for (int i = 0; i < plan.npoints; i++)
		if (!strcmp(plan.point[i].name, name)) {
			plan.point[i].left = (int)n; /* the last line for a point counts */
			return;
		}
	if (plan.npoints == MAX_POINTS)
		goto bad;
	snprintf(plan.point[plan.npoints].name, POINT_LEN, "%s", name);
	plan.point[plan.npoints++].left = (int)n;
	return;
bad:
	log_event(LOG_WARN, "fault_plan_bad", "file=%s line=%d", plan.path, lineno);
}

/* Replaces the plan with the file's (lock held); a missing file clears it. */
static void plan_read(void)
{
	char line[256];
	FILE *f;
	int lineno = 0;

	plan.mode = MODE_NONE;
	plan.npoints = 0;
	if (plan.exists) {
		f = fopen(plan.path, "r");
		if (!f) {
			log_event(LOG_WARN, "fault_plan_unreadable", "file=%s error=\"%s\"", plan.path,
			          strerror(errno));
		} else {
			while (fgets(line, sizeof line, f))
				parse_line(line, ++lineno);
			fclose(f);
		}
	}
	log_event(LOG_INFO, "fault_plan", "file=%s mode=%s points=%d", plan.path,
	          mode_name(plan.mode), plan.npoints);
}

/* Re-reads the plan when its file changed and FAULT_CHECK_MS passed since
 * the last look (lock held); force skips the wait. */
static void plan_check(int force)
{
	struct stat st;
	int64_t now = mono_ms();
	int exists;

	if (!plan.path_known) {
		plan.path = getenv("OW_FAULT_FILE");
		if (plan.path && !plan.path[0])
			plan.path = NULL;
		plan.path_known = 1;
	}
	if (!plan.path || (!force && plan.checked_ms && now - plan.checked_ms < FAULT_CHECK_MS))
		return;
	plan.checked_ms = now ? now : 1;
	exists = stat(plan.path, &st) == 0;
	if (!force && exists == plan.exists &&
	    (!exists || (st.st_dev == plan.dev && st.st_ino == plan.ino && st.st_size == plan.size &&
	                 st.st_mtim.tv_sec == plan.mtime.tv_sec &&
	                 st.st_mtim.tv_nsec == plan.mtime.tv_nsec &&
	                 st.st_ctim.tv_sec == plan.ctime.tv_sec &&
	                 st.st_ctim.tv_nsec == plan.ctime.tv_nsec)))
		return;
	plan.exists = exists;
	if (exists) {
		plan.dev = st.st_dev;
		plan.ino = st.st_ino;
		plan.size = st.st_size;
		plan.mtime = st.st_mtim;
		plan.ctime = st.st_ctim;
	}
	plan_read();
}

/* The disk's state under the plan now (MODE_*). */
static int disk_mode(void)
{
	int mode;

	pthread_mutex_lock(&plan.mu);
	plan_check(0);
	mode = plan.mode;
	pthread_mutex_unlock(&plan.mu);
	return mode;
}

int fault_hit(const char *point)
{
	int hit = 0;

	pthread_mutex_lock(&plan.mu);
	plan_check(0);
	for (int i = 0; i < plan.npoints; i++)
		if (!strcmp(plan.point[i].name, point)) {
			if (plan.point[i].left > 0) {
				plan.point[i].left--;
				hit = 1;
			}
			break;
		}
	pthread_mutex_unlock(&plan.mu);
	if (hit)
		log_event(LOG_INFO, "fault_hit", "point=%s", point);
	return hit;
}

/* ---- the VFS ----
 *
 * "owfault" forwards every call to the VFS that was the default before
 * (normally "unix"). Its files put a header before the original VFS's
 * file object, and fail writes as the plan says.
 *
 * What a real disk does, and so what these files do:
 * - Full (ENOSPC): unixWrite() turns a failed or short write with ENOSPC
 *   into SQLITE_FULL. Shrinking a file frees space and an fsync of data
 *   already written succeeds, so xTruncate and xSync keep working. (A real
 *   full disk may still let a write overwrite blocks the file already
 *   holds, e.g. a WAL that starts over; here every write fails: the worst
 *   case.)
 * - Read-only (a remount, or ext4's errors=remount-ro): files already open
 *   stay open, write() and ftruncate() fail with EROFS, which unixWrite()
 *   and unixTruncate() report as SQLITE_IOERR_WRITE and
 *   SQLITE_IOERR_TRUNCATE, and unlink() as SQLITE_IOERR_DELETE.
 *   SQLITE_READONLY is what SQLite says when it opened the file read-only in
 *   the first place, not what an open connection sees. fsync() with nothing
 *   dirty succeeds, so xSync keeps working.
 * Opening files is left alone under both. */

/* Owned by SQLite (it allocates szOsFile bytes per open file). */
typedef struct ffile {
	sqlite3_file base;  /* pMethods: io_methods[] matching the real file's */
	sqlite3_file *real; /* the original VFS's file, right after this header */
	int faulty;         /* the database, its journal or its WAL */
} ffile;

#define REAL(f) (((ffile *)(f))->real)

/* The plan's mode for this file: MODE_NONE for files the plan spares. */
static int file_mode(sqlite3_file *f)
{
	return ((ffile *)f)->faulty ? disk_mode() : MODE_NONE;
}

static int f_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int f_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int f_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	switch (file_mode(f)) {
	case MODE_FULL:
		return SQLITE_FULL;
	case MODE_READONLY:
		return SQLITE_IOERR_WRITE;
	}
	return REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	if (file_mode(f) == MODE_READONLY)
		return SQLITE_IOERR_TRUNCATE;
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int f_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int f_lock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xLock(REAL(f), lock);
}

static int f_unlock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), lock);
}

static int f_check_reserved_lock(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int f_file_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int f_sector_size(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int f_device_characteristics(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int f_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **p)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), region, size, extend, p);
}

static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int f_shm_unmap(sqlite3_file *f, int delete_flag)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), delete_flag);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

/* A file gets the table of the same version as the real file's methods:
 * SQLite looks at iVersion before calling the shm (2) and fetch (3) ones,
 * so the wrapper must not offer what the real file lacks. */
#define IO_METHODS(v)                                                              \
	{                                                                              \
		v, f_close, f_read, f_write, f_truncate, f_sync, f_file_size, f_lock,      \
		f_unlock, f_check_reserved_lock, f_file_control, f_sector_size,            \
		f_device_characteristics, f_shm_map, f_shm_lock, f_shm_barrier,            \
		f_shm_unmap, f_fetch, f_unfetch                                            \
	}
static const sqlite3_io_methods io_methods[3] = {IO_METHODS(1), IO_METHODS(2), IO_METHODS(3)};

#define ORIG(vfs) ((sqlite3_vfs *)(vfs)->pAppData)

static int v_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags,
                  int *out_flags)
{
	ffile *f = (ffile *)file;
	int rc, v;

	f->real = (sqlite3_file *)(f + 1);
	f->real->pMethods = NULL;
	f->faulty = (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL)) != 0;
	rc = ORIG(vfs)->xOpen(ORIG(vfs), name, f->real, flags, out_flags);
	/* SQLite calls xClose after a failed xOpen when pMethods is set: the
	 * wrapper's is set exactly when the real one is. */
	if (f->real->pMethods) {
		v = f->real->pMethods->iVersion;
		f->base.pMethods = &io_methods[(v < 1 ? 1 : v > 3 ? 3 : v) - 1];
	} else {
		f->base.pMethods = NULL;
	}
	return rc;
}

static int v_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
	if (disk_mode() == MODE_READONLY)
		return SQLITE_IOERR_DELETE;
	return ORIG(vfs)->xDelete(ORIG(vfs), name, sync_dir);
}

static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	return ORIG(vfs)->xAccess(ORIG(vfs), name, flags, out);
}

static int v_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	return ORIG(vfs)->xFullPathname(ORIG(vfs), name, n, out);
}

static void *v_dl_open(sqlite3_vfs *vfs, const char *name)
{
	return ORIG(vfs)->xDlOpen(ORIG(vfs), name);
}

static void v_dl_error(sqlite3_vfs *vfs, int n, char *msg)
{
	ORIG(vfs)->xDlError(ORIG(vfs), n, msg);
}

typedef void (*dl_sym_fn)(void);

static dl_sym_fn v_dl_sym(sqlite3_vfs *vfs, void *handle, const char *sym)
{
	return ORIG(vfs)->xDlSym(ORIG(vfs), handle, sym);
}

static void v_dl_close(sqlite3_vfs *vfs, void *handle)
{
	ORIG(vfs)->xDlClose(ORIG(vfs), handle);
}

static int v_randomness(sqlite3_vfs *vfs, int n, char *out)
{
	return ORIG(vfs)->xRandomness(ORIG(vfs), n, out);
}

static int v_sleep(sqlite3_vfs *vfs, int us)
{
	return ORIG(vfs)->xSleep(ORIG(vfs), us);
}

static int v_current_time(sqlite3_vfs *vfs, double *out)
{
	return ORIG(vfs)->xCurrentTime(ORIG(vfs), out);
}

static int v_get_last_error(sqlite3_vfs *vfs, int n, char *msg)
{
	return ORIG(vfs)->xGetLastError(ORIG(vfs), n, msg);
}

static int v_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
	return ORIG(vfs)->xCurrentTimeInt64(ORIG(vfs), out);
}

static int v_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr fn)
{
	return ORIG(vfs)->xSetSystemCall(ORIG(vfs), name, fn);
}

static sqlite3_syscall_ptr v_get_system_call(sqlite3_vfs *vfs, const char *name)
{
	return ORIG(vfs)->xGetSystemCall(ORIG(vfs), name);
}

static const char *v_next_system_call(sqlite3_vfs *vfs, const char *name)
{
	return ORIG(vfs)->xNextSystemCall(ORIG(vfs), name);
}

/* Registered once; SQLite keeps a pointer to it for the process. */
static sqlite3_vfs fault_vfs;
static pthread_once_t vfs_once = PTHREAD_ONCE_INIT;
static int vfs_rc = -1;

/* Makes fault_vfs, wrapping the current default, the default VFS. */
static void vfs_register(void)
{
	sqlite3_vfs *orig = sqlite3_vfs_find(NULL);

	if (!orig)
		return;
	fault_vfs.iVersion = orig->iVersion < 3 ? orig->iVersion : 3;
	fault_vfs.szOsFile = (int)sizeof(ffile) + orig->szOsFile;
	fault_vfs.mxPathname = orig->mxPathname;
	fault_vfs.zName = "owfault";
	fault_vfs.pAppData = orig;
	fault_vfs.xOpen = v_open;
	fault_vfs.xDelete = v_delete;
	fault_vfs.xAccess = v_access;
	fault_vfs.xFullPathname = v_full_pathname;
	fault_vfs.xDlOpen = orig->xDlOpen ? v_dl_open : NULL;
	fault_vfs.xDlError = orig->xDlError ? v_dl_error : NULL;
	fault_vfs.xDlSym = orig->xDlSym ? v_dl_sym : NULL;
	fault_vfs.xDlClose = orig->xDlClose ? v_dl_close : NULL;
	fault_vfs.xRandomness = v_randomness;
	fault_vfs.xSleep = v_sleep;
	fault_vfs.xCurrentTime = v_current_time;
	fault_vfs.xGetLastError = v_get_last_error;
	if (orig->iVersion >= 2)
		fault_vfs.xCurrentTimeInt64 = orig->xCurrentTimeInt64 ? v_current_time_int64 : NULL;
	if (orig->iVersion >= 3) {
		fault_vfs.xSetSystemCall = orig->xSetSystemCall ? v_set_system_call : NULL;
		fault_vfs.xGetSystemCall = orig->xGetSystemCall ? v_get_system_call : NULL;
		fault_vfs.xNextSystemCall = orig->xNextSystemCall ? v_next_system_call : NULL;
	}
	if (sqlite3_vfs_register(&fault_vfs, 1) == SQLITE_OK)
		vfs_rc = 0;
}

int fault_init(void)
{
	pthread_once(&vfs_once, vfs_register);
	if (vfs_rc < 0) {
		log_event(LOG_ERROR, "fault_init_failed", "error=\"cannot register the fault VFS\"");
		return -1;
	}
	pthread_mutex_lock(&plan.mu);
	plan.path_known = 0;
	plan_check(1);
	pthread_mutex_unlock(&plan.mu);
	return 0;
}

/* The fault build fails its store even when main() does not call
 * fault_init() (yet): the VFS goes in before main runs, and the plan is
 * read on the first write. */
__attribute__((constructor)) static void fault_at_start(void)
{
	pthread_once(&vfs_once, vfs_register);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int fault_disabled;
#endif
