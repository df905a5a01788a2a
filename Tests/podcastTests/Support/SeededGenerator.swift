import Foundation

/// The random source of the soak tests: SplitMix64 from a seed that is printed, so a failing
/// run can be repeated with `PODCAST_SOAK_SEED=<seed>` (`make soak SOAK_SEED=<seed>`).
struct SeededGenerator: RandomNumberGenerator {
  let seed: UInt64
  private var state: UInt64

  init(seed: UInt64) {
    self.seed = seed
    state = seed
  }

  /// The seed from `PODCAST_SOAK_SEED`, else a fresh one; printed with the test's name.
  init(for test: String) {
    let given = ProcessInfo.processInfo.environment["PODCAST_SOAK_SEED"].flatMap(UInt64.init)
    self.init(seed: given ?? UInt64.random(in: .min ... .max))
    print("\(test): random seed \(seed) (PODCAST_SOAK_SEED=\(seed) repeats it)")
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
