import Basics
import Feeds
import Foundation

/// When two feeds are one show (a mirror, the host's second address, a feed moved without a
/// redirect): the same `podcast:guid`, else the same title and link. An episode one of them
/// downloaded is then the other's too, where their GUIDs agree. Nil when a feed says too
/// little to tell (no `podcast:guid`, and no title or no link): its episodes are matched
/// within it only, as another show's GUID "1" is not this one's.
public enum ShowIdentity {
  public static func key(_ podcast: Podcast) -> String? {
    if let guid = podcast.podcastGUID?.trimmingWhitespace.lowercased(), !guid.isEmpty {
      return "guid:" + guid
    }
    let title = (podcast.title ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
      .lowercased()
    guard !title.isEmpty, let link = podcast.link?.trimmingWhitespace, !link.isEmpty else {
      return nil
    }
    return "show:" + title + "\n" + FeedIdentity.key(link)
  }
}
