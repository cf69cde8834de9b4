import Foundation
import Testing

// @testable: the checks read pragmas through Core's internal integerPragma.
@testable import Sealite

// Flips one byte at a time in copies of an encrypted database and of its WAL,
// and checks that `dbkey verify` reports it and that reads through the
// library fail clearly or return exactly what was committed: never other data.
//
// The short version runs always (every page of a small database, a few WAL
// frames). SEALITE_TAMPER_PAGES=N runs the long version: a database of about
// N pages, every page at several offsets, every WAL frame at several offsets,
// and prints how many flips were tried and detected.

/// The key of every database here: raw, 0x42 × 32 (no key derivation).
private let tamperKeyHex = String(repeating: "42", count: 32)

private func tamperConfiguration(readonly: Bool = false) -> Configuration {
  var config = rawKeyConfiguration(byte: 0x42)
  config.readonly = readonly
  return config
}

/// The reads compared before and after tampering: every row of every table,
/// and the rows of each index (read through the index alone).
private let snapshotQueries = [
  "SELECT * FROM sqlite_master ORDER BY name",
  "SELECT * FROM author ORDER BY id",
  "SELECT * FROM book ORDER BY id",
  "SELECT * FROM tag ORDER BY name",
  "SELECT name, id FROM author INDEXED BY author_name ORDER BY name, id",
  "SELECT title, id FROM book INDEXED BY book_title ORDER BY title, id",
]

/// The result of each snapshot query.
private typealias Snapshot = [String: [Row]]

/// The linked SQLCipher's major version: 4 has `cipher_integrity_check`, 3 does not.
private var sqlcipherMajorVersion: Int {
  SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 0
}

/// The bytes at the end of each page that SQLCipher authenticates: the IV and
/// the HMAC (SHA512 in SQLCipher 4). SQLCipher 3 rounds its 36 bytes (IV and
/// SHA1 HMAC) up to 48: the last 12 bytes of each of its pages are padding
/// that nothing reads, so a flip there changes nothing.
private var unauthenticatedTailSize: Int { sqlcipherMajorVersion >= 4 ? 0 : 12 }

