// The TagLib shim: the only C++ in the package. Every entry point catches every exception, so
// a TagLib failure becomes a status code, never an abort across the C boundary.

#include "CTagLib.h"

#include <attachedpictureframe.h>
#include <chapterframe.h>
#include <commentsframe.h>
#include <flacpicture.h>
#include <id3v2tag.h>
#include <mp4file.h>
#include <mpegfile.h>
#include <opusfile.h>
#include <tableofcontentsframe.h>
#include <tdebuglistener.h>
#include <textidentificationframe.h>
#include <vorbisfile.h>
#include <xiphcomment.h>

#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

using namespace TagLib;

namespace {

// Debian's TagLib is a release build and quiet, but a library must never print: this
// swallows whatever a build with tracing would send to stderr.
class SilentListener : public DebugListener {
public:
  void printMessage(const String &) override {}
};

void silenceTagLib() {
  // A function-local static: installed once, thread-safely, before the first TagLib call.
  static SilentListener listener;
  static const bool installed = (setDebugListener(&listener), true);
  (void)installed;
}

// TagLib 1.x promises no thread safety and keeps process-wide state (the frame factory, the
// debug listener); tagging takes milliseconds, so concurrent downloads simply take turns.
std::mutex tagLibLock;

bool has(const char *text) { return text != nullptr && text[0] != '\0'; }

String utf8(const char *text) { return String(text, String::UTF8); }

ByteVector coverBytes(const podcast_tags &tags) {
  return ByteVector(reinterpret_cast<const char *>(tags.cover),
                    static_cast<unsigned int>(tags.cover_length));
}

// An ID3v2.4 frame holds at most 2^28 - 1 bytes; no real cover comes near it.
const size_t maximumCoverLength = (1u << 28) - 1024;

bool hasCover(const podcast_tags &tags) {
  return tags.cover != nullptr && tags.cover_length > 0 &&
         tags.cover_length < maximumCoverLength && has(tags.cover_mime);
}

// MARK: ID3v2 (MP3)

void setTextFrame(ID3v2::Tag *tag, const char *id, const String &value) {
  tag->removeFrames(id);
  auto *frame = new ID3v2::TextIdentificationFrame(id, String::UTF8);
  frame->setText(value);
  tag->addFrame(frame);
}

void setText(ID3v2::Tag *tag, const char *id, const char *value) {
  if (has(value)) setTextFrame(tag, id, utf8(value));
}

void setComment(ID3v2::Tag *tag, const char *value) {
  if (!has(value)) return;
  // Only the unnamed comment is "the" comment players show; named ones (iTunNORM, …) stay.
  auto frames = tag->frameList("COMM");
  for (auto *frame : frames) {
    auto *comment = dynamic_cast<ID3v2::CommentsFrame *>(frame);
    if (comment != nullptr && comment->description().isEmpty()) tag->removeFrame(frame);
  }
  auto *frame = new ID3v2::CommentsFrame(String::UTF8);
  frame->setLanguage("XXX");  // ID3v2.4: "XXX" when the language is not known
  frame->setText(utf8(value));
  tag->addFrame(frame);
}

void setCover(ID3v2::Tag *tag, const podcast_tags &tags) {
  if (!hasCover(tags)) return;
  auto frames = tag->frameList("APIC");
  for (auto *frame : frames) {
    auto *picture = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame);
    if (picture != nullptr && picture->type() == ID3v2::AttachedPictureFrame::FrontCover)
      tag->removeFrame(frame);
  }
  auto *frame = new ID3v2::AttachedPictureFrame();
  frame->setTextEncoding(String::UTF8);
  frame->setType(ID3v2::AttachedPictureFrame::FrontCover);
  frame->setMimeType(tags.cover_mime);
  frame->setPicture(coverBytes(tags));
  tag->addFrame(frame);
}

void setChapters(ID3v2::Tag *tag, const podcast_tags &tags, unsigned int lengthMs) {
  if (tags.chapters == nullptr || tags.chapter_count == 0) return;
  // Our chapters replace the file's: two sets with clashing element IDs confuse players.
  tag->removeFrames("CHAP");
  tag->removeFrames("CTOC");
  ByteVectorList children;
  for (size_t i = 0; i < tags.chapter_count; i++) {
    const podcast_tag_chapter &chapter = tags.chapters[i];
    ByteVector id = ByteVector("chp") + ByteVector(std::to_string(i).c_str());
    unsigned int end = chapter.end_ms != 0 ? chapter.end_ms : lengthMs;
    if (end < chapter.start_ms) end = chapter.start_ms;
    ID3v2::FrameList embedded;
    if (has(chapter.title)) {
      auto *title = new ID3v2::TextIdentificationFrame("TIT2", String::UTF8);
      title->setText(utf8(chapter.title));
      embedded.append(title);
    }
    // 0xFFFFFFFF byte offsets: "use the times" (ID3v2 chapter frame addendum).
    tag->addFrame(new ID3v2::ChapterFrame(id, chapter.start_ms, end, 0xFFFFFFFF, 0xFFFFFFFF,
                                          embedded));
    children.append(id);
  }
  auto *toc = new ID3v2::TableOfContentsFrame("toc", children);
  toc->setIsTopLevel(true);
  toc->setIsOrdered(true);
  tag->addFrame(toc);
}

