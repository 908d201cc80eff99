// How far the C library's allocator grows a heap at a time (glibc's M_TOP_PAD, which Swift's Glibc
// module does not declare). A thread's first allocation gives it a heap of its own, grown by
// 128 KiB at a time: a system call (mprotect) each time. A validation's layer-checking thread grew
// its heap 60 to 100 times that way, on the check's critical path.
#ifndef CHEAP_GROWTH_H
#define CHEAP_GROWTH_H

#include <stddef.h>

/// Has the allocator grow a heap by at least `bytes` more than an allocation needs, when it grows
/// one: memory the process reserves but does not touch until it allocates it. 1 when set, 0 where
/// the C library has no such setting.
int mapsim_heap_grow_in_steps_of(size_t bytes);

#endif
