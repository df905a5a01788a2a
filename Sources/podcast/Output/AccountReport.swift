import PodcastKit

/// What an exchange with the sync account did (`sync`, `account sync`) or would do
/// (`sync --dry-run`), for people and as JSON.
enum AccountReport {
  /// One line per feed subscribed, unsubscribed and sent, then one that sums it up (always
  /// with `summary`, else only when something was exchanged).
  static func lines(_ report: AccountExchangeReport, summary: Bool) -> [String] {
    let server = report.server
    var lines =
      report.subscribed.map { "subscribed  \($0)  (added on \(server))" }
      + report.unsubscribed.map { "unsubscribed \($0)  (removed on \(server); files kept)" }
      + report.sentAdded.map { "sent        + \($0)" }
      + report.sentRemoved.map { "sent        - \($0)" }
      + report.notApplied.map { "not applied  \(Format.singleLine($0))" }
    if summary || !report.isEmpty {
      lines.append(
        report.isEmpty
          ? "Nothing to exchange with \(server)."
          : "Exchanged with \(server): "
            + [
              count(report.subscribed.count, "subscribed", "subscribed"),
              count(report.unsubscribed.count, "unsubscribed", "unsubscribed"),
              count(
                report.sentAdded.count + report.sentRemoved.count, "change sent", "changes sent"),
              count(report.actionsSent, "episode action sent", "episode actions sent"),
              count(report.playsRecorded, "play recorded", "plays recorded"),
            ].joined(separator: ", ")
            + (report.notApplied.isEmpty ? "" : ", \(report.notApplied.count) not applied") + ".")
    }
    return report.failed ? lines.filter { !$0.hasPrefix("Nothing") } : lines
  }

  /// `sync --dry-run`'s lines: what the exchange would do.
  static func previewLines(_ report: AccountExchangeReport) -> [String] {
    let server = report.server
    return report.subscribed.map { "would subscribe    \($0)  (added on \(server))" }
      + report.unsubscribed.map {
        "would unsubscribe  \($0)  (removed on \(server); files would stay)"
      }
      + report.sentAdded.map { "would send         + \($0)" }
      + report.sentRemoved.map { "would send         - \($0)" }
      + (report.actionsSent > 0
        ? ["would send         \(count(report.actionsSent, "episode action", "episode actions"))"]
        : [])
      + (report.playsRecorded > 0
        ? ["would record       \(count(report.playsRecorded, "play", "plays")) from \(server)"]
        : [])
      + report.notApplied.map { "would not apply    \(Format.singleLine($0))" }
  }

  static func document(_ report: AccountExchangeReport) -> JSONValue {
    .object([
      ("server", .string(report.server)),
      ("subscribed", .array(report.subscribed.map { .string($0) })),
      ("unsubscribed", .array(report.unsubscribed.map { .string($0) })),
      ("sentAdded", .array(report.sentAdded.map { .string($0) })),
      ("sentRemoved", .array(report.sentRemoved.map { .string($0) })),
      ("actionsSent", .int(report.actionsSent)),
      ("playsRecorded", .int(report.playsRecorded)),
      ("notApplied", .array(report.notApplied.map { .string($0) })),
      ("failed", .bool(report.failed)),
    ])
  }

  private static func count(_ number: Int, _ one: String, _ many: String) -> String {
    "\(number) \(number == 1 ? one : many)"
  }
}
