// See include/CClosedPipe.h.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>
#include "CClosedPipe.h"

// What the kernel does at a write into a closed pipe when SIGPIPE has its default action.
void mapsim_end_as_a_closed_pipe_does(void) {
    signal(SIGPIPE, SIG_DFL);
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_UNBLOCK, &pipe_signal, NULL);
    raise(SIGPIPE);
}

#if defined(__GLIBC__)

static ssize_t write_to_standard_output(void *cookie, const char *buffer, size_t size) {
    (void)cookie;
    size_t offset = 0;
    while (offset < size) {
        ssize_t written = write(STDOUT_FILENO, buffer + offset, size - offset);
        if (written < 0) {
            if (errno == EINTR) continue;
            if (errno == EPIPE) mapsim_end_as_a_closed_pipe_does();
            // A short count is the stream's error; errno says why.
            return (ssize_t)offset;
        }
        offset += (size_t)written;
    }
    return (ssize_t)size;
}
#endif

int mapsim_stdout_ends_at_closed_pipe(void) {
#if defined(__GLIBC__)
    cookie_io_functions_t functions = {.read = NULL, .write = write_to_standard_output, .seek = NULL, .close = NULL};
    FILE *stream = fopencookie(NULL, "w", functions);
    if (stream == NULL) return 0;
    if (setvbuf(stream, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ) != 0) {
        fclose(stream);
        return 0;
    }
    stdout = stream;
    return 1;
#else
    // Elsewhere (Darwin) SwiftNIO sets SIGPIPE aside per socket, and SIGPIPE keeps its default action.
    return 0;
#endif
}
