import Basics
import Feeds
import Foundation
import Model

/// The last copy of a subscription's feed the library fetched: its pages in order, page one
/// first, compressed, with the validators page one was served with (a paged feed's every page,
/// see `FeedRefresher.copy`). A listing sends those
/// validators, so an unchanged feed costs a 304 and is read from here; an unreachable or
/// vanished feed still has something to list. The validators and the pages are kept together
/// (see `KeptFeeds`), so validators are never sent for a document the library does not have.
///
/// As kept (in the library's database; earlier versions wrote the same bytes to a file): a
/// short text header, then each page's gzip bytes in order.
///
///     podcast kept feed 1
///     feed https://example.com/feed.xml
///     etag "v7"
///     last-modified Wed, 01 May 2024 10:00:00 GMT
///     page 48211 262144 https://cdn.example.com/feed.xml
///     <blank line>
///     <48211 bytes of gzip>
public struct KeptFeed: Sendable, Equatable {
  /// One document of the feed, as served.
  public struct Page: Sendable, Equatable {
    /// Where the page came from, after redirects: its relative links resolve against it.
    public var url: String
    public var document: CompressedDocument
    /// The document's size uncompressed, to size the parse.
    public var documentBytes: Int

    public init(url: String, document: CompressedDocument, documentBytes: Int) {
      self.url = url
      self.document = document
      self.documentBytes = documentBytes
    }

    /// A fetched document of `count` bytes, compressed as `read` hands its bytes over.
    public init(
      url: String, count: Int, read: ((UnsafeRawBufferPointer) -> Void) throws -> Void
    ) throws {
      self.init(
        url: url, document: try CompressedDocument(compressing: read, expectedBytes: count),
        documentBytes: count)
    }
  }

  /// The subscription's feed URL when the copy was kept: after the subscription moves, a
  /// copy of its old address is not asked about at the new one.
  public var feedURL: String
  public var validators: Validators
  public var pages: [Page]

  public init(feedURL: String, validators: Validators, pages: [Page]) {
    self.feedURL = feedURL
    self.validators = validators
    self.pages = pages
  }

  /// Each page parsed, page one first. Throws `KeptFeedError.damaged` for a page whose bytes
  /// fail their check, and the parser's error for one that is not a feed.
  public func pageFeeds() throws -> [Feed] {
    try pages.map(Self.parse)
  }

  /// Page one, parsed: the feed as a reader of one page sees it. Putting a paged feed's pages
  /// together is the paged reader's work (`pageFeeds`); the others are not even inflated.
  public func feed() throws -> Feed {
    guard let first = pages.first else {
      throw KeptFeedError.damaged(path: nil, reason: "it holds no page")
    }
    return try Self.parse(first)
  }

  private static func parse(_ page: Page) throws -> Feed {
    try FeedParser.parse(baseURL: page.url, documentBytes: page.documentBytes) { consume in
      try page.document.inflate(into: consume)
    }
  }

  // MARK: - The file

  private static let magic = "podcast kept feed 1"

  /// The copy's bytes: header, then every page. Built as bytes, in one buffer of the right
  /// size: a sync encodes every feed it fetches.
  package func encoded() -> Data {
    var header: [UInt8] = []
    header.reserveCapacity(256)
    func line(_ parts: String...) {
      for part in parts { header.append(contentsOf: part.utf8) }
      header.append(10)
    }
    line(Self.magic)
    line("feed ", Self.oneLine(feedURL))
    if let etag = validators.etag { line("etag ", Self.oneLine(etag)) }
    if let lastModified = validators.lastModified {
      line("last-modified ", Self.oneLine(lastModified))
    }
    for page in pages {
      line(
        "page ", String(page.document.data.count), " ", String(page.documentBytes), " ",
        Self.oneLine(page.url))
    }
    header.append(10)
    var data = Data(capacity: header.count + pages.reduce(0) { $0 + $1.document.data.count })
    data.append(contentsOf: header)
    for page in pages { data.append(page.document.data) }
    return data
  }

