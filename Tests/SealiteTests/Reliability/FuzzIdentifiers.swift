import Foundation
import Testing

// @testable: the identifier fuzzer forces table rebuilds, an internal path of Schema.
@testable import Sealite

// Fuzzing identifiers: names of tables and columns built from awkward pieces.

// MARK: - Identifiers

let identifierPieces: [String] = [
  "\"", "\"\"", "'", "`", "[", "]", " ", "  ", ".", ",", ";", "--", "/*", "*/", "(", ")", "?", ":x", "$x",
  "@x",
  "\\", "\t", "\n", "é", "表", "😀", "e\u{301}", "\u{202E}", "select", "TABLE", "DROP TABLE sentinel; --",
  "\"; DROP TABLE sentinel; --", "sentinel", "SENTINEL", "fuzz", "sqlite_", "rowid", "main", "temp", "x", "X",
]

/// A random name made of SQL syntax, quotes and Unicode; now and then a NUL, an
/// empty name or a long one.
func randomIdentifier(_ random: inout SplitMix64) -> String {
  if random.chance(1, in: 40) { return "" }
  var name = ""
  for _ in 0..<Int.random(in: 1...5, using: &random) {
    switch Int.random(in: 0..<3, using: &random) {
    case 0: name += random.pick(identifierPieces)
    case 1: name.append(randomScalar(&random))
    default: name += random.hex(Int.random(in: 1...4, using: &random))
    }
  }
  if random.chance(1, in: 30) { name += "\0" + random.hex(2) }
  if random.chance(1, in: 60) { name += String(repeating: random.pick(identifierPieces), count: 300) }
  return name
}

/// SQLite compares names without regard to ASCII case (and only ASCII).
func foldedName(_ name: String) -> [UInt8] {
  name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
}

func hasReservedPrefix(_ name: String) -> Bool {
  foldedName(name).starts(with: Array("sqlite_".utf8))
}

/// The schema, as exact bytes: type, name and table of every object.
func schemaObjects(_ db: Database) throws -> [[UInt8]] {
  try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name").map { row in
    let parts: [String] = [row[0], row[1], row[2]]
    return Array(parts.joined(separator: "\u{1}").utf8)
  }.sorted { $0.lexicographicallyPrecedes($1) }
}

/// Runs `body`, which must succeed unless `expectedFailure` names why it may not;
/// a failure must be a DatabaseError. Returns true when `body` succeeded.
func attempt(
  _ what: String, expectedFailure: String?, run: FuzzRun, _ body: () throws -> Void
) -> Bool {
  do {
    try body()
    return true
  } catch let error as DatabaseError {
    if expectedFailure == nil { run.fail("\(what): \(error)") }
    return false
  } catch {
    run.fail("\(what): not a DatabaseError: \(error)")
    return false
  }
}

