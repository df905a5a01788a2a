import Basics

/// The XML vocabularies a podcast feed mixes, recognised by namespace URI. Prefixes are only
/// a fallback for feeds that use `itunes:` and friends without declaring them.
package enum FeedNamespace: Equatable {
  /// No namespace, or the RSS 0.90 / RSS 1.0 (RDF) ones: plain RSS element names.
  case rss
  case atom
  case itunes
  case content
  case media
  case podcast
  case dublinCore
  case other

  package init(uri: String) {
    let lower = uri.lowercased()
    let bare =
      lower.hasPrefix("https://")
      ? String(lower.dropFirst(8))
      : lower.hasPrefix("http://") ? String(lower.dropFirst(7)) : lower
    switch bare {
    case "my.netscape.com/rdf/simple/0.9/", "purl.org/rss/1.0/", "backend.userland.com/rss2":
      self = .rss
    case "www.w3.org/2005/atom", "purl.org/atom/ns#": self = .atom
    case "purl.org/rss/1.0/modules/content/": self = .content
    case "search.yahoo.com/mrss/", "search.yahoo.com/mrss": self = .media
    case "purl.org/dc/elements/1.1/": self = .dublinCore
    case "podcastindex.org/namespace/1.0",
      "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
      self = .podcast
    default:
      // Apple's URI is written in many cases and with stray suffixes; all mean iTunes.
      self =
        bare.hasPrefix("www.itunes.com/dtds/podcast") || bare.hasPrefix("itunes.com/dtds/podcast")
        ? .itunes : .other
    }
  }

  /// For an element whose prefix was never declared.
  package init(undeclaredPrefix prefix: String) {
    switch prefix.lowercased() {
    case "itunes": self = .itunes
    case "content": self = .content
    case "media": self = .media
    case "podcast": self = .podcast
    case "atom": self = .atom
    case "dc": self = .dublinCore
    default: self = .other
    }
  }
}
