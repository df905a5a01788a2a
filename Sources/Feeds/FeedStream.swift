import Basics
internal import CLibXML2
import Foundation

/// One pass of libxml2's SAX2 push parser over a document fed in chunks, handing elements and
/// text to a `FeedBuilder`. This is where the XML safety rules live:
/// - `XML_PARSE_NONET`, never `XML_PARSE_NOENT`, no DTD loading;
/// - the `getEntity` handler never returns a DTD-declared entity (and DTDs are not recorded:
///   `internalSubset`/`entityDecl` stay NULL), so entity bombs and external entities expand to
///   nothing; it only answers HTML named entities (`&nbsp;`, `&eacute;`) that feeds use
///   undeclared;
/// - `XML_PARSE_RECOVER`, so a bare `&` or a cut-off document still yields what came before.
package final class FeedStream {
  /// The first error libxml2 reported, for `FeedError.malformed`.
  package private(set) var firstError: (line: Int, reason: String)?
  /// Input that is not valid in the document's encoding (usually stray Windows-1252 bytes).
  package private(set) var sawEncodingError = false
  /// A `&` that starts no well-formed reference, or an HTML entity (which libxml2 mangles
  /// inside attributes): `AmpersandRepair` on a second pass fixes all three.
  package private(set) var sawLooseReference = false
  package let builder: FeedBuilder
  /// Whether libxml2 reported any error: a document cut short always gets one.
  package private(set) var sawError = false
  /// The document's last bytes, where its root element's end tag stands when it was whole.
  private var tail: [UInt8] = []
  private static let tailSize = 4 << 10

  private var context: xmlParserCtxtPtr?
  private var namespaces: [UnsafeRawPointer: FeedNamespace] = [:]
  // Touched by every start tag. Only `startElement` uses it, on the parsing thread, and
  // nothing it calls reaches back into the stream: no run-time exclusivity check needed.
  @exclusivity(unchecked) private var names = ElementNameCache()
  private var htmlEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]

  package init(builder: FeedBuilder) {
    self.builder = builder
  }

  deinit {
    if let context {
      // A DOCTYPE that declares entities makes libxml2 build a stand-in document to hold them
      // ("SAX compat mode"); the parser context does not own it, so it would leak per feed.
      if let document = context.pointee.myDoc { xmlFreeDoc(document) }
      xmlFreeParserCtxt(context)
    }
    for entity in htmlEntities.values {
      free(entity.pointee.name.map { UnsafeMutableRawPointer(mutating: $0) })
      free(entity.pointee.content)
      entity.deallocate()
    }
  }

  /// The encoding named in the XML declaration, if any (read after the first chunk).
  package var declaredEncoding: String? {
    guard let encoding = context?.pointee.encoding else { return nil }
    return String(cString: encoding)
  }

  /// Parses the next piece of the document. The first call must carry at least 4 bytes when
  /// the document has them, so libxml2 can detect UTF-16/32 from the BOM.
  package func feed(_ bytes: UnsafeRawBufferPointer) {
    builder.bytesFed += bytes.count
    tail.append(contentsOf: bytes.suffix(Self.tailSize))
    if tail.count > 2 * Self.tailSize { tail.removeFirst(tail.count - Self.tailSize) }
    let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    guard let context else {
      start(first: base, count: Int32(bytes.count))
      return
    }
    // An empty chunk first: libxml2 (2.9) drops the bytes it has parsed only when it starts
    // parsing, after appending the new chunk, and then moves the whole chunk to the front of
    // its buffer: a second copy of the document (90 MB for a large feed). Asked to
    // parse nothing, it drops them while only the few unparsed bytes remain to move.
    if bytes.count >= Self.preShrinkMinimum { xmlParseChunk(context, base, 0, 0) }
    xmlParseChunk(context, base, Int32(bytes.count), 0)
  }

  /// Below this a chunk is cheap to move (libxml2 itself only drops parsed bytes past 4 KiB).
  private static let preShrinkMinimum = 8 << 10

  /// Tells libxml2 the document is over, so a truncated one reports its error.
  package func finish() {
    if context == nil { start(first: nil, count: 0) }
    if let context { xmlParseChunk(context, nil, 0, 1) }
    builder.finishTruncated()
  }

  /// Whether the document ends with the end tag of its root element `root` (`</rss>`,
  /// `</rdf:RDF>`), perhaps followed by comments or white space. A document whose elements
  /// do not nest (a stray `<b>`) still ends with it; one cut short in transfer does not.
  package func endsWithEndTag(of root: String) -> Bool {
    let text = String(decoding: tail.suffix(Self.tailSize), as: UTF8.self)
    let endTag =
      "</([A-Za-z_][A-Za-z0-9_.-]*:)?"
      + NSRegularExpression.escapedPattern(for: root) + "\\s*>"
    return text.range(of: endTag, options: [.regularExpression, .caseInsensitive]) != nil
  }

  /// Stops reading: the root element already told us this is not a feed.
  package func stop() {
    if let context { xmlStopParser(context) }
  }

  private func start(first: UnsafePointer<CChar>?, count: Int32) {
    var handler = Self.handler()
    let me = Unmanaged.passUnretained(self).toOpaque()
    context = xmlCreatePushParserCtxt(&handler, me, first, count, nil)
    guard let context else { return }
    let options =
      XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue
      | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
    xmlCtxtUseOptions(context, Int32(options))
  }

  // MARK: - Events from libxml2

  fileprivate func startElement(
    _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  ) {
    keepEntitiesFlowing()
    let (ns, name, element) = names.element(
      localName, prefix.map(UnsafeRawPointer.init), uri.map(UnsafeRawPointer.init)
    ) {
      resolveElement(localName, prefix, uri)
    }
    let isRoot = builder.rootElement == nil
    builder.start(ns, name, element, attributes: XMLAttributes(attributes, count: attributeCount))
    if isRoot && !isFeedRoot(name) { stop() }
  }

  private func resolveElement(
    _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
  ) -> (FeedNamespace, String) {
    let ns = namespace(uri: uri, prefix: prefix)
    let name = String(cString: localName)
    if ns == .rss || ns == .itunes, ElementName.hasCapital(localName) {
      return (ns, ElementName.canonical(name, in: ns))
    }
    return (ns, name)
  }

  fileprivate func endElement() {
    keepEntitiesFlowing()
    builder.end()
  }

  fileprivate func characters(_ bytes: UnsafePointer<xmlChar>, _ count: Int) {
    keepEntitiesFlowing()
    guard builder.isCapturing else { return }
    builder.characters(UnsafeBufferPointer(start: bytes, count: count))
  }

  func record(_ error: UnsafePointer<xmlError>) {
    let code = Int(error.pointee.code)
    if code == Int(XML_ERR_INVALID_CHAR.rawValue) || code == Int(XML_ERR_INVALID_ENCODING.rawValue)
    {
      sawEncodingError = true
    }
    if Self.referenceErrors.contains(code) { sawLooseReference = true }
    if error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue { sawError = true }
    guard firstError == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
    let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    firstError = (Int(error.pointee.line), message.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  private static let referenceErrors: Set<Int> = Set(
    [
      XML_ERR_INVALID_HEX_CHARREF, XML_ERR_INVALID_DEC_CHARREF, XML_ERR_INVALID_CHARREF,
      XML_ERR_ENTITYREF_NO_NAME, XML_ERR_ENTITYREF_SEMICOL_MISSING, XML_ERR_NAME_REQUIRED,
    ].map { Int($0.rawValue) })

  /// The answer to `&name;`. DTD-declared entities are never expanded: nil. HTML names become
  /// a predefined-style entity whose text libxml2 inlines (like `&amp;`).
  fileprivate func entity(named name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
    keepEntitiesFlowing()
    let key = String(cString: name)
    // An HTML name anywhere means the attributes may hold one libxml2 cuts short: the repair
    // pass runs. Looked up once per reference, not again for names already answered.
    if let known = htmlEntities[key] {
      sawLooseReference = true
      return known
    }
    guard let description = htmlEntityLookup(name) else { return nil }
    sawLooseReference = true
    guard htmlEntities.count < 512, let scalar = Unicode.Scalar(description.pointee.value)
    else { return nil }
    let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
    entity.initialize(to: xmlEntity())
    entity.pointee.type = XML_ENTITY_DECL
    entity.pointee.etype = XML_INTERNAL_PREDEFINED_ENTITY
    entity.pointee.name = UnsafePointer(
      strdup(key).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self) })
    let text = String(Character(scalar))
    entity.pointee.content = strdup(text).map {
      UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self)
    }
    entity.pointee.length = Int32(text.utf8.count)
    htmlEntities[key] = entity
    return entity
  }

  /// libxml2 (2.9) drops every entity reference in content once the document has had a
  /// well-formedness error, even `&amp;`. In recovery mode we want them: we keep our own error
  /// record, so the flag is reset. This enables nothing unsafe: entities still only come from
  /// the predefined five and `entity(named:)`.
  private func keepEntitiesFlowing() {
    if let context, context.pointee.wellFormed == 0 { context.pointee.wellFormed = 1 }
  }

  private func namespace(uri: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?)
    -> FeedNamespace
  {
    guard let uri else {
      guard let prefix else { return .rss }
      return FeedNamespace(undeclaredPrefix: String(cString: prefix))
    }
    // Namespace URIs are interned in the parser's dictionary, so the pointer identifies them.
    let key = UnsafeRawPointer(uri)
    if let known = namespaces[key] { return known }
    let ns = FeedNamespace(uri: String(cString: uri))
    namespaces[key] = ns
    return ns
  }

  private func isFeedRoot(_ name: String) -> Bool {
    name == "rss" || name == "RDF" || name == "feed" || name == "channel"
  }

  // MARK: - The C handler table

  /// Runs `body` on the stream without retaining it: the events come hundreds of thousands of
  /// times per large feed, and a retain/release pair each was a tenth of the text callback.
  /// Safe because `FeedParser.run` holds the stream for the whole of every `xmlParseChunk`.
  /// Every callback finds its stream this one way; nil only without a context.
  @inline(__always)
  private static func borrowing<Result>(
    _ ctx: UnsafeMutableRawPointer?, _ body: (FeedStream) -> Result
  ) -> Result? {
    guard let ctx else { return nil }
    return Unmanaged<FeedStream>.fromOpaque(ctx)._withUnsafeGuaranteedRef(body)
  }

  private static func handler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = { ctx, localName, prefix, uri, _, _, count, _, attributes in
      guard let localName else { return }
      FeedStream.borrowing(ctx) {
        $0.startElement(localName, prefix, uri, Int(count), attributes)
      }
    }
    handler.endElementNs = { ctx, _, _, _ in FeedStream.borrowing(ctx) { $0.endElement() } }
    handler.characters = { ctx, bytes, count in
      guard let bytes else { return }
      FeedStream.borrowing(ctx) { $0.characters(bytes, Int(count)) }
    }
    handler.cdataBlock = { ctx, bytes, count in
      guard let bytes else { return }
      FeedStream.borrowing(ctx) { $0.characters(bytes, Int(count)) }
    }
    handler.getEntity = { ctx, name in
      guard let name else { return nil }
      return FeedStream.borrowing(ctx) { $0.entity(named: name) } ?? nil
    }
    handler.serror = { ctx, error in
      guard let error else { return }
      FeedStream.borrowing(ctx) { $0.record(UnsafePointer(error)) }
    }
    return handler
  }
}