podcast_tag_status writeMPEG(const char *path, const podcast_tags &tags) {
  bool needsLength = tags.chapter_count > 0;
  MPEG::File file(path, needsLength);
  if (!file.isValid() || file.readOnly()) return PODCAST_TAG_CANNOT_OPEN;
  ID3v2::Tag *tag = file.ID3v2Tag(true);
  setText(tag, "TIT2", tags.title);
  setText(tag, "TALB", tags.album);
  setText(tag, "TPE2", tags.album_artist);
  setText(tag, "TPE1", tags.artist);
  setText(tag, "TCON", tags.genre);
  setText(tag, "TDRC", tags.date);
  setText(tag, "TDRL", tags.date);
  if (tags.track > 0) setTextFrame(tag, "TRCK", String::number(tags.track));
  if (tags.disc > 0) setTextFrame(tag, "TPOS", String::number(tags.disc));
  setComment(tag, tags.comment);
  setCover(tag, tags);
  unsigned int lengthMs = 0;
  if (needsLength && file.audioProperties() != nullptr)
    lengthMs = static_cast<unsigned int>(file.audioProperties()->lengthInMilliseconds());
  setChapters(tag, tags, lengthMs);
  // Only the ID3v2 tag is written; an ID3v1 or APE tag the publisher left stays as it was.
  bool saved = file.save(MPEG::File::ID3v2, File::StripNone, ID3v2::v4, File::DoNotDuplicate);
  return saved ? PODCAST_TAG_OK : PODCAST_TAG_CANNOT_SAVE;
}

// MARK: MP4

void setItem(MP4::Tag *tag, const char *key, const char *value) {
  if (has(value)) tag->setItem(key, MP4::Item(StringList(utf8(value))));
}

MP4::CoverArt::Format coverFormat(const char *mime) {
  std::string type(mime);
  if (type == "image/jpeg") return MP4::CoverArt::JPEG;
  if (type == "image/png") return MP4::CoverArt::PNG;
  if (type == "image/gif") return MP4::CoverArt::GIF;
  if (type == "image/bmp") return MP4::CoverArt::BMP;
  return MP4::CoverArt::Unknown;
}