/// One batch of deterministic rows: some authors, books (one with a body
/// longer than a page, for overflow pages) and tags.
private func insertBatch(_ db: Database, batch: Int, generator: inout SplitMix64) throws {
  for index in 0..<4 {
    let id = batch * 4 + index + 1
    try db.execute(
      sql: "INSERT INTO author (id, name, born) VALUES (?, ?, ?)",
      arguments: [id, "author \(Int.random(in: 0..<100_000, using: &generator))", 1900 + id % 100])
    let bodySize = index == 0 ? 5000 : Int.random(in: 50..<600, using: &generator)
    let body = Data((0..<bodySize).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try db.execute(
      sql: "INSERT INTO book (id, authorId, title, body) VALUES (?, ?, ?, ?)",
      arguments: [id, id, "title \(Int.random(in: 0..<100_000, using: &generator))", body])
    try db.execute(
      sql: "INSERT INTO tag (name, weight) VALUES (?, ?)",
      arguments: ["tag \(id)", Double(Int.random(in: 0..<1000, using: &generator)) / 10])
  }
}

private func createSchema(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER);
      CREATE INDEX author_name ON author(name);
      CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT, body BLOB);
      CREATE INDEX book_title ON book(title);
      CREATE TABLE tag (name TEXT PRIMARY KEY, weight REAL) WITHOUT ROWID;
      """)
}

private func integerPragma(_ reader: some DatabaseReader, _ name: String) throws -> Int {
  try reader.unsafeRead { db in try db.integerPragma(name) ?? 0 }
}

/// What the library read from a (possibly tampered) file.
private struct ReadReport {
  /// The error of the first open, if it failed.
  var openError: DatabaseError?
  /// The rows each query returned, or the error it threw (each on a new connection).
  var results: [String: Result<[Row], DatabaseError>] = [:]
  /// `PRAGMA integrity_check`, or its error.
  var integrity: Result<[String], DatabaseError>?

  var failures: [DatabaseError] {
    var errors = [openError].compactMap { $0 }
    for result in results.values { if case .failure(let error) = result { errors.append(error) } }
    if case .failure(let error) = integrity { errors.append(error) }
    return errors
  }

  /// True if some read failed, or the integrity check found a problem.
  var detected: Bool {
    guard failures.isEmpty else { return true }
    if case .success(let messages) = integrity { return messages != ["ok"] }
    return false
  }
}

/// Reads the database at `path` with the key: every snapshot query and the
/// integrity check, each on a connection of its own (a failure on one
/// connection then says nothing about the next query).
private func readEverything(_ path: String, readonly: Bool) throws -> ReadReport {
  var report = ReadReport()
  func attempt<T>(_ body: (DatabaseQueue) throws -> T) throws -> Result<T, DatabaseError> {
    do {
      let queue = try DatabaseQueue(path: path, configuration: tamperConfiguration(readonly: readonly))
      defer { try? queue.close() }
      return .success(try body(queue))
    } catch let error as DatabaseError {
      return .failure(error)
    }
  }
  if case .failure(let error) = try attempt({ _ in () }) {
    report.openError = error
    return report
  }
  for sql in snapshotQueries {
    report.results[sql] = try attempt { queue in try queue.read { db in try Row.fetchAll(db, sql: sql) } }
  }
  report.integrity = try attempt { queue in
    try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }
  return report
}

private func snapshot(_ reader: some DatabaseReader) throws -> Snapshot {
  var result: Snapshot = [:]
  for sql in snapshotQueries {
    result[sql] = try reader.read { db in try Row.fetchAll(db, sql: sql) }
  }
  return result
}

/// Flips the bits of the byte at `offset` of the file at `path`.
private func flipByte(atPath path: String, offset: Int) throws {
  let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
  defer { try? handle.close() }
  try handle.seek(toOffset: UInt64(offset))
  let byte = try #require(try handle.read(upToCount: 1)?.first)
  try handle.seek(toOffset: UInt64(offset))
  try handle.write(contentsOf: Data([~byte]))
}

/// `dbkey verify COPY --key-fd 0`, the key on standard input.
private func verify(_ path: String) async throws -> (status: Int32, stdout: String, stderr: String) {
  let result = try await dbkey(["verify", path, "--key-fd", "0"], input: tamperKeyHex + "\n")
  #expect(!result.stdout.contains(tamperKeyHex) && !result.stderr.contains(tamperKeyHex))
  return result
}

/// Counts of the flips tried, for the long version's summary.
private struct TamperCounts: CustomStringConvertible {
  var tried = 0
  var detectedByReads = 0
  var detectedByVerify = 0
  var pageNamedByVerify = 0
  /// Flips that can not be detected by design (named in the summary).
  var undetectable = 0
  /// WAL flips after which every read showed the last commit before the frame, exactly.
  var readEarlierCommit = 0

  var description: String {
    "\(tried) flips, \(detectedByReads) detected by reads, \(detectedByVerify) by dbkey verify"
      + " (\(pageNamedByVerify) naming the page), \(undetectable) undetectable by design"
      + (readEarlierCommit > 0 ? ", \(readEarlierCommit) read as the last commit before the frame" : "")
  }
}

// MARK: - The main file

/// A sealed copy of an encrypted database and the snapshot of its contents.
private struct MainFileFixture {
  let directory: TemporaryDirectory
  let original: Data
  let pageSize: Int
  let pageCount: Int
  let expected: Snapshot

  init(pages target: Int) throws {
    directory = TemporaryDirectory("tamper-main")
    let path = directory.path("original.sqlite")
    let queue = try DatabaseQueue(path: path, configuration: tamperConfiguration())
    try queue.write { db in try createSchema(db) }
    var generator = SplitMix64(seed: 7)
    var batch = 0
    while try integerPragma(queue, "page_count") < target {
      try queue.write { db in try insertBatch(db, batch: batch, generator: &generator) }
      batch += 1
    }
    try queue.close()
    // Measured read-only: closing a writer may run PRAGMA optimize, which writes.
    let reader = try DatabaseQueue(path: path, configuration: tamperConfiguration(readonly: true))
    // Without free pages, every page is read by a table scan or the integrity check.
    #expect(try integerPragma(reader, "freelist_count") == 0)
    pageSize = try integerPragma(reader, "page_size")
    pageCount = try integerPragma(reader, "page_count")
    expected = try snapshot(reader)
    try reader.close()
    original = try #require(fileBytes(path))
    #expect(original.count == pageSize * pageCount)
  }

  /// Flips the byte at `offset` in a fresh copy, then checks what verify and
  /// reads make of it. `authenticated`: false for SQLCipher 3's page padding.
  func check(page: Int, offset: Int, authenticated: Bool, counts: inout TamperCounts) async throws {
    let path = directory.path("copy.sqlite")
    try original.write(to: URL(fileURLWithPath: path))
    try flipByte(atPath: path, offset: offset)
    let tampered = try #require(fileBytes(path))
    let place = "page \(page) of \(pageCount), byte \(offset - (page - 1) * pageSize)"
    counts.tried += 1

    let report = try readEverything(path, readonly: false)
    // Whatever a read returns is exactly what was written.
    for (sql, result) in report.results {
      if case .success(let rows) = result {
        let same = rows == expected[sql]
        #expect(same, "\(place): \(sql) returned other rows than were written")
      }
    }
    for error in report.failures {
      #expect(
        [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_ERROR].contains(error.resultCode), "\(place): \(error)")
      #expect(error.message?.isEmpty == false, "\(place): \(error)")
    }
    let verification = try await verify(path)
    #expect(fileBytes(path) == tampered, "\(place): reading or verifying changed the file")
    guard authenticated else {
      // Padding SQLCipher 3 neither reads nor authenticates.
      let unnoticed = !report.detected
      #expect(unnoticed && verification.status == 0, "\(place): \(verification.stdout)")
      counts.undetectable += 1
      return
    }
    let detected = report.detected
    #expect(detected, "\(place): the flipped byte went unnoticed by reads")
    if detected { counts.detectedByReads += 1 }
    if let openError = report.openError {
      // Pages read at open (page 1, and the schema's): a clear error at open, in
      // the library (SQLCipher can not tell a damaged page 1 from a wrong key) and in verify.
      #expect(openError.resultCode == .SQLITE_NOTADB || openError.resultCode == .SQLITE_CORRUPT)
      let words = ["key does not open", "truncated or damaged", "not a database"]
      #expect(words.contains { openError.message?.contains($0) == true }, "\(place): \(openError)")
      #expect(verification.status == 65, "\(place): \(verification.stderr)")
    } else {
      #expect(verification.status == 76, "\(place): \(verification.stdout)\(verification.stderr)")
      #expect(verification.stdout.hasPrefix("FAILED"), "\(place): \(verification.stdout)")
      if sqlcipherMajorVersion >= 4 {
        // cipher_integrity_check names the page.
        let named = verification.stdout.split(separator: "\n").contains("tampered page: \(page)")
        #expect(named, "\(place): \(verification.stdout)")
        if named { counts.pageNamedByVerify += 1 }
      }
    }
    if verification.status == 76 || verification.status == 65 { counts.detectedByVerify += 1 }
  }
}

// MARK: - The WAL

/// A pool's database whose last commits are still in its WAL, copied with it.
private struct WALFixture {
  let directory: TemporaryDirectory
  let database: Data
  let wal: Data
  let pageSize: Int
  /// The snapshot before the first commit in the WAL, then after each commit.
  let states: [Snapshot]
  /// For each commit, the index (from 0) of its last frame.
  let commitFrames: [Int]
  /// For each frame, the page it holds.
  let framePages: [Int]

  init(pages target: Int, commits: Int) throws {
    directory = TemporaryDirectory("tamper-wal")
    let path = directory.path("original.sqlite")
    var generator = SplitMix64(seed: 11)
    // The base, checkpointed into the file when its pool closes.
    var pool = try DatabasePool(path: path, configuration: tamperConfiguration())
    try pool.write { db in try createSchema(db) }
    var batch = 0
    while try integerPragma(pool, "page_count") < target {
      try pool.write { db in try insertBatch(db, batch: batch, generator: &generator) }
      batch += 1
    }
    try pool.close()

    pool = try DatabasePool(path: path, configuration: tamperConfiguration())
    // Frames stay in the WAL: no checkpoint while the pool is open.
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
    pageSize = try integerPragma(pool, "page_size")
    var states = [try snapshot(pool)]
    var commitFrames: [Int] = []
    for commit in 0..<commits {
      try pool.write { db in
        if commit % 2 == 0 {
          try insertBatch(db, batch: batch, generator: &generator)
          batch += 1
        }
        try db.execute(
          sql: "UPDATE author SET born = born + 1 WHERE id % ? = 0", arguments: [commit % 3 + 2])
        try db.execute(sql: "UPDATE tag SET weight = weight * 2 WHERE name LIKE ?", arguments: ["tag 1%"])
      }
      states.append(try snapshot(pool))
      let walSize = try #require(fileBytes(path + "-wal")).count
      commitFrames.append((walSize - 32) / (24 + pageSize) - 1)
    }
    database = try #require(fileBytes(path))
    wal = try #require(fileBytes(path + "-wal"))
    try pool.close()
    self.states = states
    self.commitFrames = commitFrames
    #expect(commitFrames.count == commits && commitFrames == commitFrames.sorted())
    #expect(wal.count == 32 + (commitFrames.last! + 1) * (24 + pageSize), "a whole number of frames")
    let (walBytes, frameSize) = (wal, 24 + pageSize)
    framePages = (0...commitFrames.last!).map { frame in
      let offset = 32 + frame * frameSize
      return walBytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
  }

  var frameCount: Int { framePages.count }

  func frameDataOffset(_ frame: Int) -> Int { 32 + frame * (24 + pageSize) + 24 }

  /// True if a later frame of the log holds the same page (SQLite reads only the last).
  func isSuperseded(_ frame: Int) -> Bool {
    framePages[(frame + 1)...].contains(framePages[frame])
  }

  /// Writes a fresh copy of the database and its WAL (no -shm: the first
  /// connection rebuilds the index from the WAL, checking its checksums).
  func makeCopy() throws -> String {
    let path = directory.path("copy.sqlite")
    for suffix in ["-shm", "-wal", ""] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try database.write(to: URL(fileURLWithPath: path))
    try wal.write(to: URL(fileURLWithPath: path + "-wal"))
    return path
  }

  /// A flipped byte in frame `frame`'s page, checksums left as they are.
  /// SQLite takes the frame for the torn end of the log: it drops it and
  /// every frame after it, so reads show the last commit before it, exactly.
  /// `dbkey verify` reports it when committed frames follow it; when it is
  /// the log's last frame, it is what a crash while writing that frame
  /// leaves, and verify can not tell it apart.
  func checkPlainFlip(frame: Int, offset: Int, counts: inout TamperCounts) async throws {
    let path = try makeCopy()
    try flipByte(atPath: path + "-wal", offset: frameDataOffset(frame) + offset)
    let tamperedWAL = try #require(fileBytes(path + "-wal"))
    let place = "WAL frame \(frame + 1) of \(frameCount) (page \(framePages[frame])), page byte \(offset)"
    counts.tried += 1
    // The state SQLite shows: the last commit that ends before this frame.
    let expected = states[commitFrames.filter { $0 < frame }.count]

    let report = try readEverything(path, readonly: true)
    let failures = report.failures.map { $0.message ?? "\($0.resultCode)" }
    #expect(failures.isEmpty, "\(place): \(failures)")
    var allEarlier = failures.isEmpty
    for (sql, result) in report.results {
      if case .success(let rows) = result {
        let same = rows == expected[sql]
        #expect(same, "\(place): \(sql) returned rows of no committed state")
        allEarlier = allEarlier && same
      }
    }
    if allEarlier { counts.readEarlierCommit += 1 }
    let verification = try await verify(path)
    #expect(fileBytes(path) == database && fileBytes(path + "-wal") == tamperedWAL, "\(place): changed")
    if frame < commitFrames.last! {
      #expect(verification.status == 76, "\(place): \(verification.stdout)\(verification.stderr)")
      #expect(
        verification.stdout.contains("wal: WAL frame \(frame + 1) (page \(framePages[frame]))"),
        "\(place): \(verification.stdout)")
      if verification.status == 76 { counts.detectedByVerify += 1 }
    } else {
      #expect(verification.status == 0, "\(place): \(verification.stdout)\(verification.stderr)")
      counts.undetectable += 1
    }
  }

  /// A flipped byte in frame `frame`'s page, with the WAL checksums of that
  /// frame and the later ones recomputed, as a deliberate attacker would.
  /// SQLite then takes every frame; the page's HMAC fails when it is read.
  /// A frame that a later frame of the same page supersedes is never read,
  /// nor is SQLCipher 3's page padding (`authenticated` false); page 1's salt
  /// is not read either, and verify reports it.
  func checkForgedFlip(frame: Int, offset: Int, authenticated: Bool = true, counts: inout TamperCounts)
    async throws
  {
    let path = try makeCopy()
    var bytes = [UInt8](wal)
    bytes[frameDataOffset(frame) + offset] ^= 0xFF
    forgeChecksums(&bytes, from: frame)
    try Data(bytes).write(to: URL(fileURLWithPath: path + "-wal"))
    let place =
      "forged WAL frame \(frame + 1) of \(frameCount) (page \(framePages[frame])), page byte \(offset)"
    counts.tried += 1

    let report = try readEverything(path, readonly: true)
    let latest = states.last!
    for (sql, result) in report.results {
      if case .success(let rows) = result {
        let same = rows == latest[sql]
        #expect(same, "\(place): \(sql) returned other rows than were committed")
      }
    }
    let verification = try await verify(path)
    #expect(fileBytes(path + "-wal") == Data(bytes), "\(place): changed")
    let detected = report.detected
    if framePages[frame] == 1 && offset < 16 {
      // Page 1's salt: neither encrypted nor authenticated, nor read (the
      // salt in use is the file's), but a checkpoint would copy it into the file.
      #expect(!detected, "\(place): \(report.failures)")
      #expect(verification.status == 76, "\(place): \(verification.stdout)\(verification.stderr)")
      #expect(
        verification.stdout.contains("wal: WAL frame \(frame + 1) (page 1) does not begin like the database"),
        "\(place): \(verification.stdout)")
      if verification.status == 76 { counts.detectedByVerify += 1 }
      return
    }
    if isSuperseded(frame) || !authenticated {
      #expect(!detected && verification.status == 0, "\(place): \(verification.stdout)")
      counts.undetectable += 1
      return
    }
    #expect(detected, "\(place): the flipped byte went unnoticed by reads")
    if detected { counts.detectedByReads += 1 }
    for error in report.failures {
      #expect(
        [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_ERROR].contains(error.resultCode), "\(place): \(error)")
    }
    #expect(
      verification.status == (report.openError == nil ? 76 : 65),
      "\(place): \(verification.stdout)\(verification.stderr)")
    if verification.status == 76 || verification.status == 65 { counts.detectedByVerify += 1 }
  }

  /// Recomputes SQLite's cumulative WAL checksums from frame `first` on.
  private func forgeChecksums(_ bytes: inout [UInt8], from first: Int) {
    let bigEndian = bytes[3] & 1 == 1
    func word(_ offset: Int, big: Bool) -> UInt32 {
      let value = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      return big ? value : value.byteSwapped
    }
    func sum(_ range: Range<Int>, _ sums: (UInt32, UInt32)) -> (UInt32, UInt32) {
      var (s1, s2) = sums
      for offset in stride(from: range.lowerBound, to: range.upperBound, by: 8) {
        s1 = s1 &+ word(offset, big: bigEndian) &+ s2
        s2 = s2 &+ word(offset + 4, big: bigEndian) &+ s1
      }
      return (s1, s2)
    }
    var sums = (word(24, big: true), word(28, big: true))
    for frame in 0..<frameCount {
      let offset = 32 + frame * (24 + pageSize)
      guard frame >= first else {
        sums = (word(offset + 16, big: true), word(offset + 20, big: true))
        continue
      }
      sums = sum(offset + 24..<offset + 24 + pageSize, sum(offset..<offset + 8, sums))
      for (index, value) in [sums.0, sums.1].enumerated() {
        for byte in 0..<4 {
          bytes[offset + 16 + index * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte))
        }
      }
    }
  }
}

@Suite("Tampering with pages and WAL frames is reported, never read as data")
struct TamperDetectionTests {
  @Test("a flipped byte in any page fails dbkey verify, naming the page, and every read that meets it")
  func everyPage() async throws {
    let fixture = try MainFileFixture(pages: 16)
    #expect(fixture.pageCount >= 16)
    var counts = TamperCounts()
    for page in 1...fixture.pageCount {
      // Inside the encrypted body: past page 1's salt.
      let offset = (page - 1) * fixture.pageSize + (page == 1 ? 16 : 0) + 100
      try await fixture.check(page: page, offset: offset, authenticated: true, counts: &counts)
    }
    print("tamper: database file of \(fixture.pageCount) pages: \(counts)")
    #expect(counts.tried == fixture.pageCount)
    #expect(counts.detectedByReads == counts.tried && counts.detectedByVerify == counts.tried, "\(counts)")
    if sqlcipherMajorVersion >= 4 {
      // Every page but the first (which does not open) is named.
      #expect(counts.pageNamedByVerify == counts.tried - 1, "\(counts)")
    }
  }

  @Test("a tampered last page of a long value is an error in every transaction that reads it, never zeros")
  func lastOverflowPage() async throws {
    // SQLCipher hands over a page that fails authentication as zeros and fails
    // only the next page read: a value whose overflow chain ends on the page
    // read as zeros when nothing else was read after it.
    let directory = TemporaryDirectory()
    let path = directory.path()
    var generator = SplitMix64(seed: 3)
    let value = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let queue = try DatabaseQueue(path: path, configuration: tamperConfiguration())
    try await queue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
      try db.execute(sql: "INSERT INTO t (id, body) VALUES (1, ?)", arguments: [value])
    }
    let pageSize = try integerPragma(queue, "page_size")
    let pageCount = try integerPragma(queue, "page_count")
    try queue.close()
    // Page 1 holds the schema, page 2 the row, the rest its overflow chain,
    // which ends on the last page.
    #expect(pageCount >= 3 && pageCount <= 2 + 5000 / (pageSize / 2))
    let sql = "SELECT body FROM t WHERE id = 1"
    #expect(
      try await DatabaseQueue(path: path, configuration: tamperConfiguration()).read { db in
        try Data.fetchOne(db, sql: sql)
      } == value)
    try flipByte(atPath: path, offset: (pageCount - 1) * pageSize + 100)

    let readers: [(String, () throws -> Data?)] = [
      (
        "queue read",
        {
          try DatabaseQueue(path: path, configuration: tamperConfiguration()).read { db in
            try Data.fetchOne(db, sql: sql)
          }
        }
      ),
      (
        "pool read",
        {
          try DatabasePool(path: path, configuration: tamperConfiguration()).read { db in
            try Data.fetchOne(db, sql: sql)
          }
        }
      ),
      (
        "queue write",
        {
          try DatabaseQueue(path: path, configuration: tamperConfiguration()).write { db in
            try Data.fetchOne(db, sql: sql)
          }
        }
      ),
    ]
    for (name, read) in readers {
      do {
        let data = try read()
        Issue.record(
          "\(name) returned \(data?.count ?? 0) bytes, \(data == value ? "the original" : "not the original")"
        )
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_CORRUPT, "\(name): \(error)")
        #expect(error.message?.contains("failed authentication") == true, "\(name): \(error)")
      }
    }
    let verification = try await verify(path)
    #expect(verification.status == 76, "\(verification.stdout)")
    if sqlcipherMajorVersion >= 4 {
      #expect(verification.stdout.contains("tampered page: \(pageCount)"), "\(verification.stdout)")
    }
  }

  @Test("a flipped byte in page 1's salt is a key error at open, in the library and in verify")
  func salt() async throws {
    let fixture = try MainFileFixture(pages: 8)
    var counts = TamperCounts()
    for offset in [0, 5, 15] {
      try await fixture.check(page: 1, offset: offset, authenticated: true, counts: &counts)
    }
    #expect(counts.detectedByReads == 3 && counts.detectedByVerify == 3, "\(counts)")
  }

  @Test(
    "a flipped byte in a WAL frame: reads show the last commit before it, exactly; verify reports lost commits"
  )
  func walFrames() async throws {
    let fixture = try WALFixture(pages: 8, commits: 4)
    var counts = TamperCounts()
    let commits = fixture.commitFrames
    // The first frame of the log, the first and the last frame of the last
    // commit (the last frame of the log: what a crash leaves), and one between.
    let frames = Set([0, commits[0] + 1, commits[commits.count - 2] + 1, commits.last!])
    for frame in frames.sorted() {
      try await fixture.checkPlainFlip(frame: frame, offset: 100, counts: &counts)
    }
    print("tamper: WAL of \(fixture.frameCount) frames, checksums kept: \(counts)")
    #expect(counts.detectedByVerify == frames.count - 1 && counts.undetectable == 1, "\(counts)")
    #expect(counts.readEarlierCommit == frames.count, "\(counts)")
  }

  @Test("a flipped byte in a WAL frame with forged checksums fails page authentication when read, and verify")
  func forgedWALFrames() async throws {
    let fixture = try WALFixture(pages: 8, commits: 4)
    var counts = TamperCounts()
    // The last frame of each page: the ones SQLite reads.
    let frames = (0..<fixture.frameCount).filter { !fixture.isSuperseded($0) }
    #expect(frames.count >= 3)
    for frame in frames.prefix(4) {
      try await fixture.checkForgedFlip(frame: frame, offset: 100, counts: &counts)
    }
    #expect(counts.detectedByReads == counts.tried && counts.detectedByVerify == counts.tried, "\(counts)")
    // A superseded frame is never read: the latest data is intact.
    if let superseded = (0..<fixture.frameCount).first(where: { fixture.isSuperseded($0) }) {
      try await fixture.checkForgedFlip(frame: superseded, offset: 100, counts: &counts)
    }
    print("tamper: WAL of \(fixture.frameCount) frames, checksums forged: \(counts)")
  }

  /// SEALITE_TAMPER_PAGES=N: the number of pages of the long version's database.
  static let longVersionPages = ProcessInfo.processInfo.environment["SEALITE_TAMPER_PAGES"].flatMap {
    Int($0)
  }

  @Test(
    "long version: every page and every WAL frame at several offsets (SEALITE_TAMPER_PAGES=N)",
    .enabled(if: longVersionPages != nil))
  func longVersion() async throws {
    let pages = try #require(Self.longVersionPages)
    var generator = SplitMix64(seed: UInt64(pages))
    let fixture = try MainFileFixture(pages: pages)
    let size = fixture.pageSize
    var main = TamperCounts()
    for page in 1...fixture.pageCount {
      let start = (page - 1) * size
      // The first byte (page 1: of the salt, then past it), the middle, the
      // last byte of the page, and one at random.
      var offsets = [0, size / 2, size - 1, Int.random(in: 0..<size, using: &generator)]
      if page == 1 { offsets.append(16) }
      for offset in offsets {
        try await fixture.check(
          page: page, offset: start + offset, authenticated: offset < size - unauthenticatedTailSize,
          counts: &main)
      }
    }
    print("tamper (long): database file of \(fixture.pageCount) pages of \(size) bytes: \(main)")

    let wal = try WALFixture(pages: max(8, pages / 4), commits: 12)
    var plain = TamperCounts()
    var forged = TamperCounts()
    for frame in 0..<wal.frameCount {
      for offset in [0, size / 2, size - 1, Int.random(in: 0..<size, using: &generator)] {
        try await wal.checkPlainFlip(frame: frame, offset: offset, counts: &plain)
        try await wal.checkForgedFlip(
          frame: frame, offset: offset, authenticated: offset < size - unauthenticatedTailSize,
          counts: &forged)
      }
    }
    print("tamper (long): WAL of \(wal.frameCount) frames in 12 commits, checksums kept: \(plain)")
    print("tamper (long): WAL of \(wal.frameCount) frames in 12 commits, checksums forged: \(forged)")
  }
}
