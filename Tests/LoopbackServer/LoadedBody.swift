import Foundation
import Glibc

/// A route's body made ready to send: opened file or bytes, after `{{base}}` substitution and
/// any gzip fault. Big plain files stay on disk and go out through sendfile(2).
struct LoadedBody {
  let source: BodySource
  let contentType: String

  init(data: Data, contentType: String) {
    self.source = .bytes(data)
    self.contentType = contentType
  }

  init(route: Route, baseURL: String) throws(LoadedBody.Failure) {
    switch route.body {
    case .data(let data):
      contentType = route.contentType ?? "application/octet-stream"
      source = .bytes(try Self.encoded(data, route.faults.encoding))
    case .file(let path):
      contentType = route.contentType ?? MediaType.guess(forPath: path)
      if MediaType.takesBasePlaceholder(path) || route.faults.encoding != .identity {
        guard let data = FileManager.default.contents(atPath: path) else {
          throw .fileUnreadable(path)
        }
        let substituted =
          MediaType.takesBasePlaceholder(path)
          ? BasePlaceholder.replace(in: data, with: baseURL) : data
        source = .bytes(try Self.encoded(substituted, route.faults.encoding))
      } else {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileUnreadable(path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
          Glibc.close(descriptor)
          throw .fileUnreadable(path)
        }
        source = .file(descriptor: descriptor, size: Int(info.st_size))
      }
    }
  }

  func close() {
    if case .file(let descriptor, _) = source { Glibc.close(descriptor) }
  }

  private static func encoded(_ data: Data, _ encoding: Faults.Encoding) throws(Failure) -> Data {
    guard encoding != .identity else { return data }
    guard let compressed = Gzip.compress(data) else { throw .gzipFailed }
    return compressed
  }

  enum Failure: Error, CustomStringConvertible {
    case fileUnreadable(String)
    case gzipFailed

    var description: String {
      switch self {
      case .fileUnreadable(let path): "The file \(path) cannot be read."
      case .gzipFailed: "zlib could not compress the body."
      }
    }
  }
}
