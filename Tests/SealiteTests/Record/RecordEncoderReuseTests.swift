import Foundation
import Sealite
import Testing

// Each thread keeps the encoder of the last record type it encoded, with its
// keyed container (RecordEncoder+Reuse.swift). These tests check that what a
// record writes never depends on the records encoded before it.

private struct Note: Codable, PersistableRecord, FetchableRecord, Equatable {
  static let databaseTableName = "note"
  var id: Int64
  var text: String
}

private struct Tag: Codable, PersistableRecord, FetchableRecord, Equatable {
  static let databaseTableName = "tag"
  var id: Int64
  var label: String
  var weight: Double?
}

/// A record whose encoding encodes another record of its own type, while its
/// own encoder is in use.
private struct Outline: Encodable, PersistableRecord {
  static let databaseTableName = "outline"
  var id: Int64
  var title: String
  var child: Int64?

  enum CodingKeys: String, CodingKey { case id, title, child, childColumns }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    if let child {
      // The nested record's columns, as a column of this one.
      let nested = try Outline(id: child, title: "child of \(id)", child: nil).databaseDictionary
      try container.encode(nested.keys.sorted().joined(separator: ","), forKey: .childColumns)
    } else {
      try container.encode("", forKey: .childColumns)
    }
    try container.encode(title, forKey: .title)
  }
}

/// A record that fails to encode when asked to.
private struct Fragile: Encodable, PersistableRecord {
  static let databaseTableName = "note"
  var id: Int64
  var text: String
  var fails: Bool

  struct Refused: Error {}
  enum CodingKeys: String, CodingKey { case id, text }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    if fails { throw Refused() }
    try container.encode(text, forKey: .text)
  }
}

/// A record that writes the columns it is given, in that order: column i
/// gets the value i.
private struct Shaped: Encodable, EncodableRecord {
  var columns: [String]

  struct Key: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (index, column) in columns.enumerated() {
      try container.encode(index, forKey: Key(stringValue: column))
    }
  }

  /// What the container must hold: a column written again, in any case,
  /// replaces the value of the first one.
  var expected: [(column: String, value: Int)] {
    var result: [(column: String, value: Int)] = []
    for (index, column) in columns.enumerated() {
      if let existing = result.firstIndex(where: { $0.column.lowercased() == column.lowercased() }) {
        result[existing].value = index
      } else {
        result.append((column, index))
      }
    }
    return result
  }
}

/// The containers the callbacks of notes received, in order.
private final class ContainerLog {
  var entries: [(event: String, container: PersistenceContainer)] = []
}

/// A note that keeps the container each of its callbacks receives.
private struct KeepingNote: Encodable, MutablePersistableRecord {
  static let databaseTableName = "note"
  var id: Int64
  var text: String
  let log: ContainerLog

  enum CodingKeys: String, CodingKey { case id, text }

  func didInsert(_ inserted: InsertionSuccess) {
    log.entries.append(("insert", inserted.persistenceContainer))
  }
  func didUpdate(_ updated: PersistenceSuccess) {
    log.entries.append(("update", updated.persistenceContainer))
  }
  func didSave(_ saved: PersistenceSuccess) { log.entries.append(("save", saved.persistenceContainer)) }
}

