/// A modifier of SQLite's date and time functions (`'+3 days'`,
/// `'start of month'`…), for ``julianDay(_:_:)`` and ``dateTime(_:_:)``:
///
///     // SELECT * FROM event WHERE date > DATETIME('now', '-7 days')
///     let recent = Event.filter(Column("date") > dateTime("now".databaseValue.sqlExpression, .day(-7)))
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
  /// Adds seconds (negative to subtract).
  case second(Double)
  /// Adds minutes.
  case minute(Int)
  /// Adds hours.
  case hour(Int)
  /// Adds days.
  case day(Int)
  /// Adds months.
  case month(Int)
  /// Adds years.
  case year(Int)
  /// Back to midnight.
  case startOfDay
  /// Back to the first day of the month.
  case startOfMonth
  /// Back to the first day of the year.
  case startOfYear
  /// Forward to the next day whose weekday is the given one (0 is Sunday).
  case weekday(Int)
  /// The value is a number of seconds since 1970.
  case unixEpoch
  /// From UTC to local time.
  case localTime
  /// From local time to UTC.
  case utc

  /// The modifier as SQL text, an argument of the date function.
  public var sqlExpression: SQLExpression { text.sqlExpression }

  /// SQLite's spelling of the modifier.
  var text: String {
    switch self {
    case .second(let value): "\(value) seconds"
    case .minute(let value): "\(value) minutes"
    case .hour(let value): "\(value) hours"
    case .day(let value): "\(value) days"
    case .month(let value): "\(value) months"
    case .year(let value): "\(value) years"
    case .startOfDay: "start of day"
    case .startOfMonth: "start of month"
    case .startOfYear: "start of year"
    case .weekday(let value): "weekday \(value)"
    case .unixEpoch: "unixepoch"
    case .localTime: "localtime"
    case .utc: "utc"
    }
  }
}

/// `JULIANDAY(value, modifiers…)`: the date as a Julian day number.
///
///     Player.select(julianDay(Column("lastSeen"), .startOfDay))
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression
{
  SQLExpression(
    .function("JULIANDAY", [value.sqlExpression] + modifiers.map(\.sqlExpression), distinct: false))
}

/// `DATETIME(value, modifiers…)`: the date as `YYYY-MM-DD HH:MM:SS` text.
///
///     Event.filter(Column("date") < dateTime(Column("deadline"), .day(1)))
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
  SQLExpression(
    .function("DATETIME", [value.sqlExpression] + modifiers.map(\.sqlExpression), distinct: false))
}
