// See include/CHeapGrowth.h.
#if defined(__linux__)
#include <malloc.h>
#endif
#include "CHeapGrowth.h"

int mapsim_heap_grow_in_steps_of(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_TOP_PAD, bytes > 0x7fffffff ? 0x7fffffff : (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}
