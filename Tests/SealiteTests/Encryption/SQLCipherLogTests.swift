import Foundation
import Sealite
import Testing

@Suite("SQLCipher prints nothing")
struct SQLCipherLogTests {
  // A fresh process: SQLCipher's log level is process-wide, so only a process
  // that opened nothing before shows what opening with a wrong key prints.
  @Test("a wrong key is a thrown error, and SQLCipher's own log stays silent on stderr")
  func wrongKeyLogsNothing() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("sealite-log-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let path = directory.appendingPathComponent("db.sqlite").path
      var right = Configuration()
      right.key = .passphrase("right")
      let dbQueue = try DatabaseQueue(path: path, configuration: right)
      try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
      try dbQueue.close()
      var wrong = Configuration()
      wrong.key = .passphrase("wrong")
      do {
        _ = try DatabaseQueue(path: path, configuration: wrong)
        exit(2)  // the wrong key must not open the database
      } catch is DatabaseError {
        exit(0)
      }
    }
    let output = String(decoding: result.standardErrorContent, as: UTF8.self)
    // SQLCipher 4 writes lines such as "ERROR CORE sqlcipher_page_cipher: hmac
    // check failed" to stderr unless told not to.
    #expect(!output.contains("CORE"), "SQLCipher logged: \(output)")
    #expect(!output.lowercased().contains("hmac"), "SQLCipher logged: \(output)")
  }
}
