import Foundation

/// A path as `URL(fileURLWithPath:).standardizedFileURL.path` gives it, worked out only when
/// there is something to do: an absolute path without empty, `.` or `..` components and
/// without a trailing slash is already that. The paths the library makes itself all are, and
/// the round trip through `URL` (bridging, encoding, decoding) is costly for every file a
/// sync lists.
package enum StandardPath {
  package static func of(_ path: String) -> String {
    isStandard(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
  }

  private static func isStandard(_ path: String) -> Bool {
    let slash = UInt8(ascii: "/")
    let dot = UInt8(ascii: ".")
    var bytes = path.utf8.makeIterator()
    guard bytes.next() == slash else { return false }
    var length = 0
    var dots = 0
    while true {
      let byte = bytes.next()
      if byte == nil || byte == slash {
        // An empty component (a double or trailing slash), "." or "..".
        if length == 0 || dots == length && length <= 2 { return false }
        if byte == nil { return true }
        length = 0
        dots = 0
      } else {
        length += 1
        if byte == dot { dots += 1 }
      }
    }
  }

  // The parts of a path, as `NSString`'s path methods give them, cut on the UTF-8 view: on
  // Linux each of those bridges the string and fixes its slashes first, and a sync asks
  // several per episode. A path with an empty component
  // or a trailing slash (or none at all) goes to `NSString`, whose rules for those differ.

  /// `deletingLastPathComponent`: the folder a file is in.
  package static func directory(of path: String) -> String {
    guard isPlain(path), let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
      return (path as NSString).deletingLastPathComponent
    }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `lastPathComponent`: a file's name.
  package static func lastComponent(of path: String) -> String {
    guard isPlain(path) else { return (path as NSString).lastPathComponent }
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// `pathExtension`: what follows the last dot of a file's name, unless the name starts with
  /// it.
  package static func pathExtension(of path: String) -> String {
    guard isPlain(path) else { return (path as NSString).pathExtension }
    let utf8 = path.utf8
    let start =
      utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
    guard let dot = utf8[start...].lastIndex(of: UInt8(ascii: ".")), dot != start else {
      return ""
    }
    return String(path[utf8.index(after: dot)...])
  }

  /// `deletingPathExtension`: the path without its file's extension.
  package static func withoutExtension(of path: String) -> String {
    let ext = pathExtension(of: path)
    guard isPlain(path), !ext.isEmpty else { return (path as NSString).deletingPathExtension }
    return String(path[..<path.utf8.index(path.utf8.endIndex, offsetBy: -(ext.utf8.count + 1))])
  }

  /// Not empty, no empty component, no trailing slash.
  private static func isPlain(_ path: String) -> Bool {
    let slash = UInt8(ascii: "/")
    var previous: UInt8 = 0
    for byte in path.utf8 {
      if byte == slash && previous == slash { return false }
      previous = byte
    }
    return previous != 0 && previous != slash
  }
}
