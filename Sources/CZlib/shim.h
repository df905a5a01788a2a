#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2/inflateInit2 are macros, which Swift cannot call: wrap them.
// windowBits 15 + 16 selects the gzip wrapper (header and CRC trailer) instead of zlib's.
static inline int czlib_deflate_init_gzip(z_stream *stream) {
  return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// `level` 1 (fastest) to 9 (smallest; the library's copies of feeds choose speed), with a
// window of 2^`window_bits` bytes (9 to 15) and `mem_level` (1 to 9) for the match state: a
// small document needs neither at full size.
static inline int czlib_deflate_init_gzip_sized(
    z_stream *stream, int level, int window_bits, int mem_level) {
  return deflateInit2(stream, level, Z_DEFLATED, window_bits + 16, mem_level, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}

#endif
