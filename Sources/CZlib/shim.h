#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2/inflateInit2 are macros, which Swift cannot call: wrap them.
// windowBits 15 + 16 selects the gzip wrapper (header and CRC trailer) instead of zlib's.
static inline int czlib_deflate_init_gzip(z_stream *stream) {
  return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// `level` 1 (fastest) to 9 (smallest); the library's copies of feeds choose speed.
static inline int czlib_deflate_init_gzip_level(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}

#endif
