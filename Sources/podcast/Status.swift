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
    // At 80 columns the episode keeps at least 20; on a narrower terminal the time goes
    // first, then the sizes, then the percentage.
    var table = Table(columns: [
      .init(title: "STATE"), .init(title: "PROGRESS", alignment: .right, dropOrder: 3),
      .init(title: "SIZE", alignment: .right, dropOrder: 2),
      .init(title: "UPDATED", dropOrder: 1),
      .init(title: "EPISODE", flexible: true, fit: ShowAndTitle.fitted),
    ])
    for record in records {
      let bytes = Format.bytes(record.bytes)
      let total = record.total.map(Format.bytes) ?? ""
      let size = [bytes, total == bytes ? "" : total].filter { !$0.isEmpty }
      var title = Format.singleLine(record.episodeTitle.isEmpty ? record.url : record.episodeTitle)
      if let error = record.error, record.state == .failed {
        title += " (\(Format.singleLine(error)))"
      }
      table.rows.append([
        record.state.rawValue, record.progress.map(Format.percent) ?? "",
        size.joined(separator: " / "),
        Format.time(record.updatedAt),
        ShowAndTitle.cell(show: Format.singleLine(record.podcastTitle), title: title),
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
      // What of it a power cut cannot take back: all of a finished file, the checkpointed
      // part of a partial one.
      ("durableBytes", .int(record.state == .done ? record.bytes : record.durableBytes)),
      ("progress", record.progress.map { .double($0) } ?? .null),
      ("updated", .date(record.updatedAt)),
      ("file", .string(record.file)),
      ("error", .string(record.error)),
    ])
  }
}
