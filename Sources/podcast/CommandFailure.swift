import ArgumentParser

/// Every command ends the same way on error: one line on stderr, exit status 1.
enum CommandFailure {
  static func reported<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let exit as ExitCode {
      throw exit
    } catch {
      Console.error("\(error)")
      throw ExitCode(1)
    }
  }
}