podcast_tag_status writeMP4(const char *path, const podcast_tags &tags) {
  MP4::File file(path, false);
  if (!file.isValid() || file.readOnly()) return PODCAST_TAG_CANNOT_OPEN;
  MP4::Tag *tag = file.tag();
  if (tag == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  setItem(tag, "\251nam", tags.title);
  setItem(tag, "\251alb", tags.album);
  setItem(tag, "aART", tags.album_artist);
  setItem(tag, "\251ART", tags.artist);
  setItem(tag, "\251gen", tags.genre);
  setItem(tag, "\251cmt", tags.comment);
  // iTunes shows `desc` as the episode's description.
  setItem(tag, "desc", tags.comment);
  if (has(tags.date)) tag->setItem("\251day", MP4::Item(StringList(utf8(tags.date) + "Z")));
  if (tags.track > 0) tag->setItem("trkn", MP4::Item(tags.track, 0));
  if (tags.disc > 0) tag->setItem("disk", MP4::Item(tags.disc, 0));
  if (hasCover(tags)) {
    MP4::CoverArtList covers;
    covers.append(MP4::CoverArt(coverFormat(tags.cover_mime), coverBytes(tags)));
    tag->setItem("covr", MP4::Item(covers));
  }
  return file.save() ? PODCAST_TAG_OK : PODCAST_TAG_CANNOT_SAVE;
}

// MARK: Xiph comments (Ogg Opus, Ogg Vorbis)

void setField(Ogg::XiphComment *tag, const char *key, const char *value) {
  if (has(value)) tag->addField(key, utf8(value), true);
}

void fillXiph(Ogg::XiphComment *tag, const podcast_tags &tags) {
  setField(tag, "TITLE", tags.title);
  setField(tag, "ALBUM", tags.album);
  setField(tag, "ALBUMARTIST", tags.album_artist);
  setField(tag, "ARTIST", tags.artist);
  setField(tag, "GENRE", tags.genre);
  setField(tag, "COMMENT", tags.comment);
  if (has(tags.date)) tag->addField("DATE", utf8(tags.date).substr(0, 10), true);
  if (tags.track > 0) tag->addField("TRACKNUMBER", String::number(tags.track), true);
  if (tags.disc > 0) tag->addField("DISCNUMBER", String::number(tags.disc), true);
  if (hasCover(tags)) {
    auto pictures = tag->pictureList();
    for (auto *picture : pictures) {
      if (picture->type() == FLAC::Picture::FrontCover) tag->removePicture(picture, true);
    }
    auto *picture = new FLAC::Picture();
    picture->setType(FLAC::Picture::FrontCover);
    picture->setMimeType(tags.cover_mime);
    picture->setData(coverBytes(tags));
    tag->addPicture(picture);
  }
}

// "00:01:02.345", the time form of the Ogg chapter convention.
String chapterTime(uint32_t ms) {
  char text[32];
  snprintf(text, sizeof text, "%02u:%02u:%02u.%03u", ms / 3600000, ms / 60000 % 60,
           ms / 1000 % 60, ms % 1000);
  return String(text);
}

// The Vorbis-comment chapter convention (CHAPTER001=00:00:00.000, CHAPTER001NAME=Intro) that
// ffmpeg, and so mpv and Jellyfin, read from Ogg files. It has no end times: a chapter ends
// where the next begins.
void setXiphChapters(Ogg::XiphComment *tag, const podcast_tags &tags) {
  if (tags.chapters == nullptr || tags.chapter_count == 0) return;
  StringList old;
  const Ogg::FieldListMap &fields = tag->fieldListMap();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it->first.startsWith("CHAPTER")) old.append(it->first);
  }
  for (const auto &key : old) tag->removeFields(key);
  for (size_t i = 0; i < tags.chapter_count; i++) {
    char key[32];
    snprintf(key, sizeof key, "CHAPTER%03zu", i + 1);
    tag->addField(key, chapterTime(tags.chapters[i].start_ms), true);
    if (has(tags.chapters[i].title))
      tag->addField(String(key) + "NAME", utf8(tags.chapters[i].title), true);
  }
}

template <typename OggFile>
podcast_tag_status writeOgg(const char *path, const podcast_tags &tags) {
  OggFile file(path, false);
  if (!file.isValid() || file.readOnly()) return PODCAST_TAG_CANNOT_OPEN;
  Ogg::XiphComment *tag = file.tag();
  if (tag == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  fillXiph(tag, tags);
  setXiphChapters(tag, tags);
  return file.save() ? PODCAST_TAG_OK : PODCAST_TAG_CANNOT_SAVE;
}

// MARK: Reading back

struct Sink {
  podcast_tag_field_fn field;
  void *context;

  void emit(const String &key, const ByteVector &value) const {
    field(context, key.toCString(true), reinterpret_cast<const uint8_t *>(value.data()),
          value.size());
  }
  void emit(const String &key, const String &value) const {
    emit(key, value.data(String::UTF8));
  }
};

String chapterText(ID3v2::ChapterFrame *chapter) {
  String text = String::number(static_cast<int>(chapter->startTime())) + "-" +
                String::number(static_cast<int>(chapter->endTime()));
  const auto &titles = chapter->embeddedFrameList("TIT2");
  if (!titles.isEmpty()) text += " " + titles.front()->toString();
  return text;
}

String tocText(ID3v2::TableOfContentsFrame *toc) {
  String text = String("top=") + (toc->isTopLevel() ? "1" : "0") +
                " ordered=" + (toc->isOrdered() ? "1" : "0") + " children=";
  const ByteVectorList children = toc->childElements();
  for (auto it = children.begin(); it != children.end(); ++it) {
    if (it != children.begin()) text += ",";
    text += String(*it, String::Latin1);
  }
  return text;
}

podcast_tag_status readMPEG(const char *path, const Sink &sink) {
  MPEG::File file(path, false);
  if (!file.isValid()) return PODCAST_TAG_CANNOT_OPEN;
  if (!file.hasID3v2Tag()) return PODCAST_TAG_OK;
  ID3v2::Tag *tag = file.ID3v2Tag();
  sink.emit("ID3v2:version", String::number(static_cast<int>(tag->header()->majorVersion())));
  for (auto *frame : tag->frameList()) {
    String id(frame->frameID(), String::Latin1);
    if (auto *picture = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame)) {
      sink.emit("ID3v2:APIC:" + String::number(static_cast<int>(picture->type())) + ":" +
                    picture->mimeType(),
                picture->picture());
    } else if (auto *chapter = dynamic_cast<ID3v2::ChapterFrame *>(frame)) {
      sink.emit("ID3v2:CHAP:" + String(chapter->elementID(), String::Latin1),
                chapterText(chapter));
    } else if (auto *toc = dynamic_cast<ID3v2::TableOfContentsFrame *>(frame)) {
      sink.emit("ID3v2:CTOC:" + String(toc->elementID(), String::Latin1), tocText(toc));
    } else if (auto *comment = dynamic_cast<ID3v2::CommentsFrame *>(frame)) {
      sink.emit("ID3v2:COMM:" + String(comment->language(), String::Latin1) + ":" +
                    comment->description(),
                comment->text());
    } else {
      sink.emit("ID3v2:" + id, frame->toString());
    }
  }
  return PODCAST_TAG_OK;
}

