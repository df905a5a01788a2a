import Feeds
import Model

extension ArchivedEpisode {
  /// What a folder's own feed keeps of `episode` of `podcast`: never a URL of the
  /// publisher's (a private feed's links carry its secret).
  public init(podcast: Podcast, episode: Episode) {
    self.init(
      guid: episode.guid, title: episode.title, published: episode.published,
      showNotes: episode.description, duration: episode.duration, season: episode.season,
      number: episode.number, episodeType: episode.episodeType, explicit: episode.explicit,
      mimeType: episode.enclosure.type,
      podcast: Channel(
        title: podcast.title, author: podcast.author, description: podcast.description,
        language: podcast.language))
  }
}
