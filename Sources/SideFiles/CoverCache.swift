import Basics
import Fetching
import Foundation
import Synchronization
import Tags
import Transfer

/// Cover images for one batch of downloads, each URL fetched at most once: twenty episodes of
/// one show share the show's picture. Fetched like any side file (retried, resumed, checked);
/// a picture that cannot be had (an error, a page that is no JPEG or PNG, too big) is
/// remembered as missing, and only costs the episode its cover.
///
/// A picture is held only while a download of the batch still claims it: an episode's own
/// picture (up to `maxBytes`) leaves memory once that episode is tagged and its side files
/// are written, the show's once its last episode is. Lookups nothing claimed are kept.
package final class CoverCache: Sendable {
  /// Covers are a few hundred KB; a larger answer is not one worth holding in memory.
  package static let maxBytes: Int64 = 8 << 20

  private let http: HTTPClient
  private let options: DownloadOptions
  private let scratchDirectory: String
  private let state = Mutex(State())

  private struct State {
    var fetches: [String: Task<Result<CoverImage, SideFileError>, Never>] = [:]
    /// How many downloads of the batch will still look each URL up.
    var claims: [String: Int] = [:]
  }

  package init(http: HTTPClient, options: DownloadOptions, scratchDirectory: String) {
    self.http = http
    self.options = options
    self.scratchDirectory = scratchDirectory
  }

  /// One more download will look up `urls` (its tag's covers and its folder's picture).
  package func claim(_ urls: [String]) {
    state.withLock { state in
      for url in Set(urls) { state.claims[url, default: 0] += 1 }
    }
  }

  /// A download that claimed `urls` is done with them: a picture no download claims any more
  /// is dropped (a later lookup fetches it again).
  package func release(_ urls: [String]) {
    state.withLock { state in
      for url in Set(urls) {
        guard let count = state.claims[url] else { continue }
        if count > 1 {
          state.claims[url] = count - 1
        } else {
          state.claims[url] = nil
          state.fetches[url] = nil
        }
      }
    }
  }

  /// The first of `urls` that is a usable picture.
  package func image(from urls: [String]) async -> CoverImage? {
    for url in urls {
      if case .success(let image) = await image(at: url) { return image }
    }
    return nil
  }

  /// The picture at `url`, or why there is none.
  package func image(at url: String) async -> Result<CoverImage, SideFileError> {
    let task = state.withLock { state in
      if let task = state.fetches[url] { return task }
      let download = SideFileDownload(
        url: url, fileExtension: "image", feedURL: nil, http: http, options: options,
        limit: Self.maxBytes, scratchDirectory: scratchDirectory)
      let task = Task { () -> Result<CoverImage, SideFileError> in
        do throws(SideFileError) {
          let body = try await download.run()
          guard let image = CoverImage(data: body) else { return .failure(.notAPicture(url: url)) }
          return .success(image)
        } catch {
          return .failure(error)
        }
      }
      state.fetches[url] = task
      return task
    }
    return await task.value
  }
}
