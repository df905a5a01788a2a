import Basics
internal import CLibXML2
import Foundation

/// Reads the outline elements of an OPML document with libxml2's streaming reader: no network,
/// no entity expansion, no DTD loading. `OPML` (in Library) decides what the attributes mean.
package enum OPMLReader {
  package struct Document {
    package var rootElement: String
    /// The attributes of every `<outline>`, at any depth, in document order.
    package var outlines: [[String: String]]
  }

  /// Liberal like the apps whose exports we read: recovers from small errors and keeps what it
  /// read before a fatal one. Only a document with no root element at all is malformed.
  package static func read(_ data: Data) throws -> Document {
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw OPMLError.empty
    }
    let options = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
    let reader: xmlTextReaderPtr? = data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
      return xmlReaderForMemory(base, Int32(clamping: buffer.count), nil, nil, options)
    }
    guard let reader else { throw OPMLError.malformed(line: 1) }
    defer { xmlFreeTextReader(reader) }
    return try walk(reader)
  }

  private static func walk(_ reader: xmlTextReaderPtr) throws -> Document {
    var root: String?
    var outlines: [[String: String]] = []
    while xmlTextReaderRead(reader) == 1 {
      guard xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) else {
        continue
      }
      let name = text(xmlTextReaderConstLocalName(reader)) ?? ""
      if root == nil {
        root = name
        if name.lowercased() != "opml" { break }
      }
      if name.lowercased() == "outline" {
        outlines.append(attributes(reader))
      }
    }
    guard let root else {
      throw OPMLError.malformed(line: Int(xmlTextReaderGetParserLineNumber(reader)))
    }
    return Document(rootElement: root, outlines: outlines)
  }

  private static func attributes(_ reader: xmlTextReaderPtr) -> [String: String] {
    var attributes: [String: String] = [:]
    while xmlTextReaderMoveToNextAttribute(reader) == 1 {
      if let name = text(xmlTextReaderConstLocalName(reader)),
        let value = text(xmlTextReaderConstValue(reader))
      {
        attributes[name] = attributes[name] ?? value
      }
    }
    xmlTextReaderMoveToElement(reader)
    return attributes
  }

  private static func text(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
