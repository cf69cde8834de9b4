/// Errors of record methods.
public enum RecordError: Error, Sendable, CustomStringConvertible, Equatable {
  /// No row has the given key (`find`, `update`).
  case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

  public var description: String {
    switch self {
    case .recordNotFound(let table, let key):
      let keyText = key.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
      return "Key not found in table \(table): [\(keyText)]"
    }
  }
}
