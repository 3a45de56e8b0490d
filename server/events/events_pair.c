/* events_pair.c: the pairing worker (events_shell.h, docs/events.md
 * "Pairing off the loop"): one helper thread runs ev_start / ev_next on
 * a copy of an event, so that a Swiss pairing of seconds never holds up
 * the loop. Like the SQLite checkpointer it does pure work on its own
 * memory and never touches the loop's state: the loop hands it a job
 * (the copy), the worker fills the job's change and result and wakes the
 * loop (the wake function main gives, ev_async_send), and the loop takes
 * the job back and applies it (events.c). The queue and the list of jobs
 * done are the only memory both threads touch, under one mutex. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "server/base/clock.h"
#include "server/base/log.h"
#include "server/events/events_shell.h"

static pthread_t worker;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int running;          /* the worker thread exists (the loop's) */
static int stopping;         /* under mu: the worker ends */
static evpair_job *todo, **todo_tail = &todo; /* under mu, in order */
static evpair_job *done, **done_tail = &done; /* under mu, in order */
static void (*wake_fn)(void);

void evpair_run(evpair_job *j)
{
	int64_t t0 = now_ms();

	j->rc = j->ev.state == EV_ENTRY ? ev_start(&j->ev, &j->ch) : ev_next(&j->ev, &j->ch);
	j->ms = now_ms() - t0;
}

/* The worker's niceness (Linux: a thread's own): when the cores are
 * busy, the loop's connections come before a pairing. */
#define WORKER_NICE 10

static void *work(void *arg)
{
	(void)arg;
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE);
	pthread_mutex_lock(&mu);
	for (;;) {
		evpair_job *j;

		while (!todo && !stopping)
			pthread_cond_wait(&cv, &mu);
		if (stopping)
			break;
		j = todo;
		if (!(todo = j->next))
			todo_tail = &todo;
		pthread_mutex_unlock(&mu);
		evpair_run(j);
		pthread_mutex_lock(&mu);
		j->next = NULL;
		*done_tail = j;
		done_tail = &j->next;
		pthread_mutex_unlock(&mu);
		wake_fn();
		pthread_mutex_lock(&mu);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

int evpair_start(void (*wake)(void))
{
	if (running)
		return 0;
	wake_fn = wake;
	stopping = 0;
	if (pthread_create(&worker, NULL, work, NULL)) {
		log_event(LOG_WARN, "pairing_worker_failed", "error=\"cannot start the thread;"
		          " rounds are paired on the loop\"");
		return -1;
	}
	running = 1;
	return 0;
}

int evpair_submit(evpair_job *j)
{
	if (!running)
		return -1;
	j->next = NULL;
	pthread_mutex_lock(&mu);
	*todo_tail = j;
	todo_tail = &j->next;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	return 0;
}

evpair_job *evpair_take_done(void)
{
	evpair_job *j;

	pthread_mutex_lock(&mu);
	if ((j = done) && !(done = j->next))
		done_tail = &done;
	pthread_mutex_unlock(&mu);
	return j;
}

static void free_list(evpair_job *j)
{
	while (j) {
		evpair_job *next = j->next;

		if (j->e)
			j->e->pairing = NULL;
		free(j);
		j = next;
	}
}

void evpair_cancel(void)
{
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

void evpair_stop(void)
{
	if (running) {
		evpair_cancel();
		/* Waits for a pairing under way (docs/events.md: at most the
		 * worst case's seconds); the jobs not begun are dropped. */
		pthread_join(worker, NULL);
		running = 0;
	}
	free_list(todo);
	free_list(done);
	todo = done = NULL;
	todo_tail = &todo;
	done_tail = &done;
}
