// Extended result codes of Sealite's own: conditions that Sealite, not SQLite,
// detects, under the primary code SQLite would give them. Code that matches
// the primary code (`catch DatabaseError.SQLITE_CANTOPEN`, `resultCode ==
// .SQLITE_BUSY`) sees them as before; code that must tell them apart (dbkey
// chooses its exit codes by them) matches the extended code, never the
// message. The high byte 0xC8 is far above every extended code SQLite defines.

extension ResultCode {
  /// No file is at the path a whole-file operation was given (export, import,
  /// verification, migration, a key change): `SQLITE_CANTOPEN`.
  public static let SEALITE_CANTOPEN_NOFILE = ResultCode(rawValue: 14 | (0xC8 << 8))
  /// Another whole-file operation (a key change, an export or import into the
  /// file, a migration) holds the database file, in this process or another,
  /// and did not end in time: `SQLITE_BUSY`.
  public static let SEALITE_BUSY_FILE_OPERATION = ResultCode(rawValue: 5 | (0xC8 << 8))
  /// The file's size is not a whole number of pages: it is truncated, or not a
  /// database: `SQLITE_NOTADB`.
  public static let SEALITE_NOTADB_PARTIAL_PAGE = ResultCode(rawValue: 26 | (0xC8 << 8))
}

extension DatabaseError {
  /// ``ResultCode/SEALITE_CANTOPEN_NOFILE``
  public static let SEALITE_CANTOPEN_NOFILE = ResultCode.SEALITE_CANTOPEN_NOFILE
  /// ``ResultCode/SEALITE_BUSY_FILE_OPERATION``
  public static let SEALITE_BUSY_FILE_OPERATION = ResultCode.SEALITE_BUSY_FILE_OPERATION
  /// ``ResultCode/SEALITE_NOTADB_PARTIAL_PAGE``
  public static let SEALITE_NOTADB_PARTIAL_PAGE = ResultCode.SEALITE_NOTADB_PARTIAL_PAGE
}
