import Basics
import Foundation

extension AtomicFile {
  /// `write(_:)` of files kept beside episodes (playlists, feeds), each through a temporary
  /// in `staging` when it can be, so that a run killed mid-write leaves nothing beside the
  /// file (the library's state folder, for a podcast folder's views); else, or when there is
  /// no `staging`, beside the file: any failure in `staging` (another filesystem, most
  /// likely) is tried again there. The errno of each, in order.
  package static func write(
    _ files: [(data: Data, path: String)], prefix: String, staging: String?
  ) -> [Int32?] {
    var codes = [Int32?](repeating: nil, count: files.count)
    var left = Array(files.indices)
    if let staging {
      let staged = write(
        left.map { Pending(files[$0].data, to: files[$0].path, prefix: prefix, in: staging) })
      left = zip(left, staged).compactMap { $1 == nil ? nil : $0 }
    }
    let beside = write(left.map { Pending(files[$0].data, to: files[$0].path, prefix: prefix) })
    for (index, code) in zip(left, beside) { codes[index] = code }
    return codes
  }
}
