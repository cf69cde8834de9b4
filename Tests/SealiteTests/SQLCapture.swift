import Foundation
import Sealite

/// The SQL of the statements a connection runs, as its trace reports them:
/// with placeholders, never with the values expanded. The one helper the
/// tests use to see what Sealite sends to SQLite.
final class SQLCapture {
  private(set) var statements: [String] = []

  /// Starts capturing on `db`, replacing its trace until ``stop(_:)``.
  init(on db: Database) {
    db.trace { [self] event in
      if case .statement(let statement) = event { statements.append(statement.sql) }
    }
  }

  /// Ends the capture on `db`.
  func stop(_ db: Database) { db.trace(nil) }

  /// Forgets what was captured so far.
  func reset() { statements.removeAll(keepingCapacity: true) }

  /// The statements that change data (not the schema queries the library makes).
  var writes: [String] {
    statements.filter {
      let head = $0.trimmingCharacters(in: .whitespaces).uppercased()
      return head.hasPrefix("INSERT") || head.hasPrefix("UPDATE") || head.hasPrefix("DELETE")
        || head.hasPrefix("REPLACE")
    }
  }

  /// True if a captured statement contains `text`.
  func contains(_ text: String) -> Bool { statements.contains { $0.contains(text) } }
}

/// The SQL of the statements `body` runs on `db`.
func capturedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
  let capture = SQLCapture(on: db)
  defer { capture.stop(db) }
  try body()
  return capture.statements
}
