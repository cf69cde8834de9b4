import Foundation
import Sealite
import Testing

// GRDB's DatabaseError (DatabaseErrorTests): `message` is SQLite's own
// message, `description` adds the statement, `expandedDescription` the
// arguments too.

@Suite("Database errors carry SQLite's message; their descriptions add the context")
struct DatabaseErrorMessageTests {
  @Test("A failed statement: SQLite's message, its SQL, and GRDB's description")
  func failedStatement() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM foo") }
      #expect(error?.message == "no such table: foo")
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.extendedResultCode == .SQLITE_ERROR)
      #expect(error?.sql == "SELECT * FROM foo")
      #expect(
        error?.description == "SQLite error 1: no such table: foo - while executing `SELECT * FROM foo`")
    }
  }

  @Test("A constraint failure: the extended code, and the arguments only in expandedDescription by default")
  func constraintFailure() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE pets (name TEXT NOT NULL UNIQUE)")
      try db.execute(sql: "INSERT INTO pets (name) VALUES ('Bobby')")
      let error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO pets (name) VALUES (?)", arguments: ["Bobby"])
      }
      #expect(error?.resultCode == .SQLITE_CONSTRAINT)
      #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
      #expect(error?.message == "UNIQUE constraint failed: pets.name")
      #expect(error?.arguments == ["Bobby"])
      #expect(
        error?.description
          == "SQLite error 19: UNIQUE constraint failed: pets.name - while executing `INSERT INTO pets (name) VALUES (?)`"
      )
      #expect(
        error?.expandedDescription
          == "SQLite error 19: UNIQUE constraint failed: pets.name - while executing "
          + "`INSERT INTO pets (name) VALUES (?)` with arguments [\"Bobby\"]")
    }
  }

  @Test("With publicStatementArguments, the description has the arguments too")
  func publicArguments() throws {
    var config = Configuration()
    config.publicStatementArguments = true
    let dbQueue = try DatabaseQueue(configuration: config)
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE pets (name TEXT NOT NULL UNIQUE)")
      try db.execute(sql: "INSERT INTO pets (name) VALUES ('Bobby')")
      let error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO pets (name) VALUES (?)", arguments: ["Bobby"])
      }
      #expect(error?.description.hasSuffix("with arguments [\"Bobby\"]") == true)
      #expect(error?.description == error?.expandedDescription)
    }
  }

  @Test("An error made without a message has SQLite's text for its code")
  func defaultMessage() {
    #expect(DatabaseError().resultCode == .SQLITE_ERROR)
    #expect(DatabaseError().message?.isEmpty == false)
    #expect(DatabaseError().message != DatabaseError(resultCode: .SQLITE_BUSY).message)
    #expect(DatabaseError(resultCode: .SQLITE_BUSY).message == "database is locked")
    #expect(DatabaseError(resultCode: .SQLITE_BUSY).description == "SQLite error 5: database is locked")
    let error = DatabaseError(
      resultCode: .SQLITE_CONSTRAINT, message: "boom", sql: "SELECT ?", arguments: [1],
      publicStatementArguments: true)
    #expect(error.description == "SQLite error 19: boom - while executing `SELECT ?` with arguments [1]")
    #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
    #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
    #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
  }

  @Test("A file that can not be opened: SQLite's message, and the path in the description only")
  func openFailure() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("missing/db.sqlite")
    let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
    #expect(error?.resultCode == .SQLITE_CANTOPEN)
    #expect(error?.message == "unable to open database file")
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.hasPrefix("SQLite error 14: unable to open database file") == true)
  }

  @Test("A keying statement keeps its redaction: no key in the message, the SQL, or either description")
  func keyingRedaction() throws {
    let secret = "s3cr3t-passphrase-value"
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { (db: Database) throws in
      let error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "PRAGMA rekey = '\(secret)' garbage", arguments: [])
      }
      for text in [error?.message, error?.sql, error?.description, error?.expandedDescription] {
        #expect(text?.contains(secret) == false)
      }
    }
  }
}
