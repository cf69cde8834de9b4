import Foundation
import Sealite
import Testing

@Suite("Export and import")
struct DatabaseExportTests {
  private let marker = "plaintext-marker-7f3a"

  /// A database with two tables, a schema version and a recognizable text.
  private func makeDatabase(_ path: String, key: DatabaseKey?) throws {
    var config = Configuration()
    config.key = key
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
          CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
          CREATE INDEX note_text ON note(text);
          PRAGMA user_version = 7;
          """)
      for index in 0..<50 {
        try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["\(marker) \(index)"])
      }
      try db.execute(sql: "INSERT INTO tag (name) VALUES ('a'), ('b')")
    }
    try dbQueue.close()
  }

  private func contents(_ path: String, key: DatabaseKey?) throws -> (
    notes: [String], tags: [String], version: Int
  ) {
    var config = Configuration()
    config.key = key
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    defer { try? dbQueue.close() }
    return try dbQueue.read { db in
      (
        try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY id"),
        try String.fetchAll(db, sql: "SELECT name FROM tag ORDER BY name"),
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1
      )
    }
  }

  @Test("Importing a plaintext database encrypts a copy and leaves the source untouched")
  func importPlaintext() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("plain.sqlite")
    try makeDatabase(source, key: nil)
    let sourceBytes = try #require(fileBytes(source))
    let key = DatabaseKey.randomRaw()
    let destination = directory.path("secret.sqlite")
    try DatabaseQueue.exportDatabase(atPath: source, key: nil, to: destination, destinationKey: key)
    #expect(fileBytes(source) == sourceBytes)
    let copied = try contents(destination, key: key)
    #expect(copied.notes.count == 50 && copied.notes.first == "\(marker) 0")
    #expect(copied.tags == ["a", "b"])
    #expect(copied.version == 7)
    let copyBytes = try #require(fileBytes(destination))
    #expect(copyBytes.range(of: Data(marker.utf8)) == nil)
    #expect(copyBytes.range(of: Data("SQLite format 3".utf8)) == nil)
    // Only the destination was added: no temporary file remains.
    #expect(directory.fileNames() == ["plain.sqlite", "secret.sqlite"])
  }

  @Test("Exporting an encrypted database to plaintext or to a new key copies every row")
  func exportEncrypted() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("secret.sqlite")
    let key = DatabaseKey.passphrase("export source")
    try makeDatabase(source, key: key)
    let plain = directory.path("plain.sqlite")
    try DatabaseQueue.exportDatabase(atPath: source, key: key, to: plain, destinationKey: nil)
    #expect(try contents(plain, key: nil).notes.count == 50)
    #expect(try #require(fileBytes(plain)).range(of: Data(marker.utf8)) != nil)
    let rekeyed = directory.path("rekeyed.sqlite")
    let newKey = DatabaseKey.randomRaw()
    try DatabaseQueue.exportDatabase(atPath: source, key: key, to: rekeyed, destinationKey: newKey)
    #expect(try contents(rekeyed, key: newKey).tags == ["a", "b"])
    #expect(throws: DatabaseError.self) { try contents(rekeyed, key: key) }
  }

  @Test("An existing destination is never overwritten without overwrite: true")
  func existingDestination() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("plain.sqlite")
    try makeDatabase(source, key: nil)
    let destination = directory.path("existing.sqlite")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: destination))
    let error = #expect(throws: DatabaseError.self) {
      try DatabaseQueue.exportDatabase(
        atPath: source, key: nil, to: destination, destinationKey: .randomRaw())
    }
    #expect(error?.message?.contains("already exists") == true)
    #expect(fileBytes(destination) == Data("precious".utf8))
    let key = DatabaseKey.randomRaw()
    try DatabaseQueue.exportDatabase(
      atPath: source, key: nil, to: destination, destinationKey: key, overwrite: true)
    #expect(try contents(destination, key: key).version == 7)
  }

  @Test("A wrong source key, a missing source or an unwritable directory fail and write nothing")
  func failuresWriteNothing() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("secret.sqlite")
    try makeDatabase(source, key: .passphrase("right"))
    let sourceBytes = try #require(fileBytes(source))
    let destination = directory.path("copy.sqlite")
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.exportDatabase(
        atPath: source, key: .passphrase("wrong"), to: destination, destinationKey: .randomRaw())
    }
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.exportDatabase(
        atPath: directory.path("missing.sqlite"), key: nil, to: destination, destinationKey: nil)
    }
    let readOnlyDirectory = directory.url.appendingPathComponent("readonly")
    try FileManager.default.createDirectory(at: readOnlyDirectory, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnlyDirectory.path)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: readOnlyDirectory.path)
    }
    if getuid() != 0 {
      // Root writes anywhere: the check is meaningful for other users only.
      #expect(throws: DatabaseError.self) {
        try DatabaseQueue.exportDatabase(
          atPath: source, key: .passphrase("right"),
          to: readOnlyDirectory.appendingPathComponent("x.sqlite").path,
          destinationKey: nil)
      }
    }
    #expect(fileBytes(source) == sourceBytes)
    #expect(directory.fileNames() == ["readonly", "secret.sqlite"])
  }

  @Test("A database in WAL mode exports with its latest commits")
  func walSource() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("pool.sqlite")
    let key = DatabaseKey.randomRaw()
    var config = Configuration()
    config.key = key
    let pool = try DatabasePool(path: source, configuration: config)
    try pool.write { db in
      try db.execute(
        sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); CREATE TABLE tag (name TEXT)")
      try db.execute(sql: "INSERT INTO note (text) VALUES ('in the wal')")
    }
    let destination = directory.path("copy.sqlite")
    try DatabaseQueue.exportDatabase(atPath: source, key: key, to: destination, destinationKey: key)
    #expect(try contents(destination, key: key).notes == ["in the wal"])
    try pool.close()
  }

  @Test("progress reports pages written, never going back, and ends with one completed report of every page")
  func progress() throws {
    let directory = TemporaryDirectory()
    let source = directory.path("big.sqlite")
    let key = DatabaseKey.randomRaw()
    var config = Configuration()
    config.key = key
    let queue = try DatabaseQueue(path: source, configuration: config)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE blob (data BLOB)")
      for _ in 0..<3000 { try db.execute(sql: "INSERT INTO blob VALUES (randomblob(4000))") }
    }
    let pageCount = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") }
    try queue.close()
    let reports = Locked<[DatabaseExportProgress]>([])
    try DatabaseQueue.exportDatabase(
      atPath: source, key: key, to: directory.path("copy.sqlite"), destinationKey: .randomRaw(),
      progress: { report in reports.withLock { $0.append(report) } })
    let all = reports.value
    let last = try #require(all.last)
    #expect(last.isCompleted && last.completedPageCount == pageCount && last.totalPageCount == pageCount)
    #expect(last.fractionCompleted == 1 && last.remainingPageCount == 0)
    #expect(all.dropLast().allSatisfy { !$0.isCompleted && $0.completedPageCount < $0.totalPageCount })
    #expect(zip(all, all.dropFirst()).allSatisfy { $0.completedPageCount <= $1.completedPageCount })
    // A sampled report arrives before the export starts writing: at least one before the end.
    #expect(all.count >= 2)
  }
}
