// sealite-allocations: counts the heap allocations (or, for the workloads named
// …-bytes, the bytes of malloc chunks, and for those named …-references, the
// retains and releases of objects) of fixed workloads, per
// operation, for the allocation tests (Tests/SealiteTests/Performance).
// Timing assertions are flaky on shared machines; allocation counts are not.
//
//   sealite-allocations WORKLOAD…   (no workload: all of them)
//   sealite-allocations reused-chunk-capacity
//
// Prints one line per workload: `NAME PER-OPERATION SAMPLES`; in a build under
// a sanitizer (which replaces malloc itself) it prints nothing and exits 3.
// Each workload runs with 1,000 and then 3,000 operations, inside one
// transaction of an encrypted database, after a warm-up run of 3,000; a sample is the
// difference of the two counts over the 2,000 extra operations, so that what
// a run costs once (the cursor, the transaction, a statement compiled) is
// not counted. PER-OPERATION is the median of three samples, SAMPLES all three
// (comma-separated): a one-time cost that falls inside one run (a cache of
// the runtime or of SQLite filled then) moves one sample, not the median.
// Only the allocations and retains of the thread that runs the workload are
// counted.

import CAllocationCounter
import Foundation
import Sealite

struct Item: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "item"
  var id: Int
  var name: String
  var score: Double
}

/// A record of ten columns that fills its persistence container itself, as
/// GRDB's documentation and its performance tests write one: each column set
/// is looked up among those set before (names compare ignoring ASCII case).
struct WideItem: PersistableRecord {
  static let databaseTableName = "wide"
  var value: Int

  func encode(to container: inout PersistenceContainer) {
    container["i0"] = value
    container["i1"] = value
    container["i2"] = value
    container["i3"] = value
    container["i4"] = value
    container["i5"] = value
    container["i6"] = value
    container["i7"] = value
    container["i8"] = value
    container["i9"] = value
  }
}

/// A workload: `count` operations on `db`, starting from `offset` (ids of the
/// rows written).
struct Workload {
  /// What a workload counts per operation.
  enum Measure {
    /// Heap allocations.
    case allocations
    /// Bytes of the malloc chunks allocated (see sealite_allocated_chunk_bytes).
    case chunkBytes
    /// Retains and releases of objects (see sealite_reference_operation_count).
    case referenceOperations

    var current: UInt64 {
      switch self {
      case .allocations: sealite_allocation_count()
      case .chunkBytes: sealite_allocated_chunk_bytes()
      case .referenceOperations: sealite_reference_operation_count()
      }
    }
  }

  var name: String
  var writes: Bool
  var measure = Measure.allocations
  var run: (_ db: Database, _ offset: Int, _ count: Int) throws -> Void
}

let tableRows = 10_000

/// `Row.fetchAll` of `count` rows, counted in allocations and in bytes.
func fetchAllRows(_ db: Database, _ offset: Int, _ count: Int) throws {
  let rows = try Row.fetchAll(db, sql: "SELECT id, name, score FROM item LIMIT ?", arguments: [count])
  precondition(rows.count == count)
}

