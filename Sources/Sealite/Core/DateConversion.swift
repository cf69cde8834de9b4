import CSQLCipher
import Foundation

extension Date: DatabaseValueConvertible {
  /// Dates are stored as UTC text `yyyy-MM-dd HH:mm:ss.SSS`, GRDB's format, which
  /// sorts chronologically and works with SQLite's date functions.
  ///
  /// The text holds the years 0000 to 9999 only: other dates are stored as Unix
  /// timestamps (REAL), which ``fromDatabaseValue(_:)`` reads back as the same
  /// date (a NaN date is NULL, as every NaN is in SQLite).
  public var databaseValue: DatabaseValue {
    guard DatabaseDateFormat.canFormat(self) else {
      return DatabaseValue(storage: .double(timeIntervalSince1970))
    }
    return DatabaseValue(storage: .string(DatabaseDateFormat.format(self)))
  }

  /// Reads texts (and UTF-8 blobs) in SQLite's date formats (`yyyy-MM-dd`,
  /// `yyyy-MM-dd HH:mm`, `yyyy-MM-dd HH:mm:ss`, `yyyy-MM-dd HH:mm:ss.SSS`, with `T`
  /// or space, and an optional `Z` or `±HH:mm` offset; UTC without one), and
  /// numbers as Unix timestamps (seconds since 1970), as GRDB reads them.
  /// Fractional seconds keep their first three digits (milliseconds).
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
    switch dbValue.storage {
    case .int64(let value): return Date(timeIntervalSince1970: TimeInterval(value))
    case .double(let value): return Date(timeIntervalSince1970: value)
    case .string(let string): return DatabaseDateFormat.parse(string)
    case .blob(let data): return String(data: data, encoding: .utf8).flatMap(DatabaseDateFormat.parse)
    case .null: return nil
    }
  }
}

extension Date: SingleLookupColumnConvertible {
  /// Reads a number as a Unix timestamp, and a text in one of SQLite's date
  /// formats (see ``fromDatabaseValue(_:)``); nil for a blob or a text that
  /// is not a date.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let column = sqlite3_column_value(sqliteStatement, index), let date = Date._fromColumnValue(column)
    else { return nil }
    self = date
  }

  /// The fast path reads numbers as timestamps and texts as dates; blobs do
  /// not convert.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> Date? {
    switch sqlite3_value_type(column) {
    case SQLITE_INTEGER, SQLITE_FLOAT: return Date(timeIntervalSince1970: sqlite3_value_double(column))
    case SQLITE_TEXT: return DatabaseDateFormat.parse(readText(column))
    default: return nil
    }
  }
}

/// A hand-written formatter and parser: DateFormatter is slow and locale-bound.
enum DatabaseDateFormat {
  /// The milliseconds since 1970 of 0000-01-01 00:00:00.000 up to 10000-01-01.
  static let formattedMilliseconds: Range<Double> = -62_167_219_200_000..<253_402_300_800_000

  /// True if `format` can write the date: its year has four digits (outside,
  /// the text would not read back, and NaN or huge dates would not even fit
  /// the Int64 of milliseconds).
  static func canFormat(_ date: Date) -> Bool {
    formattedMilliseconds.contains((date.timeIntervalSince1970 * 1000).rounded(.down))
  }

  static func format(_ date: Date) -> String {
    let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    var milliseconds = Int64(totalMilliseconds)
    let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    milliseconds -= days * 86_400_000
    let (year, month, day) = civilFromDays(days)
    let hour = milliseconds / 3_600_000
    let minute = (milliseconds / 60_000) % 60
    let second = (milliseconds / 1000) % 60
    let millisecond = milliseconds % 1000
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
    return
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))"
  }

  static func parse(_ string: String) -> Date? {
    var scanner = ByteScanner(Array(string.utf8))
    guard let year = scanner.digits(4), scanner.skip(UInt8(ascii: "-")),
      let month = scanner.digits(2), scanner.skip(UInt8(ascii: "-")),
      let day = scanner.digits(2), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var seconds = Double(daysFromCivil(year, month, day)) * 86_400
    if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
    guard scanner.skip(UInt8(ascii: " ")) || scanner.skip(UInt8(ascii: "T")),
      let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")), let minute = scanner.digits(2),
      hour < 24, minute < 60
    else { return nil }
    seconds += Double(hour * 3600 + minute * 60)
    if scanner.skip(UInt8(ascii: ":")) {
      guard let second = scanner.digits(2), second < 60 else { return nil }
      seconds += Double(second)
      if scanner.skip(UInt8(ascii: ".")) {
        // Milliseconds, as SQLite's date functions: digits after the third
        // are read and ignored.
        var milliseconds = 0
        var count = 0
        while let digit = scanner.digit() {
          if count < 3 { milliseconds += digit * [100, 10, 1][count] }
          count += 1
        }
        guard count > 0 else { return nil }
        seconds += Double(milliseconds) / 1000
      }
    }
    if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
    if scanner.skip(UInt8(ascii: "Z")) {
      return scanner.atEnd ? Date(timeIntervalSince1970: seconds) : nil
    }
    let sign: Double
    if scanner.skip(UInt8(ascii: "+")) {
      sign = 1
    } else if scanner.skip(UInt8(ascii: "-")) {
      sign = -1
    } else {
      return nil
    }
    guard let offsetHours = scanner.digits(2), scanner.skip(UInt8(ascii: ":")),
      let offsetMinutes = scanner.digits(2), scanner.atEnd
    else { return nil }
    seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    return Date(timeIntervalSince1970: seconds)
  }

  // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}

struct ByteScanner {
  let bytes: [UInt8]
  var position = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }
  var atEnd: Bool { position == bytes.count }
  mutating func skip(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }
  mutating func digit() -> Int? {
    guard position < bytes.count, (48...57).contains(bytes[position]) else { return nil }
    defer { position += 1 }
    return Int(bytes[position] - 48)
  }
  mutating func digits(_ count: Int) -> Int? {
    var value = 0
    for _ in 0..<count {
      guard let digit = digit() else { return nil }
      value = value * 10 + digit
    }
    return value
  }
}
