import ArgumentParser
import PodcastKit

extension Account {
  /// `podcast account remove`: unlinks the library.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Unlink this library from its account; subscriptions, files and plays stay.",
      discussion: """
        Changes and episode actions not yet sent are dropped; the server is not asked anything.
        """
    )

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
      let removed = try RemoveAccount(paths: libraryOptions.paths).run()
      Console.print("Unlinked this library from \(removed.user) on \(removed.server).")
    }
  }
}
