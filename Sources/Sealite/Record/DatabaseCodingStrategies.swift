import Foundation

/// How a Decodable record reads dates.
public enum DatabaseDateDecodingStrategy: Sendable {
  /// Dates convert as ``DatabaseValueConvertible`` values: SQLite date texts
  /// and Unix timestamps (the default).
  case deferredToDate
  /// Seconds since 1970-01-01 UTC.
  case timeIntervalSince1970
  /// Seconds since 2001-01-01 UTC.
  case timeIntervalSinceReferenceDate
  /// Milliseconds since 1970-01-01 UTC.
  case millisecondsSince1970
  /// ISO 8601 text.
  case iso8601
  /// Text parsed by a formatter.
  case formatted(DateFormatter)
  /// A custom conversion.
  case custom(@Sendable (DatabaseValue) -> Date?)

  func decode(_ dbValue: DatabaseValue) -> Date? {
    switch self {
    case .deferredToDate:
      return Date.fromDatabaseValue(dbValue)
    case .timeIntervalSince1970:
      return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0) }
    case .timeIntervalSinceReferenceDate:
      return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
    case .millisecondsSince1970:
      return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
    case .iso8601:
      return String.fromDatabaseValue(dbValue).flatMap { ISO8601DateFormatter().date(from: $0) }
    case .formatted(let formatter):
      return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
    case .custom(let decode):
      return decode(dbValue)
    }
  }
}

/// How an Encodable record writes dates.
public enum DatabaseDateEncodingStrategy: Sendable {
  /// `yyyy-MM-dd HH:mm:ss.SSS` UTC text (the default).
  case deferredToDate
  /// Seconds since 1970-01-01 UTC, as a real.
  case timeIntervalSince1970
  /// Seconds since 2001-01-01 UTC, as a real.
  case timeIntervalSinceReferenceDate
  /// Milliseconds since 1970-01-01 UTC, as an integer.
  case millisecondsSince1970
  /// Whole seconds since 1970-01-01 UTC, as an integer.
  case secondsSince1970
  /// ISO 8601 text.
  case iso8601
  /// Text made by a formatter.
  case formatted(DateFormatter)
  /// A custom conversion.
  case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

  func encode(_ date: Date) -> DatabaseValue {
    switch self {
    case .deferredToDate: return date.databaseValue
    case .timeIntervalSince1970: return date.timeIntervalSince1970.databaseValue
    case .timeIntervalSinceReferenceDate: return date.timeIntervalSinceReferenceDate.databaseValue
    case .millisecondsSince1970: return integer((date.timeIntervalSince1970 * 1000).rounded(.down))
    case .secondsSince1970: return integer(date.timeIntervalSince1970.rounded(.down))
    case .iso8601: return ISO8601DateFormatter().string(from: date).databaseValue
    case .formatted(let formatter): return formatter.string(from: date).databaseValue
    case .custom(let encode): return encode(date)?.databaseValue ?? .null
    }
  }

  /// A whole number as an integer; one beyond Int64 (a date millions of years
  /// away, an infinite or NaN date) as a real, instead of trapping.
  private func integer(_ value: Double) -> DatabaseValue {
    Int64(exactly: value).map { DatabaseValue(storage: .int64($0)) } ?? DatabaseValue(storage: .double(value))
  }
}

/// How a Decodable record reads `Data` values.
public enum DatabaseDataDecodingStrategy: Sendable {
  /// Blobs, and the UTF-8 bytes of text (the default).
  case deferredToData
  /// A custom conversion.
  case custom(@Sendable (DatabaseValue) -> Data?)

  func decode(_ dbValue: DatabaseValue) -> Data? {
    switch self {
    case .deferredToData: return Data.fromDatabaseValue(dbValue)
    case .custom(let decode): return decode(dbValue)
    }
  }
}

/// How an Encodable record writes `Data` values.
public enum DatabaseDataEncodingStrategy: Sendable {
  /// Blobs (the default).
  case deferredToData
  /// Text; the data must be valid UTF-8.
  case text
  /// A custom conversion.
  case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

  func encode(_ data: Data) throws -> DatabaseValue {
    switch self {
    case .deferredToData:
      return data.databaseValue
    case .text:
      guard let string = String(data: data, encoding: .utf8) else {
        throw EncodingError.invalidValue(
          data,
          EncodingError.Context(
            codingPath: [], debugDescription: "data that is not UTF-8 can not be stored as text"))
      }
      return string.databaseValue
    case .custom(let encode):
      return encode(data)?.databaseValue ?? .null
    }
  }
}

/// How an Encodable record writes UUIDs.
public enum DatabaseUUIDEncodingStrategy: Sendable {
  /// 16-byte blobs (the default).
  case deferredToUUID
  /// Uppercase text (`E621E1F8-…`).
  case uppercaseString
  /// Lowercase text (`e621e1f8-…`).
  case lowercaseString

  func encode(_ uuid: UUID) -> DatabaseValue {
    switch self {
    case .deferredToUUID: return uuid.databaseValue
    case .uppercaseString: return uuid.uuidString.databaseValue
    case .lowercaseString: return uuid.uuidString.lowercased().databaseValue
    }
  }
}

/// How a Decodable record finds the column of a coding key.
public enum DatabaseColumnDecodingStrategy: Sendable {
  /// The column has the key's name (the default).
  case useDefaultKeys
  /// `snake_case` columns decode into `camelCase` keys.
  case convertFromSnakeCase
  /// A custom conversion from column name to coding key.
  case custom(@Sendable (String) -> any CodingKey)

  func keyName(forColumn column: String) -> String {
    switch self {
    case .useDefaultKeys: return column
    case .convertFromSnakeCase: return SnakeCase.toCamelCase(column)
    case .custom(let convert): return convert(column).stringValue
    }
  }
}

/// How an Encodable record names the column of a coding key.
public enum DatabaseColumnEncodingStrategy: Sendable {
  /// The column has the key's name (the default).
  case useDefaultKeys
  /// `camelCase` keys encode into `snake_case` columns.
  case convertToSnakeCase
  /// A custom conversion from key to column name.
  case custom(@Sendable (any CodingKey) -> String)

  /// The column of `key`. Inlined where it is called, with the default
  /// strategy's case first: a call per column costs more than that case.
  @inline(__always)
  func columnName(for key: some CodingKey) -> String {
    if case .useDefaultKeys = self { return key.stringValue }
    return convertedColumnName(for: key)
  }

  /// The column of `key` under a strategy that converts its name.
  private func convertedColumnName(for key: some CodingKey) -> String {
    switch self {
    case .useDefaultKeys: return key.stringValue
    case .convertToSnakeCase: return SnakeCase.fromCamelCase(key.stringValue)
    case .custom(let convert): return convert(key)
    }
  }
}

enum SnakeCase {
  static func fromCamelCase(_ name: String) -> String {
    var result = ""
    var previousWasLowercaseOrDigit = false
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
      if character.isUppercase {
        let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
        if !result.isEmpty && (previousWasLowercaseOrDigit || nextIsLowercase) && result.last != "_" {
          result += "_"
        }
        result += character.lowercased()
        previousWasLowercaseOrDigit = false
      } else {
        result.append(character)
        previousWasLowercaseOrDigit = character.isLowercase || character.isNumber
      }
    }
    return result
  }

  static func toCamelCase(_ name: String) -> String {
    let parts = name.split(separator: "_", omittingEmptySubsequences: true)
    guard let first = parts.first else { return name }
    let leadingUnderscores = name.prefix { $0 == "_" }
    return leadingUnderscores + first
      + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }
}
