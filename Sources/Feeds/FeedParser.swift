import Basics
internal import CLibXML2
import Foundation

/// Reads RSS 2.0/0.9x, RSS 1.0 and Atom 1.0 podcast feeds, streaming them through libxml2 so
/// memory stays flat on 20,000-episode feeds.
///
/// Episodes come back newest first by published date; items without a date follow the dated
/// ones, in feed order. Items with no http(s) media file (no `enclosure`, Atom enclosure link
/// or `media:content`) are not episodes and are left out. Items sharing a GUID are all kept.
public enum FeedParser {
  /// libxml2 gets the document in pieces of this size: small enough to keep memory flat,
  /// large enough that the per-call overhead vanishes.
  package static let chunkSize = 64 << 10

  /// Parses a feed held in memory. `baseURL` resolves relative links (the feed's own URL).
  public static func parse(_ data: Data, baseURL: String?) throws -> Feed {
    try data.withUnsafeBytes { bytes in
      try parse(baseURL: baseURL, documentBytes: bytes.count) { consume in
        var offset = 0
        while offset < bytes.count {
          let end = min(offset + chunkSize, bytes.count)
          consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
          offset = end
        }
      }
    }
  }

  /// Parses a feed file, streaming it so memory stays flat on very large feeds.
  public static func parse(contentsOfFile path: String, baseURL: String?) throws -> Feed {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FeedError.unreadable(path: path, reason: errnoReason()) }
    defer { close(descriptor) }
    return try parse(descriptor: descriptor, name: path, baseURL: baseURL)
  }

  /// Parses the document in an open file from its start (a feed body spooled to disk);
  /// `name` says which file in errors.
  package static func parse(descriptor: Int32, name: String, baseURL: String?) throws -> Feed {
    var info = stat()
    let size = fstat(descriptor, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : nil
    return try parse(baseURL: baseURL, documentBytes: size) { consume in
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
      defer { buffer.deallocate() }
      var offset = 0  // pread from the start: a second pass reads the document again
      while true {
        let count = pread(descriptor, buffer.baseAddress, chunkSize, off_t(offset))
        if count < 0 {
          if errno == EINTR { continue }
          throw FeedError.unreadable(path: name, reason: errnoReason())
        }
        if count == 0 { return }
        consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        offset += count
      }
    }
  }

  /// A source calls its consumer once per chunk, in order; it may be called twice (the second
  /// time to re-read a document whose bytes were not valid in its encoding).
  package typealias ChunkSource = (_ consume: (UnsafeRawBufferPointer) -> Void) throws -> Void

  /// Parses the document `source` hands over (the library's compressed copy of a feed,
  /// inflated as it is read). `documentBytes`, when known, only helps size the episode array.
  package static func parse(baseURL: String?, documentBytes: Int?, source: ChunkSource) throws
    -> Feed
  {
    xmlInitParser()
    podcast_xml_silence_generic_errors()
    let first = try run(
      baseURL: baseURL, documentBytes: documentBytes, source: source, repairs: Repairs())
    let repairs = Repairs(
      encoding: first.stream.sawEncodingError && first.isUTF8Document,
      ampersands: first.stream.sawLooseReference && !first.sniff.hasWideBOM)
    guard repairs.encoding || repairs.ampersands else { return try result(of: first) }
    let second = try run(
      baseURL: baseURL, documentBytes: documentBytes, source: source, repairs: repairs)
    return try result(of: second)
  }

  /// What a second pass fixes in the bytes before libxml2 sees them.
  private struct Repairs {
    var encoding = false
    var ampersands = false
  }

  // MARK: - One pass

  /// What one pass over the document saw.
  private struct Pass {
    let stream: FeedStream
    let sniff: DocumentSniff
    var isUTF8Document: Bool {
      guard !sniff.hasWideBOM else { return false }
      guard let declared = stream.declaredEncoding?.lowercased() else { return true }
      return declared == "utf-8" || declared == "utf8"
    }
  }

  private static func run(
    baseURL: String?, documentBytes: Int?, source: ChunkSource, repairs: Repairs
  ) throws -> Pass {
    let builder = FeedBuilder(baseURL: baseURL)
    builder.documentBytes = documentBytes
    let stream = FeedStream(builder: builder)
    var sniff = DocumentSniff()
    var fallback = Windows1252Fallback()
    var ampersands = AmpersandRepair()
    // libxml2 reports encoding-conversion errors through the thread's structured handler; it
    // must not print to stderr, so errors go to the stream for the whole pass.
    let me = Unmanaged.passUnretained(stream).toOpaque()
    xmlSetStructuredErrorFunc(me) { ctx, error in
      guard let ctx, let error else { return }
      Unmanaged<FeedStream>.fromOpaque(ctx).takeUnretainedValue().record(UnsafePointer(error))
    }
    defer { xmlSetStructuredErrorFunc(nil, nil) }
    var pending: [UInt8] = []  // the first bytes, held until there are 4 for BOM detection
    try source { chunk in
      guard !sniff.isHTML else { return }
      if !sniff.isDecided {
        sniff.look(at: chunk)
        if sniff.isHTML { return }
      }
      if repairs.encoding || repairs.ampersands {
        let repaired = repair(chunk, isLast: false, repairs, &fallback, &ampersands)
        repaired.withUnsafeBytes { feed(stream, $0, pending: &pending) }
      } else {
        feed(stream, chunk, pending: &pending)
      }
    }
    if repairs.encoding || repairs.ampersands {
      let none = UnsafeRawBufferPointer(start: nil, count: 0)
      pending.append(contentsOf: repair(none, isLast: true, repairs, &fallback, &ampersands))
    }
    if !pending.isEmpty { pending.withUnsafeBytes { stream.feed($0) } }
    if !sniff.isHTML { stream.finish() }
    return Pass(stream: stream, sniff: sniff)
  }

  /// The encoding repair first: the ampersand one reads bytes as UTF-8.
  private static func repair(
    _ chunk: UnsafeRawBufferPointer, isLast: Bool, _ repairs: Repairs,
    _ fallback: inout Windows1252Fallback, _ ampersands: inout AmpersandRepair
  ) -> [UInt8] {
    guard repairs.encoding else { return ampersands.repair(chunk, isLast: isLast) }
    let decoded = fallback.repair(chunk, isLast: isLast)
    guard repairs.ampersands else { return decoded }
    return decoded.withUnsafeBytes { ampersands.repair($0, isLast: isLast) }
  }

  private static func feed(
    _ stream: FeedStream, _ chunk: UnsafeRawBufferPointer, pending: inout [UInt8]
  ) {
    if pending.isEmpty && chunk.count >= 4 || !pending.isEmpty && pending.count + chunk.count >= 4 {
      if pending.isEmpty {
        stream.feed(chunk)
      } else {
        pending.append(contentsOf: chunk)
        pending.withUnsafeBytes { stream.feed($0) }
        pending.removeAll()
      }
    } else {
      pending.append(contentsOf: chunk)
    }
  }

  // MARK: - Verdict

  private static func result(of pass: Pass) throws -> Feed {
    let builder = pass.stream.builder
    if pass.sniff.isHTML { throw FeedError.htmlPage }
    guard let root = builder.rootElement else {
      if !pass.sniff.hasContent { throw FeedError.empty }
      if pass.sniff.isGzip { throw FeedError.compressed }
      let error = pass.stream.firstError ?? (line: 1, reason: "no root element")
      throw FeedError.malformed(line: error.line, reason: error.reason)
    }
    if root.lowercased() == "html" { throw FeedError.htmlPage }
    guard ["rss", "RDF", "feed", "channel"].contains(root) else {
      throw FeedError.notAFeed(rootElement: root)
    }
    if !builder.sawChannel && builder.episodes.isEmpty, let error = pass.stream.firstError {
      throw FeedError.malformed(line: error.line, reason: error.reason)
    }
    // A feed cut short lists only what came before the cut: taken as the truth, it would
    // rename a show and drop its later episodes.
    if pass.stream.sawError && !pass.stream.endsWithEndTag(of: root) {
      throw FeedError.truncated(bytes: builder.bytesFed, root: root)
    }
    return Feed(
      podcast: builder.podcast, episodes: newestFirst(builder.episodes),
      pageLinks: builder.pageLinks)
  }

  /// Newest first; undated episodes after the dated ones, keeping feed order among equals.
  /// Most feeds already list episodes this way, so usually nothing is copied; otherwise the
  /// positions are sorted, not the episodes: copying 20,000 episodes through a sort was 15 MB
  /// of the peak memory.
  package static func newestFirst(_ episodes: [Episode]) -> [Episode] {
    let isInOrder = episodes.indices.dropFirst().allSatisfy { index in
      !isNewer(episodes[index].published, than: episodes[index - 1].published)
    }
    if isInOrder { return episodes }
    let order = episodes.indices.sorted { a, b in
      let (first, second) = (episodes[a].published, episodes[b].published)
      return isNewer(first, than: second) || !isNewer(second, than: first) && a < b
    }
    return order.map { episodes[$0] }
  }

  /// Whether an episode published `date` goes strictly before one published `other`.
  private static func isNewer(_ date: Date?, than other: Date?) -> Bool {
    switch (date, other) {
    case (let x?, let y?): return x > y
    case (.some, nil): return true
    default: return false
    }
  }

  private static func errnoReason() -> String {
    String(cString: strerror(errno))
  }
}
