#if !FUZZING
  import Foundation

  /// The ordinary build of the fuzz target (no libFuzzer): runs each file named on the command
  /// line through the same checks, so a crash input can be replayed in a debugger or under
  /// `swift build` without the fuzzing toolchain flags. `make fuzz` builds the real fuzzer.
  @main
  enum Replayer {
    static func main() {
      let paths = CommandLine.arguments.dropFirst()
      guard !paths.isEmpty else {
        FileHandle.standardError.write(
          Data("usage: FeedFuzzer INPUT...  (make fuzz runs the fuzzer)\n".utf8))
        exit(2)
      }
      for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else {
          FileHandle.standardError.write(Data("FeedFuzzer: cannot read \(path)\n".utf8))
          exit(1)
        }
        FeedFuzzer.run(data)
        print("ok \(path)")
      }
    }
  }
#endif
