import Foundation
import Glibc

/// A directory served under a URL prefix, with validators taken from each file's metadata
/// the way real static file servers do it.
struct DirectoryMount: Sendable {
  /// "/" or a path without a trailing slash, like "/audio".
  let prefix: String
  let directory: String
  let faults: Faults

  init(directory: String, prefix: String, faults: Faults) {
    self.directory = directory
    let trimmed = "/" + prefix.split(separator: "/").joined(separator: "/")
    self.prefix = trimmed
    self.faults = faults
  }

  func covers(_ path: String) -> Bool {
    prefix == "/" || path == prefix || path.hasPrefix(prefix + "/")
  }

  /// The route for a request path under this mount, or nil if it names no regular file here.
  /// Paths with ".." segments are refused: the test server must not serve the whole disk.
  func route(for path: String) -> Route? {
    let relative = path.dropFirst(prefix == "/" ? 0 : prefix.count)
    guard let decoded = String(relative).removingPercentEncoding else { return nil }
    let segments = decoded.split(separator: "/")
    guard !segments.isEmpty, !segments.contains(".."), !decoded.contains("\0") else { return nil }
    let file = directory + "/" + segments.joined(separator: "/")

    var info = stat()
    guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
    var route = Route.file(file)
      .withETag("\"\(String(info.st_size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))\"")
      .withLastModified(modified)
    route.faults = faults
    return route
  }
}
