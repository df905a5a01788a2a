/// A config file that cannot be used, said as `file:line: key: reason` on one line.
struct ConfigError: Error, CustomStringConvertible {
  var path: String
  var line: Int?
  var key: String?
  var reason: String

  var description: String {
    let place = line.map { "\(path):\($0)" } ?? path
    return key.map { "\(place): \($0): \(reason)" } ?? "\(place): \(reason)"
  }
}
