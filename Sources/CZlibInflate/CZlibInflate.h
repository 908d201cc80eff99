// zlib (Debian: zlib1g-dev), for inflating a body whole with the decoder MapLibre Native reads its
// rows with: `inflateInit2` is a macro, which Swift cannot call, so it is wrapped here.
#include <zlib.h>

/// Starts `stream` inflating raw deflate data (no zlib or gzip wrapper), with a 32 KB window.
static inline int CZlibInflate_initRaw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
