import Foundation
import Sealite
import Testing

/// Shorter texts first, then byte order.
private let byLength = DatabaseCollation("byLength") { lhs, rhs in
  if lhs.utf8.count != rhs.utf8.count {
    return lhs.utf8.count < rhs.utf8.count ? .orderedAscending : .orderedDescending
  }
  return lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedAscending : .orderedDescending)
}

private struct CollatedWord: TableRecord {
  static let databaseTableName = "word"
}

@Suite("Custom collations")
struct DatabaseCollationTests {
  private func makeQueue() throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { db throws in
      try db.execute(sql: "CREATE TABLE word(id INTEGER PRIMARY KEY, text TEXT)")
      for (id, text) in ["ccc", "a", "bb", "b", "aa", "c"].enumerated() {
        try db.execute(sql: "INSERT INTO word VALUES (?, ?)", arguments: [id + 1, text])
      }
    }
    return queue
  }

  @Test("A collation orders ORDER BY, in SQL and in the query interface")
  func orderBy() throws {
    try makeQueue().write { db throws in
      db.add(collation: byLength)
      #expect(byLength.name == "byLength")
      #expect(
        try String.fetchAll(db, sql: "SELECT text FROM word ORDER BY text COLLATE byLength")
          == ["a", "b", "c", "aa", "bb", "ccc"])
      // SQLite's names of collations ignore ASCII case.
      #expect(
        try String.fetchAll(db, sql: "SELECT text FROM word ORDER BY text COLLATE BYLENGTH DESC")
          == ["ccc", "bb", "aa", "c", "b", "a"])
      let request = CollatedWord.select(Column("text"), as: String.self).order(
        Column("text").collating(byLength))
      #expect(try request.fetchAll(db) == ["a", "b", "c", "aa", "bb", "ccc"])
    }
  }

  @Test("A collation in a column definition orders and compares the column")
  func columnDefinition() throws {
    let firstLetter = DatabaseCollation("firstLetter") { lhs, rhs in
      let (a, b) = (lhs.prefix(1), rhs.prefix(1))
      return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }
    try DatabaseQueue().write { db throws in
      db.add(collation: byLength)
      db.add(collation: firstLetter)
      try db.execute(sql: "CREATE TABLE raw(text TEXT COLLATE byLength)")
      try db.create(table: "built") { t in
        t.column("text", .text).collate(firstLetter)
      }
      for text in ["bb", "a", "ab", "b"] {
        try db.execute(
          sql: "INSERT INTO raw VALUES (?); INSERT INTO built VALUES (?)", arguments: [text, text])
      }
      #expect(try String.fetchAll(db, sql: "SELECT text FROM raw ORDER BY text") == ["a", "b", "ab", "bb"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM built WHERE text = 'axe'") == 2)
      #expect(
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'built'")?.contains(
          "COLLATE firstLetter") == true)
    }
  }

  @Test("A collation is identified by its name, without ASCII case")
  func identity() {
    let lower = DatabaseCollation("bylength") { _, _ in .orderedSame }
    let other = DatabaseCollation("byLengthToo") { _, _ in .orderedSame }
    #expect(byLength.id == lower.id)
    #expect(byLength.id != other.id)
    #expect(Set([byLength.id, lower.id, other.id]).count == 2)
  }

  @Test("A removed collation is no longer known; adding it again brings it back")
  func removal() throws {
    try makeQueue().write { db throws in
      db.add(collation: byLength)
      db.remove(collation: byLength)
      let error = #expect(throws: DatabaseError.self) {
        try String.fetchAll(db, sql: "SELECT text FROM word ORDER BY text COLLATE byLength")
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message == "no such collation sequence: byLength")
      db.add(collation: byLength)
      #expect(
        try String.fetchOne(db, sql: "SELECT text FROM word ORDER BY text COLLATE byLength DESC") == "ccc")
    }
  }

  @Test("reindex(collation:) rebuilds the indexes of a collation whose order changed")
  func reindex() throws {
    let ascending = DatabaseCollation("order") { lhs, rhs in
      lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedAscending : .orderedDescending)
    }
    let descending = DatabaseCollation("order") { lhs, rhs in
      lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedDescending : .orderedAscending)
    }
    try makeQueue().write { db throws in
      db.add(collation: ascending)
      try db.execute(sql: "CREATE INDEX ordered ON word(text COLLATE \"order\")")
      db.add(collation: descending)
      try db.reindex(collation: descending)
      #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
      let texts = try String.fetchAll(
        db, sql: "SELECT text FROM word INDEXED BY ordered ORDER BY text COLLATE \"order\"")
      #expect(texts == ["ccc", "c", "bb", "b", "aa", "a"])
      try db.reindex(collation: .nocase)
      try db.reindex(collation: Database.CollationName(rawValue: "order"))
      #expect(throws: DatabaseError.self) {
        try db.reindex(collation: Database.CollationName(rawValue: "unknown"))
      }
    }
  }

  @Test("GRDB's built-in collations are on every connection, under GRDB's names")
  func builtInCollations() throws {
    #expect(DatabaseCollation.unicodeCompare.name == "swiftCompare")
    #expect(DatabaseCollation.caseInsensitiveCompare.name == "swiftCaseInsensitiveCompare")
    #expect(DatabaseCollation.localizedCaseInsensitiveCompare.name == "swiftLocalizedCaseInsensitiveCompare")
    #expect(DatabaseCollation.localizedCompare.name == "swiftLocalizedCompare")
    #expect(DatabaseCollation.localizedStandardCompare.name == "swiftLocalizedStandardCompare")
    try DatabaseQueue().read { db throws in
      func equal(_ lhs: String, _ rhs: String, _ collation: DatabaseCollation) throws -> Bool? {
        try Bool.fetchOne(db, sql: "SELECT ? = ? COLLATE \(collation.name)", arguments: [lhs, rhs])
      }
      func ascending(_ lhs: String, _ rhs: String, _ collation: DatabaseCollation) throws -> Bool? {
        try Bool.fetchOne(db, sql: "SELECT ? < ? COLLATE \(collation.name)", arguments: [lhs, rhs])
      }
      // Canonical equivalence: "é" precomposed and decomposed are one text.
      #expect(try equal("\u{E9}", "e\u{301}", .unicodeCompare) == true)
      #expect(try Bool.fetchOne(db, sql: "SELECT ? = ?", arguments: ["\u{E9}", "e\u{301}"]) == false)
      #expect(try ascending("Z", "a", .unicodeCompare) == true)
      #expect(try equal("École", "éCOLE", .caseInsensitiveCompare) == true)
      #expect(try equal("École", "éCOLE", .localizedCaseInsensitiveCompare) == true)
      #expect(try ascending("a", "b", .localizedCompare) == true)
      #expect(try ascending("file2", "file10", .localizedStandardCompare) == true)
      #expect(try ascending("file2", "file10", .unicodeCompare) == false)
    }
  }

  @Test("A collation is released when removed, or when its connection closes")
  func release() throws {
    weak var removed: DatabaseCollation?
    weak var closed: DatabaseCollation?
    try {
      let collation = DatabaseCollation("temporary") { _, _ in .orderedSame }
      removed = collation
      try DatabaseQueue().write { db throws in
        db.add(collation: collation)
        db.remove(collation: collation)
      }
    }()
    #expect(removed == nil)
    try {
      let collation = DatabaseCollation("temporary") { _, _ in .orderedSame }
      closed = collation
      let queue = try DatabaseQueue()
      try queue.write { db in db.add(collation: collation) }
    }()
    #expect(closed == nil)
  }
}

@Suite("Custom collations on every connection of a queue or pool")
struct DatabasePoolCollationTests {
  @Test(
    "Collations added in prepareDatabase are on the writer and on every reader",
    arguments: ObservationBackend.allCases)
  func prepareDatabase(_ backend: ObservationBackend) async throws {
    let directory = TemporaryDirectory()
    var configuration = backend == .encryptedPool ? rawKeyConfiguration() : Configuration()
    configuration.prepareDatabase { db in db.add(collation: byLength) }
    let writer: any DatabaseWriter =
      switch backend {
      case .queue: try DatabaseQueue(path: directory.path(), configuration: configuration)
      case .pool, .encryptedPool: try DatabasePool(path: directory.path(), configuration: configuration)
      }
    try await writer.write { db throws in
      try db.execute(sql: "CREATE TABLE word(text TEXT COLLATE byLength)")
      try db.execute(sql: "INSERT INTO word VALUES ('bb'), ('a'), ('ccc')")
    }
    try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<4 {
        group.addTask {
          try await writer.read { db in try String.fetchAll(db, sql: "SELECT text FROM word ORDER BY text") }
        }
      }
      for try await texts in group { #expect(texts == ["a", "bb", "ccc"]) }
    }
  }
}