@Suite("A record's columns do not depend on the records encoded before it")
struct RecordEncoderReuseTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
      try db.execute(sql: "CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL, weight REAL)")
      try db.execute(
        sql:
          "CREATE TABLE outline (id INTEGER PRIMARY KEY, title TEXT NOT NULL, child INTEGER, childColumns TEXT)"
      )
    }
    return dbQueue
  }

  @Test("Records of two types, encoded in turn, write their own columns")
  func interleavedTypes() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { (db: Database) throws in
      for id in Int64(1)...20 {
        try Note(id: id, text: "note \(id)").insert(db)
        try Tag(id: id, label: "tag \(id)", weight: id.isMultiple(of: 2) ? nil : Double(id)).insert(db)
      }
      #expect(try Note.databaseDictionaryKeys() == ["id", "text"])
      #expect(
        try Tag(id: 1, label: "x", weight: nil).databaseDictionary.keys.sorted() == ["id", "label", "weight"])
      #expect(try Note.fetchAll(db) == (Int64(1)...20).map { Note(id: $0, text: "note \($0)") })
      let tags = try Tag.fetchAll(db)
      #expect(
        tags
          == (Int64(1)...20).map {
            Tag(id: $0, label: "tag \($0)", weight: $0.isMultiple(of: 2) ? nil : Double($0))
          })
    }
  }

  @Test("A record encoded while another of its type is being encoded gets its own encoder")
  func nestedEncodingOfTheSameType() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { (db: Database) throws in
      try Outline(id: 1, title: "root", child: 2).insert(db)
      try Outline(id: 3, title: "leaf", child: nil).insert(db)
      let rows = try Row.fetchAll(db, sql: "SELECT id, title, child, childColumns FROM outline ORDER BY id")
      #expect(rows.count == 2)
      #expect(rows[0]["title"] == "root")
      // The nested record's encoding saw only its own columns…
      #expect(rows[0]["childColumns"] == "childColumns,id,title")
      #expect(rows[1]["title"] == "leaf")
      #expect(rows[1]["childColumns"] == "")
    }
    // …and the outer one kept all of its own.
    #expect(
      try Outline(id: 1, title: "root", child: 2).databaseDictionary.keys.sorted() == [
        "childColumns", "id", "title",
      ])
  }

  @Test("A record that fails to encode leaves nothing for the next one")
  func failureLeavesNothingBehind() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { (db: Database) throws in
      #expect(throws: Fragile.Refused.self) { try Fragile(id: 1, text: "lost", fails: true).insert(db) }
      try Fragile(id: 2, text: "kept", fails: false).insert(db)
      #expect(
        try Fragile(id: 3, text: "third", fails: false).databaseDictionary.keys.sorted() == ["id", "text"])
      #expect(try Note.fetchAll(db) == [Note(id: 2, text: "kept")])
    }
  }

  @Test("Records encoded on many threads at once each write their own values")
  func concurrentThreads() async throws {
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<500 {
            let id = Int64(task * 1_000 + index)
            let values =
              try
              (index.isMultiple(of: 2)
              ? Note(id: id, text: "n\(id)").databaseDictionary
              : Tag(id: id, label: "t\(id)", weight: 0.5).databaseDictionary)
            let expected: [String: DatabaseValue] =
              index.isMultiple(of: 2)
              ? ["id": id.databaseValue, "text": "n\(id)".databaseValue]
              : ["id": id.databaseValue, "label": "t\(id)".databaseValue, "weight": 0.5.databaseValue]
            if values != expected { return false }
          }
          return true
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == Array(repeating: true, count: 8))
  }

  @Test(
    "Records of one type writing other columns, in another order, or one twice in another case: each gets its own"
  )
  func columnsThatChangeFromRecordToRecord() throws {
    let long = "a_column_name_longer_than_fifteen_bytes"
    let shapes: [[String]] = [
      ["a", "b", "c"], ["a", "c"], ["a", "b", "c"], ["b", "a", "c"], ["a", "b", "A"], ["a", "b", "A"],
      ["a", "b", "c", "d"], ["a", "b"], [long, long.uppercased()], [long, "b"], ["A", "B", "a"], [],
      ["a", "b", "c"],
    ]
    for columns in shapes + shapes.reversed() {
      let record = Shaped(columns: columns)
      var container = PersistenceContainer()
      try record.encode(to: &container)
      #expect(container.columns == record.expected.map(\.column), "\(columns)")
      for (column, value) in record.expected {
        #expect(container[column]?.databaseValue == value.databaseValue, "\(columns): \(column)")
      }
      // A container that already holds a column keeps it first.
      var started = PersistenceContainer()
      started["z"] = 99
      try record.encode(to: &started)
      #expect(started.columns == ["z"] + record.expected.map(\.column), "\(columns)")
    }
  }

  @Test("Containers kept from earlier records, then changed, change neither later records nor each other")
  func keptContainersStayApart() throws {
    let shapes: [[String]] = [
      ["a", "b", "c"], ["a", "b", "c"], ["a", "b"], ["a", "b", "c", "d"], ["a", "b", "c", "d"],
      ["a", "b", "c"],
    ]
    var kept: [PersistenceContainer] = []
    for columns in shapes {
      var container = PersistenceContainer()
      try Shaped(columns: columns).encode(to: &container)
      kept.append(container)
    }
    for (container, columns) in zip(kept, shapes) {
      #expect(container.columns == columns)
    }
    // Each kept container gets a column of its own, and one replaced.
    for index in kept.indices {
      kept[index]["extra\(index)"] = index
      kept[index]["A"] = 100 + index
    }
    for (index, (container, columns)) in zip(kept, shapes).enumerated() {
      #expect(container.columns == columns + ["extra\(index)"], "container \(index)")
      #expect(container["a"]?.databaseValue == (100 + index).databaseValue)
    }
    for columns in shapes {
      var container = PersistenceContainer()
      try Shaped(columns: columns).encode(to: &container)
      #expect(container.columns == columns)
      #expect(container["a"]?.databaseValue == 0.databaseValue)
    }
  }
}

