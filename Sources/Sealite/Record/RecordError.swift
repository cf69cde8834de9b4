/// Errors of record methods.
public enum RecordError: Error, Sendable, CustomStringConvertible, Equatable {
  /// No row has the given key (`find`, `update`).
  case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

  public var description: String {
    switch self {
    case .recordNotFound(let table, let key):
      // Printed as a row, as GRDB prints it: `[id:1]` (columns by name).
      return "Key not found in table \(table): \(Row(key))"
    }
  }
}
