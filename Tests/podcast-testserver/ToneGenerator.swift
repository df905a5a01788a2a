import Foundation

/// `generate-audio`: a small valid WAV file (8 kHz, mono, unsigned 8-bit PCM) with a sine tone,
/// the demo's stand-in for episode audio.
struct ToneGenerator {
  static let sampleRate = 8000

  let output: String
  let seconds: Int
  let hertz: Int

  init(_ arguments: [String]) throws(TestServerError) {
    let options = try CommandLineOptions(arguments, allowed: ["out", "seconds", "hertz"])
    output = try options.required("out")
    seconds = try options.integer("seconds", in: 1...3600) ?? 1
    hertz = try options.integer("hertz", in: 20...3999) ?? 440
  }

  func run() throws {
    let sampleCount = seconds * Self.sampleRate
    var file = Data()
    file.reserveCapacity(44 + sampleCount)
    file += Array("RIFF".utf8)
    file += Self.littleEndian(UInt32(36 + sampleCount))
    file += Array("WAVEfmt ".utf8)
    file += Self.littleEndian(UInt32(16))  // size of the fmt chunk
    file += Self.littleEndian(UInt16(1))  // PCM
    file += Self.littleEndian(UInt16(1))  // mono
    file += Self.littleEndian(UInt32(Self.sampleRate))
    file += Self.littleEndian(UInt32(Self.sampleRate))  // bytes per second
    file += Self.littleEndian(UInt16(1))  // bytes per frame
    file += Self.littleEndian(UInt16(8))  // bits per sample
    file += Array("data".utf8)
    file += Self.littleEndian(UInt32(sampleCount))
    for index in 0..<sampleCount {
      let phase = 2 * Double.pi * Double(hertz) * Double(index) / Double(Self.sampleRate)
      file.append(UInt8(128 + 90 * sin(phase)))
    }
    guard FileManager.default.createFile(atPath: output, contents: file) else {
      throw TestServerError.cannotWrite(
        path: output, reason: "the directory is missing or not writable")
    }
  }

  private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }
}
