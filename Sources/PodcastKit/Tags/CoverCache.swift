import Foundation
import Synchronization

/// Cover images for one batch of downloads, each URL fetched at most once: twenty episodes of
/// one show share the show's picture. A picture that cannot be had (an error, a page that is no
/// JPEG or PNG, too big) is remembered as missing, and only costs the episode its cover.
final class CoverCache: Sendable {
  /// Covers are a few hundred KB; a larger answer is not one worth holding in memory.
  static let maxBytes: Int64 = 8 << 20

  private let http: HTTPClient
  private let fetches = Mutex<[String: Task<CoverImage?, Never>]>([:])

  init(http: HTTPClient) {
    self.http = HTTPClient(options: http.options, maxBodyBytes: Self.maxBytes)
  }

  /// The first of `urls` that is a usable picture.
  func image(from urls: [String]) async -> CoverImage? {
    for url in urls {
      if let image = await image(at: url) { return image }
    }
    return nil
  }

  private func image(at url: String) async -> CoverImage? {
    let task = fetches.withLock { fetches in
      if let task = fetches[url] { return task }
      let task = Task { [http] in await Self.fetch(url, with: http) }
      fetches[url] = task
      return task
    }
    return await task.value
  }

  private static func fetch(_ url: String, with http: HTTPClient) async -> CoverImage? {
    do {
      try URLPolicy.check(url)
      let response = try await http.fetch(url)
      guard (200..<300).contains(response.status) else { return nil }
      return CoverImage(data: response.body)
    } catch {
      return nil
    }
  }
}
