// Standard output that ends the process when its reader has gone, as a Unix tool ends at a closed
// pipe (`mapsim live listen --json | head -1`). SwiftNIO ignores SIGPIPE for the whole process on
// Linux (it has no per-socket setting there), so once the network has started a write into a
// closed pipe only fails, and a command that prints as things come would go on for ever.
#ifndef CCLOSED_PIPE_H
#define CCLOSED_PIPE_H

/// Replaces the C library's `stdout` with a stream that writes to file descriptor 1 and, when a
/// write finds no reader (EPIPE), ends the process with SIGPIPE's default action: killed by the
/// signal, status 141 in a shell, nothing printed. Any other failure is the stream's error, as
/// before. Buffered as `stdout` was: by line on a terminal, in blocks otherwise. Call it before
/// anything is printed. 1 when installed, 0 where the C library cannot (it then stays as it was).
int mapsim_stdout_ends_at_closed_pipe(void);

/// Ends the process as a write into a closed pipe does when SIGPIPE has its default action: for
/// a write to standard output that failed with EPIPE outside the C library's stream.
void mapsim_end_as_a_closed_pipe_does(void);

#endif
