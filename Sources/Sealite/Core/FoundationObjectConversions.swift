import Foundation

// The Foundation classes that stand for a value Sealite already converts are
// stored as that value. GRDB declares most of them on Apple platforms only;
// swift-corelibs-foundation has them all, so Sealite declares them on Linux.
//
// These classes are not final, so `fromDatabaseValue(_:)` returns `Self?`. A
// class with a required initializer for its value (NSString, NSDate) makes an
// instance of `Self`, subclasses included; the others make an instance of the
// class and cast it, which a subclass refuses (nil).

extension NSNull: DatabaseValueConvertible {
  /// NULL.
  public var databaseValue: DatabaseValue { .null }

  /// Always nil, as in GRDB: a NULL column reads as `nil` through an
  /// optional, never as an `NSNull`.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? { nil }
}

extension NSData: DatabaseValueConvertible {
  /// Stored as a blob, as `Data` is.
  public var databaseValue: DatabaseValue {
    DatabaseValue(storage: .blob(Data(bytes: bytes, count: length)))
  }

  /// Reads what `Data` reads: blobs, and texts as their UTF-8 bytes. A
  /// subclass (`NSMutableData`) reads nil.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Data.fromDatabaseValue(dbValue).flatMap { ($0 as NSData) as? Self }
  }
}

extension NSString: DatabaseValueConvertible {
  /// Stored as a text, as `String` is.
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self as String)) }

  /// Reads what `String` reads: texts, and blobs that are valid UTF-8.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    String.fromDatabaseValue(dbValue).map { Self(string: $0) }
  }
}

extension NSDate: DatabaseValueConvertible {
  /// Stored as `Date` is: UTC text `yyyy-MM-dd HH:mm:ss.SSS`.
  public var databaseValue: DatabaseValue {
    Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate).databaseValue
  }

  /// Reads what `Date` reads: texts in SQLite's date formats and Unix
  /// timestamps.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Date.fromDatabaseValue(dbValue).map {
      Self(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate)
    }
  }
}
