import Foundation
import Sealite
import Testing

/// The two writers the tests of the GRDB 7.8 record API run on.
enum RecordAPIWriter: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case queue
  case encryptedPool

  var testDescription: String { self == .queue ? "DatabaseQueue" : "encrypted DatabasePool" }

  /// Runs `body` on a fresh writer of this kind, whose schema `setUp` made.
  func run(setUp: String, _ body: (any DatabaseWriter) throws -> Void) throws {
    let directory = TemporaryDirectory()
    let writer: any DatabaseWriter
    switch self {
    case .queue: writer = try DatabaseQueue()
    case .encryptedPool:
      writer = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
    try writer.write { db in try db.execute(sql: setUp) }
    try body(writer)
  }
}
