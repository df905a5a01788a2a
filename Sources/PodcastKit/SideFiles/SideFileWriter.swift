import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches the small files that go beside an episode (transcripts, chapters) and puts each in
/// place only when complete: the whole body arrives first (a 2xx, within a size limit), then it
/// is written under a temporary name in the same folder, synced and renamed. A failure leaves
/// nothing behind and never fails the episode.
final class SideFileWriter: Sendable {
  /// Transcripts of long episodes run to a few MB; nothing legitimate is near this.
  static let maxBytes: Int64 = 16 << 20

  private let http: HTTPClient

  init(http: HTTPClient) {
    self.http = HTTPClient(options: http.options, maxBodyBytes: Self.maxBytes)
  }

  /// `target` when it now holds the body of `url`, nil when it could not be had.
  func fetch(_ url: String, to target: String) async -> String? {
    let body: Data
    do {
      try URLPolicy.check(url)
      let response = try await http.fetch(url)
      guard (200..<300).contains(response.status), !response.body.isEmpty else { return nil }
      body = response.body
    } catch {
      return nil
    }
    return Self.place(body, at: target) ? target : nil
  }

  private static func place(_ data: Data, at target: String) -> Bool {
    let folder = (target as NSString).deletingLastPathComponent
    let temporary = folder + "/.podcast-side-\(getpid())-\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return false }
    let written = data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        guard let base = bytes.baseAddress else { return false }
        let count = write(descriptor, base + offset, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += count
      }
      return true
    }
    let synced = written && fsync(descriptor) == 0
    close(descriptor)
    guard synced, rename(temporary, target) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }
}
