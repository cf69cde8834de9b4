import CSQLCipher

// What a custom function hands back to SQLite: its result, converted as
// statement arguments are (an integer beyond SQLite's range is an error, not a
// silent REAL), or its error.

extension DatabaseFunction {
  /// Sets the result of the current call. SQLite copies texts and blobs.
  static func setResult(_ result: (any DatabaseValueConvertible)?, in context: OpaquePointer?) {
    var result = result
    var failure: String?
    let value = StatementArguments.convert(&result, failure: &failure)
    if let failure { return sqlite3_result_error(context, failure, -1) }
    switch value.storage {
    case .null:
      sqlite3_result_null(context)
    case .int64(let int):
      sqlite3_result_int64(context, int)
    case .double(let double):
      sqlite3_result_double(context, double)
    case .string(let string):
      var string = string
      string.withUTF8 { buffer in
        guard let bytes = buffer.baseAddress else {
          return sqlite3_result_text(context, "", 0, sqliteTransient)
        }
        bytes.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
          sqlite3_result_text(context, text, CInt(buffer.count), sqliteTransient)
        }
      }
    case .blob(let data):
      // An empty blob has no bytes to point to, and a NULL pointer would
      // make the result NULL.
      if data.isEmpty { return sqlite3_result_zeroblob(context, 0) }
      data.withUnsafeBytes { buffer in
        sqlite3_result_blob(context, buffer.baseAddress, CInt(buffer.count), sqliteTransient)
      }
    }
  }

  /// Fails the current call, as GRDB does: a ``DatabaseError`` keeps its
  /// extended result code and message, any other error is `SQLITE_ERROR`
  /// with its description. The statement's step then throws that error.
  static func setError(_ error: any Error, in context: OpaquePointer?) {
    guard let error = error as? DatabaseError else {
      return sqlite3_result_error(context, String(describing: error), -1)
    }
    // The message first: setting it resets the code to SQLITE_ERROR.
    if let message = error.message { sqlite3_result_error(context, message, -1) }
    sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
  }
}
