internal import GRDB

extension Database {
  /// Runs `body` in a savepoint of its own, kept when it says so and undone when it says not
  /// or throws (the error is thrown on). With statements prepared once, like the store's
  /// transactions: GRDB's `inSavepoint` parses its SQL each time, as costly as the record it
  /// wraps.
  func savepoint<Value>(_ body: () throws -> (value: Value, keep: Bool)) throws -> Value {
    try cachedStatement(sql: "SAVEPOINT store").execute()
    let result: (value: Value, keep: Bool)
    do {
      result = try body()
    } catch {
      try cachedStatement(sql: "ROLLBACK TO SAVEPOINT store").execute()
      try cachedStatement(sql: "RELEASE SAVEPOINT store").execute()
      throw error
    }
    if !result.keep { try cachedStatement(sql: "ROLLBACK TO SAVEPOINT store").execute() }
    try cachedStatement(sql: "RELEASE SAVEPOINT store").execute()
    return result.value
  }
}
