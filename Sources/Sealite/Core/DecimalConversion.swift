import CSQLCipher
import Foundation

extension Decimal: DatabaseValueConvertible {
  /// Stored as a text, the decimal number written with the POSIX locale
  /// (`"12.345"`), as GRDB stores it: a REAL would lose digits.
  public var databaseValue: DatabaseValue {
    DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: posixLocale)))
  }

  /// Reads INTEGER and REAL values, and texts that hold a decimal number
  /// (read with the POSIX locale).
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
    switch dbValue.storage {
    case .int64(let value): return Decimal(value)
    case .double(let value): return Decimal(value)
    case .string(let string): return Decimal(string: string, locale: posixLocale)
    case .null, .blob: return nil
    }
  }
}

extension Decimal: StatementColumnConvertible {
  /// Reads an INTEGER, a REAL, or a text that holds a decimal number; nil
  /// for a blob or a text that is not a number.
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_INTEGER: self.init(sqlite3_column_int64(sqliteStatement, index))
    case SQLITE_FLOAT: self.init(sqlite3_column_double(sqliteStatement, index))
    case SQLITE_TEXT:
      guard
        let value = Decimal(
          string: readText(sqlite3_column_value(sqliteStatement, index)), locale: posixLocale)
      else { return nil }
      self = value
    default: return nil
    }
  }
}
