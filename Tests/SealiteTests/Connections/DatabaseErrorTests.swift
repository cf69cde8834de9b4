import Foundation
import Sealite
import Testing

private enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case memoryQueue
  case encryptedQueue
  case encryptedPool

  var testDescription: String { rawValue }

  func open(in directory: TemporaryDirectory, publicArguments: Bool = false) throws -> any DatabaseWriter {
    var config = self == .memoryQueue ? Configuration() : rawKeyConfiguration()
    config.publicStatementArguments = publicArguments
    let writer: any DatabaseWriter
    switch self {
    case .memoryQueue: writer = try DatabaseQueue(configuration: config)
    case .encryptedQueue: writer = try DatabaseQueue(path: directory.path(), configuration: config)
    case .encryptedPool: writer = try DatabasePool(path: directory.path(), configuration: config)
    }
    try writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INT CHECK (age >= 0));
          INSERT INTO person (email, age) VALUES ('ada@example.com', 36);
          """)
    }
    return writer
  }
}

private let insertSQL = "INSERT INTO person (email, age) VALUES (?, ?)"

@Suite("DatabaseError")
struct DatabaseErrorTests {
  @Test("a UNIQUE violation reports its codes, message, SQL and arguments", arguments: Store.allCases)
  fileprivate func uniqueViolation(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: insertSQL, arguments: ["ada@example.com", 12]) }
    }
    #expect(error?.resultCode == .SQLITE_CONSTRAINT)
    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
    #expect(error?.message?.contains("UNIQUE constraint failed: person.email") == true)
    #expect(error?.sql == insertSQL)
    #expect(error?.arguments == ["ada@example.com", 12])
  }

  @Test("ResultCode patterns catch errors by primary and by extended code", arguments: Store.allCases)
  fileprivate func patternMatching(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    func attempt(_ sql: String, _ arguments: StatementArguments) -> String {
      do {
        try writer.write { db in try db.execute(sql: sql, arguments: arguments) }
        return "no error"
      } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
        return "unique"
      } catch ResultCode.SQLITE_CONSTRAINT_NOTNULL {
        return "not null"
      } catch ResultCode.SQLITE_CONSTRAINT {
        return "other constraint"
      } catch {
        return "other: \(error)"
      }
    }
    #expect(attempt(insertSQL, ["ada@example.com", 1]) == "unique")
    #expect(attempt(insertSQL, [nil, 1]) == "not null")
    #expect(attempt(insertSQL, ["bob@example.com", -1]) == "other constraint")
    #expect(attempt(insertSQL, ["bob@example.com", 1]) == "no error")

    let syntaxError = attempt("INSERT INTO nowhere VALUES (1)", [])
    #expect(syntaxError.hasPrefix("other: "))
    // A primary code pattern does not match an unrelated error, nor a non-database error.
    #expect(!(ResultCode.SQLITE_CONSTRAINT ~= DatabaseError(resultCode: .SQLITE_BUSY)))
    struct NotADatabaseError: Error {}
    #expect(!(ResultCode.SQLITE_CONSTRAINT ~= NotADatabaseError()))
    #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK)))
  }

  @Test("ResultCode patterns match codes: a primary code its extended codes, an extended code itself")
  func resultCodePatternsMatchCodes() {
    #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT)
    #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY)
    #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY)
    #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= ResultCode.SQLITE_CONSTRAINT))
    #expect(!(ResultCode.SQLITE_TOOBIG ~= ResultCode.SQLITE_CONSTRAINT))
    // `==` stays exact: a primary code is not equal to its extended codes.
    #expect(ResultCode.SQLITE_CONSTRAINT != ResultCode.SQLITE_CONSTRAINT_CHECK)
    func kind(_ code: ResultCode) -> String {
      switch code {
      case .SQLITE_CONSTRAINT_FOREIGNKEY: return "foreign key"
      case .SQLITE_CONSTRAINT: return "other constraint"
      default: return "other"
      }
    }
    #expect(kind(.SQLITE_CONSTRAINT_FOREIGNKEY) == "foreign key")
    #expect(kind(.SQLITE_CONSTRAINT_CHECK) == "other constraint")
    #expect(kind(.SQLITE_CONSTRAINT) == "other constraint")
    #expect(kind(.SQLITE_TOOBIG) == "other")
  }

  @Test("a failed write leaves the database as it was", arguments: Store.allCases)
  fileprivate func failedWriteChangesNothing(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    let before = try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM person ORDER BY id") }
    #expect(throws: DatabaseError.self) {
      try writer.write { db in
        try db.execute(sql: "UPDATE person SET age = age + 1")
        try db.execute(sql: insertSQL, arguments: ["grace@example.com", 45])
        try db.execute(sql: "CREATE TABLE extra (x)")
        try db.execute(sql: insertSQL, arguments: ["ada@example.com", 1])
      }
    }
    #expect(throws: DatabaseError.self) {
      // Several statements in one string: the failing third one undoes the first two.
      try writer.write { db in
        try db.execute(
          sql:
            "INSERT INTO person (email) VALUES ('x@example.com'); DELETE FROM person; INSERT INTO nowhere VALUES (1)"
        )
      }
    }
    let after = try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM person ORDER BY id") }
    #expect(after == before)
    #expect(
      try writer.read { db in
        try Bool.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'")
      } == false)
  }

  @Test("error descriptions hide statement arguments by default", arguments: Store.allCases)
  fileprivate func argumentsHiddenByDefault(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: insertSQL, arguments: ["ada@example.com", 987_654]) }
    }
    let description = error.map(String.init(describing:)) ?? ""
    #expect(description.contains("UNIQUE constraint failed"))
    #expect(description.contains(insertSQL))
    #expect(!description.contains("with arguments"))
    #expect(!description.contains("987654"))
    #expect(!description.contains("ada@example.com"))
    // The arguments are still there for code that handles the error.
    #expect(error?.arguments == ["ada@example.com", 987_654])
  }

  @Test(
    "error descriptions show statement arguments with publicStatementArguments", arguments: Store.allCases)
  fileprivate func argumentsPublic(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory, publicArguments: true)
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: insertSQL, arguments: ["ada@example.com", 987_654]) }
    }
    let description = error.map(String.init(describing:)) ?? ""
    #expect(description.contains("987654"))
    #expect(description.contains("ada@example.com"))
    #expect(!description.contains("<hidden>"))
  }

  @Test("a syntax error names the statement and SQLite's message", arguments: Store.allCases)
  fileprivate func syntaxError(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    let error = #expect(throws: DatabaseError.self) {
      try writer.read { db in try Row.fetchAll(db, sql: "SELEKT * FROM person") }
    }
    #expect(error?.resultCode == .SQLITE_ERROR)
    #expect(error?.message?.contains("syntax error") == true)
    #expect(error?.sql == "SELEKT * FROM person")
    #expect(error?.arguments == nil)
  }

  @Test("wrong statement arguments are a misuse error naming the statement", arguments: Store.allCases)
  fileprivate func wrongArguments(store: Store) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    let tooFew = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: insertSQL, arguments: ["only one"]) }
    }
    #expect(tooFew?.resultCode == .SQLITE_MISUSE)
    #expect(tooFew?.sql == insertSQL)
    let missingName = #expect(throws: DatabaseError.self) {
      try writer.write { db in
        try db.execute(sql: "UPDATE person SET age = :age", arguments: ["agee": 2])
      }
    }
    #expect(missingName?.resultCode == .SQLITE_MISUSE)
    #expect(missingName?.message == "missing statement argument: age")
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT age FROM person") } == 36)
  }

  @Test("DatabaseError can be created and compared by code, message and SQL")
  func creation() {
    let error = DatabaseError(
      resultCode: .SQLITE_CONSTRAINT_CHECK, message: "CHECK constraint failed", sql: "INSERT …",
      arguments: [1])
    #expect(error.resultCode == .SQLITE_CONSTRAINT)
    #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
    #expect(
      error
        == DatabaseError(
          resultCode: .SQLITE_CONSTRAINT_CHECK, message: "CHECK constraint failed", sql: "INSERT …"))
    #expect(
      error
        != DatabaseError(
          resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "CHECK constraint failed", sql: "INSERT …"))
    #expect(String(describing: error).contains("CHECK constraint failed"))
  }
}
