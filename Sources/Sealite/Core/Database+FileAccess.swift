import Foundation

// The first read of a new connection, which proves that it can read the file
// (the key, if any, opens it) before anything is written, and says why not.

extension Database {
  /// Reads the schema once, which reads and decrypts page 1: a wrong key, a
  /// missing key or a file that is not a database fails here, with an error that
  /// says which, before anything is written.
  func validateFileAccess() throws {
    do {
      _ = try Int.fetchOne(self, sql: "SELECT count(*) FROM sqlite_master")
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    {
      throw OpeningFailure.classify(path: path, isKeyed: isKeyed, underlying: error)
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_READONLY && FileManager.default.fileExists(atPath: path + "-journal")
    {
      // A hot journal: SQLite must roll the interrupted transaction back before
      // anything can be read, and a read-only connection can not write.
      throw DatabaseError(
        resultCode: .SQLITE_READONLY_ROLLBACK,
        message: "a transaction interrupted by a crash left \(path)-journal behind, and a read-only "
          + "connection can not roll it back: open the database for writing once")
    }
  }
}

/// Tells apart the reasons SQLCipher reports as "file is not a database".
enum OpeningFailure {
  static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

  static func classify(path: String, isKeyed: Bool, underlying: DatabaseError) -> DatabaseError {
    // Other connections of this process may have the file locked.
    guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:"),
      let header = LockPreservingFileRead.prefix(of: path, count: 16)
    else { return underlying }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let message: String
    var code = underlying.extendedResultCode
    if header == sqliteHeader {
      message =
        isKeyed
        ? "this database is not encrypted: it can not be opened with a key (\(path))"
        : "the database file is corrupt (\(path))"
    } else if isKeyed, underlying.resultCode == .SQLITE_CORRUPT {
      // A wrong key fails on page 1 (SQLITE_NOTADB); here the key decrypted
      // page 1, but its header counts more pages than the file holds, or
      // another page of the schema fails authentication.
      message =
        "the database file is truncated or damaged: the key opens its first page, but not the rest (\(path))"
    } else if size < 512 || size % 512 != 0 {
      // An encrypted database is a whole number of pages of at least 512 bytes.
      if size > 0 && size % 512 != 0 {
        message =
          "file is not a database, or is truncated: its size (\(size) bytes) is not a whole number of pages (\(path))"
        if code.primaryResultCode == .SQLITE_NOTADB { code = .SEALITE_NOTADB_PARTIAL_PAGE }
      } else {
        message = "file is not a database (\(path))"
      }
    } else if isKeyed {
      message = "the key does not open this database: wrong key, or wrong cipher settings (\(path))"
    } else {
      message = "this database is encrypted, or is not a database: a key is needed to open it (\(path))"
    }
    return DatabaseError(resultCode: code, message: message)
  }
}
