import Basics
import Foundation

/// Turns the element and text events of a feed document into a `Podcast` and its episodes.
/// Knows RSS 2.0/0.9x, RSS 1.0 (RDF), Atom 1.0, iTunes, content, Media RSS, Dublin Core and
/// Podcasting 2.0 elements; ignores everything else. Text is collected only for elements it
/// keeps, so a 90 MB feed costs little more than its episodes.
package final class FeedBuilder {
  /// Longest text kept for one element: a safety cap, far above any real show notes.
  package static let textLimit = 8 << 20

  package private(set) var rootElement: String?
  package private(set) var sawChannel = false
  package private(set) var podcast: Podcast
  package private(set) var episodes: [Episode] = []
  package private(set) var pageLinks = FeedPageLinks()

  /// The document's size and how much of it libxml2 has been given, when the size is known:
  /// they size the episode array (see `reserveForExpectedEpisodes`).
  package var documentBytes: Int?
  package var bytesFed = 0

  private let baseURL: String?
  private var depth = 0
  /// A root `<feed>` without the Atom namespace: its plain elements are read as Atom.
  private var isBareAtom = false
  private var channelDepth: Int?
  // The open item and the xml:base stack are touched by every element event; like `capture`
  // and `text` below, only this class's methods touch them, on the one thread that parses,
  // and none of those methods calls back into the builder while it holds one of them, so the
  // run-time exclusivity checks (a call into the runtime per access) can go.
  @exclusivity(unchecked) private var item: ItemDraft?
  private var itemDepth = 0
  private var imageDepth: Int?
  private var groupDepth: Int?
  private var authorDepth: Int?
  @exclusivity(unchecked) private var bases: [(depth: Int, url: String)] = []
  // The two properties libxml2's text callback touches, thousands of times per item, where
  // run-time exclusivity checks would cost a visible part of a listing. Only this class's own
  // methods, on the one thread that parses, ever access them.
  @exclusivity(unchecked) private var capture: TextField?
  private var captureDepth = 0
  @exclusivity(unchecked) private var text = ByteBuffer(capacity: 1 << 12)
  /// The open item's `<description>` as raw bytes. Real feeds put it before
  /// `<content:encoded>`, which wins, so it becomes a string only if the item ends without one.
  private var pendingDescription = ByteBuffer(capacity: 1 << 12)
  /// Episode image URLs seen so far: feeds give every episode the show's artwork or one of a
  /// few, and sharing one string per URL saves an allocation per episode.
  private var imageURLs: Set<String> = []
  /// Show notes kept in memory so far; past `inlineNotesLimit` the rest go to `spool`.
  private var inlineNotesBytes = 0
  private var spool: ShowNotesSpool?
  private var spoolFailed = false
  /// A feed with more show notes than this is a large archive: the rest wait on disk.
  package static let inlineNotesLimit = 8 << 20

  package init(baseURL: String?) {
    self.baseURL = baseURL
    self.podcast = Podcast(feedURL: baseURL)
  }

  /// Whether character data should be handed over at all (cheap check for the hot path).
  package var isCapturing: Bool { capture != nil }

  /// `element` is what `FeedElement(ns, name)` says, worked out once per name by the caller.
  package func start(
    _ ns: FeedNamespace, _ name: String, _ element: FeedElement, attributes: XMLAttributes
  ) {
    depth += 1
    let isReadAsAtom = isBareAtom && ns == .rss
    let ns = isReadAsAtom ? FeedNamespace.atom : ns
    let element = isReadAsAtom ? FeedElement(ns, name) : element
    if let base = attributes.xmlBase {
      let resolved = FeedURL.resolve(base, against: currentBase) ?? base
      // Only a feed read from a file may point its links at files: an `xml:base="file:…"`
      // in a feed from the web would turn every relative link below it into a local path.
      if FeedURL.hasWebScheme(resolved) || isLocalFeed {
        bases.append((depth, resolved))
      }
    }
    if depth == 1 {
      rootElement = name
      if ns == .rss && name == "feed" { isBareAtom = true }
      if (ns == .atom || isBareAtom) && name == "feed" { openChannel() }
      return
    }
    let startsItem = element == .item || element == .entry
    let isEnclosure = element == .enclosure
    // Markup inside kept text only contributes its text, except for what libxml2's recovery
    // nests there after a stray tag (`<title>a <b>b</title>` swallows the rest of the item
    // and the next ones): an enclosure still belongs to its item, a new item still starts.
    if capture != nil && !(startsItem || isEnclosure) { return }
    if startsItem {
      if capture != nil { finishCapture() }
      if item != nil { closeItem() }
      item = ItemDraft()
      itemDepth = depth
    } else if item != nil {
      itemChild(element, attributes)
    } else if channelDepth == nil, element == .channel {
      openChannel()
    } else if let channelDepth {
      channelChild(ns, name, attributes, directChild: depth == channelDepth + 1)
    }
  }

  package func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard capture != nil, text.count + bytes.count <= Self.textLimit else { return }
    text.append(bytes)
  }

  package func end() {
    if capture != nil, depth == captureDepth { finishCapture() }
    if item != nil && depth == itemDepth { closeItem() }
    if depth == imageDepth { imageDepth = nil }
    if depth == groupDepth { groupDepth = nil }
    if depth == authorDepth { authorDepth = nil }
    if depth == channelDepth, depth > 1 { channelDepth = nil }
    if bases.last?.depth == depth { bases.removeLast() }
    depth -= 1
  }

  /// Keeps what a document cut short had already said: the open item counts if it is complete
  /// enough to download.
  package func finishTruncated() {
    if item != nil { closeItem() }
  }

  // MARK: - Channel

  private func openChannel() {
    channelDepth = depth
    sawChannel = true
  }

  private func channelChild(
    _ ns: FeedNamespace, _ name: String, _ attributes: XMLAttributes, directChild: Bool
  ) {
    if !directChild {
      if depth == (imageDepth ?? -2) + 1, ns == .rss, name == "url" { begin(.channelRSSImage) }
      if depth == (authorDepth ?? -2) + 1, ns == .atom, name == "name" { begin(.channelAuthorName) }
      return
    }
    switch (ns, name) {
    case (.rss, "title"), (.atom, "title"): begin(.channelTitle)
    case (.dublinCore, "title"): if podcast.title == nil { begin(.channelTitle) }
    case (.rss, "link"): begin(.channelLink)
    case (.atom, "link"):
      let rel = attributes.value("rel") ?? "alternate"
      guard let href = attributes.value("href") else { break }
      switch rel.lowercased() {
      case "alternate": podcast.link = resolved(href)
      // RFC 5005 paging; the first of each wins, as a reader following the chain would see.
      case "first": if pageLinks.first == nil { pageLinks.first = resolved(href) }
      case "next": if pageLinks.next == nil { pageLinks.next = resolved(href) }
      case "prev", "previous":
        if pageLinks.previous == nil { pageLinks.previous = resolved(href) }
      case "last": if pageLinks.last == nil { pageLinks.last = resolved(href) }
      default: break
      }
    case (.rss, "description"), (.atom, "subtitle"): begin(.channelDescription)
    case (.itunes, "summary"): begin(.channelSummary)
    case (.rss, "language"): begin(.channelLanguage)
    case (.itunes, "author"): begin(.channelAuthor)
    case (.atom, "author"): authorDepth = depth
    case (.rss, "image"): imageDepth = depth
    case (.atom, "logo"), (.atom, "icon"): begin(.channelRSSImage)
    case (.itunes, "image"):
      // Apple documents `href`; some feeds write `url`.
      if let href = attributes.value("href") ?? attributes.value("url") {
        podcast.imageURL = resolved(href)
      }
    case (.itunes, "link"):
      // The old iTunes way to name artwork: `<itunes:link rel="image" href=…>`.
      if podcast.imageURL == nil, attributes.value("rel") == "image",
        let href = attributes.value("href")
      {
        podcast.imageURL = resolved(href)
      }
    case (.itunes, "new-feed-url"): begin(.channelNewFeedURL)
    case (.podcast, "guid"): begin(.channelPodcastGUID)
    default: break
    }
  }

  // MARK: - Items

  private func itemChild(_ element: FeedElement, _ attributes: XMLAttributes) {
    if depth == (groupDepth ?? -2) + 1, element == .mediaContent {
      addMediaContent(attributes)
      return
    }
    if element == .enclosure {  // at any depth: see `start`
      addEnclosure(attributes)
      return
    }
    guard depth == itemDepth + 1 else { return }
    switch element {
    case .title: begin(.title)
    case .dublinCoreTitle: begin(.fallbackTitle)
    case .rssGUID:
      // RSS 2.0: a guid is a permalink unless it says otherwise.
      item?.guidIsPermaLink = attributes.value("isPermaLink")?.lowercased() != "false"
      begin(.guid)
    case .atomID: begin(.guid)
    case .pubDate: begin(.pubDate)
    case .atomPublished: begin(.publishedDate)
    case .dublinCoreDate: begin(.dublinCoreDate)
    case .atomUpdated: begin(.updatedDate)
    case .rssLink: begin(.link)
    case .atomLink: atomLink(attributes)
    case .contentEncoded: begin(.contentEncoded)
    case .description:
      if item?.contentEncoded == nil { begin(.description) }
    case .itunesSummary:
      if item?.contentEncoded == nil && pendingDescription.isEmpty { begin(.summary) }
    case .duration: begin(.duration)
    case .season: begin(.season)
    case .episodeNumber: begin(.episodeNumber)
    case .episodeType: begin(.episodeType)
    case .explicit: begin(.explicit)
    case .itunesImage:
      if let href = attributes.value("href") ?? attributes.value("url") {
        item?.imageURL = sharedImageURL(resolved(href))
      }
    case .mediaContent: addMediaContent(attributes)
    case .mediaGroup: groupDepth = depth
    case .transcript:
      guard let url = attributes.value("url").flatMap(resolved) else { break }
      item?.transcripts.append(
        Transcript(url: url, type: attributes.value("type"), language: attributes.value("language"))
      )
    case .chapters:
      guard let url = attributes.value("url").flatMap(resolved) else { break }
      item?.chapters = Chapters(url: url, type: attributes.value("type"))
    case .other, .item, .entry, .channel, .enclosure: break
    }
  }

  private func atomLink(_ attributes: XMLAttributes) {
    switch attributes.value("rel") ?? "alternate" {
    case "enclosure":
      guard let file = mediaFile(attributes, url: "href", length: "length") else { return }
      item?.enclosures.append(file)
    case "alternate":
      if item?.link == nil { item?.link = attributes.value("href").flatMap(resolved) }
    default: break
    }
  }

  private func addEnclosure(_ attributes: XMLAttributes) {
    guard let file = mediaFile(attributes, url: "url", length: "length") else { return }
    item?.enclosures.append(file)
  }

  private func addMediaContent(_ attributes: XMLAttributes) {
    guard var file = mediaFile(attributes, url: "url", length: "fileSize") else { return }
    file.medium = attributes.value("medium")
    file.isMediaContent = true
    item?.mediaContents.append(file)
  }

  private func mediaFile(_ attributes: XMLAttributes, url: StaticString, length: StaticString)
    -> ItemDraft.MediaFile?
  {
    guard let written = attributes.value(url), let absolute = resolved(written) else { return nil }
    return ItemDraft.MediaFile(
      url: absolute, length: attributes.value(length), type: attributes.value("type"),
      isRelativeToFile: FeedURL.isFileURL(absolute) && FeedURL.isRelative(written))
  }

  /// Only called with an item open.
  private func closeItem() {
    // Moved out of `item`, not copied: copying and destroying the draft of every item was
    // a tenth of what closing one cost.
    guard var draft = item.take() else { return }
    if !pendingDescription.isEmpty {
      if draft.contentEncoded == nil {
        draft.descriptionText = pendingDescription.withUnsafeBufferPointer {
          showNotes(FeedText.trimmed($0))
        }
      }
      pendingDescription.removeAll()
    }
    if let episode = draft.episode() {
      if episodes.count == episodes.capacity { reserveForExpectedEpisodes() }
      episodes.append(consume episode)
    }
  }

  /// Sizes the episode array from the share of the document read so far. Left to itself the
  /// array doubles, ending with up to twice the 240 bytes per episode it needs (8 MB instead
  /// of 5 on a 20,000-episode feed). A short estimate costs nothing: appending grows it again.
  private func reserveForExpectedEpisodes() {
    guard let documentBytes, bytesFed > 0, episodes.count >= 16 else { return }
    let expected = Double(episodes.count) * Double(documentBytes) / Double(bytesFed)
    let capacity = max(Int(expected * 1.05), episodes.count + episodes.count / 8)
    episodes.reserveCapacity(capacity)
  }

  private func sharedImageURL(_ url: String?) -> String? {
    guard let url else { return nil }
    if let known = imageURLs.firstIndex(of: url) { return imageURLs[known] }
    if imageURLs.count < 256 { imageURLs.insert(url) }
    return url
  }

  // MARK: - Text

  private enum TextField {
    case channelTitle, channelLink, channelDescription, channelSummary, channelLanguage
    case channelAuthor, channelAuthorName, channelRSSImage, channelNewFeedURL, channelPodcastGUID
    case title, fallbackTitle, guid, pubDate, publishedDate, dublinCoreDate, updatedDate
    case link, contentEncoded, description, summary
    case duration, season, episodeNumber, episodeType, explicit
  }

  private func finishCapture() {
    guard let field = capture else { return }
    capture = nil
    if field == .description {
      if !text.withUnsafeBufferPointer(FeedText.isBlank) {
        text.swapContents(with: &pendingDescription)
      }
      text.removeAll()
      return
    }
    if field == .contentEncoded {
      let notes = text.withUnsafeBufferPointer { bytes -> ShowNotes? in
        let trimmed = FeedText.trimmed(bytes)
        return trimmed.isEmpty ? nil : showNotes(trimmed)
      }
      text.removeAll()
      if let notes { item?.contentEncoded = notes }
      return
    }
    let value = text.withUnsafeBufferPointer { FeedText.trimmedString($0) }
    text.removeAll()
    store(field, value)
  }

  /// In memory while the feed is small, else in the spool file (when one can be made).
  /// Spooled notes go from the capture buffer straight to the spool's: an array of each
  /// first was 45 MB more copying and 16,000 allocations on a 20,000-episode feed.
  private func showNotes(_ bytes: UnsafeBufferPointer<UInt8>) -> ShowNotes {
    if inlineNotesBytes + bytes.count > Self.inlineNotesLimit && !spoolFailed {
      if spool == nil { spool = ShowNotesSpool() }
      if let spool, let range = spool.append(bytes) {
        return ShowNotes(spool: spool, range: range)
      }
      spoolFailed = true  // no temporary file, or a full disk: memory it is
    }
    inlineNotesBytes += bytes.count
    return ShowNotes(bytes: Array(bytes))
  }

  private func begin(_ field: TextField) {
    capture = field
    captureDepth = depth
  }

  private func store(_ field: TextField, _ value: String) {
    guard !value.isEmpty else { return }
    switch field {
    case .channelTitle: podcast.title = value
    case .channelLink: podcast.link = resolved(value)
    case .channelDescription: podcast.description = value
    case .channelSummary: if podcast.description == nil { podcast.description = value }
    case .channelLanguage: podcast.language = value
    case .channelAuthor: podcast.author = value
    case .channelAuthorName: if podcast.author == nil { podcast.author = value }
    case .channelRSSImage: if podcast.imageURL == nil { podcast.imageURL = resolved(value) }
    case .channelNewFeedURL: podcast.newFeedURL = resolved(value)
    case .channelPodcastGUID: podcast.podcastGUID = value
    case .title: item?.title = value
    case .guid:
      item?.guid = value
      // A web address, or a path resolved like any other link ("episode/1/" against the
      // xml:base or the feed URL). Not an opaque id ("ep-42", a UUID): most guids that are
      // permalinks by default are those, and resolved they make bogus links. The guid itself
      // stays as written: it is the episode's identity.
      if item?.guidIsPermaLink == true {
        if FeedURL.hasWebScheme(value) {
          item?.permaLink = value
        } else if value.contains("/"), FeedURL.isRelative(value) {
          // Relative only: an id with a scheme of its own ("tag:example.com,2005:/ep/1") is
          // not a link, however many slashes it has.
          item?.permaLink = resolved(value)
        }
      }
    case .pubDate: item?.pubDate = value
    case .fallbackTitle: item?.fallbackTitle = value
    case .publishedDate: item?.fallbackDates.append((.published, value))
    case .dublinCoreDate: item?.fallbackDates.append((.dublinCore, value))
    case .updatedDate: item?.fallbackDates.append((.updated, value))
    case .link: item?.link = resolved(value)
    case .contentEncoded: break  // kept as bytes by `finishCapture`
    case .description: break  // kept as bytes by `finishCapture`
    case .summary: item?.summary = value
    case .duration: item?.duration = value
    case .season: item?.season = value
    case .episodeNumber: item?.episodeNumber = value
    case .episodeType: item?.episodeType = value
    case .explicit: item?.explicit = value
    }
  }

  // MARK: - URLs

  private var currentBase: String? { bases.last?.url ?? baseURL }
  private var isLocalFeed: Bool { baseURL.map(FeedURL.isFileURL) == true }

  private func resolved(_ url: String) -> String? {
    FeedURL.resolve(url, against: currentBase)
  }
}
