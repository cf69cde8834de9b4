import Foundation
import Sealite
import Testing

// The full-text index of an encrypted database holds the words of its
// documents, in its shadow tables: they must be as encrypted as the rest, in
// the database file, its WAL and its rollback journal, during a transaction
// and after it. The files are read by a child process: a read of ours would
// close a descriptor of a locked file, and release the locks of this
// process's connections (see Core/LockPreservingFileRead.swift).

/// The size of a file (stat opens no descriptor), or 0.
private func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Words that appear nowhere but in the documents the tests write.
private let secretWords = ["xylophonequartz", "zanzibarmeridian", "quokkalantern"]

/// The secret words found in the files at `paths` (the missing files are skipped).
private func leakedWords(in paths: [String]) async throws -> Set<String> {
  let existing = paths.filter { FileManager.default.fileExists(atPath: $0) }
  guard !existing.isEmpty else { return [] }
  let arguments = ["-a", "-o", "-h", "-F"] + secretWords.flatMap { ["-e", $0] } + existing
  let result = try await runProcess("/bin/grep", arguments)
  // grep: 0 when something matched, 1 when nothing did, 2 on error.
  #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
  return Set(result.stdout.split(separator: "\n").map(String.init))
}

/// Inserts enough documents, with the secret words, that pages spill from a
/// small page cache into the files before the commit.
private func writeSecrets(_ db: Database) throws {
  try db.execute(sql: "PRAGMA cache_size = 2")
  for index in 0..<300 {
    try db.execute(
      sql: "INSERT INTO notes(body) VALUES (?)",
      arguments: [
        "note \(index): \(secretWords.joined(separator: " ")) \(String(repeating: "filler ", count: 20))"
      ])
  }
}

private func createNotes(_ db: Database) throws {
  try db.create(virtualTable: "notes", using: FTS5()) { t in
    t.tokenizer = .porter()
    t.column("body")
  }
}

@Suite("FTS5 in an encrypted database leaks no word to its files", .enabled(if: fts5Available))
struct FTS5EncryptionTests {
  @Test("the detector sees the words of an unencrypted database (so that the other tests can fail)")
  func plaintextControl() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let dbQueue = try DatabaseQueue(path: path)
    try await dbQueue.write { (db: Database) throws in
      try createNotes(db)
      try writeSecrets(db)
    }
    #expect(try await leakedWords(in: [path]) == Set(secretWords))
  }

  @Test("a queue in rollback-journal mode: database file and journal, in a transaction and after")
  func rollbackJournal() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = rawKeyConfiguration()
    config.allowsUnsafeTransactions = true
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try await dbQueue.writeWithoutTransaction { (db: Database) throws in
      #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "delete")
      try createNotes(db)
      try db.execute(sql: "INSERT INTO notes(body) VALUES ('first note')")
      try db.execute(sql: "PRAGMA journal_mode = persist")  // the journal stays, to be read after
    }
    let sizeBefore = fileSize(path)
    try await dbQueue.writeWithoutTransaction { (db: Database) throws in
      try db.beginTransaction()
      try writeSecrets(db)
      try db.execute(
        sql: "UPDATE notes SET body = body || ' ' || ? WHERE rowid = 1", arguments: [secretWords[0]])
    }
    let files = [path, path + "-journal"]
    // The small page cache spilled pages into the file before the commit.
    #expect(fileSize(path) > sizeBefore)
    #expect(fileSize(path + "-journal") > 0)
    #expect(try await leakedWords(in: files).isEmpty)
    try await dbQueue.writeWithoutTransaction { (db: Database) throws in
      try db.commit()
      #expect(
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM notes WHERE notes MATCH ?", arguments: [secretWords[1]]) == 300)
    }
    #expect(try await leakedWords(in: files).isEmpty)
    // A rollback writes the journal's pages back: still nothing readable.
    try await dbQueue.writeWithoutTransaction { (db: Database) throws in
      try db.beginTransaction()
      try db.execute(sql: "DELETE FROM notes")
      try db.execute(
        sql: "INSERT INTO notes(body) VALUES (?)", arguments: [secretWords.joined(separator: " ")])
    }
    #expect(try await leakedWords(in: files).isEmpty)
    try await dbQueue.writeWithoutTransaction { (db: Database) throws in try db.rollback() }
    #expect(try await leakedWords(in: files).isEmpty)
    try dbQueue.close()
  }

  @Test("a WAL pool: database file and WAL, in a transaction, after, and after a checkpoint")
  func walPool() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = rawKeyConfiguration()
    config.allowsUnsafeTransactions = true
    let pool = try DatabasePool(path: path, configuration: config)
    try await pool.writeWithoutTransaction { (db: Database) throws in
      try createNotes(db)
      try db.beginTransaction()
      try writeSecrets(db)
    }
    let files = [path, path + "-wal", path + "-journal"]
    // The small page cache spilled frames into the WAL before the commit.
    #expect(fileSize(path + "-wal") > 100_000)
    #expect(try await leakedWords(in: files).isEmpty)
    try await pool.writeWithoutTransaction { (db: Database) throws in try db.commit() }
    #expect(
      try await pool.read { (db: Database) throws in
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM notes WHERE notes MATCH ?", arguments: [secretWords[2]])
      } == 300)
    #expect(try await leakedWords(in: files).isEmpty)
    try await pool.writeWithoutTransaction { (db: Database) throws in
      try db.execute(sql: "INSERT INTO notes(notes) VALUES ('optimize')")
      try db.checkpoint(.truncate)
    }
    #expect(try await leakedWords(in: files).isEmpty)
    try pool.close()
    #expect(try await leakedWords(in: files).isEmpty)
  }
}
