import PodcastKit

/// `sync --json`: `{downloaded, skipped, failed}` as `download --json` has it, failed feeds
/// among the failures, plus `covers`, `sideFiles` and `sideFileNotes` when the run completed
/// anything beside earlier episodes, and `account` (what the exchange with the sync account
/// did) when the library has one.
struct SyncDocument {
  let outcome: SyncOutcome

  var value: JSONValue {
    let document = DownloadRun.document(outcome.results, otherFailures: feedFailures)
    // Only when there is something to say: most runs touch nothing beside old episodes.
    let sideFiles = outcome.sideFiles
    let extras = [
      ("covers", sideFiles.covers), ("sideFiles", sideFiles.files),
      ("sideFileNotes", sideFiles.notes.map(\.description)),
    ].filter { !$0.1.isEmpty }
    let account = outcome.account.map { [("account", AccountReport.document($0))] } ?? []
    guard case .object(let members) = document, !extras.isEmpty || !account.isEmpty else {
      return document
    }
    return .object(
      members + extras.map { ($0.0, JSONValue.array($0.1.map { .string($0) })) } + account)
  }

  private var feedFailures: [JSONValue] {
    outcome.plan.failedFeeds.map { feed in
      let reason =
        if case .failed(let error) = feed.outcome { CommandFailure.message(for: error) } else {
          ""
        }
      return .object([
        ("url", .string(feed.subscription.feedURL)),
        ("title", .string(feed.subscription.title ?? feed.subscription.name)),
        ("error", .string(reason)),
      ])
    }
  }
}
