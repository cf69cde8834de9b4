import Foundation
import Sealite
import Testing

/// The two kinds of copy of a database file.
enum DatabaseCopyKind: String, CaseIterable, Sendable {
  case inMemory
  case temporary

  func copy(_ path: String, _ configuration: Configuration) throws -> DatabaseQueue {
    switch self {
    case .inMemory: return try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: configuration)
    case .temporary: return try DatabaseQueue.temporaryCopy(fromPath: path, configuration: configuration)
    }
  }
}

private func names(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name")
}

private func makeSource(_ path: String, _ configuration: Configuration) throws {
  let source = try DatabaseQueue(path: path, configuration: configuration)
  try source.write { db in
    try db.execute(sql: "CREATE TABLE player(name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara')")
  }
  try source.close()
}

@Suite("Database copies")
struct DatabaseCopyTests {
  @Test(
    "A copy holds the file's content, and what is written to it never reaches the file",
    arguments: DatabaseCopyKind.allCases, [false, true])
  func independentCopy(kind: DatabaseCopyKind, encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    let configuration = encrypted ? rawKeyConfiguration() : Configuration()
    try makeSource(directory.path(), configuration)
    let before = fileBytes(directory.path())
    let copy = try kind.copy(directory.path(), configuration)
    #expect(try copy.read(names) == ["Arthur", "Barbara"])
    try copy.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Craig')") }
    #expect(try copy.read(names) == ["Arthur", "Barbara", "Craig"])
    #expect(fileBytes(directory.path()) == before)
    #expect(
      try DatabaseQueue(path: directory.path(), configuration: configuration).read(names) == [
        "Arthur", "Barbara",
      ])
    // Nothing was left beside the source.
    #expect(directory.fileNames() == ["db.sqlite"])
  }

  @Test("A read-only configuration gives a copy that refuses writes", arguments: DatabaseCopyKind.allCases)
  func readOnlyCopy(kind: DatabaseCopyKind) throws {
    let directory = TemporaryDirectory()
    try makeSource(directory.path(), rawKeyConfiguration())
    var configuration = rawKeyConfiguration()
    configuration.readonly = true
    let copy = try kind.copy(directory.path(), configuration)
    #expect(try copy.read(names) == ["Arthur", "Barbara"])
    let error = #expect(throws: DatabaseError.self) {
      try copy.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Craig')") }
    }
    #expect(error?.resultCode == .SQLITE_READONLY)
  }

  @Test(
    "A missing file, or a wrong key, is a clear error, and creates no file",
    arguments: DatabaseCopyKind.allCases)
  func badInput(kind: DatabaseCopyKind) throws {
    let directory = TemporaryDirectory()
    let missing = #expect(throws: DatabaseError.self) {
      try kind.copy(directory.path("missing.sqlite"), Configuration())
    }
    #expect(missing?.resultCode == .SQLITE_CANTOPEN)
    #expect(directory.fileNames().isEmpty)

    try makeSource(directory.path(), rawKeyConfiguration(byte: 1))
    let before = fileBytes(directory.path())
    let wrongKey = #expect(throws: DatabaseError.self) {
      try kind.copy(directory.path(), rawKeyConfiguration(byte: 2))
    }
    #expect(wrongKey?.resultCode == .SQLITE_NOTADB)
    #expect(fileBytes(directory.path()) == before)
    #expect(directory.fileNames() == ["db.sqlite"])
  }
}
