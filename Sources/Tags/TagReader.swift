import Basics
internal import CTagLib
import Foundation

/// One field of a file's tag as TagLib reads it back.
public struct TagField: Sendable, Equatable {
  /// The container's own name for the field: `ID3v2:TIT2`, `ID3v2:APIC:3:image/jpeg`,
  /// `ID3v2:CHAP:chp0`, `MP4:©nam`, `MP4:covr:13`, `Xiph:TITLE`, `Xiph:PICTURE:3:image/png`, …
  public var key: String
  /// UTF-8 text, or the raw bytes of a picture.
  public var value: Data

  public var text: String { String(decoding: value, as: UTF8.self) }
}

/// Reads the tags of an episode file back (for `make demo` and the tests): every field in the
/// container's own terms, so what a player would see can be checked field by field.
public enum TagReader {
  /// The fields of the file's main tag; empty for a format the tagger does not write.
  public static func fields(ofFileAt path: String) throws(TagError) -> [TagField] {
    guard case .audio(let format) = try ContentSniffer.kind(ofFileAt: path) else { return [] }
    let collector = Collector()
    let status = withExtendedLifetime(collector) {
      podcast_tag_read(
        path, format.cFormat, collect, Unmanaged.passUnretained(collector).toOpaque())
    }
    switch status {
    case PODCAST_TAG_OK: return collector.fields
    case PODCAST_TAG_CANNOT_OPEN: throw .cannotOpen(path: path, format: format)
    default: throw .failed(path: path, format: format)
    }
  }

  private final class Collector {
    var fields: [TagField] = []
  }

  private static let collect: podcast_tag_field_fn = { context, key, value, length in
    guard let context, let key else { return }
    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
    let bytes = value.map { Data(bytes: $0, count: length) } ?? Data()
    collector.fields.append(TagField(key: String(cString: key), value: bytes))
  }
}
