import ArgumentParser
import Foundation
import PodcastKit

/// The episode filters, the same on `episodes`, `download`, `subscribe`, `set` and `sync`.
struct FilterOptions: ParsableArguments {
  @Option(help: "Only episodes whose title matches this regular expression (case-insensitive).")
  var match: String?

  @Option(help: "Leave out episodes whose title matches this regular expression.")
  var exclude: String?

  @Option(help: "Where --match and --exclude look: title, description or title,description.")
  var matchIn: String?

  @Option(help: "Only episodes published on or after this date (2024-05-01) or age (30d, 2w).")
  var since: String?

  @Option(help: "Only episodes published before the end of this date, or older than an age.")
  var until: String?

  @Option(help: "Only episodes at least this long (10m, 1h30m).")
  var minDuration: String?

  @Option(help: "Only episodes at most this long (10m, 1h30m).")
  var maxDuration: String?

  @Option(help: "Only episodes of this itunes:episodeType: full, trailer or bonus.")
  var type: String?

  func validate() throws {
    do {
      _ = try filter().predicate()
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  /// The filter as given; ages (30d) stay ages so a stored filter keeps sliding.
  func filter() throws -> EpisodeFilter {
    EpisodeFilter(
      match: match, exclude: exclude, matchIn: try matchIn.map(EpisodeFilter.fields),
      since: since, until: until,
      minDuration: try minDuration.map { try DurationText.seconds($0, setting: "min-duration") },
      maxDuration: try maxDuration.map { try DurationText.seconds($0, setting: "max-duration") },
      type: type?.lowercased())
  }

  /// Nil when no filter was given, so callers can keep their fast path.
  func predicate() throws -> EpisodePredicate? {
    let filter = try filter()
    return filter.isEmpty ? nil : try filter.predicate()
  }
}