let countedWorkloads: [Workload] = [
  // The counter's own check, no work of Sealite's: each operation allocates
  // once with UnsafeMutablePointer.allocate, which Swift's runtime passes to
  // aligned_alloc, not to malloc.
  Workload(name: "unsafe-pointer-allocation", writes: false) { _, _, count in
    var addresses: UInt = 0
    for _ in 0..<count {
      let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 4)
      addresses ^= UInt(bitPattern: pointer)
      pointer.deallocate()
    }
    precondition(addresses != 1)
  },
  Workload(name: "row-cursor-step", writes: false) { db, _, count in
    let cursor = try Row.fetchCursor(db, sql: "SELECT id, name, score FROM item LIMIT ?", arguments: [count])
    var total = 0
    while let row = try cursor.next() {
      let id: Int = row[0]
      let name: String = row[1]
      let score: Double = row[2]
      total &+= id &+ name.utf8.count &+ Int(score)
    }
    precondition(total != 0)
  },
  Workload(name: "row-fetch-all", writes: false, run: fetchAllRows),
  // The heap a fetched row takes: its object, its share of the value
  // buffers, and of the array's growth.
  Workload(name: "row-fetch-all-bytes", writes: false, measure: .chunkBytes, run: fetchAllRows),
  Workload(name: "record-fetch-all", writes: false) { db, _, count in
    let items = try Item.limit(count).fetchAll(db)
    precondition(items.count == count)
  },
  Workload(name: "record-cursor-step", writes: false) { db, _, count in
    let cursor = try Item.limit(count).fetchCursor(db)
    var total = 0
    while let item = try cursor.next() { total &+= item.id }
    precondition(total != 0)
  },
  Workload(name: "primary-key-lookup", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.fetchOne(db, key: id) != nil else { preconditionFailure("no item \(id)") }
    }
  },
  Workload(name: "request-fetch-one", writes: false) { db, _, count in
    let id = Column("id")
    for value in 1...count {
      guard try Item.filter(id == value).fetchOne(db) != nil else { preconditionFailure("no item \(value)") }
    }
  },
  Workload(name: "small-request", writes: false) { db, _, count in
    let id = Column("id")
    for value in 1...count {
      let items = try Item.filter(id > value % tableRows).order(id).limit(10).fetchAll(db)
      precondition(items.count == 10)
    }
  },
  Workload(name: "statement-insert", writes: true) { db, offset, count in
    let statement = try db.makeStatement(sql: "INSERT INTO item (id, name, score) VALUES (?, ?, ?)")
    for id in offset..<(offset + count) {
      try statement.execute(arguments: [id, "name", 0.5])
    }
  },
  Workload(name: "record-insert", writes: true) { db, offset, count in
    for id in offset..<(offset + count) {
      try Item(id: id, name: "name", score: 0.5).insert(db)
    }
  },
  Workload(name: "container-record-insert", writes: true) { db, offset, count in
    for value in offset..<(offset + count) {
      try WideItem(value: value).insert(db)
    }
  },
  Workload(name: "record-update", writes: false) { db, _, count in
    for id in 1...count {
      try Item(id: id, name: "renamed", score: 1.5).update(db)
    }
  },
  Workload(name: "record-save", writes: false) { db, _, count in
    for id in 1...count {
      try Item(id: id, name: "saved", score: 3.5).save(db)
    }
  },
  Workload(name: "record-upsert", writes: false) { db, _, count in
    for id in 1...count {
      try Item(id: id, name: "upserted", score: 2.5).upsert(db)
    }
  },
  Workload(name: "record-exists", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item(id: id, name: "", score: 0).exists(db) else { preconditionFailure("no item \(id)") }
    }
  },
  // The whole path of a delete, with ids above the table's rows: the
  // statement runs and finds no row (the rows of the other workloads stay).
  Workload(name: "record-delete", writes: true) { db, offset, count in
    for id in offset..<(offset + count) {
      guard try !Item(id: id, name: "", score: 0).delete(db) else { preconditionFailure("item \(id)") }
    }
  },
  Workload(name: "request-filter-key-fetch-one", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.filter(key: id).fetchOne(db) != nil else { preconditionFailure("no item \(id)") }
    }
  },
  Workload(name: "table-exists-key", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.exists(db, key: id) else { preconditionFailure("no item \(id)") }
    }
  },
  // As record-delete: ids above the table's rows.
  Workload(name: "table-delete-one-key", writes: true) { db, offset, count in
    for id in offset..<(offset + count) {
      guard try !Item.deleteOne(db, key: id) else { preconditionFailure("item \(id)") }
    }
  },
  // SQL of one statement, run again and again: the statement kept for it.
  Workload(name: "execute-sql", writes: false) { db, _, count in
    for id in 1...count {
      try db.execute(sql: "UPDATE item SET score = ? WHERE id = ?", arguments: [1.5, id])
    }
  },
  // A query-interface update finds its SQL by its shape, then runs it as
  // execute does.
  Workload(name: "request-update-all", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.filter(Column("id") == id).updateAll(db, Column("score").set(to: 4.5)) == 1 else {
        preconditionFailure("no item \(id)")
      }
    }
  },
  // A query-interface delete, found by its shape as updateAll: ids above the
  // table's rows, as record-delete.
  Workload(name: "request-delete-all", writes: true) { db, offset, count in
    for id in offset..<(offset + count) {
      guard try Item.filter(Column("id") == id).deleteAll(db) == 0 else { preconditionFailure("item \(id)") }
    }
  },
  // A request's fetchCount (and isEmpty) finds its COUNT(*) by its shape.
  Workload(name: "request-fetch-count", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.filter(Column("id") == id).fetchCount(db) == 1 else {
        preconditionFailure("no item \(id)")
      }
    }
  },
  // Records by primary keys: `id IN (?, ?)`, built when the request runs.
  Workload(name: "record-fetch-all-keys", writes: false) { db, _, count in
    for id in 1...count {
      let items = try Item.fetchAll(db, keys: [id, id % tableRows + 1])
      precondition(items.count == 2)
    }
  },
  // Raw SQL with arguments: found by its shape, as expressions are.
  Workload(name: "request-filter-sql-fetch-one", writes: false) { db, _, count in
    for id in 1...count {
      guard try Item.filter(sql: "id = ?", arguments: [id]).fetchOne(db) != nil else {
        preconditionFailure("no item \(id)")
      }
    }
  },
  Workload(name: "record-insert-and-fetch", writes: true) { db, offset, count in
    for id in offset..<(offset + count) {
      var item = Item(id: id, name: "name", score: 0.5)
      let stored = try item.insertAndFetch(db)
      precondition(stored.id == id)
    }
  },
  Workload(name: "record-update-and-fetch", writes: false) { db, _, count in
    for id in 1...count {
      let stored = try Item(id: id, name: "updated", score: 5.5).updateAndFetch(db)
      precondition(stored.id == id)
    }
  },
  // The returned row decoded as a Codable record, each time from a new row.
  Workload(name: "record-upsert-and-fetch", writes: false) { db, _, count in
    for id in 1...count {
      let stored = try Item(id: id, name: "fetched", score: 4.5).upsertAndFetch(db)
      precondition(stored.id == id)
    }
  },
]

