#ifndef PODCAST_CTAGLIB_H
#define PODCAST_CTAGLIB_H

// The C face of the TagLib shim. TagLib is C++; Swift (without C++ interop) sees only these
// plain C types, and no C++ exception ever crosses this boundary.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which TagLib file class handles the file. The caller decides from the file's own bytes:
/// the tagging runs on a partial file whose name says nothing.
typedef enum {
  PODCAST_TAG_FORMAT_MPEG = 1,
  PODCAST_TAG_FORMAT_MP4 = 2,
  PODCAST_TAG_FORMAT_OGG_OPUS = 3,
  PODCAST_TAG_FORMAT_OGG_VORBIS = 4,
} podcast_tag_format;

typedef enum {
  PODCAST_TAG_OK = 0,
  PODCAST_TAG_UNSUPPORTED = 1,
  PODCAST_TAG_CANNOT_OPEN = 2,
  PODCAST_TAG_CANNOT_SAVE = 3,
  /// A C++ exception (out of memory, or a TagLib bug) stopped the work; nothing was saved
  /// by the shim after it.
  PODCAST_TAG_FAILED = 4,
} podcast_tag_status;

/// One chapter. Times in milliseconds; an end of 0 means "up to the end of the audio".
typedef struct {
  uint32_t start_ms;
  uint32_t end_ms;
  /// UTF-8, NULL or empty for none.
  const char *title;
} podcast_tag_chapter;

/// Everything to write. NULL strings and 0 numbers mean "leave what the file has".
typedef struct {
  const char *title;
  const char *album;
  const char *album_artist;
  const char *artist;
  const char *genre;
  const char *comment;
  /// UTC, "YYYY-MM-DDTHH:MM:SS" (ID3v2.4 timestamp form); each format writes its own form.
  const char *date;
  int track;
  /// Written as the disc number (ID3 TPOS, MP4 disk, Xiph DISCNUMBER).
  int disc;
  const uint8_t *cover;
  size_t cover_length;
  const char *cover_mime;
  /// ID3 CHAP/CTOC frames for MPEG, CHAPTERnnn comments for Ogg; TagLib has none for MP4.
  const podcast_tag_chapter *chapters;
  size_t chapter_count;
} podcast_tags;

/// Writes `tags` into the file at `path` in place. For MPEG, an ID3v2.4 tag (other tags kept).
podcast_tag_status podcast_tag_write(
  const char *path, podcast_tag_format format, const podcast_tags *tags);

/// Receives one field of a tag as read back: a key such as "ID3v2:TIT2", "MP4:covr" or
/// "Xiph:TITLE", and its value (UTF-8 text, or the raw bytes of a picture).
typedef void (*podcast_tag_field_fn)(
  void *context, const char *key, const uint8_t *value, size_t length);

/// Calls `field` for every field the file's main tag holds, in the tag's own order.
podcast_tag_status podcast_tag_read(
  const char *path, podcast_tag_format format, podcast_tag_field_fn field, void *context);

#ifdef __cplusplus
}
#endif

#endif
