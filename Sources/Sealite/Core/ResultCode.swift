import CSQLCipher

/// An SQLite result code, primary or extended (see https://www.sqlite.org/rescode.html).
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The raw SQLite code.
  public let rawValue: CInt

  /// Creates a result code from its raw value.
  public init(rawValue: CInt) { self.rawValue = rawValue }

  /// The primary result code: the low eight bits of an extended code.
  public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  public var description: String {
    "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
  }

  /// Matches codes as GRDB does: a primary code matches its extended codes
  /// (`case .SQLITE_CONSTRAINT` is true of `SQLITE_CONSTRAINT_FOREIGNKEY`), an
  /// extended code only itself. Equality (`==`) stays exact.
  public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
    if pattern.rawValue & ~0xFF == 0 { return pattern == code.primaryResultCode }
    return pattern == code
  }

  /// Matches errors: `catch ResultCode.SQLITE_CONSTRAINT` catches every constraint
  /// error, `catch ResultCode.SQLITE_CONSTRAINT_UNIQUE` only unique violations.
  public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    if pattern.rawValue & ~0xFF == 0 { return error.resultCode == pattern }
    return error.extendedResultCode == pattern
  }

  // Primary result codes
  /// Successful result.
  public static let SQLITE_OK = ResultCode(rawValue: 0)
  /// A generic error: SQL error or missing database.
  public static let SQLITE_ERROR = ResultCode(rawValue: 1)
  /// An internal logic error in SQLite.
  public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
  /// Access permission denied.
  public static let SQLITE_PERM = ResultCode(rawValue: 3)
  /// A callback routine requested an abort.
  public static let SQLITE_ABORT = ResultCode(rawValue: 4)
  /// The database file is locked by another connection.
  public static let SQLITE_BUSY = ResultCode(rawValue: 5)
  /// A table in the database is locked (a conflict within the same connection or shared cache).
  public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
  /// A memory allocation failed.
  public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
  /// An attempt to write a read-only database.
  public static let SQLITE_READONLY = ResultCode(rawValue: 8)
  /// The operation was interrupted by `sqlite3_interrupt()`.
  public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
  /// A disk I/O error occurred.
  public static let SQLITE_IOERR = ResultCode(rawValue: 10)
  /// The database disk image is malformed (with SQLCipher, also a page that fails authentication).
  public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
  /// Unknown opcode in `sqlite3_file_control()`.
  public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
  /// Insertion failed because the database or the disk is full.
  public static let SQLITE_FULL = ResultCode(rawValue: 13)
  /// Unable to open the database file.
  public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
  /// A database lock protocol error.
  public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
  /// Not used by SQLite.
  public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
  /// The database schema changed while a statement was prepared.
  public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
  /// A string or blob exceeds the size limit.
  public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
  /// A constraint violation: the primary code of every constraint error.
  public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
  /// A data type mismatch.
  public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
  /// The library was used incorrectly.
  public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
  /// The host lacks large file support.
  public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
  /// The authorizer denied the statement.
  public static let SQLITE_AUTH = ResultCode(rawValue: 23)
  /// Not used by SQLite.
  public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
  /// A statement argument index is out of range.
  public static let SQLITE_RANGE = ResultCode(rawValue: 25)
  /// The file is not a database, or the key does not open it.
  public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
  /// A notification from `sqlite3_log()`.
  public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
  /// A warning from `sqlite3_log()`.
  public static let SQLITE_WARNING = ResultCode(rawValue: 28)
  /// `sqlite3_step()` has another row ready.
  public static let SQLITE_ROW = ResultCode(rawValue: 100)
  /// `sqlite3_step()` has finished executing.
  public static let SQLITE_DONE = ResultCode(rawValue: 101)

  // Extended result codes users commonly match
  /// A read transaction can not be upgraded to a write transaction: another connection wrote since it started.
  public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
  /// A read-only connection found a hot journal, which only a connection that
  /// can write may roll back.
  public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | (3 << 8))
  /// The database file was moved or deleted while open, so it can not be written.
  public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
  /// A read returned fewer bytes than requested.
  public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
  /// A `CHECK` constraint failed.
  public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
  /// A foreign key constraint failed.
  public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
  /// A `NOT NULL` constraint failed.
  public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
  /// A `PRIMARY KEY` constraint failed.
  public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
  /// A trigger raised an error with `RAISE(ABORT|FAIL|ROLLBACK, …)`.
  public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
  /// A `UNIQUE` constraint failed.
  public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
  /// A rowid is not unique.
  public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
}

