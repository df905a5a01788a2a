import Foundation

let usage = """
  podcast-testserver: the loopback HTTP server and fixture generator behind `make demo`,
  `make bench` and the tests. Not installed.

  USAGE
    podcast-testserver serve [--root DIR] [--mount /PREFIX=DIR]... [--port N] [--rate BYTES_PER_SEC]
        Serves directories on 127.0.0.1. --root DIR is short for --mount /=DIR; repeat --mount
        to add more (the longest matching prefix wins), e.g.
          serve --root Demo --mount /audio=/tmp/demo-audio
        Files get ETag, Last-Modified and Range support; in *.xml and *.rss, {{base}} becomes
        the server's base URL. --port 0 (default) picks a free port; --rate throttles every
        response body. Prints one line, http://127.0.0.1:PORT, once listening; logs
        "METHOD TARGET STATUS BYTES" per response to stderr; runs until SIGTERM or SIGINT.

    podcast-testserver generate-feed --episodes N --out FILE [--base URL]
        Writes an RSS 2.0 podcast feed with N items (about 4.5 KB each: iTunes tags, HTML show
        notes). Enclosures point at BASE/audio/episode-K.mp3; BASE defaults to {{base}}, so the
        feed works when served by `serve`.

    podcast-testserver generate-audio --out FILE --seconds S [--hertz F]
        Writes a WAV file (8 kHz, mono, 8-bit) holding a sine tone (default 440 Hz).
  """

func run(_ arguments: [String]) throws {
  guard let command = arguments.first, !arguments.contains("--help"), command != "help" else {
    print(usage)
    return
  }
  let rest = Array(arguments.dropFirst())
  switch command {
  case "serve": try ServeCommand(rest).run()
  case "generate-feed": try FeedGenerator(rest).run()
  case "generate-audio": try ToneGenerator(rest).run()
  default: throw TestServerError.unknownCommand(command)
  }
}

do {
  try run(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("podcast-testserver: \(error)\n".utf8))
  exit(2)
}
