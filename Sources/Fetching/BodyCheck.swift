import Basics

/// Whether a complete body can be the episode the feed announced. Servers answer 200 with an
/// empty body, a 45-byte stub for a 30 MB episode, or the file gzip-compressed (with or
/// without saying so); none of these may ever be recorded as downloaded.
package struct BodyCheck {
  package let url: String
  /// What the feed announced.
  package let declaredLength: Int64?
  /// The feed's and the response's media types.
  package let mediaTypes: [String]

  /// Below this share of a declared length the body is not the episode; only for lengths
  /// large enough to be trusted (feeds write "1" or "0" for unknown).
  package static let minimumShare: Int64 = 100
  package static let trustedDeclaredLength: Int64 = 100_000
  /// No real audio file is smaller than a kilobyte.
  package static let minimumAudioBytes: Int64 = 1_000

  package func problem(size: Int64, prefix: [UInt8]) -> DownloadError? {
    if size == 0 { return .emptyBody(url: url) }
    if let declared = declaredLength, declared > Self.trustedDeclaredLength,
      size * Self.minimumShare < declared
    {
      return .tooSmall(
        url: url, received: size,
        reason: "less than 1% of the \(declared) the feed announced")
    }
    if isMedia(prefix: "audio/"), size < Self.minimumAudioBytes {
      return .tooSmall(url: url, received: size, reason: "too small to be an audio file")
    }
    if prefix.count == 2, prefix[0] == 0x1f, prefix[1] == 0x8b,
      isMedia(prefix: "audio/") || isMedia(prefix: "video/")
    {
      return .compressed(url: url, how: "the body starts with the gzip signature")
    }
    return nil
  }

  private func isMedia(prefix: String) -> Bool {
    // `trimmingWhitespace` skips Foundation's trimming for the usual clean value: asked of
    // every download, that trimming was most of this check's cost.
    mediaTypes.contains { $0.trimmingWhitespace.lowercased().hasPrefix(prefix) }
  }
  package init(url: String, declaredLength: Int64?, mediaTypes: [String]) {
    self.url = url
    self.declaredLength = declaredLength
    self.mediaTypes = mediaTypes
  }
}
