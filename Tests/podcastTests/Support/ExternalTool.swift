import Foundation

/// A program the tests need besides podcast (ffmpeg, dpkg-deb, make), found on PATH and run to
/// its end: its standard output, or an error with its standard error when it fails.
enum ExternalTool {
  @discardableResult
  static func run(
    _ tool: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String] = [:]
  ) throws -> String {
    let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let executable = search.split(separator: ":").map({ "\($0)/\(tool)" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw ExternalToolError(description: "\(tool) is not installed (`make deps` installs it)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ExternalToolError(
        description: "\(tool) \(arguments) failed: " + String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
  }
}

struct ExternalToolError: Error, CustomStringConvertible {
  let description: String
}
