// Starting a thread on a core other than the caller's. On a machine of few cores the kernel often
// queues a new thread behind the busy thread that created it, on that thread's core, while another
// core sits idle: measured on a 2-core machine, a thread created a millisecond into a process
// started 1.5 to 3 ms late in four runs out of ten, and 0.07 ms late, every run, when placed on
// the other core at its creation. The placement is only for its start: the thread may then run on
// any core the process may use.
#ifndef CTHREAD_PLACEMENT_H
#define CTHREAD_PLACEMENT_H

#include <pthread.h>

/// Starts `body(context)` on a new joinable thread, placed on a core other than the caller's when
/// the process may use another; 0, or pthread_create's error number.
int mapsim_thread_start_elsewhere(pthread_t *thread, void *(*body)(void *), void *context);

/// Lets the calling thread run on every core the process's main thread may use: what a thread
/// started by `mapsim_thread_start_elsewhere` calls first.
void mapsim_thread_release_placement(void);

#endif
