// The least GRDB's way of running a prepared statement with new values costs:
// `statement.execute(arguments: [item.id, item.name, item.score, item.flag])`
// takes an array literal of optional existentials, which the caller
// allocates and fills for each row and which is destroyed and freed after
// it. The floor is the tight C loop doing the same: each row's values in
// such an array, handed to a function that is not inlined, which binds each
// value with its own `bind(to:at:)` (GRDB's `StatementBinding`, as Sealite
// binds them) before the step and reset. No statement object, no arguments
// kept, no error to build: what remains is the array and the existentials.

import CSQLCipher
import Sealite

enum ArgumentArrayFloor {
  /// The tight loop's insert, each row's values bound from an array literal.
  static func insert(_ items: [Item], into statement: RawStatement) throws {
    for item in items {
      try execute(statement, arguments: [item.id, item.name, item.score, item.flag])
    }
  }

  /// Binds `arguments` to the statement's parameters, in order, then runs it
  /// and resets it.
  @inline(never)
  static func execute(_ statement: RawStatement, arguments: [(any DatabaseValueConvertible)?]) throws {
    let code = arguments.withUnsafeBufferPointer { buffer -> CInt in
      // Each value is passed inout (never modified), as Sealite does: the
      // call borrows the existential where it is instead of copying it.
      guard let base = buffer.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else { return SQLITE_OK }
      for offset in 0..<buffer.count {
        let code = bind(&base[offset], to: statement.handle, at: CInt(offset + 1))
        if code != SQLITE_OK { return code }
      }
      return SQLITE_OK
    }
    guard code == SQLITE_OK else { throw BenchError("bind failed with code \(code)") }
    let stepCode = sqlite3_step(statement.handle)
    sqlite3_reset(statement.handle)
    guard stepCode == SQLITE_DONE else { throw BenchError("insert failed with code \(stepCode)") }
  }

  @inline(__always)
  private static func bind(
    _ value: inout (any DatabaseValueConvertible)?, to handle: OpaquePointer, at index: CInt
  )
    -> CInt
  {
    value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
  }
}
