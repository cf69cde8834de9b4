import CSQLCipher
import Foundation

/// Date components stored as SQLite date text: a day, a time of day, or both,
/// without the time zone a `Date` needs.
///
/// Store a birthday or an opening hour where a `Date` would pin an instant:
///
///     var components = DateComponents()
///     components.year = 1973
///     components.month = 9
///     components.day = 18
///     let birthday = DatabaseDateComponents(components, format: .YMD)
///     try db.execute(sql: "INSERT INTO person (birthday) VALUES (?)", arguments: [birthday])
///     // Stored as "1973-09-18"
///     let read = try DatabaseDateComponents.fetchOne(db, sql: "SELECT birthday FROM person")
///     read?.dateComponents.year // 1973
///
/// The value keeps the ``format`` it was read in, so that it is written back the
/// same way.
public struct DatabaseDateComponents: Sendable {
  /// The text formats of date components, named after the components they hold.
  ///
  ///     let time = DatabaseDateComponents(components, format: .HM)  // "10:11"
  ///     DatabaseDateComponents.Format.YMD_HMS.rawValue  // "yyyy-MM-dd HH:mm:ss"
  ///
  /// The raw values are the `DateFormatter` patterns of the formats.
  public enum Format: String, Sendable {
    /// A day: `yyyy-MM-dd`, such as `1973-09-18`.
    ///
    ///     DatabaseDateComponents(components, format: .YMD)  // "1973-09-18"
    case YMD = "yyyy-MM-dd"

    /// A day and a time to the minute: `yyyy-MM-dd HH:mm`. It sorts with
    /// SQLite's `CURRENT_TIMESTAMP`.
    ///
    ///     DatabaseDateComponents(components, format: .YMD_HM)  // "1973-09-18 10:11"
    case YMD_HM = "yyyy-MM-dd HH:mm"

    /// A day and a time to the second: `yyyy-MM-dd HH:mm:ss`, the format of
    /// SQLite's `CURRENT_TIMESTAMP`.
    ///
    ///     DatabaseDateComponents(components, format: .YMD_HMS)  // "1973-09-18 10:11:12"
    case YMD_HMS = "yyyy-MM-dd HH:mm:ss"

    /// A day and a time to the millisecond: `yyyy-MM-dd HH:mm:ss.SSS`. It sorts
    /// with SQLite's `CURRENT_TIMESTAMP`.
    ///
    ///     DatabaseDateComponents(components, format: .YMD_HMSS)  // "1973-09-18 10:11:12.123"
    case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"

    /// A time to the minute: `HH:mm`.
    ///
    ///     DatabaseDateComponents(components, format: .HM)  // "10:11"
    case HM = "HH:mm"

    /// A time to the second: `HH:mm:ss`.
    ///
    ///     DatabaseDateComponents(components, format: .HMS)  // "10:11:12"
    case HMS = "HH:mm:ss"

    /// A time to the millisecond: `HH:mm:ss.SSS`.
    ///
    ///     DatabaseDateComponents(components, format: .HMSS)  // "10:11:12.123"
    case HMSS = "HH:mm:ss.SSS"
  }

  /// The components: those the ``format`` does not hold are nil in a read value.
  ///
  ///     let value = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '10:11'")!
  ///     value.dateComponents.hour  // 10
  ///     value.dateComponents.year  // nil
  public let dateComponents: DateComponents

  /// The format the components are written in.
  ///
  ///     let value = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '1973-09-18T10:11'")!
  ///     value.format  // .YMD_HM
  public let format: Format

  /// Components to be written in `format`.
  ///
  ///     let value = DatabaseDateComponents(DateComponents(hour: 10, minute: 11), format: .HM)
  ///
  /// Components the format holds and `dateComponents` lacks are written as the
  /// start of their range: year 0, month and day 1, hour, minute, second and
  /// millisecond 0. Components the format does not hold are not written.
  public init(_ dateComponents: DateComponents, format: Format) {
    self.dateComponents = dateComponents
    self.format = format
  }
}

extension DatabaseDateComponents: DatabaseValueConvertible {
  /// The components as text in their ``format``.
  ///
  ///     DatabaseDateComponents(DateComponents(hour: 9, minute: 5), format: .HMS).databaseValue
  ///     // "09:05:00"
  public var databaseValue: DatabaseValue {
    DatabaseValue(storage: .string(DateComponentsText.format(dateComponents, as: format)))
  }

  /// Reads texts (and UTF-8 blobs) in the SQLite formats of date components,
  /// with a space or a `T` between day and time, and an optional `Z` or
  /// `±HH:mm` offset after the time, which becomes the components' time zone:
  ///
  ///     DatabaseDateComponents.fromDatabaseValue("2018-04-20T14:47:12.345Z".databaseValue)?.format
  ///     // .YMD_HMSS
  ///
  /// Fractional seconds of one to three digits are read; further digits are
  /// ignored. Numbers, and texts in no such format, are nil. See
  /// <https://www.sqlite.org/lang_datefunc.html>.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
    String.fromDatabaseValue(dbValue).flatMap(DateComponentsText.parse)
  }
}

extension DatabaseDateComponents: SingleLookupColumnConvertible {
  /// Reads SQLite's text of the column in one of SQLite's date formats (see
  /// ``fromDatabaseValue(_:)``); nil for any other text, and for numbers.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let column = sqlite3_column_value(sqliteStatement, index),
      let components = DatabaseDateComponents._fromColumnValue(column)
    else { return nil }
    self = components
  }

  /// The fast path reads SQLite's text of the column, as GRDB does: a number
  /// is never in a date format, so it converts to nil here as well.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> DatabaseDateComponents? {
    DateComponentsText.parse(readText(column))
  }
}
