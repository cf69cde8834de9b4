import CSQLCipher
import Foundation

// The fts5_api of a connection is handed out by the SQL function fts5(?), whose
// argument is bound with sqlite3_bind_pointer (SQLite 3.20). The legacy library
// (SQLite 3.15.2) does not export that function: it is looked up at run time,
// so that the library still links there (where FTS5 is missing anyway).

extension Database {
  /// The FTS5 C API of this connection. Throws ``SQLiteFeatureError`` where
  /// the linked SQLite has no FTS5.
  func fts5API() throws -> UnsafePointer<fts5_api> {
    try features.require(.fts5)
    guard let connection = sqliteConnection else {
      throw DatabaseError.misuse("the connection is closed")
    }
    guard let bindPointer = FTS5PointerBinding.linked?.bind else {
      throw SQLiteFeatureError(capability: .fts5, presentVersion: features.sqliteVersion)
    }
    var statement: SQLiteStatement?
    let code = sqlite3_prepare_v2(connection, "SELECT fts5(?)", -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage)
    }
    defer { sqlite3_finalize(statement) }
    var api: UnsafePointer<fts5_api>?
    // The type name must outlive the step, where fts5() compares it.
    let stepCode = withUnsafeMutablePointer(to: &api) { apiPointer in
      FTS5PointerBinding.apiPointerType.withCString { type in
        _ = bindPointer(statement, 1, UnsafeMutableRawPointer(apiPointer), type, nil)
        return sqlite3_step(statement)
      }
    }
    guard let api else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: stepCode == SQLITE_ROW ? SQLITE_ERROR : stepCode),
        message: "FTS5 did not hand out its API")
    }
    return api
  }
}

/// `sqlite3_bind_pointer`, found in the linked library.
private struct FTS5PointerBinding: @unchecked Sendable {
  // @unchecked Sendable: a C function pointer of the loaded library, never changed.
  typealias Bind =
    @convention(c) (
      OpaquePointer?, CInt, UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
      (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) -> CInt

  /// The pointer type that fts5() accepts.
  static let apiPointerType = "fts5_api_ptr"

  let bind: Bind

  static let linked: FTS5PointerBinding? = {
    guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
    defer { dlclose(handle) }
    guard let bind = dlsym(handle, "sqlite3_bind_pointer") else { return nil }
    return FTS5PointerBinding(bind: unsafeBitCast(bind, to: Bind.self))
  }()
}
