import Foundation

extension Date {
  /// The date of a Julian day number, as SQLite's `julianday()` returns it,
  /// rounded to the nearest millisecond as SQLite reads it:
  ///
  ///     let julianDay = try Double.fetchOne(db, sql: "SELECT julianday('2024-02-28 12:00:00')")!
  ///     let date = Date(julianDay: julianDay)  // 2024-02-28 12:00:00 UTC
  ///
  /// Nil when the number is not finite or too large to be a date.
  public init?(julianDay: Double) {
    // SQLite counts whole milliseconds from the Julian day 0; the Unix epoch
    // is Julian day 2440587.5.
    let milliseconds = julianDay * 86_400_000
    guard milliseconds.isFinite, abs(milliseconds) < 9.0e18 else { return nil }
    let unixMilliseconds = Int64(milliseconds.rounded()) - 210_866_760_000_000
    self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000)
  }
}
