import ArgumentParser
import PodcastKit

/// How episodes are fetched and named; shared by `download` and `sync`.
struct DownloadSettings: ParsableArguments {
  @Option(help: "Downloads at once.")
  var concurrency = 4

  @Option(help: "Downloads at once from any one server, so none is hammered.")
  var perHost = 2

  @Option(
    help:
      "File name template: {podcast} {date} {title} {guid} {index} {season} {number} {filename} {ext}."
  )
  var nameTemplate = FileNamer.defaultTemplate

  func validate() throws {
    if !(1...32).contains(concurrency) {
      throw ValidationError("--concurrency must be from 1 to 32")
    }
    if !(1...32).contains(perHost) { throw ValidationError("--per-host must be from 1 to 32") }
    do {
      _ = try FileNamer(template: nameTemplate)
    } catch {
      throw ValidationError(String(describing: error))
    }
  }

  func namer() throws -> FileNamer {
    try FileNamer(template: nameTemplate)
  }

  var options: DownloadOptions {
    var options = DownloadOptions()
    options.concurrency = concurrency
    options.perHost = perHost
    return options
  }
}
