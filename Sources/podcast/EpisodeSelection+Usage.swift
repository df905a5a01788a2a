import ArgumentParser
import PodcastKit

/// A selection as the command line gives it (`download`, `mark`): words that do not parse are
/// a usage error with the command's own usage.
extension EpisodeSelection {
  init(usage words: [String]) throws {
    do {
      self = try EpisodeSelection(parsing: words)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }
}