extension RecordEncoderReuseTests {
  // Each write hands its container's values array to the next record
  // encoded on its thread (PersistenceContainer.recycle()).
  @Test("Containers the callbacks keep are not changed by the writes that follow")
  func containersKeptByCallbacks() throws {
    let dbQueue = try makeQueue()
    let log = ContainerLog()
    var expected: [(event: String, id: Int64, text: String)] = []
    try dbQueue.write { (db: Database) throws in
      for id in Int64(1)...6 {
        var note = KeepingNote(id: id, text: "note \(id)", log: log)
        switch id % 3 {
        case 0: try note.insert(db)
        case 1: try note.save(db)
        default: try note.upsert(db)
        }
        // Each of the three writes a new row: didInsert, then didSave.
        expected += ["insert", "save"].map { ($0, id, "note \(id)") }
        // A record of another type writes in between.
        try Note(id: 100 + id, text: "other \(id)").insert(db)
        note.text = "updated \(id)"
        try note.update(db)
        try note.save(db)
        expected += ["update", "save", "update", "save"].map { ($0, id, "updated \(id)") }
      }
    }
    #expect(log.entries.count == expected.count)
    for (entry, expected) in zip(log.entries, expected) {
      let description = "\(expected.event) of note \(expected.id)"
      #expect(entry.event == expected.event, "\(description)")
      #expect(entry.container.columns == ["id", "text"], "\(description)")
      #expect(entry.container["id"]?.databaseValue == expected.id.databaseValue, "\(description)")
      #expect(entry.container["text"]?.databaseValue == expected.text.databaseValue, "\(description)")
    }
  }

  @Test("A write that fails after others reports its own values as its arguments")
  func failedWriteArguments() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { (db: Database) throws in
      for id in Int64(1)...3 { try Tag(id: id, label: "tag \(id)", weight: 1).insert(db) }
      for event in ["INSERT", "UPDATE"] {
        try db.execute(
          sql: """
            CREATE TRIGGER refuse\(event) BEFORE \(event) ON tag WHEN NEW.weight < 0
            BEGIN SELECT RAISE(ABORT, 'refused'); END
            """)
      }
      let insertError = #expect(throws: DatabaseError.self) {
        try Tag(id: 7, label: "seven", weight: -7).insert(db)
      }
      #expect(insertError?.arguments == [7, "seven", -7.0])
      let upsertError = #expect(throws: DatabaseError.self) {
        try Tag(id: 8, label: "eight", weight: -8).upsert(db)
      }
      #expect(upsertError?.arguments == [8, "eight", -8.0])
      // SET in the table's order, then the key.
      let updateError = #expect(throws: DatabaseError.self) {
        try Tag(id: 2, label: "two", weight: -2).update(db)
      }
      #expect(updateError?.arguments == ["two", -2.0, 2])
      // The writes after the failures bind their own values.
      try Tag(id: 9, label: "nine", weight: 9).insert(db)
      try Tag(id: 1, label: "one", weight: nil).update(db)
      #expect(
        try Tag.fetchAll(db) == [
          Tag(id: 1, label: "one", weight: nil), Tag(id: 2, label: "tag 2", weight: 1),
          Tag(id: 3, label: "tag 3", weight: 1), Tag(id: 9, label: "nine", weight: 9),
        ])
    }
  }
}

extension Note {
  fileprivate static func databaseDictionaryKeys() throws -> [String] {
    try Note(id: 0, text: "").databaseDictionary.keys.sorted()
  }
}
