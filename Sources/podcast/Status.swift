import ArgumentParser
import Foundation
import PodcastKit

struct Status: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract:
      "Show every download the library knows: running (in any process), paused, failed, done."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  func run() async throws {
    Console.showsSecrets = showSecrets
    let records = try ShowStatus(paths: libraryOptions.paths).run()
    if json {
      Console.print(JSONValue.array(records.map(Self.object)).rendered())
      return
    }
    guard !records.isEmpty else {
      Console.print("No downloads yet.")
      return
    }
    var table = Table(columns: [
      .init(title: "STATE"), .init(title: "PROGRESS", alignment: .right),
      .init(title: "SIZE", alignment: .right),
      .init(title: "UPDATED"), .init(title: "EPISODE", flexible: true),
    ])
    for record in records {
      let size = [Format.bytes(record.bytes), record.total.map(Format.bytes)].compactMap { $0 }
        .filter { !$0.isEmpty }
      let title = [record.podcastTitle, record.episodeTitle].filter { !$0.isEmpty }.joined(
        separator: ": ")
      var episode = title.isEmpty ? record.url : title
      if let error = record.error, record.state == .failed {
        episode += " (\(error))"
      }
      table.rows.append([
        record.state.rawValue, record.progress.map(Format.percent) ?? "",
        size.joined(separator: " / "),
        Format.time(record.updatedAt),
        Format.singleLine(episode),
      ])
    }
    for line in table.render(width: Console.isTerminal ? Console.width : 100_000) {
      Console.print(line)
    }
  }

  static func object(_ record: DownloadRecord) -> JSONValue {
    .object([
      ("url", .string(record.url)),
      ("podcast", .string(record.podcastTitle.isEmpty ? nil : record.podcastTitle)),
      ("title", .string(record.episodeTitle.isEmpty ? nil : record.episodeTitle)),
      ("state", .string(record.state.rawValue)),
      ("bytes", .int(record.bytes)),
      ("total", .int(record.total)),
      ("progress", record.progress.map { .double($0) } ?? .null),
      ("updated", .date(record.updatedAt)),
      ("file", .string(record.file)),
      ("error", .string(record.error)),
    ])
  }
}
