import CSQLCipher
import Foundation

extension UUID: DatabaseValueConvertible {
  /// UUIDs are stored as 16-byte blobs, as GRDB stores them.
  public var databaseValue: DatabaseValue {
    withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
  }
  /// Reads 16-byte blobs and texts in the canonical UUID format.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
    switch dbValue.storage {
    case .blob(let data) where data.count == 16:
      var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: data) }
      return UUID(uuid: value)
    case .string(let string):
      return UUID(uuidString: string)
    default:
      return nil
    }
  }
}

extension UUID: SingleLookupColumnConvertible {
  /// Reads a text in the canonical UUID format, or a 16-byte blob; nil for
  /// anything else.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let column = sqlite3_column_value(sqliteStatement, index), let uuid = UUID._fromColumnValue(column)
    else { return nil }
    self = uuid
  }

  /// Reads texts in the canonical UUID format and 16-byte blobs.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> UUID? {
    switch sqlite3_value_type(column) {
    case SQLITE_TEXT:
      return UUID(uuidString: readText(column))
    case SQLITE_BLOB:
      guard sqlite3_value_bytes(column) == 16, let bytes = sqlite3_value_blob(column) else { return nil }
      var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &value) {
        $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16))
      }
      return UUID(uuid: value)
    default:
      return nil
    }
  }
}

extension NSUUID: DatabaseValueConvertible {
  /// Stored as a 16-byte blob, as `UUID` is.
  public var databaseValue: DatabaseValue {
    var bytes = [UInt8](repeating: 0, count: 16)
    getBytes(&bytes)
    return DatabaseValue(storage: .blob(Data(bytes)))
  }

  /// Reads what `UUID` reads: 16-byte blobs and texts in the canonical UUID
  /// format. A subclass of `NSUUID` reads nil: the value made is an `NSUUID`.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    // NSUUID has no required initializer to build `Self` with: bridge the
    // UUID and cast it, which only `NSUUID` itself accepts.
    UUID.fromDatabaseValue(dbValue).flatMap { ($0 as NSUUID) as? Self }
  }
}