  /// Reads a whole file's bytes. Throws `KeptFeedError.damaged` when the header is not one
  /// this build writes or the size is not what the header says (a copy cut short).
  package init(decoding data: Data) throws {
    guard let header = Self.Header(data) else {
      throw KeptFeedError.damaged(path: nil, reason: "not a copy of a feed this version reads")
    }
    guard data.count == header.fileBytes else {
      throw KeptFeedError.damaged(
        path: nil, reason: "\(data.count) bytes where its header says \(header.fileBytes)")
    }
    var offset = data.startIndex + header.length
    var pages: [Page] = []
    for page in header.pages {
      // A slice, not a copy: a 20,000-episode feed's pages are megabytes.
      let bytes = data[offset..<offset + page.storedBytes]
      pages.append(
        Page(
          url: page.url, document: CompressedDocument(data: bytes),
          documentBytes: page.documentBytes))
      offset += page.storedBytes
    }
    self.init(feedURL: header.feedURL, validators: header.validators, pages: pages)
  }

  /// Header values are one line each; a line break in one (HTTP allows none) would end it.
  private static func oneLine(_ text: String) -> String {
    // Any line break Swift knows has a byte below 0x20 or above 0x7F in UTF-8: text without
    // one (nearly every URL and validator) needs no look at its characters.
    guard text.utf8.contains(where: { $0 < 0x20 || $0 > 0x7E }) else { return text }
    return text.contains(where: \.isNewline)
      ? String(text.map { $0.isNewline ? " " : $0 }) : text
  }

  /// What the header says, read without the pages: sync reads only this, for the validators.
  package struct Header {
    package var feedURL: String
    package var validators: Validators
    package var pages: [(storedBytes: Int, documentBytes: Int, url: String)]
    /// The header's own length in bytes, blank line included.
    package var length: Int

    /// The size the whole file must have.
    package var fileBytes: Int { length + pages.reduce(0) { $0 + $1.storedBytes } }

    /// nil when `prefix` does not start with a complete header this build reads.
    package init?(_ prefix: Data) {
      guard let end = Self.blankLine(in: prefix),
        let text = String(data: prefix[prefix.startIndex..<end.lowerBound], encoding: .utf8)
      else { return nil }
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
      guard lines.popFirst() == Substring(KeptFeed.magic) else { return nil }
      var feedURL: String?
      var validators = Validators()
      var pages: [(Int, Int, String)] = []
      for line in lines {
        let (name, value) = Self.split(line)
        switch name {
        case "feed": feedURL = value
        case "etag": validators.etag = value
        case "last-modified": validators.lastModified = value
        case "page":
          let fields = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
          guard fields.count == 3, let stored = Int(fields[0]), stored >= 0,
            let document = Int(fields[1]), document >= 0
          else { return nil }
          pages.append((stored, document, String(fields[2])))
        default: continue  // a later version's extra line: what this one knows still holds
        }
      }
      guard let feedURL else { return nil }
      self.feedURL = feedURL
      self.validators = validators
      self.pages = pages
      self.length = end.upperBound - prefix.startIndex
    }

    /// Where the first blank line ("\n\n") is. A byte loop: `Data.firstRange(of:)` goes
    /// through the generic collection search, which was a seventh of a warm sync's CPU when
    /// every feed's copy is asked for its validators.
    private static func blankLine(in data: Data) -> Range<Data.Index>? {
      data.withUnsafeBytes { bytes -> Range<Data.Index>? in
        guard bytes.count >= 2 else { return nil }
        for offset in 0..<(bytes.count - 1) where bytes[offset] == 10 && bytes[offset + 1] == 10 {
          return (data.startIndex + offset)..<(data.startIndex + offset + 2)
        }
        return nil
      }
    }

    private static func split(_ line: Substring) -> (String, String) {
      guard let space = line.firstIndex(of: " ") else { return (String(line), "") }
      return (String(line[..<space]), String(line[line.index(after: space)...]))
    }
  }
}
