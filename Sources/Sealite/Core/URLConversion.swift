import Foundation

extension URL: DatabaseValueConvertible {
  /// URLs are stored as their absolute string.
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }
  /// Reads a text (or a UTF-8 blob) that `URL(string:)` accepts.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
    String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
  }
}

extension NSURL: DatabaseValueConvertible {
  /// Stored as its absolute string, as `URL` is.
  public var databaseValue: DatabaseValue {
    // `absoluteString` is optional on some platforms: `Optional` covers both.
    let string: String? = absoluteString
    return string.map { DatabaseValue(storage: .string($0)) } ?? .null
  }

  /// Reads what `URL` reads. A subclass of `NSURL` reads nil: the value made
  /// is an `NSURL`.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    // NSURL has no required initializer to build `Self` with: bridge the URL
    // and cast it, which only `NSURL` itself accepts.
    URL.fromDatabaseValue(dbValue).flatMap { ($0 as NSURL) as? Self }
  }
}
