import PodcastKit

/// Why a command could not do what was asked, where the reason is the command's own (not
/// PodcastKit's). Each case reads as the one line the user sees.
enum CommandError: SentenceError, Equatable {
  /// Exits 75 (the README's exit codes): another sync holds the library's lock.
  case syncBusy(library: String)
  case cannotStartInBackground(reason: String)

  var description: String {
    switch self {
    case .syncBusy(let library):
      return "another sync is running on \(library); try again later or use --wait"
    case .cannotStartInBackground(let reason):
      return "cannot start in the background: \(reason)"
    }
  }
}
