import Basics
internal import CTagLib
import Foundation

/// Writes feed metadata into a downloaded episode with TagLib.
///
/// What the download path must do: call `tag` on the finished, verified partial file, before
/// it is renamed into the Episodes directory. TagLib rewrites the file in place (an MP3's audio
/// moves when its ID3 tag grows), so if the process dies mid-tag the file at `path` is in an
/// unknown state: it must never be resumed by its byte count or renamed into place, only
/// downloaded again. Because it is not under Episodes yet, a user never sees a half-tagged
/// file. Tagging also changes the file's size, so verify the length before tagging, not after.
/// The audio frames themselves are never changed.
///
/// `tag` blocks on file I/O (tens of milliseconds for an hour of MP3 with a large cover; an Ogg
/// file's pages are all rewritten, a few hundred): call it off the cooperative pool. It is
/// safe from several threads at once; the calls take turns inside TagLib.
public struct Tagger: Sendable {
  public init() {}

  /// Tags the file at `path` with `tags` and, when given, `cover` as its front cover. The
  /// format comes from the file's bytes; `hint` only names a format that is left alone.
  public func tag(
    fileAt path: String, as hint: FormatHint, with tags: EpisodeTags, cover: CoverImage?
  ) throws(TagError) -> TagResult {
    switch try ContentSniffer.kind(ofFileAt: path) {
    case .audio(let format): return try tag(fileAt: path, format: format, with: tags, cover: cover)
    case .other(let name): return .unsupported(name ?? hint.name ?? "an unrecognised format")
    }
  }

  /// Tags the file at `path`, whose bytes the caller already found to be `format` (the
  /// download path sniffs the partial before copying it): the file is not read twice for it.
  package func tag(
    fileAt path: String, format: AudioFormat, with tags: EpisodeTags, cover: CoverImage?
  ) throws(TagError) -> TagResult {
    let status = write(tags, cover: cover, to: path, as: format)
    switch status {
    case PODCAST_TAG_OK: return .tagged(format)
    case PODCAST_TAG_UNSUPPORTED: return .unsupported(format.description)
    case PODCAST_TAG_CANNOT_OPEN: throw .cannotOpen(path: path, format: format)
    case PODCAST_TAG_CANNOT_SAVE: throw .cannotSave(path: path, format: format)
    default: throw .failed(path: path, format: format)
    }
  }

  private func write(
    _ tags: EpisodeTags, cover: CoverImage?, to path: String, as format: AudioFormat
  ) -> podcast_tag_status {
    let strings = CStringPool()
    let chapters =
      format != .mp4
      ? tags.chapters.prefix(ChapterMark.limit).map {
        podcast_tag_chapter(start_ms: $0.start, end_ms: $0.end ?? 0, title: strings.copy($0.title))
      } : []
    var fields = podcast_tags(
      title: strings.copy(tags.title), album: strings.copy(tags.podcast),
      album_artist: strings.copy(tags.podcast), artist: strings.copy(tags.author),
      genre: strings.copy(tags.genre), comment: strings.copy(tags.comment),
      date: strings.copy(tags.timestamp), track: Self.positive(tags.number),
      disc: Self.positive(tags.season), cover: nil, cover_length: 0,
      cover_mime: strings.copy(cover?.mimeType), chapters: nil, chapter_count: 0)
    let coverData = cover?.data ?? Data()
    return coverData.withUnsafeBytes { coverBytes in
      chapters.withUnsafeBufferPointer { chapterBuffer in
        fields.cover = coverBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        fields.cover_length = coverBytes.count
        fields.chapters = chapterBuffer.baseAddress
        fields.chapter_count = chapterBuffer.count
        return withExtendedLifetime(strings) {
          podcast_tag_write(path, format.cFormat, &fields)
        }
      }
    }
  }

  /// Track and disc numbers are positive C ints; anything else is left out.
  private static func positive(_ value: Int?) -> Int32 {
    guard let value, value > 0, value <= Int(Int32.max) else { return 0 }
    return Int32(value)
  }
}

extension AudioFormat {
  var cFormat: podcast_tag_format {
    switch self {
    case .mp3: return PODCAST_TAG_FORMAT_MPEG
    case .mp4: return PODCAST_TAG_FORMAT_MP4
    case .opus: return PODCAST_TAG_FORMAT_OGG_OPUS
    case .vorbis: return PODCAST_TAG_FORMAT_OGG_VORBIS
    }
  }
}
