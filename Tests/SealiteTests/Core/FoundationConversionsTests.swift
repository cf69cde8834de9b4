import Foundation
import Sealite
import Testing

/// Stores `value` as a statement argument in an encrypted database file, and
/// returns its storage class and the value read back as `T`.
private func storeAndRead<T: DatabaseValueConvertible>(
  _ value: some DatabaseValueConvertible, as type: T.Type
)
  throws -> (storageClass: String, stored: DatabaseValue, read: T?)
{
  let directory = TemporaryDirectory()
  let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
  return try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (v)")
    try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
    let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(v) AS type, v FROM t"))
    return (row["type"], row["v"], T.fromDatabaseValue(row["v"]))
  }
}

@Suite(
  "The Foundation types GRDB converts: NSNumber, NSString, NSData, NSDate, NSURL, NSUUID, NSNull, Decimal, CGFloat"
)
struct FoundationConversionsTests {
  @Test("NSNumber stores integers and booleans as INTEGER, other numbers as REAL")
  func nsNumberStorage() throws {
    let integer = try storeAndRead(NSNumber(value: 42), as: NSNumber.self)
    #expect(integer.storageClass == "integer")
    #expect(integer.read == NSNumber(value: 42))
    let large = try storeAndRead(NSNumber(value: Int64.max), as: NSNumber.self)
    #expect(large.stored == DatabaseValue(storage: .int64(.max)))
    let boolean = try storeAndRead(NSNumber(value: true), as: Bool.self)
    #expect(boolean.storageClass == "integer")
    #expect(boolean.read == true)
    let real = try storeAndRead(NSNumber(value: 1.5), as: NSNumber.self)
    #expect(real.storageClass == "real")
    #expect(real.read?.doubleValue == 1.5)
    let float = try storeAndRead(NSNumber(value: Float(0.25)), as: Double.self)
    #expect(float.storageClass == "real")
    #expect(float.read == 0.25)
  }

  @Test("an NSDecimalNumber is stored as INTEGER when integral, as REAL otherwise")
  func nsDecimalNumberStorage() throws {
    let integral = try storeAndRead(NSDecimalNumber(string: "12"), as: Int.self)
    #expect(integral.storageClass == "integer")
    #expect(integral.read == 12)
    let fraction = try storeAndRead(NSDecimalNumber(string: "0.5"), as: Double.self)
    #expect(fraction.storageClass == "real")
    #expect(fraction.read == 0.5)
  }

  @Test("NSNumber reads a decimal text as an NSDecimalNumber, and nothing from a blob or a word")
  func nsNumberReading() throws {
    let number = try #require(NSNumber.fromDatabaseValue("12.25".databaseValue))
    #expect(number is NSDecimalNumber)
    #expect(number.doubleValue == 12.25)
    #expect(NSNumber.fromDatabaseValue(Data([1]).databaseValue) == nil)
    #expect(NSNumber.fromDatabaseValue(.null) == nil)
    #expect(NSDecimalNumber.fromDatabaseValue(7.databaseValue) == NSDecimalNumber(value: 7))
    #expect(NSDecimalNumber.fromDatabaseValue("3.25".databaseValue) == NSDecimalNumber(string: "3.25"))
  }

  @Test("Decimal is stored as the text of its digits, and reads back without losing any")
  func decimal() throws {
    let pi = try #require(
      Decimal(string: "3.14159265358979323846", locale: Locale(identifier: "en_US_POSIX")))
    let result = try storeAndRead(pi, as: Decimal.self)
    #expect(result.storageClass == "text")
    #expect(result.stored == "3.14159265358979323846")
    #expect(result.read == pi)
    #expect(Decimal.fromDatabaseValue(12.databaseValue) == 12)
    #expect(Decimal.fromDatabaseValue(0.5.databaseValue) == Decimal(string: "0.5"))
    #expect(Decimal.fromDatabaseValue(Data([1]).databaseValue) == nil)
    #expect(Decimal.fromDatabaseValue(.null) == nil)
  }

  @Test("Decimal values fetch from INTEGER, REAL and text columns")
  func decimalFetch() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      let decimals = try Decimal.fetchAll(
        db, sql: "SELECT 2, 1 AS o UNION ALL SELECT 0.5, 2 UNION ALL SELECT '1.125', 3 ORDER BY o")
      #expect(decimals == [2, 0.5, 1.125])
      let null = try Decimal?.fetchOne(db, sql: "SELECT NULL")
      #expect(null == .some(nil))
    }
  }

  @Test("NSString, NSData, NSDate, NSURL and NSUUID are stored as String, Data, Date, URL and UUID are")
  func storedLikeTheirValueTypes() throws {
    let string = try storeAndRead("Élodie" as NSString, as: NSString.self)
    #expect(string.stored == "Élodie".databaseValue)
    #expect(string.read == "Élodie")

    let data = try storeAndRead(NSData(data: Data([1, 2, 3])), as: NSData.self)
    #expect(data.stored == Data([1, 2, 3]).databaseValue)
    #expect(data.read.map { Data(referencing: $0) } == Data([1, 2, 3]))

    let date = Date(timeIntervalSince1970: 1_500_000_000.5)
    let nsDate = try storeAndRead(NSDate(timeIntervalSince1970: date.timeIntervalSince1970), as: NSDate.self)
    #expect(nsDate.stored == date.databaseValue)
    #expect(nsDate.read?.timeIntervalSince1970 == date.timeIntervalSince1970)

    let url = try #require(URL(string: "https://example.com/a?b=c"))
    let nsURL = try storeAndRead(try #require(NSURL(string: url.absoluteString)), as: NSURL.self)
    #expect(nsURL.stored == url.databaseValue)
    #expect(nsURL.read?.absoluteString == url.absoluteString)

    let uuid = UUID()
    let nsUUID = try storeAndRead(NSUUID(uuidString: uuid.uuidString)!, as: NSUUID.self)
    #expect(nsUUID.storageClass == "blob")
    #expect(nsUUID.stored == uuid.databaseValue)
    #expect(nsUUID.read?.uuidString == uuid.uuidString)
    #expect(NSUUID.fromDatabaseValue(uuid.uuidString.databaseValue)?.uuidString == uuid.uuidString)
  }

  @Test(
    "NSString and NSDate read as the subclass asked for; NSMutableData, which can not be made so, reads nil")
  func subclasses() throws {
    let mutable = try #require(NSMutableString.fromDatabaseValue("abc".databaseValue))
    mutable.append("d")
    #expect(mutable == "abcd")
    #expect(NSMutableData.fromDatabaseValue(Data([1]).databaseValue) == nil)
    #expect(NSString.fromDatabaseValue(1.databaseValue) == nil)
    #expect(NSData.fromDatabaseValue(1.databaseValue) == nil)
  }

  @Test("NSNull is stored as NULL, and nothing reads as NSNull")
  func nsNull() throws {
    let result = try storeAndRead(NSNull(), as: NSNull.self)
    #expect(result.storageClass == "null")
    #expect(result.read == nil)
  }

  @Test("CGFloat is stored as a REAL and reads INTEGER and REAL values")
  func cgFloat() throws {
    let result = try storeAndRead(CGFloat(2.5), as: CGFloat.self)
    #expect(result.storageClass == "real")
    #expect(result.read == 2.5)
    #expect(CGFloat.fromDatabaseValue(3.databaseValue) == 3)
    #expect(CGFloat.fromDatabaseValue("3".databaseValue) == nil)
  }
}
