import Basics
internal import GRDB
import Model

extension Row {
  /// A text column that holds one of an enum's raw values (a download's or a mark's state).
  /// Other text is a damaged row: it fails as SQLite's type mismatch, so `LibraryStore`
  /// reports it like any other database failure, naming the library file.
  package func decodeRawValue<Value: RawRepresentable>(_ type: Value.Type, forColumn column: String)
    throws -> Value where Value.RawValue == String
  {
    let text: String = try decode(forColumn: column)
    guard let value = Value(rawValue: text) else {
      throw DatabaseError(
        resultCode: .SQLITE_MISMATCH, message: "\(column) holds an unknown value \"\(text)\"")
    }
    return value
  }
}
