import Foundation
import Sealite
import Testing

// PersistableRecord (non-mutating persistence) has its own entry points. They
// run in exit tests, in a child process, so that a crash (a stack overflow in
// a method that calls itself) fails these tests without ending the test run.

/// A record whose key is set before it is inserted: not mutating.
private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
  var code: String
  var name: String
  var population: Int?
}

/// A class record keeps what didInsert tells it.
private final class Note: Codable, FetchableRecord, PersistableRecord {
  var id: Int64?
  var text: String
  init(text: String) { self.text = text }
  func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private func require(_ condition: Bool, _ message: String, line: Int = #line) {
  if !condition {
    FileHandle.standardError.write(Data("line \(line): \(message)\n".utf8))
    exit(EXIT_FAILURE)
  }
}

private func makeCountries() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE country (
          code TEXT PRIMARY KEY, name TEXT NOT NULL, population INTEGER, continent TEXT DEFAULT 'Europe');
        CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
        """)
  }
  return dbQueue
}

@Suite("PersistableRecord")
struct RecordPersistableRecordTests {
  @Test("A PersistableRecord struct inserts, updates, saves and deletes without being mutable")
  func persistableStruct() async {
    await #expect(processExitsWith: .success) {
      let dbQueue = try makeCountries()
      try dbQueue.write { (db: Database) throws in
        let france = Country(code: "FR", name: "France", population: nil)
        try france.insert(db)
        require(try Country.fetchOne(db, key: "FR") == france, "insert")
        let renamed = Country(code: "FR", name: "République française", population: 68)
        try renamed.update(db)
        require(try Country.fetchOne(db, key: "FR") == renamed, "update")
        let germany = Country(code: "DE", name: "Germany", population: 84)
        try germany.save(db)
        try germany.save(db)
        require(try Country.fetchCount(db) == 2, "save")
        require(try germany.delete(db), "delete")
        require(try !germany.exists(db), "exists")
      }
    }
  }

  @Test("A PersistableRecord's insertAndFetch and saveAndFetch return the stored row")
  func persistableAndFetch() async {
    await #expect(processExitsWith: .success) {
      let dbQueue = try makeCountries()
      try dbQueue.write { (db: Database) throws in
        let italy = Country(code: "IT", name: "Italy", population: 59)
        let inserted = try italy.insertAndFetch(db)
        require(inserted == italy, "insertAndFetch")
        let spain = Country(code: "ES", name: "Spain", population: 48)
        let saved = try spain.saveAndFetch(db)
        require(saved == spain, "saveAndFetch")
        let row = try Country(code: "PT", name: "Portugal").insertAndFetch(db, as: CountryRow.self)
        require(row.continent == "Europe", "insertAndFetch(as:) reads the default")
        let savedRow = try Country(code: "PT", name: "Portugal", population: 10).saveAndFetch(
          db, as: CountryRow.self)
        require(savedRow.population == 10, "saveAndFetch(as:)")
      }
    }
  }

  @Test("A PersistableRecord upserts")
  func persistableUpsert() async {
    await #expect(processExitsWith: .success) {
      let dbQueue = try makeCountries()
      try dbQueue.write { (db: Database) throws in
        try Country(code: "FR", name: "France", population: 1).upsert(db)
        try Country(code: "FR", name: "France", population: 2).upsert(db)
        require(try Country.fetchOne(db, key: "FR")?.population == 2, "upsert")
        let upserted = try Country(code: "FR", name: "France", population: 3).upsertAndFetch(db)
        require(upserted.population == 3, "upsertAndFetch")
        let row = try Country(code: "FR", name: "France", population: 4).upsertAndFetch(
          db, as: CountryRow.self)
        require(row.population == 4 && row.continent == "Europe", "upsertAndFetch(as:)")
      }
    }
  }

  @Test("A class record is told its new rowid by didInsert")
  func classRecord() async {
    await #expect(processExitsWith: .success) {
      let dbQueue = try makeCountries()
      try dbQueue.write { (db: Database) throws in
        let note = Note(text: "hello")
        try note.insert(db)
        require(note.id == 1, "didInsert on a class")
        note.text = "changed"
        try note.update(db)
        require(try Note.fetchOne(db, key: 1)?.text == "changed", "update of a class record")
      }
    }
  }
}

private struct CountryRow: Decodable, FetchableRecord, TableRecord {
  static let databaseTableName = "country"
  var code: String
  var population: Int?
  var continent: String?
}
