import Foundation
import LoopbackServer
import Model
import PodcastKit
import Store
import StoreTestSupport
import XCTest

/// What a use case runs against in these tests: feeds served on loopback, a library in a
/// temporary directory, and the network as the command line gives it, except that the iTunes
/// directory is the loopback server, which knows no `itunes:` id.
final class UseCaseFixture {
  let server: LoopbackServer
  let library: TemporaryLibrary
  let network: Network

  var paths: LibraryPaths { library.paths }

  init() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
    network = Network(iTunesBaseURL: server.url("/itunes"))
  }

  deinit {
    server.stop()
  }

  /// The library's store, opened (and so created) the way a writing command opens it.
  func store() throws -> LibraryStore { try library.store() }

  /// Whether anything created the library's database: reading commands must not.
  var libraryExists: Bool { FileManager.default.fileExists(atPath: paths.database) }

  /// The enclosure URL of episode `number` of the feed at `path`.
  func enclosure(_ path: String, _ number: Int) -> String {
    server.url("\(path)/episode-\(number).mp3")
  }

  /// Serves a feed of episodes 1...`count` at `path`, the newest (highest number) first, one
  /// day apart, each titled "Episode N"; returns its URL.
  @discardableResult
  func serveFeed(
    at path: String = "/feed.xml", title: String = "Test Show", count: Int,
    etag: String? = "\"v1\""
  ) -> String {
    let route = Route.text(
      rss(path, title: title, count: count), contentType: "application/rss+xml")
    server.set(path, etag.map { route.withETag($0) } ?? route)
    return server.url(path)
  }

  func rss(_ path: String, title: String, count: Int) -> String {
    let items = (0..<count).map { count - $0 }.map { number in
      """
      <item><title>Episode \(number)</title><guid>\(path)-\(number)</guid>
      <pubDate>\(String(format: "%02d", number)) May 2024 10:00:00 GMT</pubDate>
      <enclosure url="\(enclosure(path, number))" length="1000" type="audio/mpeg"/></item>
      """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0"><channel><title>\(title)</title>
      \(items.joined(separator: "\n"))
      </channel></rss>
      """
  }

  /// A file of `text` in the library's temporary directory (outside Episodes); its path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = library.directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A finished download of `relativePath` under Episodes, its file on disk, listed in the
  /// feed at `feedURL`; the file's path.
  @discardableResult
  func finishedDownload(
    _ relativePath: String, url: String, feedURL: String, title: String = ""
  ) throws -> String {
    let file = paths.episodes + "/" + relativePath
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
    try store().seed(
      DownloadRecord(
        url: url, podcastTitle: "Test Show", episodeTitle: title, state: .done, bytes: 5,
        total: 5, partialPath: paths.partial(for: url),
        file: file, feedURL: feedURL))
    return file
  }
}
