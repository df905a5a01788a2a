import Basics
import Foundation

/// C copies of Swift strings that live as long as the pool: the tag struct handed to TagLib
/// holds a dozen of them at once, which nested `withCString` calls would make unreadable.
package final class CStringPool {
  private var pointers: [UnsafeMutablePointer<CChar>] = []

  /// A NUL-terminated UTF-8 copy, or nil for nil (or when memory runs out).
  package func copy(_ string: String?) -> UnsafePointer<CChar>? {
    guard let string, let pointer = strdup(string) else { return nil }
    pointers.append(pointer)
    return UnsafePointer(pointer)
  }

  deinit {
    for pointer in pointers { free(pointer) }
  }
}
