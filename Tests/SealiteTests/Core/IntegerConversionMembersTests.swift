import Sealite
import Testing

@Suite("The DatabaseValueConvertible members of every integer type")
struct IntegerConversionMembersTests {
  /// `databaseValue` and `fromDatabaseValue(_:)`, called on the type itself.
  private func roundTrip<T: DatabaseValueConvertible & FixedWidthInteger>(_ type: T.Type) {
    let value: T = 42
    #expect(value.databaseValue == 42.databaseValue)
    #expect(T.fromDatabaseValue(value.databaseValue) == value)
    #expect(T.fromDatabaseValue(DatabaseValue.null) == nil)
    // Out of range for the type: no value, not a wrapped one.
    #expect(
      T.fromDatabaseValue(Int64.min.databaseValue) == (T.isSigned && T.bitWidth == 64 ? T(Int64.min) : nil))
  }

  @Test("Int, Int8 … UInt64 convert to and from database values")
  func members() {
    #expect(Int.fromDatabaseValue(Int(7).databaseValue) == 7)
    #expect(Int8.fromDatabaseValue(Int8(-7).databaseValue) == -7)
    #expect(Int16.fromDatabaseValue(Int16(300).databaseValue) == 300)
    #expect(Int32.fromDatabaseValue(Int32(70_000).databaseValue) == 70_000)
    #expect(UInt.fromDatabaseValue(UInt(7).databaseValue) == 7)
    #expect(UInt8.fromDatabaseValue(UInt8(255).databaseValue) == 255)
    #expect(UInt16.fromDatabaseValue(UInt16(65_535).databaseValue) == 65_535)
    #expect(UInt32.fromDatabaseValue(UInt32(4_000_000_000).databaseValue) == 4_000_000_000)
    #expect(UInt64.fromDatabaseValue(UInt64(7).databaseValue) == 7)
    roundTrip(Int.self)
    roundTrip(Int8.self)
    roundTrip(Int16.self)
    roundTrip(Int32.self)
    roundTrip(UInt.self)
    roundTrip(UInt8.self)
    roundTrip(UInt16.self)
    roundTrip(UInt32.self)
    roundTrip(UInt64.self)
  }
}
