// See include/CByteSearch.h.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <string.h>
#include "CByteSearch.h"

const void *mapsim_find_bytes(const void *haystack, size_t haystackLength, const void *needle, size_t needleLength) {
    return memmem(haystack, haystackLength, needle, needleLength);
}
