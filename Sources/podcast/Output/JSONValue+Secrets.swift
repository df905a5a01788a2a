import PodcastKit

extension JSONValue {
  /// A URL, its secrets masked unless the user asked for them (`--show-secrets`).
  static func url(_ value: String?) -> JSONValue {
    value.map { .string(Console.shown($0)) } ?? .null
  }
}
