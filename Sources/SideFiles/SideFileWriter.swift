import Basics
import Fetching
import Foundation
import Synchronization
import Transfer

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches the small files that go beside an episode (transcripts, chapters) through
/// `SideFileDownload`, or makes them (the info file), and puts each in place only when
/// complete and verified: written under a temporary name in the target's folder, synced and
/// renamed. A failure leaves nothing behind
/// and never fails the episode; it comes back as a `SideFileError` for the episode's notes.
package final class SideFileWriter: Sendable {
  /// Transcripts of long episodes run to a few MB; nothing legitimate is near this.
  package static let maxBytes: Int64 = 16 << 20

  private let http: HTTPClient
  private let options: DownloadOptions
  private let scratchDirectory: String
  /// A chapters file feeds both the tag (written before the episode is in place) and the
  /// side file (written after): one fetch serves both.
  private let chapterBodies = Mutex<[String: Task<Result<Data, SideFileError>, Never>]>([:])
  /// Folders already rid of a killed run's temporary files.
  private let swept = Mutex<Set<String>>([])

  package init(http: HTTPClient, options: DownloadOptions, scratchDirectory: String) {
    self.http = http
    self.options = options
    self.scratchDirectory = scratchDirectory
  }

  /// Puts the body of `url` at `target`; `target` when done.
  package func fetch(_ url: String, to target: String, feedURL: String?) async -> Result<
    String, SideFileError
  > {
    let fileExtension = (target as NSString).pathExtension.lowercased()
    do {
      let body = try await download(url, as: fileExtension, feedURL: feedURL).run()
      try place(body, at: target)
      return .success(target)
    } catch {
      return .failure(error)
    }
  }

  /// The chapters file's verified body, fetched at most once while it is wanted.
  package func chapters(_ url: String, feedURL: String?) async -> Result<Data, SideFileError> {
    let task = chapterBodies.withLock { bodies in
      if let task = bodies[url] { return task }
      let download = download(url, as: "json", feedURL: feedURL)
      let task = Task { () -> Result<Data, SideFileError> in
        do throws(SideFileError) {
          return .success(try await download.run())
        } catch {
          return .failure(error)
        }
      }
      bodies[url] = task
      return task
    }
    return await task.value
  }

  /// Puts the chapters file (the body the tag was made from, if any) beside `episodeFile`.
  package func keepChapters(_ url: String, besides episodeFile: String, feedURL: String?) async
    -> Result<
      String, SideFileError
    >
  {
    let result = await chapters(url, feedURL: feedURL)
    // Placed once: the body need not stay in memory for the rest of the batch.
    chapterBodies.withLock { $0[url] = nil }
    let target = SideFileNames.chapters(besides: episodeFile)
    do {
      try place(try result.get(), at: target)
      return .success(target)
    } catch {
      return .failure(error)
    }
  }

  /// Puts `<episode>.info.json` beside `episodeFile`: made here, nothing is fetched.
  package func keepInfo(_ info: EpisodeInfo, besides episodeFile: String) -> Result<
    String, SideFileError
  > {
    let target = SideFileNames.info(besides: episodeFile)
    do {
      try place(info.document(besides: episodeFile), at: target)
      return .success(target)
    } catch {
      return .failure(error)
    }
  }

  private func download(_ url: String, as fileExtension: String, feedURL: String?)
    -> SideFileDownload
  {
    SideFileDownload(
      url: url, fileExtension: fileExtension, feedURL: feedURL, http: http, options: options,
      limit: Self.maxBytes, scratchDirectory: scratchDirectory)
  }

  /// Writes `data` to `target` so that the name only ever holds a complete file.
  package func place(_ data: Data, at target: String) throws(SideFileError) {
    sweepOnce((target as NSString).deletingLastPathComponent)
    if let code = AtomicFile.write(data, to: target, prefix: Self.temporaryPrefix) {
      throw Self.cannotWrite(target, errno: code)
    }
  }

  package static let temporaryPrefix = ".podcast-side-"

  private static func cannotWrite(_ path: String, errno code: Int32 = errno) -> SideFileError {
    .cannotWrite(path: path, reason: String(cString: strerror(code)))
  }

  private func sweepOnce(_ folder: String) {
    let first = swept.withLock { $0.insert(folder).inserted }
    if first { Self.removeDebris(in: folder) }
  }

  /// Deletes the temporary files a killed run left in `folder`: the ones whose process is
  /// gone. Another running `podcast` keeps its own.
  package static func removeDebris(in folder: String) {
    TemporaryName.removeAbandoned(in: folder, prefix: temporaryPrefix)
  }

}
