import Foundation

extension CGFloat: DatabaseValueConvertible {
  /// Stored as a REAL, as `Double` is.
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

  /// Reads what `Double` reads: INTEGER and REAL values.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
    Double.fromDatabaseValue(dbValue).map { CGFloat($0) }
  }
}
