import Basics
import Foundation

/// Why `download` has nothing to fetch. Each case reads as the one line the user sees.
public enum DownloadEpisodesError: SentenceError, Equatable {
  case noEpisodes(feed: String)
  case noMatch(feed: String)

  public var description: String {
    switch self {
    case .noEpisodes(let feed): return "\(feed): the feed has no episodes to download"
    case .noMatch(let feed): return "\(feed): no episode matches the filters"
    }
  }
}
