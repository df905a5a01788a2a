import Basics
internal import CLibXML2
import Foundation

/// A read-only view of libxml2's SAX2 attribute array (localname, prefix, URI, value start,
/// value end per attribute), valid only during the start-element callback. Strings are built
/// only for the attributes asked for.
package struct XMLAttributes {
  private let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  private let count: Int

  init(_ base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) {
    self.base = base
    self.count = count
  }

  /// The value of the un-namespaced attribute `name`, whitespace-trimmed, its references
  /// decoded (libxml2 leaves `&amp;` as `&#38;`); nil when absent.
  package func value(_ name: StaticString) -> String? {
    guard let index = find(name, prefixed: false) else { return nil }
    return string(at: index)
  }

  /// `xml:base`, which changes how relative URLs below this element resolve.
  package var xmlBase: String? {
    guard count > 0, let index = find("base", prefixed: true) else { return nil }
    return string(at: index)
  }

  private func find(_ name: StaticString, prefixed: Bool) -> Int? {
    guard let base else { return nil }
    for index in 0..<count {
      let slot = base + index * 5
      guard let localName = slot[0], matches(localName, name) else { continue }
      if prefixed == (slot[1] != nil) { return index }
    }
    return nil
  }

  private func string(at index: Int) -> String? {
    guard let base, let start = base[index * 5 + 3], let end = base[index * 5 + 4] else {
      return nil
    }
    let buffer = UnsafeBufferPointer(start: start, count: end - start)
    let text =
      XMLReference.decoded(buffer).map { $0.withUnsafeBufferPointer(FeedText.trimmedString) }
      ?? FeedText.trimmedString(buffer)
    return text.isEmpty ? nil : text
  }

  private func matches(_ cString: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    for (offset, byte) in expected.enumerated() where cString[offset] != byte { return false }
    return cString[expected.count] == 0
  }
}