/// The workloads whose retains and releases are counted too, as
/// `NAME-references`: the paths that run once per row or record.
let referenceCountedWorkloads: Set = [
  "row-cursor-step", "record-cursor-step", "primary-key-lookup", "request-fetch-one", "small-request",
  "statement-insert",
  "record-insert", "container-record-insert",
  "record-update", "record-save", "record-upsert", "record-upsert-and-fetch", "record-exists",
  "record-delete",
]

let workloads =
  countedWorkloads
  + countedWorkloads.filter { referenceCountedWorkloads.contains($0.name) }.map { workload in
    var counted = workload
    counted.name += "-references"
    counted.measure = .referenceOperations
    return counted
  }

/// What `measure` counts during `body`.
func counting(_ measure: Workload.Measure, _ body: () throws -> Void) rethrows -> UInt64 {
  let before = measure.current
  try body()
  return measure.current &- before
}

/// Three samples of what `workload` costs per operation, in order.
func measure(_ workload: Workload, _ dbQueue: DatabaseQueue) throws -> [Double] {
  // Inserts write new ids, above the table's rows; the other workloads
  // read or overwrite rows 1…count.
  var offset = tableRows + 1
  func counted(_ count: Int) throws -> UInt64 {
    try dbQueue.write { db in
      defer { offset += count }
      return try counting(workload.measure) { try workload.run(db, offset, count) }
    }
  }
  // The warm-up runs as many operations as the larger run: the pages and
  // caches SQLite fills for 3,000 operations are filled before any sample.
  _ = try counted(3_000)
  return try (0..<3).map { _ in
    let small = try counted(1_000)
    let large = try counted(3_000)
    return (Double(large) - Double(small)) / 2_000
  }
}

/// The check of the counter's malloc_usable_size: the capacity of an array
/// whose storage malloc hands a chunk 16 bytes larger than its request's,
/// printed as `reused-chunk-capacity CAPACITY ASKED CHUNK EXACT-CHUNK`. With
/// glibc's own malloc_usable_size, the capacity is 2 more than asked.
func checkReusedChunkCapacity() {
  // Storage of more than 1,032 bytes, which malloc's per-thread caches do not
  // keep: the freed chunk goes to a bin from which malloc hands it whole to a
  // request 16 bytes smaller. Where another free chunk serves the request
  // instead, the next size is tried.
  for asked in stride(from: 301, through: 401, by: 20) {
    let request = 32 + 8 * asked  // an array's object header, count and capacity, then its elements
    let freed = sealite_free_block_with_slack(request)
    var array = ContiguousArray<UInt64>()
    array.reserveCapacity(asked)
    let storage = array.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress!) - 32 }
    guard storage == freed else { continue }
    let chunk = sealite_chunk_size(storage)
    print("reused-chunk-capacity \(array.capacity) \(asked) \(chunk) \(sealite_exact_chunk_size(request))")
    return
  }
  print("reused-chunk-capacity none")
}

@MainActor func main() throws {
  guard sealite_allocation_counting_is_available() == 1 else {
    FileHandle.standardError.write(Data("sealite-allocations: a sanitizer replaces malloc here\n".utf8))
    exit(3)
  }
  let names = Array(CommandLine.arguments.dropFirst())
  if names == ["reused-chunk-capacity"] { return checkReusedChunkCapacity() }
  let chosen =
    names.isEmpty
    ? workloads
    : try names.map { name in
      guard let workload = workloads.first(where: { $0.name == name }) else {
        throw DatabaseError(message: "unknown workload \(name)")
      }
      return workload
    }
  if chosen.contains(where: { $0.measure == .referenceOperations }) {
    _ = sealite_start_counting_reference_operations()
  }
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("sealite-allocations-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var configuration = Configuration()
  configuration.key = try .raw(Data(repeating: 0x42, count: 32))
  for workload in chosen {
    let path = directory.appendingPathComponent("\(workload.name).sqlite").path
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL NOT NULL)")
      try db.execute(
        sql:
          "CREATE TABLE wide (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)"
      )
      let statement = try db.makeStatement(sql: "INSERT INTO item (id, name, score) VALUES (?, ?, ?)")
      for id in 1...tableRows {
        try statement.execute(arguments: [id, "name-\(id)", Double(id) / 4])
      }
    }
    let samples = try measure(workload, dbQueue)
    let median = samples.sorted()[1]
    print("\(workload.name) \(median) \(samples.map { "\($0)" }.joined(separator: ","))")
    try dbQueue.close()
  }
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("sealite-allocations: \(error)\n".utf8))
  exit(1)
}
