import Foundation

extension NSNumber: DatabaseValueConvertible {
  /// An integer, a boolean or an integral decimal number in Int64's range is
  /// stored as an INTEGER; any other number as a REAL, as GRDB stores them.
  ///
  /// An unsigned integer above `Int64.max` is stored as a REAL, as `UInt64`
  /// converts one (GRDB stops the program).
  public var databaseValue: DatabaseValue {
    if let decimal = self as? NSDecimalNumber {
      return decimal.decimalValue.integralInt64.map { DatabaseValue(storage: .int64($0)) }
        ?? DatabaseValue(storage: .double(doubleValue))
    }
    // The type code of the stored number (swift-corelibs-foundation may report
    // a narrower integer type than the one the number was made with).
    switch UInt8(bitPattern: objCType.pointee) {
    case UInt8(ascii: "f"), UInt8(ascii: "d"):
      return DatabaseValue(storage: .double(doubleValue))
    case UInt8(ascii: "Q"), UInt8(ascii: "L"):
      return uint64Value.databaseValue
    default:
      return DatabaseValue(storage: .int64(int64Value))
    }
  }

  /// Reads INTEGER and REAL values, and texts that hold a decimal number
  /// (as an `NSDecimalNumber`, read with the POSIX locale). An
  /// `NSDecimalNumber` reads what `Decimal` reads.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    if Self.self is NSDecimalNumber.Type {
      return Decimal.fromDatabaseValue(dbValue).flatMap { NSDecimalNumber(decimal: $0) as? Self }
    }
    // NSNumber has no required initializer to build `Self` with: make an
    // NSNumber and cast it.
    let number: NSNumber
    switch dbValue.storage {
    case .int64(let value): number = NSNumber(value: value)
    case .double(let value): number = NSNumber(value: value)
    case .string(let string):
      guard let decimal = Decimal(string: string, locale: posixLocale) else { return nil }
      number = NSDecimalNumber(decimal: decimal)
    case .null, .blob: return nil
    }
    return number as? Self
  }
}

extension Decimal {
  /// The value as an Int64, if it is an integer in Int64's range.
  var integralInt64: Int64? {
    var value = self
    var rounded = Decimal()
    NSDecimalRound(&rounded, &value, 0, .plain)
    guard rounded == self, self >= Decimal(Int64.min), self <= Decimal(Int64.max) else { return nil }
    return NSDecimalNumber(decimal: self).int64Value
  }
}

/// Numbers in texts are read with this locale (a `.` separates decimals).
let posixLocale = Locale(identifier: "en_US_POSIX")
