// The C library's search for a run of bytes in a buffer (memmem, which glibc declares only to
// programs that ask for GNU extensions): several bytes at a time, many times faster than a loop
// over the buffer's bytes. A reading of a large JSON document uses it to tell that a key never
// comes again, rather than walking the rest of the document.
#ifndef CBYTE_SEARCH_H
#define CBYTE_SEARCH_H

#include <stddef.h>

/// The first occurrence of the `needleLength` bytes at `needle` in the `haystackLength` bytes at
/// `haystack`, or NULL when there is none.
const void *mapsim_find_bytes(const void *haystack, size_t haystackLength, const void *needle, size_t needleLength);

#endif
