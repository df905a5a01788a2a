import Basics
import Foundation

/// The body of an iTunes `/search` or `/lookup` answer, decoded the way Apple really sends it:
/// blank lines before the JSON, optional fields missing or of an odd type, `resultCount` that
/// disagrees with `results`, and artists, episodes or songs mixed in among the podcasts.
package struct ITunesResponse {
  /// The podcasts in the answer, in Apple's order; everything else is dropped.
  package var podcasts: [SearchResult]

  /// Reasons are short phrases; the caller adds the URL.
  package enum Unreadable: Error, Equatable {
    case empty
    case htmlPage
    case notJSON(String)
    case noResultsArray
  }

  package static func decode(_ body: Data) throws(Unreadable) -> ITunesResponse {
    let text = body.drop { byte in byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
    guard let first = text.first else { throw .empty }
    if first == UInt8(ascii: "<") { throw .htmlPage }
    let envelope: Envelope
    do {
      envelope = try JSONDecoder().decode(Envelope.self, from: Data(text))
    } catch DecodingError.keyNotFound, DecodingError.valueNotFound {
      throw .noResultsArray
    } catch DecodingError.typeMismatch {
      throw .noResultsArray
    } catch {
      throw .notJSON(first == UInt8(ascii: "{") ? "the JSON is cut short or malformed" : "not JSON")
    }
    return ITunesResponse(podcasts: envelope.results.compactMap(\.podcast))
  }

  /// `resultCount` is ignored on purpose: `results` is the truth.
  private struct Envelope: Decodable {
    var results: [Entry]
  }

  /// One element of `results`. Decoding never fails: a field Apple sends in an odd shape is
  /// treated as missing, and an element that is not a podcast yields `nil`.
  private struct Entry: Decodable {
    var podcast: SearchResult?

    private enum Key: String, CodingKey {
      case wrapperType, kind, collectionId, collectionName, trackName, artistName, feedUrl
      case trackCount, primaryGenreName, genres, artworkUrl600, artworkUrl100, artworkUrl60
      case artworkUrl30, collectionViewUrl, trackViewUrl, releaseDate
    }

    init(from decoder: Decoder) {
      guard let fields = try? decoder.container(keyedBy: Key.self),
        Entry.isPodcast(fields),
        let id = try? fields.decode(Int.self, forKey: .collectionId)
      else { return }
      func text(_ key: Key) -> String? {
        guard let value = try? fields.decodeIfPresent(String.self, forKey: key) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
      }
      let releaseDate = text(.releaseDate).flatMap(Entry.date)
      podcast = SearchResult(
        iTunesID: id,
        title: text(.collectionName) ?? text(.trackName),
        author: text(.artistName),
        feedURL: text(.feedUrl).flatMap(Entry.webURL),
        episodeCount: (try? fields.decodeIfPresent(Int.self, forKey: .trackCount)) ?? nil,
        genre: text(.primaryGenreName) ?? Entry.firstSpecificGenre(fields),
        artworkURL: text(.artworkUrl600) ?? text(.artworkUrl100) ?? text(.artworkUrl60)
          ?? text(.artworkUrl30),
        storeURL: text(.collectionViewUrl) ?? text(.trackViewUrl),
        releaseDate: releaseDate,
        // Apple's releaseDate of a show is its newest episode's.
        lastPublished: releaseDate,
        directories: [.apple]
      )
    }

    /// Podcasts come as `wrapperType: track, kind: podcast`; episodes are `podcast-episode`,
    /// artists and music collections have other wrapper types.
    private static func isPodcast(_ fields: KeyedDecodingContainer<Key>) -> Bool {
      let kind = (try? fields.decodeIfPresent(String.self, forKey: .kind)) ?? nil
      let wrapper = (try? fields.decodeIfPresent(String.self, forKey: .wrapperType)) ?? nil
      if let kind { return kind == "podcast" }
      return wrapper == "track" || wrapper == nil
    }

    /// `genres` always includes the umbrella genre "Podcasts", which says nothing.
    private static func firstSpecificGenre(_ fields: KeyedDecodingContainer<Key>) -> String? {
      let genres = (try? fields.decodeIfPresent([String].self, forKey: .genres)) ?? nil
      return genres?.first { $0 != "Podcasts" && !$0.isEmpty }
    }

    /// Only http and https feeds can be fetched; anything else counts as no feed.
    private static func webURL(_ text: String) -> String? {
      let lowered = text.lowercased()
      return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? text : nil
    }

    private static func date(_ text: String) -> Date? {
      if let date = try? Date(text, strategy: .iso8601) { return date }
      return try? Date(
        text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
  }
}
