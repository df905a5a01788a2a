import Basics
import Feeds
import Foundation
import Model
import SideFiles
import Tags

/// What a download takes from its feed beyond its row's own columns (URL, titles, feed,
/// episode key): where the file goes, what the feed announced, the tags and the side files.
/// Kept with a queued or interrupted download, so that one started or resumed after a 304
/// (which names nothing) is the download a freshly read feed would have made. URLs only,
/// never image bytes.
///
/// Stored as compact JSON (one-letter keys, absent values left out): sync writes it with the
/// row of every new episode it queues, and the row is rewritten with each progress note.
package struct DownloadDetails: Codable, Equatable {
  package var relativePath: String
  package var mimeType: String?
  package var declaredLength: Int64?
  package var published: Date?
  package var tagging: Tagging?
  package var folderCoverURL: String?
  package var transcripts: [TranscriptLink]?
  package var chaptersURL: String?
  /// Everything the feed said for `<episode>.info.json`, kept only for a job that writes one
  /// (`--info-json`): a first sync after `subscribe` gets a 304 and must write the same file.
  package var info: Info?

  package enum CodingKeys: String, CodingKey {
    case relativePath = "p"
    case mimeType = "m"
    case declaredLength = "l"
    case published = "d"
    case tagging = "t"
    case folderCoverURL = "f"
    case transcripts = "s"
    case chaptersURL = "h"
    case info = "i"
  }

  /// `TagRequest` and its `EpisodeTags`, flattened. The tag's date is the details' own
  /// `published`: every job takes both from the episode's date.
  package struct Tagging: Codable, Equatable {
    package var title: String?
    package var podcast: String?
    package var author: String?
    package var number: Int?
    package var season: Int?
    /// Nil for the usual "Podcast".
    package var genre: String?
    package var comment: String?
    package var coverURLs: [String]?

    package enum CodingKeys: String, CodingKey {
      case title = "t"
      case podcast = "a"
      case author = "r"
      case number = "n"
      case season = "s"
      case genre = "g"
      case comment = "c"
      case coverURLs = "u"
    }
  }

  package struct TranscriptLink: Codable, Equatable {
    package var url: String
    package var type: String?
    package var language: String?

    package enum CodingKeys: String, CodingKey {
      case url = "u"
      case type = "y"
      case language = "g"
    }
  }

  /// `EpisodeInfo`, as codable values. The show notes are most of it.
  package struct Info: Codable, Equatable {
    package var guid: String?
    package var title: String?
    package var published: Date?
    package var duration: Int?
    package var enclosure: Enclosure
    package var link: String?
    package var description: String?
    package var season: Int?
    package var number: Int?
    package var episodeType: String?
    package var explicit: Bool?
    package var imageURL: String?
    package var transcripts: [TranscriptLink]?
    package var chaptersURL: String?
    package var chaptersType: String?
    package var podcast: Podcast

    package enum CodingKeys: String, CodingKey {
      case guid = "g"
      case title = "t"
      case published = "d"
      case duration = "l"
      case enclosure = "e"
      case link = "k"
      case description = "n"
      case season = "s"
      case number = "u"
      case episodeType = "y"
      case explicit = "x"
      case imageURL = "m"
      case transcripts = "r"
      case chaptersURL = "h"
      case chaptersType = "c"
      case podcast = "p"
    }

    package init(_ info: EpisodeInfo) {
      let episode = info.episode
      guid = episode.guid
      title = episode.title
      published = episode.published
      duration = episode.duration
      enclosure = episode.enclosure
      link = episode.link
      description = episode.description
      season = episode.season
      number = episode.number
      episodeType = episode.episodeType
      explicit = episode.explicit
      imageURL = episode.imageURL
      transcripts =
        episode.transcripts.isEmpty
        ? nil
        : episode.transcripts.map {
          TranscriptLink(url: $0.url, type: $0.type, language: $0.language)
        }
      chaptersURL = episode.chapters?.url
      chaptersType = episode.chapters?.type
      podcast = info.podcast
    }

    package var episodeInfo: EpisodeInfo {
      let episode = Episode(
        guid: guid, title: title, published: published, duration: duration, enclosure: enclosure,
        link: link, description: description, season: season, number: number,
        episodeType: episodeType, explicit: explicit, imageURL: imageURL,
        transcripts: (transcripts ?? []).map {
          Transcript(url: $0.url, type: $0.type, language: $0.language)
        },
        chapters: chaptersURL.map { Chapters(url: $0, type: chaptersType) })
      return EpisodeInfo(episode: episode, podcast: podcast)
    }
  }

  package init(of job: DownloadJob) {
    relativePath = job.relativePath
    mimeType = job.mimeType
    declaredLength = job.declaredLength
    published = job.published
    tagging = job.tagging.map(Tagging.init)
    folderCoverURL = job.folderCoverURL
    transcripts =
      job.transcripts.isEmpty
      ? nil
      : job.transcripts.map { TranscriptLink(url: $0.url, type: $0.type, language: $0.language) }
    chaptersURL = job.chaptersURL
    info = job.info.map(Info.init)
  }

  /// `job` (rebuilt from a row and what the library knows of the episode) with these details.
  package func applied(to job: DownloadJob) -> DownloadJob {
    var job = job
    job.relativePath = relativePath
    job.mimeType = mimeType
    job.declaredLength = declaredLength
    job.published = published ?? job.published
    job.tagging = tagging?.request(published: published)
    job.folderCoverURL = folderCoverURL
    job.transcripts = (transcripts ?? []).map {
      Transcript(url: $0.url, type: $0.type, language: $0.language)
    }
    job.chaptersURL = chaptersURL
    job.info = info?.episodeInfo
    return job
  }

  /// The column's text; nil only if encoding failed, which leaves the row as it was before
  /// details existed (the download still runs, with what the library knows).
  /// Keys sorted: the same details always make the same text.
  package var encoded: String? {
    if let directText { return directText }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let data = try? encoder.encode(self) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Nil for a column this build cannot read (written by a newer one, or damaged): such a
  /// download goes on with what the library knows, as one queued before details were kept.
  package init?(encoded text: String) {
    guard let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }
}

extension DownloadDetails.Tagging {
  package init(_ request: TagRequest) {
    let tags = request.tags
    title = tags.title
    podcast = tags.podcast
    author = tags.author
    number = tags.number
    season = tags.season
    genre = tags.genre == EpisodeTags().genre ? nil : tags.genre
    comment = tags.comment
    coverURLs = request.coverURLs.isEmpty ? nil : request.coverURLs
  }

  package func request(published: Date?) -> TagRequest {
    var tags = EpisodeTags(
      title: title, podcast: podcast, author: author, published: published, number: number,
      season: season, comment: comment)
    if let genre { tags.genre = genre }
    return TagRequest(tags: tags, coverURLs: coverURLs ?? [])
  }
}

extension DownloadDetails {
  /// What the details say of the episode, for the folder's feed: less than the feed said (no
  /// duration, flags or HTML show notes), for a download queued before that feed was asked
  /// for and started after a 304.
  package func archive(guid: String?) -> ArchivedEpisode {
    ArchivedEpisode(
      guid: guid, title: tagging?.title, published: published, showNotes: tagging?.comment,
      season: tagging?.season, number: tagging?.number, mimeType: mimeType,
      podcast: ArchivedEpisode.Channel(title: tagging?.podcast, author: tagging?.author))
  }
}

extension DownloadDetails {
  /// What the details say of the episode, for its `<episode>.info.json` when the feed no
  /// longer lists it: the enclosure's type and size, the date, numbers, the show notes as
  /// the tag's plain text, the transcripts and chapters kept; the rest (duration, link,
  /// flags, pictures) is unknown, so null. `episode` has what the library's own row knows.
  package func info(of episode: Episode, podcast: Podcast) -> EpisodeInfo {
    var episode = episode
    episode.enclosure.type = mimeType ?? episode.enclosure.type
    episode.enclosure.length = declaredLength ?? episode.enclosure.length
    episode.published = published ?? episode.published
    episode.season = tagging?.season ?? episode.season
    episode.number = tagging?.number ?? episode.number
    if episode.showNotes == nil, let comment = tagging?.comment { episode.description = comment }
    if let transcripts, episode.transcripts.isEmpty {
      episode.transcripts = transcripts.map {
        Transcript(url: $0.url, type: $0.type, language: $0.language)
      }
    }
    if episode.chapters == nil, let chaptersURL { episode.chapters = Chapters(url: chaptersURL) }
    var podcast = podcast
    if podcast.author == nil { podcast.author = tagging?.author }
    if podcast.title == nil { podcast.title = tagging?.podcast }
    return EpisodeInfo(episode: episode, podcast: podcast)
  }
}
