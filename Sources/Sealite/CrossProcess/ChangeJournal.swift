import Foundation

/// The change journal: the names of the tables each transaction changed,
/// written by writers with ``Configuration/publishesChangedTables`` inside
/// the transaction itself (so it is encrypted like the rest of the database,
/// and never disagrees with the data), read by observers in other processes.
///
/// Each entry also names its writer (a random identifier per connection) and
/// that connection's `data_version` when it committed: when it moved since the
/// writer's previous entry, other connections committed in between, and a
/// reader that finds no entry of theirs knows that a commit went unrecorded.
enum ChangeJournal {
  static let tableName = "sealite_change_journal"
  /// How many entries are kept: a reader that falls further behind refreshes
  /// every observation instead.
  static let retainedEntryCount = 1000

  /// Makes `db` record the changed tables of each transaction it commits.
  static func install(on db: Database) throws {
    try createTable(db)
    let writer = UUID().uuidString
    db.observationBroker.commitPreparation = { db, tables in
      try record(tables: tables, writer: writer, in: db)
    }
  }

  private static func createTable(_ db: Database) throws {
    try db.execute(
      sql: "CREATE TABLE IF NOT EXISTS \(tableName) "
        + "(id INTEGER PRIMARY KEY, tables TEXT NOT NULL, writer TEXT NOT NULL, writerVersion INTEGER NOT NULL)"
    )
  }

  /// Appends one entry, before the transaction commits.
  static func record(tables: Set<String>, writer: String, in db: Database) throws {
    let names = tables.filter { !$0.sameName(as: tableName) }
    guard !names.isEmpty else { return }
    let encoded = String(decoding: try JSONEncoder().encode(names.sorted()), as: UTF8.self)
    let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    do {
      try insert(encoded, writer, version, db)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
      // The table was dropped (a database erased by a migrator): recreate it.
      guard try !db.tableExists(tableName) else { throw error }
      try createTable(db)
      try insert(encoded, writer, version, db)
    }
  }

  /// Appends an entry that names no table, for a commit that changes no
  /// row (the one that makes a new pool's WAL non-empty), so that observers
  /// in other processes know it changed nothing.
  static func recordCommitWithoutChanges(in db: Database) throws {
    let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    try insert("[]", UUID().uuidString, version, db)
  }

  private static func insert(_ encoded: String, _ writer: String, _ version: Int64, _ db: Database) throws {
    try db.cachedStatement(sql: "INSERT INTO \(tableName) (tables, writer, writerVersion) VALUES (?, ?, ?)")
      .execute(arguments: [encoded, writer, version])
    try db.cachedStatement(sql: "DELETE FROM \(tableName) WHERE id <= ?")
      .execute(arguments: [db.lastInsertedRowID - Int64(retainedEntryCount)])
  }

  /// True if the journal table exists.
  static func exists(in db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)",
      arguments: [tableName]) ?? false
  }

  /// The entries after `id`, in order, and whether the table exists.
  static func entries(after id: Int64, in db: Database) throws -> (exists: Bool, entries: [Entry]) {
    guard try exists(in: db) else { return (false, []) }
    let rows = try Row.fetchAll(
      db, sql: "SELECT id, tables, writer, writerVersion FROM \(tableName) WHERE id > ? ORDER BY id",
      arguments: [id])
    let decoder = JSONDecoder()
    let entries = rows.map { row -> Entry in
      let text: String = row["tables"] ?? "[]"
      let names = (try? decoder.decode([String].self, from: Data(text.utf8))) ?? nil
      return Entry(
        id: row["id"], tableNames: names, writer: row["writer"] ?? "",
        writerVersion: row["writerVersion"] ?? 0)
    }
    return (true, entries)
  }

  /// True if a writer other than `writer` recorded an entry between two ids.
  static func hasEntriesOfOtherWriters(
    than writer: String, after lower: Int64, before upper: Int64, in db: Database
  ) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM \(tableName) WHERE id > ? AND id < ? AND writer <> ?)",
      arguments: [lower, upper, writer]) ?? false
  }

  /// The highest entry id, or 0.
  static func lastID(in db: Database) throws -> Int64 {
    guard try exists(in: db) else { return 0 }
    return try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM \(tableName)") ?? 0
  }

  /// One journal entry.
  struct Entry {
    var id: Int64
    /// Nil if the entry could not be read: every observation refreshes.
    var tableNames: [String]?
    /// The connection that wrote the entry, and its `data_version` then.
    var writer: String
    var writerVersion: Int64
  }
}
