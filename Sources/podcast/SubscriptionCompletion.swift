import ArgumentParser
import Foundation
import PodcastKit

/// Shell completion of subscription names (`podcast episodes hh<TAB>`), read from the library
/// the command line names (`--library DIR`), else the default one. Never creates a library.
enum SubscriptionCompletion {
  static let names = CompletionKind.custom { words, _, prefix in
    let flag = words.firstIndex(of: "--library").flatMap {
      $0 + 1 < words.count ? words[$0 + 1] : nil
    }
    let paths = LibraryPaths(root: LibraryOptions.libraryPath(flag: flag), episodes: nil)
    return ListSubscriptions(paths: paths).names().filter { $0.hasPrefix(prefix) }
  }
}