podcast_tag_status readMP4(const char *path, const Sink &sink) {
  MP4::File file(path, false);
  if (!file.isValid() || file.tag() == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  const MP4::ItemMap &items = file.tag()->itemMap();
  for (auto it = items.begin(); it != items.end(); ++it) {
    const String key = "MP4:" + it->first;
    const MP4::Item &item = it->second;
    if (it->first == "covr") {
      for (const auto &cover : item.toCoverArtList())
        sink.emit(key + ":" + String::number(static_cast<int>(cover.format())), cover.data());
    } else if (it->first == "trkn" || it->first == "disk") {
      auto pair = item.toIntPair();
      sink.emit(key, String::number(pair.first) + "/" + String::number(pair.second));
    } else {
      for (const auto &value : item.toStringList()) sink.emit(key, value);
    }
  }
  return PODCAST_TAG_OK;
}

template <typename OggFile>
podcast_tag_status readOgg(const char *path, const Sink &sink) {
  OggFile file(path, false);
  if (!file.isValid() || file.tag() == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  Ogg::XiphComment *tag = file.tag();
  const Ogg::FieldListMap &fields = tag->fieldListMap();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    for (const auto &value : it->second) sink.emit("Xiph:" + it->first, value);
  }
  for (auto *picture : tag->pictureList()) {
    sink.emit("Xiph:PICTURE:" + String::number(static_cast<int>(picture->type())) + ":" +
                  picture->mimeType(),
              picture->data());
  }
  return PODCAST_TAG_OK;
}

}  // namespace

extern "C" podcast_tag_status podcast_tag_write(const char *path, podcast_tag_format format,
                                                const podcast_tags *tags) {
  if (path == nullptr || tags == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  try {
    std::lock_guard<std::mutex> lock(tagLibLock);
    silenceTagLib();
    switch (format) {
      case PODCAST_TAG_FORMAT_MPEG: return writeMPEG(path, *tags);
      case PODCAST_TAG_FORMAT_MP4: return writeMP4(path, *tags);
      case PODCAST_TAG_FORMAT_OGG_OPUS: return writeOgg<Ogg::Opus::File>(path, *tags);
      case PODCAST_TAG_FORMAT_OGG_VORBIS: return writeOgg<Ogg::Vorbis::File>(path, *tags);
    }
    return PODCAST_TAG_UNSUPPORTED;
  } catch (...) {
    return PODCAST_TAG_FAILED;
  }
}

extern "C" podcast_tag_status podcast_tag_read(const char *path, podcast_tag_format format,
                                               podcast_tag_field_fn field, void *context) {
  if (path == nullptr || field == nullptr) return PODCAST_TAG_CANNOT_OPEN;
  try {
    std::lock_guard<std::mutex> lock(tagLibLock);
    silenceTagLib();
    Sink sink{field, context};
    switch (format) {
      case PODCAST_TAG_FORMAT_MPEG: return readMPEG(path, sink);
      case PODCAST_TAG_FORMAT_MP4: return readMP4(path, sink);
      case PODCAST_TAG_FORMAT_OGG_OPUS: return readOgg<Ogg::Opus::File>(path, sink);
      case PODCAST_TAG_FORMAT_OGG_VORBIS: return readOgg<Ogg::Vorbis::File>(path, sink);
    }
    return PODCAST_TAG_UNSUPPORTED;
  } catch (...) {
    return PODCAST_TAG_FAILED;
  }
}
