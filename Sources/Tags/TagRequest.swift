import Basics
import Feeds

/// What a download should write into its episode file, decided when the job is made (from the
/// feed), so the download manager needs no feed of its own. A job without one is left exactly
/// as served (`--no-tags`, or a subscription with tags turned off).
public struct TagRequest: Sendable, Hashable {
  public var tags: EpisodeTags
  /// Images to try as the front cover, best first: the episode's own, then the podcast's.
  /// The first one that downloads as a JPEG or PNG is used; none at all only skips the cover.
  public var coverURLs: [String]

  public init(tags: EpisodeTags, coverURLs: [String] = []) {
    self.tags = tags
    self.coverURLs = coverURLs
  }

  /// The tags for `episode` of `podcast`, its image (else the podcast's) as the cover.
  public init(podcast: Podcast, episode: Episode) {
    var urls: [String] = []
    for url in [episode.imageURL, podcast.imageURL].compactMap({ $0 }) where !urls.contains(url) {
      urls.append(url)
    }
    self.init(tags: EpisodeTags(podcast: podcast, episode: episode), coverURLs: urls)
  }
}
