import Foundation
internal import GRDB
internal import GRDBSQLite
import Model

/// A value bound into one of the store's hot statements (see `Statement.run`).
enum SQLValue: Equatable {
  case null
  case integer(Int64)
  case text(String)
  case blob(Data)

  init(_ text: String?) {
    self = text.map { .text($0) } ?? .null
  }

  init(_ integer: Int64?) {
    self = integer.map { .integer($0) } ?? .null
  }

  init(_ integer: Int32?) {
    self = integer.map { .integer(Int64($0)) } ?? .null
  }

  /// A date as GRDB stores it (`StoredDate`).
  init(_ date: Date?) {
    self = date.map { SQLValue(StoredDate($0).databaseValue) } ?? .null
  }

  private init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let integer): self = .integer(integer)
    case .double(let double): self = .text(String(double))
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(data)
    }
  }

  /// The same value for GRDB's own writes (a record's `encode`).
  var databaseValue: DatabaseValue {
    switch self {
    case .null: return .null
    case .integer(let integer): return integer.databaseValue
    case .text(let text): return text.databaseValue
    case .blob(let data): return data.databaseValue
    }
  }
}

extension Statement {
  /// Binds `values` by position, runs the statement to its end and hands each row to `row`,
  /// through SQLite's own calls. For the statements every feed and every download runs
  /// (kept prepared, and run only this way): GRDB's arguments and rows box each value and
  /// look columns up by name, which costs more than SQLite's own work on those paths.
  ///
  /// The texts are bound from one buffer this call holds until the statement is reset: each
  /// `String` handed to SQLite as a C string was copied twice (into a C string, then by
  /// SQLite, `SQLITE_TRANSIENT`), two allocations per text of every row a sync writes.
  func run(_ values: [SQLValue], row: (SQLRow) throws -> Void = { _ in }) throws {
    let handle = sqliteStatement
    var length = 0
    for case .text(let text) in values { length += text.utf8.count }
    var texts: [UInt8] = []
    // Never empty, so every text (an empty one too) gets a pointer, not NULL.
    texts.reserveCapacity(length + 1)
    for case .text(let text) in values { texts.append(contentsOf: text.utf8) }
    texts.append(0)
    try texts.withUnsafeBufferPointer { buffer in
      defer {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
      }
      var start = 0
      for (offset, value) in values.enumerated() {
        let index = Int32(offset + 1)
        let code: Int32
        switch value {
        case .null:
          code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
          code = sqlite3_bind_int64(handle, index, integer)
        case .text(let text):
          let count = text.utf8.count
          defer { start += count }
          code =
            buffer.baseAddress.map { base in
              (base + start).withMemoryRebound(to: CChar.self, capacity: count) {
                // Up to a NUL, as a C string and GRDB's own binding end there.
                sqlite3_bind_text(handle, index, $0, Int32(strnlen($0, count)), Self.static)
              }
            } ?? SQLITE_NOMEM
        case .blob(let data):
          code = data.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
          }
        }
        guard code == SQLITE_OK else { throw failure(code) }
      }
      while true {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return }
        guard code == SQLITE_ROW else { throw failure(code) }
        try row(SQLRow(handle: handle))
      }
    }
  }

  /// `run` for a statement that returns at most one row: that row's `decode`, or nil.
  func first<Value>(_ values: [SQLValue], _ decode: (SQLRow) throws -> Value) throws -> Value? {
    var found: Value?
    try run(values) { row in
      if found == nil { found = try decode(row) }
    }
    return found
  }

  /// `run` for a statement that returns rows: each one's `decode`, in order.
  func all<Value>(_ values: [SQLValue], _ decode: (SQLRow) throws -> Value) throws -> [Value] {
    var found: [Value] = []
    try run(values) { row in found.append(try decode(row)) }
    return found
  }

  /// SQLite copies what is bound (`SQLITE_TRANSIENT`).
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// SQLite reads what is bound where it is, until the statement is reset (`SQLITE_STATIC`).
  private static let `static`: sqlite3_destructor_type? = nil

  private func failure(_ code: Int32) -> DatabaseError {
    let message = sqlite3_db_handle(sqliteStatement).flatMap { sqlite3_errmsg($0) }
      .map { String(cString: $0) }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
  }
}

/// One row of a statement `Statement.run` steps through, read by column position.
struct SQLRow {
  fileprivate let handle: OpaquePointer

  func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  func integer(_ column: Int32) -> Int64? {
    isNull(column) ? nil : sqlite3_column_int64(handle, column)
  }

  func double(_ column: Int32) -> Double? {
    isNull(column) ? nil : sqlite3_column_double(handle, column)
  }

  /// A table's `INTEGER PRIMARY KEY`: SQLite's row id, never NULL.
  func rowID(_ column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func blob(_ column: Int32) -> Data? {
    guard !isNull(column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }

  /// A date stored as GRDB stores dates (`StoredDate`), or in any other form GRDB reads.
  func date(_ column: Int32) -> Date? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    let text = UnsafeBufferPointer(start: bytes, count: count)
    return StoredDate.date(text)
      ?? Date.fromDatabaseValue(String(decoding: text, as: UTF8.self).databaseValue)
  }

  /// A text column that must hold one of `Value`'s raw values (a download's state). Other text
  /// is a damaged row: it fails as SQLite's type mismatch, so `LibraryStore` reports it like
  /// any other database failure, naming the library file.
  func rawValue<Value: RawRepresentable>(_ type: Value.Type, _ column: Int32) throws -> Value
  where Value.RawValue == String {
    let text = self.text(column) ?? ""
    guard let value = Value(rawValue: text) else {
      throw DatabaseError(
        resultCode: .SQLITE_MISMATCH, message: "a column holds an unknown value \"\(text)\"")
    }
    return value
  }
}
