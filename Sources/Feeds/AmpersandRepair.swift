import Basics
internal import CLibXML2

/// Rewrites the `&`s of a feed that is not well-formed so that libxml2 keeps what the
/// publisher meant. Real feeds write `AT&T` in titles and `?size=10&rate=5` in enclosure URLs;
/// libxml2's recovery drops such a `&` with the name after it (`AT`, `?size=10=5`), which
/// breaks the download. Every `&` that does not start a well-formed reference becomes `&amp;`;
/// HTML names (`&eacute;`) become character references, since libxml2 copies only the first
/// byte of an entity's text into an attribute; other names are left as they are.
/// CDATA sections and comments pass through untouched. Runs only on a second pass, after the
/// first one saw such a reference, so well-formed feeds pay nothing.
package struct AmpersandRepair {
  private enum Section { case markup, cdata, comment }

  private var section = Section.markup
  /// Bytes at the end of the previous chunk that may be the start of a reference or a
  /// section marker cut in two.
  private var carry: [UInt8] = []

  private static let cdataStart = Array("<![CDATA[".utf8)
  private static let cdataEnd = Array("]]>".utf8)
  private static let commentStart = Array("<!--".utf8)
  private static let commentEnd = Array("-->".utf8)
  private static let escapedAmpersand = Array("&amp;".utf8)

  package mutating func repair(_ chunk: UnsafeRawBufferPointer, isLast: Bool) -> [UInt8] {
    var input = carry
    input.append(contentsOf: chunk)
    carry.removeAll()
    var output: [UInt8] = []
    output.reserveCapacity(input.count + 64)
    var index = 0
    while index < input.count {
      switch section {
      case .cdata: index = passSection(input, from: index, until: Self.cdataEnd, &output, isLast)
      case .comment:
        index = passSection(input, from: index, until: Self.commentEnd, &output, isLast)
      case .markup: index = repairMarkup(input, from: index, &output, isLast)
      }
    }
    return output
  }

  /// Copies a CDATA section or comment up to and including its end marker; returns where the
  /// markup resumes, or the end of the input after carrying a possibly cut end marker.
  private mutating func passSection(
    _ input: [UInt8], from start: Int, until end: [UInt8], _ output: inout [UInt8], _ isLast: Bool
  ) -> Int {
    if let found = firstIndex(of: end, in: input, from: start) {
      output.append(contentsOf: input[start..<found + end.count])
      section = .markup
      return found + end.count
    }
    let keep = isLast ? 0 : min(end.count - 1, input.count - start)
    output.append(contentsOf: input[start..<input.count - keep])
    carry = Array(input[(input.count - keep)...])
    return input.count
  }

  /// Copies markup and text up to the next `<` or `&`, then deals with that one byte (and
  /// whatever it starts); returns where to go on.
  private mutating func repairMarkup(
    _ input: [UInt8], from start: Int, _ output: inout [UInt8], _ isLast: Bool
  ) -> Int {
    var index = start
    while index < input.count, input[index] != 0x3C, input[index] != XMLReference.ampersand {
      index += 1
    }
    output.append(contentsOf: input[start..<index])
    guard index < input.count else { return index }
    let rest = input.count - index
    if input[index] == 0x3C {
      for (marker, next) in [(Self.cdataStart, Section.cdata), (Self.commentStart, .comment)] {
        if input[index...].starts(with: marker) {
          output.append(contentsOf: marker)
          section = next
          return index + marker.count
        }
        if !isLast && rest < marker.count && marker.starts(with: input[index...]) {
          carry = Array(input[index...])
          return input.count
        }
      }
      output.append(0x3C)
      return index + 1
    }
    guard let (kind, length) = XMLReference.scan(input, at: index) else {
      if !isLast && rest < XMLReference.maximumLength {
        carry = Array(input[index...])  // the reference may end in the next chunk
        return input.count
      }
      output.append(contentsOf: Self.escapedAmpersand)
      return index + 1
    }
    appendReference(kind, written: input[index..<index + length], to: &output)
    return index + length
  }

  private func appendReference(
    _ kind: XMLReference.Kind, written: ArraySlice<UInt8>, to output: inout [UInt8]
  ) {
    guard case .named(let name) = kind, XMLReference.predefined(name) == nil else {
      output.append(contentsOf: written)
      return
    }
    if let scalar = Self.htmlEntity(name) {
      output.append(contentsOf: "&#\(scalar);".utf8)
    } else {
      // Most likely declared in the DTD, which we never expand (entity bombs): left for
      // libxml2 to drop, as a well-formed feed's would be.
      output.append(contentsOf: written)
    }
  }

  /// The code point of an HTML named entity (`eacute` → 233), from libxml2's own table.
  private static func htmlEntity(_ name: ArraySlice<UInt8>) -> UInt32? {
    let terminated = Array(name) + [0]
    return terminated.withUnsafeBufferPointer { htmlEntityLookup($0.baseAddress)?.pointee.value }
  }

  private func firstIndex(of marker: [UInt8], in input: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + marker.count <= input.count {
      if input[index] == marker[0] && input[index..<index + marker.count].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }
}
