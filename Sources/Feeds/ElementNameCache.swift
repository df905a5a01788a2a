import Basics

/// What an element's names, as libxml2 reports them, mean to the builder: its vocabulary, the
/// name the builder knows it by and, for the elements an item is read from, its number.
/// libxml2 interns names and namespace URIs in the parser's
/// dictionary, which frees nothing while the parser lives, so the same three addresses always
/// stand for the same text during one pass: an element seen before costs a few comparisons
/// instead of a `String` built from its name, a namespace look-up and, for names with capitals,
/// a case-folding look-up (together about 500 instructions per element of a large feed).
package struct ElementNameCache {
  private struct Slot {
    var localName: UnsafeRawPointer?
    var prefix: UnsafeRawPointer?
    var uri: UnsafeRawPointer?
    var namespace = FeedNamespace.other
    var name = ""
    var element = FeedElement.other
  }

  /// An element as the builder takes it.
  package typealias Meaning = (namespace: FeedNamespace, name: String, element: FeedElement)

  /// A feed uses a few dozen element names; a name that finds its few slots taken (a feed
  /// with hundreds of names) takes the first one, and a miss only costs the slow way.
  private static let slotCount = 256
  private static let probes = 4
  private var slots = [Slot](repeating: Slot(), count: slotCount)

  /// The meaning of the names at these addresses; `resolve` works it out on a miss.
  /// `localName`, `prefix` and `uri` must come from the parser's dictionary (SAX2 events).
  package mutating func element(
    _ localName: UnsafeRawPointer, _ prefix: UnsafeRawPointer?, _ uri: UnsafeRawPointer?,
    resolve: () -> (FeedNamespace, String)
  ) -> Meaning {
    let first = Self.slot(localName, prefix, uri)
    var index = first
    for probe in 0..<Self.probes {
      index = (first + probe) & (Self.slotCount - 1)
      if slots[index].localName == localName && slots[index].prefix == prefix
        && slots[index].uri == uri
      {
        return (slots[index].namespace, slots[index].name, slots[index].element)
      }
      if slots[index].localName == nil { break }
    }
    if slots[index].localName != nil { index = first }
    let (namespace, name) = resolve()
    let element = FeedElement(namespace, name)
    slots[index] = Slot(
      localName: localName, prefix: prefix, uri: uri, namespace: namespace, name: name,
      element: element)
    return (namespace, name, element)
  }

  private static func slot(
    _ localName: UnsafeRawPointer, _ prefix: UnsafeRawPointer?, _ uri: UnsafeRawPointer?
  ) -> Int {
    let mixed =
      UInt(bitPattern: localName) >> 3 &* 0x9E37_79B9_7F4A_7C15
      ^ UInt(bitPattern: uri) >> 3 &* 0xC2B2_AE3D_27D4_EB4F ^ UInt(bitPattern: prefix) >> 3
    return Int(truncatingIfNeeded: mixed >> 32) & (slotCount - 1)
  }
}
