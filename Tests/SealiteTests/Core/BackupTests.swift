import Foundation
import Sealite
import Testing

@Suite("Backups")
struct BackupTests {
  /// A database file with one table of `count` rows.
  private func makeSource(_ path: String, _ configuration: Configuration, count: Int = 200) throws
    -> DatabaseQueue
  {
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, payload BLOB)")
      for _ in 0..<count {
        try db.execute(sql: "INSERT INTO item(payload) VALUES (randomblob(500))")
      }
    }
    return queue
  }

  private func itemCount(_ reader: some DatabaseReader) throws -> Int {
    try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")! }
  }

  @Test("A backup copies every page, step by step, into a queue or a pool", arguments: [false, true])
  func plaintextBackup(intoPool: Bool) throws {
    let directory = TemporaryDirectory()
    let source = try makeSource(directory.path("source.sqlite"), Configuration())
    let destination: any DatabaseWriter =
      intoPool
      ? try DatabasePool(path: directory.path("copy.sqlite"))
      : try DatabaseQueue(path: directory.path("copy.sqlite"))
    let steps = Shared<[DatabaseBackupProgress]>([])
    try source.backup(to: destination, pagesPerStep: 10) { progress in steps.update { $0.append(progress) } }
    #expect(try itemCount(destination) == 200)
    let progress = steps.value
    #expect(progress.count > 2)
    #expect(progress.last?.isCompleted == true)
    #expect(progress.last?.remainingPageCount == 0)
    #expect(progress.dropLast().allSatisfy { !$0.isCompleted && $0.completedPageCount > 0 })
    #expect(progress.map(\.completedPageCount) == progress.map(\.completedPageCount).sorted())
  }

  @Test("A backup between databases with the same key writes an encrypted copy that opens with that key")
  func encryptedBackup() throws {
    let directory = TemporaryDirectory()
    let configuration = rawKeyConfiguration()
    let source = try makeSource(directory.path("source.sqlite"), configuration)
    let copyPath = directory.path("copy.sqlite")
    try source.backup(to: DatabaseQueue(path: copyPath, configuration: configuration))
    #expect(try itemCount(DatabaseQueue(path: copyPath, configuration: configuration)) == 200)
    // Encrypted on disk: no SQLite header.
    #expect(fileBytes(copyPath)?.prefix(15) != Data("SQLite format 3".utf8))
  }

  @Test("Plaintext to encrypted, or encrypted to plaintext: a specific error, and nothing changes")
  func plaintextAndEncrypted() throws {
    let directory = TemporaryDirectory()
    let plain = try makeSource(directory.path("plain.sqlite"), Configuration(), count: 3)
    let encrypted = try makeSource(directory.path("encrypted.sqlite"), rawKeyConfiguration(), count: 5)
    for (source, destination) in [(encrypted, plain), (plain, encrypted)] {
      let before = fileBytes(destination.path)
      let error = #expect(throws: DatabaseError.self) { try source.backup(to: destination) }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message?.contains("sqlcipher_export") == true)
      #expect(fileBytes(destination.path) == before)
    }
    #expect(try itemCount(plain) == 3)
    #expect(try itemCount(encrypted) == 5)
  }

  @Test("A backup into a database with another key writes a copy encrypted with the destination's key")
  func backupBetweenKeys() throws {
    let directory = TemporaryDirectory()
    let source = try makeSource(directory.path("source.sqlite"), rawKeyConfiguration(), count: 5)
    let copyPath = directory.path("copy.sqlite")
    let destinationConfiguration = rawKeyConfiguration(byte: 0x17)
    try source.backup(to: DatabaseQueue(path: copyPath, configuration: destinationConfiguration))
    #expect(try itemCount(DatabaseQueue(path: copyPath, configuration: destinationConfiguration)) == 5)
    let error = #expect(throws: DatabaseError.self) {
      try DatabaseQueue(path: copyPath, configuration: rawKeyConfiguration())
    }
    #expect(error?.resultCode == .SQLITE_NOTADB)
  }

  @Test("An error thrown by the progress callback stops the backup and leaves the destination as it was")
  func cancelledBackup() throws {
    struct Stop: Error {}
    let directory = TemporaryDirectory()
    let source = try makeSource(directory.path("source.sqlite"), Configuration())
    let destination = try makeSource(directory.path("copy.sqlite"), Configuration(), count: 1)
    #expect(throws: Stop.self) {
      try source.backup(to: destination, pagesPerStep: 5) { progress in
        if progress.completedPageCount >= 10 { throw Stop() }
      }
    }
    #expect(try itemCount(destination) == 1)
  }

  @Test("An error thrown by the last progress report, once the copy is complete, is ignored, as in GRDB")
  func errorAfterCompletion() throws {
    struct Stop: Error {}
    let directory = TemporaryDirectory()
    let source = try makeSource(directory.path("source.sqlite"), Configuration())
    let destination = try makeSource(directory.path("copy.sqlite"), Configuration(), count: 1)
    let reports = Shared(0)
    try source.backup(to: destination, pagesPerStep: 5) { progress in
      reports.update { $0 += 1 }
      if progress.isCompleted { throw Stop() }
    }
    #expect(reports.value > 1)
    #expect(try itemCount(destination) == 200)
  }
}