func exerciseIdentifiers(_ random: inout SplitMix64, db: Database, baseline: [[UInt8]], run: FuzzRun)
  throws
{
  let table = randomIdentifier(&random)
  let columns = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomIdentifier(&random) }
  let described = "table \(String(reflecting: table)) columns \(columns.map { String(reflecting: $0) })"
  let value = "FUZZ-" + random.hex(16)
  let taken = [foldedName("sentinel")]

  var failure: String?
  if (columns + [table]).contains(where: { $0.contains("\0") }) { failure = "a name holds NUL" }
  if hasReservedPrefix(table) { failure = "sqlite_ names are reserved" }
  if taken.contains(foldedName(table)) { failure = "the table exists" }
  if Set(columns.map(foldedName)).count < columns.count { failure = "duplicate column" }
  let created = attempt("create \(described)", expectedFailure: failure, run: run) {
    try db.create(table: table) { t in
      for column in columns { t.column(column) }
    }
  }
  if !created {
    run.check(try schemaObjects(db) == baseline, "a failed create changed the schema: \(described)")
    return
  }
  run.check(failure == nil, "created \(described) although \(failure ?? "")")
  let added = try schemaObjects(db).filter { !baseline.contains($0) }
  run.check(
    added == [Array("table\u{1}\(table)\u{1}\(table)".utf8)],
    "create \(described) made \(added.map { String(decoding: $0, as: UTF8.self) })")
  run.check(try db.tableExists(table), "tableExists is false for \(described)")
  let names = try db.columns(in: table).map(\.name)
  run.check(
    names.map { Array($0.utf8) } == columns.map { Array($0.utf8) }, "columns of \(described) read \(names)")

  // Values go in through identifiers in SQL literals, come out through the query interface.
  let columnList = columns.map { column -> SQL in "\(identifier: column)" }.joined(separator: ", ")
  let values = columns.map { _ -> SQL in "\(value)" }.joined(separator: ", ")
  try db.execute(
    literal: "INSERT INTO \(identifier: table) (\(literal: columnList)) VALUES (\(literal: values))")
  try db.execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) DEFAULT VALUES")
  let first = Column(columns[0])
  let found = try Table(table).all().select(columns.map { Column($0) as any SQLSelectable }).filter(
    first == value
  ).order(first.desc)
    .fetchAll(db)
  run.check(
    found.count == 1 && (0..<columns.count).allSatisfy { found[0][$0] as String? == value },
    "query interface on \(described) read \(found)")
  let updated = try Table(table).filter(first == nil).updateAll(db, Column(columns.last!).set(to: value))
  run.check(updated == 1, "updateAll on \(described) changed \(updated) row(s)")
  let count = try Table(table).filter(first == value).fetchCount(db)
  run.check(count == (columns.count == 1 ? 2 : 1), "count on \(described): \(count)")

  // An index and a new name for the table, both random too.
  let index = randomIdentifier(&random)
  var indexFailure: String?
  if index.contains("\0") { indexFailure = "NUL" }
  if hasReservedPrefix(index) { indexFailure = "reserved" }
  if (taken + [foldedName(table)]).contains(foldedName(index)) { indexFailure = "name taken by a table" }
  if attempt(
    "create index \(String(reflecting: index)) on \(described)", expectedFailure: indexFailure, run: run,
    {
      try db.create(index: index, on: table, columns: [columns[0]])
    })
  {
    run.check(
      indexFailure == nil, "created index \(String(reflecting: index)) although \(indexFailure ?? "")")
    let indexes = try db.indexes(on: table).map(\.name)
    run.check(indexes.map { Array($0.utf8) } == [Array(index.utf8)], "indexes on \(described): \(indexes)")
    try db.drop(index: index)
  }
  let newName = randomIdentifier(&random)
  var renameFailure: String?
  if newName.contains("\0") { renameFailure = "NUL" }
  if hasReservedPrefix(newName) { renameFailure = "reserved" }
  if (taken + [foldedName(table)]).contains(foldedName(newName)) { renameFailure = "name taken" }
  var current = table
  if attempt(
    "rename \(described) to \(String(reflecting: newName))", expectedFailure: renameFailure, run: run,
    {
      try db.rename(table: table, to: newName)
    })
  {
    run.check(
      renameFailure == nil, "renamed to \(String(reflecting: newName)) although \(renameFailure ?? "")")
    current = newName
    run.check(
      try db.tableExists(newName), "tableExists is false after renaming to \(String(reflecting: newName))")
  }
  // A rebuild (how SQLite before 3.25 and 3.35 renames and drops columns) reads the
  // table's SQL back: forced here so that every leg parses the random names.
  if columns.count >= 2 {
    let renamed = randomIdentifier(&random)
    var alterFailure: String?
    if renamed.contains("\0") { alterFailure = "NUL" }
    if columns.map(foldedName).contains(foldedName(renamed)) { alterFailure = "duplicate column" }
    let what =
      "rebuild \(String(reflecting: current)) renaming column \(String(reflecting: columns[1])) to \(String(reflecting: renamed))"
    if attempt(
      what, expectedFailure: alterFailure, run: run,
      {
        try db.alter(table: current, forcingTableRebuild: true) { t in
          t.rename(column: columns[1], to: renamed)
        }
      })
    {
      run.check(alterFailure == nil, "\(what) succeeded although \(alterFailure ?? "")")
      var expected = columns
      expected[1] = renamed
      let names = try db.columns(in: current).map(\.name)
      run.check(names.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(what): columns \(names)")
      let moved = try Table(current).filter(Column(renamed) == value).fetchCount(db)
      // Both rows hold it when the renamed column is the one updateAll wrote.
      run.check(moved == (columns.count == 2 ? 2 : 1), "\(what): \(moved) row(s) hold the value in it")
      let dropped = "rebuild \(String(reflecting: current)) dropping column \(String(reflecting: renamed))"
      if attempt(
        dropped, expectedFailure: nil, run: run,
        {
          try db.alter(table: current, forcingTableRebuild: true) { t in t.drop(column: renamed) }
        })
      {
        expected.remove(at: 1)
        let names = try db.columns(in: current).map(\.name)
        run.check(
          names.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(dropped): columns \(names)")
      }
    }
  }
  run.check(try Table(current).deleteAll(db) == 2, "deleteAll on \(String(reflecting: current))")
  try db.drop(table: current)
  run.check(
    try schemaObjects(db) == baseline, "dropping \(String(reflecting: current)) left the schema changed")
}
