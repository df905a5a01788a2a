#if FUZZING
  import CLibFuzzer
  import Foundation

  /// The fuzzing build's entry point (`make fuzz`: `-sanitize=fuzzer -D FUZZING`). SwiftPM
  /// links every executable with its own `main`, so instead of libFuzzer's `main` and a
  /// `LLVMFuzzerTestOneInput` symbol, this hands the command line and the target to
  /// libFuzzer's driver, which then behaves exactly like a stock libFuzzer binary.
  @main
  enum LibFuzzerEntry {
    static func main() {
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      let status = LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        FeedFuzzer.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
      }
      exit(status)
    }
  }
#endif
