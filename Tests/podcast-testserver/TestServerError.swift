/// Why a podcast-testserver command could not run.
enum TestServerError: Error, CustomStringConvertible {
  case unknownCommand(String)
  case unknownOption(String)
  case missingValue(option: String)
  case missingOption(String)
  case badNumber(option: String, value: String, range: ClosedRange<Int>)
  case badMount(String)
  case notADirectory(String)
  case cannotWrite(path: String, reason: String)

  var description: String {
    switch self {
    case .unknownCommand(let name): "\(name) is not a command; see --help."
    case .unknownOption(let name): "\(name) is not an option of this command; see --help."
    case .missingValue(let option): "\(option) needs a value."
    case .missingOption(let option): "\(option) is required."
    case .badNumber(let option, let value, let range):
      "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(value)\"."
    case .badMount(let text): "--mount takes /PREFIX=DIR, not \"\(text)\"."
    case .notADirectory(let path): "\(path) is not a directory."
    case .cannotWrite(let path, let reason): "\(path) cannot be written: \(reason)."
    }
  }
}