/// GRDB's spelling: `catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE { … }`.
extension DatabaseError {
  /// ``ResultCode/SQLITE_OK``
  public static let SQLITE_OK = ResultCode.SQLITE_OK
  /// ``ResultCode/SQLITE_ERROR``
  public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
  /// ``ResultCode/SQLITE_INTERNAL``
  public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
  /// ``ResultCode/SQLITE_PERM``
  public static let SQLITE_PERM = ResultCode.SQLITE_PERM
  /// ``ResultCode/SQLITE_ABORT``
  public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
  /// ``ResultCode/SQLITE_BUSY``
  public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
  /// ``ResultCode/SQLITE_LOCKED``
  public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
  /// ``ResultCode/SQLITE_NOMEM``
  public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
  /// ``ResultCode/SQLITE_READONLY``
  public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
  /// ``ResultCode/SQLITE_INTERRUPT``
  public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
  /// ``ResultCode/SQLITE_IOERR``
  public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
  /// ``ResultCode/SQLITE_CORRUPT``
  public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
  /// ``ResultCode/SQLITE_NOTFOUND``
  public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
  /// ``ResultCode/SQLITE_FULL``
  public static let SQLITE_FULL = ResultCode.SQLITE_FULL
  /// ``ResultCode/SQLITE_CANTOPEN``
  public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
  /// ``ResultCode/SQLITE_PROTOCOL``
  public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
  /// ``ResultCode/SQLITE_EMPTY``
  public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
  /// ``ResultCode/SQLITE_SCHEMA``
  public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
  /// ``ResultCode/SQLITE_TOOBIG``
  public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
  /// ``ResultCode/SQLITE_CONSTRAINT``
  public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
  /// ``ResultCode/SQLITE_MISMATCH``
  public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
  /// ``ResultCode/SQLITE_MISUSE``
  public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
  /// ``ResultCode/SQLITE_NOLFS``
  public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
  /// ``ResultCode/SQLITE_AUTH``
  public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
  /// ``ResultCode/SQLITE_FORMAT``
  public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
  /// ``ResultCode/SQLITE_RANGE``
  public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
  /// ``ResultCode/SQLITE_NOTADB``
  public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
  /// ``ResultCode/SQLITE_NOTICE``
  public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
  /// ``ResultCode/SQLITE_WARNING``
  public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
  /// ``ResultCode/SQLITE_ROW``
  public static let SQLITE_ROW = ResultCode.SQLITE_ROW
  /// ``ResultCode/SQLITE_DONE``
  public static let SQLITE_DONE = ResultCode.SQLITE_DONE
  /// ``ResultCode/SQLITE_BUSY_SNAPSHOT``
  public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
  /// ``ResultCode/SQLITE_READONLY_ROLLBACK``
  public static let SQLITE_READONLY_ROLLBACK = ResultCode.SQLITE_READONLY_ROLLBACK
  /// ``ResultCode/SQLITE_READONLY_DBMOVED``
  public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
  /// ``ResultCode/SQLITE_IOERR_SHORT_READ``
  public static let SQLITE_IOERR_SHORT_READ = ResultCode.SQLITE_IOERR_SHORT_READ
  /// ``ResultCode/SQLITE_CONSTRAINT_CHECK``
  public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
  /// ``ResultCode/SQLITE_CONSTRAINT_FOREIGNKEY``
  public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
  /// ``ResultCode/SQLITE_CONSTRAINT_NOTNULL``
  public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
  /// ``ResultCode/SQLITE_CONSTRAINT_PRIMARYKEY``
  public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
  /// ``ResultCode/SQLITE_CONSTRAINT_TRIGGER``
  public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
  /// ``ResultCode/SQLITE_CONSTRAINT_UNIQUE``
  public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
  /// ``ResultCode/SQLITE_CONSTRAINT_ROWID``
  public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
}
