import ArgumentParser
import PodcastKit

/// A selection as the command line gives it (`download`, `mark`): words that do not parse, or
/// name an episode the feed does not have, are a usage error with the command's own usage.
extension EpisodeSelection {
  init(usage words: [String]) throws {
    do {
      self = try EpisodeSelection(parsing: words)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  static func checked(_ words: [String], episodeCount: Int) throws -> EpisodeSelection {
    let selection = try EpisodeSelection(usage: words)
    do {
      try selection.validate(episodeCount: episodeCount)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
    return selection
  }
}
