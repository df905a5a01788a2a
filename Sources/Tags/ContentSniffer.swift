import Basics
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a file is, from its first bytes: the download is still a `.part` file when it is
/// tagged, and feeds mislabel formats, so neither the name nor the MIME type decides.
package enum ContentSniffer {
  package enum Kind: Equatable {
    case audio(AudioFormat)
    /// Not taggable here; the name when the bytes are recognisable.
    case other(String?)
  }

  /// How much zero padding past an ID3v2 tag's declared size is looked through (some
  /// taggers pad beyond it).
  private static let paddingWindow = 4096
  private static let maximumStackedTags = 4

  package static func kind(ofFileAt path: String) throws(TagError) -> Kind {
    // Plain open and pread: FileHandle costs more than the read it wraps, once per episode.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: errnoReason()) }
    defer { close(descriptor) }
    let read = { (offset: Int, count: Int) throws(TagError) -> [UInt8] in
      guard let bytes = readBytes(descriptor, offset: offset, count: count) else {
        throw .unreadable(path: path, reason: errnoReason())
      }
      return bytes
    }
    let head = try read(0, 512)
    if let kind = kind(ofHead: head) { return kind }
    guard id3v2End(head) != nil else {
      return isMPEGFrame(head, at: 0) ? .audio(.mp3) : .other(nil)
    }
    // Ad-insertion services stack a second ID3 tag behind the first now and then.
    var offset = 0
    var bytes = head
    for _ in 0..<maximumStackedTags {
      guard let length = id3v2End(bytes) else { return kind(afterID3v2: bytes) }
      offset += length
      let next = try read(offset, paddingWindow)
      let padding = next.prefix { $0 == 0 }.count
      offset += padding
      bytes = Array(next.dropFirst(padding))
    }
    return .other(nil)
  }

  /// Up to `count` bytes from `offset` (fewer at the end of the file); nil on a read error.
  private static func readBytes(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
      }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else { return nil }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }

  private static func errnoReason() -> String {
    String(cString: strerror(errno))
  }

  /// What follows an ID3v2 tag and its zero padding: MP3 frames, or another format an ID3 tag
  /// was put in front of (AAC and FLAC files often carry one). Nothing else may come between
  /// tag and audio: searching on would find frame-like bytes inside AAC data half the time.
  package static func kind(afterID3v2 audio: [UInt8]) -> Kind {
    if isMPEGFrame(audio, at: 0) { return .audio(.mp3) }
    if case .other(let name) = kind(ofHead: audio) { return .other(name) }
    return .other(nil)
  }

  /// The kinds that the first bytes alone settle.
  package static func kind(ofHead head: [UInt8]) -> Kind? {
    if starts(head, at: 4, with: "ftyp") { return .audio(.mp4) }
    if starts(head, at: 0, with: "OggS") {
      // The first page's first packet names the codec; it starts after the segment table.
      guard head.count > 27 else { return .other("Ogg") }
      let packet = 27 + Int(head[26])
      if starts(head, at: packet, with: "OpusHead") { return .audio(.opus) }
      if head.count > packet, head[packet] == 1, starts(head, at: packet + 1, with: "vorbis") {
        return .audio(.vorbis)
      }
      return .other("Ogg")
    }
    if starts(head, at: 0, with: "RIFF"), starts(head, at: 8, with: "WAVE") { return .other("WAV") }
    if starts(head, at: 0, with: "fLaC") { return .other("FLAC") }
    if starts(head, at: 0, with: "FORM") { return .other("AIFF") }
    if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .other("WebM/Matroska") }
    if head.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return .other("WMA/ASF") }
    if starts(head, at: 0, with: "%PDF") { return .other("PDF") }
    if head.count >= 2, head[0] == 0xFF, head[1] & 0xF6 == 0xF0 { return .other("AAC (ADTS)") }
    return nil
  }

  /// Where the audio starts after an ID3v2 tag at the start of `head`, or nil without one.
  package static func id3v2End(_ head: [UInt8]) -> Int? {
    guard head.count >= 10, starts(head, at: 0, with: "ID3") else { return nil }
    let sizeBytes = head[6...9]
    guard sizeBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    let size = sizeBytes.reduce(0) { $0 << 7 | Int($1) }
    let hasFooter = head[5] & 0x10 != 0
    return 10 + size + (hasFooter ? 10 : 0)
  }

  /// An MPEG audio frame header (layer I–III) with a usable bit rate and sample rate.
  package static func isMPEGFrame(_ bytes: [UInt8], at offset: Int) -> Bool {
    guard offset >= 0, offset + 3 < bytes.count, bytes[offset] == 0xFF else { return false }
    let version = bytes[offset + 1]
    let rates = bytes[offset + 2]
    return version & 0xE0 == 0xE0 && (version >> 1) & 0x03 != 0 && (version >> 3) & 0x03 != 1
      && rates >> 4 != 0x0F && rates >> 4 != 0 && (rates >> 2) & 0x03 != 3
  }

  private static func starts(_ bytes: [UInt8], at offset: Int, with ascii: String) -> Bool {
    let expected = Array(ascii.utf8)
    guard offset >= 0, offset + expected.count <= bytes.count else { return false }
    return bytes[offset..<offset + expected.count].elementsEqual(expected)
  }
}
