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

  /// Matches errors: `catch ResultCode.SQLITE_CONSTRAINT` catches every constraint
  /// error, `catch ResultCode.SQLITE_CONSTRAINT_UNIQUE` only unique violations.
  public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    if pattern.rawValue & ~0xFF == 0 { return error.resultCode == pattern }
    return error.extendedResultCode == pattern
  }

  // Primary result codes
  public static let SQLITE_OK = ResultCode(rawValue: 0)
  public static let SQLITE_ERROR = ResultCode(rawValue: 1)
  public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
  public static let SQLITE_PERM = ResultCode(rawValue: 3)
  public static let SQLITE_ABORT = ResultCode(rawValue: 4)
  public static let SQLITE_BUSY = ResultCode(rawValue: 5)
  public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
  public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
  public static let SQLITE_READONLY = ResultCode(rawValue: 8)
  public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
  public static let SQLITE_IOERR = ResultCode(rawValue: 10)
  public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
  public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
  public static let SQLITE_FULL = ResultCode(rawValue: 13)
  public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
  public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
  public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
  public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
  public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
  public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
  public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
  public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
  public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
  public static let SQLITE_AUTH = ResultCode(rawValue: 23)
  public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
  public static let SQLITE_RANGE = ResultCode(rawValue: 25)
  public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
  public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
  public static let SQLITE_WARNING = ResultCode(rawValue: 28)
  public static let SQLITE_ROW = ResultCode(rawValue: 100)
  public static let SQLITE_DONE = ResultCode(rawValue: 101)

  // Extended result codes users commonly match
  public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
  public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
  public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
  public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
  public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
  public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
  public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
  public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
  public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
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
