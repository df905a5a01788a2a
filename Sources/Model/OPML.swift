import Basics
import Feeds
import Foundation

/// One feed listed in an OPML file.
public struct OPMLEntry: Sendable, Equatable {
  public var title: String?
  public var feedURL: String
  /// The subscription's name, retention and settings, from our own export (`podcast:name`,
  /// `podcast:keep`, `podcast:match`...; older exports said `podcastName`, `podcastKeep`), so
  /// an export imports into the same list; other apps' files leave them empty.
  public var name: String?
  public var keep: Int?
  public var settings: SubscriptionSettings

  public init(
    title: String?, feedURL: String, name: String? = nil, keep: Int? = nil,
    settings: SubscriptionSettings = SubscriptionSettings()
  ) {
    self.title = title
    self.feedURL = feedURL
    self.name = name
    self.keep = keep
    self.settings = settings
  }
}

/// Subscription lists in OPML, the format every podcast app imports and exports.
public enum OPML {
  /// The feeds of an OPML 1.0/2.0 file, in document order, each URL once. Outlines may nest
  /// at any depth (apps group feeds in folders); attribute names are matched in any case
  /// because exporters disagree (`xmlUrl`, `xmlurl`, `XMLURL`).
  public static func parse(_ data: Data) throws -> [OPMLEntry] {
    let document = try OPMLReader.read(data)
    guard document.rootElement.lowercased() == "opml" else {
      throw OPMLError.notOPML(rootElement: document.rootElement)
    }
    var seen: Set<String> = []
    var entries: [OPMLEntry] = []
    for outline in document.outlines {
      guard let entry = entry(from: outline), seen.insert(entry.feedURL).inserted else { continue }
      entries.append(entry)
    }
    if entries.isEmpty { throw OPMLError.noFeeds }
    return entries
  }

  /// An OPML 2.0 document listing the subscriptions, as other apps import it.
  public static func export(
    _ subscriptions: [Subscription], settings: [Int64: SubscriptionSettings] = [:],
    created: Date = Date()
  ) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<opml version="2.0" xmlns:podcast="\#(OPMLSettings.namespace)">"#,
      "  <head>",
      "    <title>podcast subscriptions</title>",
      "    <dateCreated>\(XMLText.rfc822(created))</dateCreated>",
      "  </head>",
      "  <body>",
    ]
    for subscription in subscriptions {
      let text = XMLText.escaped(subscription.title ?? subscription.name)
      // OPML 2.0 lets outlines carry attributes in other namespaces; other apps ignore them.
      let own = OPMLSettings.attributes(
        name: subscription.name, keep: subscription.keep,
        settings: settings[subscription.id] ?? SubscriptionSettings()
      ).map { #" \#($0.0)="\#(XMLText.escaped($0.1))""# }.joined()
      lines.append(
        #"    <outline type="rss" text="\#(text)" title="\#(text)" xmlUrl="\#(XMLText.escaped(subscription.feedURL))"\#(own)/>"#
      )
    }
    lines += ["  </body>", "</opml>", ""]
    return lines.joined(separator: "\n")
  }

  private static func entry(from attributes: [String: String]) -> OPMLEntry? {
    let lowered = Dictionary(
      attributes.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    guard let url = lowered["xmlurl"]?.trimmingCharacters(in: .whitespacesAndNewlines),
      let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else { return nil }
    let title = [lowered["title"], lowered["text"]]
      .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
      .first { !$0.isEmpty }
    let name = (lowered["name"] ?? lowered["podcastname"])?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return OPMLEntry(
      title: title, feedURL: url,
      // All digits would read as a subscription number, so such a name is not taken.
      name: name.flatMap { $0.isEmpty || $0.allSatisfy(\.isNumber) ? nil : $0 },
      keep: (lowered["keep"] ?? lowered["podcastkeep"]).flatMap { Int($0) }
        .flatMap { $0 > 0 ? $0 : nil },
      settings: OPMLSettings.settings(from: lowered))
  }
}
