import Foundation

/// What a download takes from its feed beyond its row's own columns (URL, titles, feed,
/// episode key): where the file goes, what the feed announced, the tags and the side files.
/// Kept with a queued or interrupted download, so that one started or resumed after a 304
/// (which names nothing) is the download a freshly read feed would have made. URLs only,
/// never image bytes.
///
/// Stored as compact JSON (one-letter keys, absent values left out): sync writes it with the
/// row of every new episode it queues, and the row is rewritten with each progress note.
struct DownloadDetails: Codable, Equatable {
  var relativePath: String
  var mimeType: String?
  var declaredLength: Int64?
  var published: Date?
  var tagging: Tagging?
  var folderCoverURL: String?
  var transcripts: [TranscriptLink]?
  var chaptersURL: String?

  enum CodingKeys: String, CodingKey {
    case relativePath = "p"
    case mimeType = "m"
    case declaredLength = "l"
    case published = "d"
    case tagging = "t"
    case folderCoverURL = "f"
    case transcripts = "s"
    case chaptersURL = "h"
  }

  /// `TagRequest` and its `EpisodeTags`, flattened. The tag's date is the details' own
  /// `published`: every job takes both from the episode's date.
  struct Tagging: Codable, Equatable {
    var title: String?
    var podcast: String?
    var author: String?
    var number: Int?
    var season: Int?
    /// Nil for the usual "Podcast".
    var genre: String?
    var comment: String?
    var coverURLs: [String]?

    enum CodingKeys: String, CodingKey {
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

  struct TranscriptLink: Codable, Equatable {
    var url: String
    var type: String?
    var language: String?

    enum CodingKeys: String, CodingKey {
      case url = "u"
      case type = "y"
      case language = "g"
    }
  }

  init(of job: DownloadJob) {
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
  }

  /// `job` (rebuilt from a row and what the library knows of the episode) with these details.
  func applied(to job: DownloadJob) -> DownloadJob {
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
    return job
  }

  /// The column's text; nil only if encoding failed, which leaves the row as it was before
  /// details existed (the download still runs, with what the library knows).
  /// Keys sorted: the same details always make the same text.
  var encoded: String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let data = try? encoder.encode(self) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Nil for a column this build cannot read (written by a newer one, or damaged): such a
  /// download goes on with what the library knows, as one queued before details were kept.
  init?(encoded text: String) {
    guard let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }
}

extension DownloadDetails.Tagging {
  init(_ request: TagRequest) {
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

  func request(published: Date?) -> TagRequest {
    var tags = EpisodeTags(
      title: title, podcast: podcast, author: author, published: published, number: number,
      season: season, comment: comment)
    if let genre { tags.genre = genre }
    return TagRequest(tags: tags, coverURLs: coverURLs ?? [])
  }
}
