import Feeds
import Foundation
import Model
import SideFiles
import Tags

extension DownloadJob {
  /// The download of `episode` as `podcast`'s feed at `feedURL` lists it, `index` being its
  /// place there (1 is the newest): the one place a job is made from a feed's episode, for
  /// `download`, sync and `subscribe`. `identityKeys`: the episode's own key first (see
  /// `EpisodeIdentity`); `archive` and `info` keep what the feed says of the episode for the
  /// folder's `feed.xml` and for `<episode>.info.json`.
  public init(
    episode: Episode, podcast: Podcast, index: Int, namer: FileNamer, feedURL: String?,
    identityKeys: [String], subscriptionEpisode: SubscriptionEpisode? = nil,
    archive: Bool = false, info: Bool = false
  ) {
    self.init(
      url: episode.enclosure.url, title: episode.title, podcastTitle: podcast.title,
      relativePath: namer.relativePath(for: episode, podcast: podcast, index: index),
      mimeType: episode.enclosure.type, declaredLength: episode.enclosure.length,
      feedURL: feedURL, identityKeys: identityKeys, subscriptionEpisode: subscriptionEpisode,
      tagging: TagRequest(podcast: podcast, episode: episode), folderCoverURL: podcast.imageURL,
      transcripts: episode.transcripts, chaptersURL: episode.chapters?.url,
      published: episode.published,
      archive: archive ? ArchivedEpisode(podcast: podcast, episode: episode) : nil,
      info: info ? EpisodeInfo(episode: episode, podcast: podcast) : nil)
    show = ShowIdentity.key(podcast)
  }
}
