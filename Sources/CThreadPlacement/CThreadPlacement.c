// See include/CThreadPlacement.h.
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#endif
#include "CThreadPlacement.h"

int mapsim_thread_start_elsewhere(pthread_t *thread, void *(*body)(void *), void *context) {
    pthread_attr_t attributes;
    int failure = pthread_attr_init(&attributes);
    if (failure != 0) return failure;
#if defined(__linux__)
    cpu_set_t cores;
    int current = sched_getcpu();
    if (current >= 0 && sched_getaffinity(0, sizeof cores, &cores) == 0 && CPU_COUNT(&cores) > 1
        && CPU_ISSET(current, &cores)) {
        CPU_CLR(current, &cores);
        (void)pthread_attr_setaffinity_np(&attributes, sizeof cores, &cores);
    }
#endif
    failure = pthread_create(thread, &attributes, body, context);
    pthread_attr_destroy(&attributes);
    return failure;
}

void mapsim_thread_release_placement(void) {
#if defined(__linux__)
    cpu_set_t cores;
    if (sched_getaffinity(getpid(), sizeof cores, &cores) == 0) {
        (void)pthread_setaffinity_np(pthread_self(), sizeof cores, &cores);
    }
#endif
}
