import Foundation
import Testing

// @testable: the fuzzer compares SQL generation (SQLGenerationContext) and encoding internals with SQLite.
@testable import Sealite

// Seeded fuzzing of everything that turns values and names into SQL, and of dbkey's
// command line. Each test runs a fixed number of iterations of a seeded generator:
//
//   SEALITE_FUZZ_SEED=N          the seed (decimal or 0x-hex; a fixed default)
//   SEALITE_FUZZ_ITERATIONS=N    iterations per test (short defaults: the file runs in seconds)
//   SEALITE_FUZZ_REPLAY=I        runs iteration I only: a failure names its seed and iteration
//
// Each iteration draws from its own generator, seeded from the seed, the test and the
// iteration's number, so one failing iteration replays alone.

// MARK: - The tests

@Suite("Fuzzing: values, SQL literals, identifiers and dbkey's command line")
struct FuzzTests {
  @Test("random values bound through every API shape read back exactly and never reach SQL text")
  func values() throws {
    let run = FuzzRun("values", defaultIterations: 150)
    let dbQueue = try DatabaseQueue()
    let log = try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE fuzz (id INTEGER PRIMARY KEY, v); CREATE TABLE fuzzkey (k PRIMARY KEY, n)")
      return SQLCapture(on: db)
    }
    run.run { random in
      try dbQueue.write { db in try exerciseRandomValue(&random, db: db, log: log, run: run) }
    }
  }

  @Test("the SQL-text check finds a value written into SQL text")
  func leakCheckCanFail() throws {
    let dbQueue = try DatabaseQueue()
    let marker = "FUZZ-0123456789abcdef"
    let hex = marker.utf8.map { String(format: "%02X", $0) }.joined()
    let log = try dbQueue.write { db in
      let log = SQLCapture(on: db)
      try db.execute(sql: "SELECT ?, ?", arguments: [marker, Data(marker.utf8)])
      #expect(log.leaks(of: markerForms(marker)).isEmpty)
      try db.execute(sql: "SELECT 'FUZZ-0123456789abcdef'")
      try db.execute(sql: "SELECT X'\(hex)'")
      try db.execute(sql: "SELECT 1 AS \"FUZZ-0123456789abcdef\"")
      return log
    }
    #expect(log.leaks(of: markerForms(marker)).count == 3)
  }

  @Test("SQL literals of random values (schema statements take no arguments) read back as the same value")
  func literals() throws {
    let run = FuzzRun("literals", defaultIterations: 150)
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      run.run { random in
        let value = randomDatabaseValue(&random)
        let expected: DatabaseValue
        if case .double(let double) = value.storage, double.isNaN {
          expected = .null
        } else {
          expected = value
        }
        // SQLite reads SQL text up to a NUL: a text with one can not be a literal.
        var failure: String?
        if case .string(let text) = value.storage, text.contains("\0") { failure = "NUL in a text literal" }
        let literal = SQLGenerationContext.literal(value)
        _ = attempt("SELECT \(describe(value))", expectedFailure: failure, run: run) {
          let read: DatabaseValue = try Row.fetchOne(db, sql: "SELECT \(literal)")![0]
          run.check(isIdentical(read, expected), "literal \(literal.prefix(80)) read \(describe(read))")
          run.check(failure == nil, "a literal with NUL read \(describe(read))")
        }
        _ = attempt("DEFAULT \(describe(value))", expectedFailure: failure, run: run) {
          try db.create(table: "literal") { t in
            t.column("id", .integer).primaryKey()
            t.column("v").defaults(to: value)
          }
          defer { try? db.drop(table: "literal") }
          try db.execute(sql: "INSERT INTO literal (id) VALUES (1)")
          let read: DatabaseValue = try Row.fetchOne(db, sql: "SELECT v FROM literal")![0]
          run.check(isIdentical(read, expected), "DEFAULT \(literal.prefix(80)) read \(describe(read))")
        }
        run.check(try !db.tableExists("literal"), "the table of DEFAULT \(describe(value)) is left")
      }
    }
  }

  @Test(
    "random table, column and index names: created, used, renamed and dropped as named, or a DatabaseError")
  func identifiers() throws {
    let run = FuzzRun("identifiers", defaultIterations: 150)
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE sentinel (x); INSERT INTO sentinel VALUES (42)")
      let baseline = try schemaObjects(db)
      run.run { random in
        try exerciseIdentifiers(&random, db: db, baseline: baseline, run: run)
        run.check(try Int.fetchAll(db, sql: "SELECT x FROM sentinel") == [42], "the sentinel row changed")
      }
    }
  }

  @Test(
    "random dbkey command lines end with a documented exit code and a one-line message, inside their directory"
  )
  func dbkeyCommandLines() async throws {
    let run = FuzzRun("dbkey", defaultIterations: 150)
    let sandbox = try DbkeySandbox()
    let vocabulary = try await DbkeyVocabulary(sandbox: sandbox)
    #expect(vocabulary.commands.contains("watch") && vocabulary.options["info"]?.contains("--key-fd") == true)
    let outside = [
      FileManager.default.currentDirectoryPath, FileManager.default.temporaryDirectory.path,
      NSHomeDirectory(), "/",
    ]
    let before = outside.map(entries)
    var pathNames: Set<String> = []
    var codes: [Int32: Int] = [:]
    var slowest = Duration.zero
    let clock = ContinuousClock()
    let start = clock.now
    await run.runAwaiting { random in
      let line = randomCommandLine(&random, vocabulary: vocabulary, sandbox: sandbox)
      pathNames.formUnion(line.pathNames)
      let result = try await spawnDbkey(
        line.arguments, input: line.input, sandbox: sandbox, timeout: .seconds(10))
      slowest = max(slowest, result.duration)
      let shown = "dbkey \(line.arguments.map { String(reflecting: $0) }.joined(separator: " "))"
      guard !result.timedOut else { return run.fail("\(shown): killed after 10 s") }
      guard let status = result.status else {
        return run.fail("\(shown): died of signal \(result.signal ?? -1): \(result.stderr.suffix(500))")
      }
      codes[status, default: 0] += 1
      // 70 is documented ("an unexpected failure") but may hide a bug: shown for triage.
      if status == 70 { print("dbkey fuzz: exit 70 from \(shown): \(result.stderr.prefix(300))") }
      run.check(documentedExitCodes.contains(status), "\(shown): exit status \(status)")
      if status != 0 {
        let message = result.stderr.hasSuffix("\n") ? result.stderr.dropLast() : result.stderr[...]
        // With --json (before any --), the message is a JSON object on one line.
        let json = line.arguments.prefix { $0 != "--" }.contains("--json")
        let wellFormed =
          json
          ? ((try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])?["error"] != nil)
          : message.hasPrefix("dbkey: ")
        run.check(
          wellFormed && !message.contains(where: \.isNewline),
          "\(shown): exit \(status) with stderr \(String(reflecting: result.stderr.prefix(500)))")
        run.check(
          !message.unicodeScalars.contains { $0.properties.generalCategory == .control },
          "\(shown): control characters in \(String(reflecting: String(message.prefix(300))))")
      }
      run.check(
        !result.stdout.contains(sandbox.passphrase) && !result.stderr.contains(sandbox.passphrase),
        "\(shown): the passphrase read on standard input shows in the output")
    }
    for (directory, names) in zip(outside, before) {
      let created = entries(directory).subtracting(names).intersection(pathNames)
      #expect(created.isEmpty, "dbkey created \(created.sorted()) in \(directory)")
    }
    let summary = codes.keys.sorted().map { "\($0): \(codes[$0]!)" }.joined(separator: ", ")
    print(
      "dbkey fuzz: \(run.iterations) runs in \(clock.now - start), exit codes [\(summary)], slowest \(slowest)"
    )
  }
}

@Suite("What fuzzing found, kept as examples")
struct FuzzFindingsTests {
  @Test("a quote followed by a combining mark is still doubled, in names and in schema literals")
  func quoteWithCombiningMark() throws {
    // To Swift, `"` + U+0301 is one Character, which Character-based replacement left
    // alone: the quoted name or text ended early and the rest ran as SQL.
    let table = "t\"\u{301}; DROP TABLE sentinel; --"
    let column = "c'\u{301}\"\u{301}"
    let text = "x'\u{301}) OR 1=1 --"
    #expect(table.quotedDatabaseIdentifier == "\"t\"\"\u{301}; DROP TABLE sentinel; --\"")
    #expect(text.quotedDatabaseLiteral == "'x''\u{301}) OR 1=1 --'")
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE sentinel (x)")
      try db.create(table: table) { t in
        t.column("id", .integer).primaryKey()
        t.column(column).defaults(to: text)
      }
      try db.execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (id) VALUES (1)")
      #expect(
        try String.fetchOne(
          db, sql: "SELECT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier)") == text
      )
      #expect(try db.tableExists("sentinel"))
      // The table rebuild reads such names back from the schema.
      try db.alter(table: table, forcingTableRebuild: true) { t in t.rename(column: column, to: "\"\u{301}") }
      #expect(try db.columns(in: table).map(\.name) == ["id", "\"\u{301}"])
    }
  }

  @Test("names SQLite tells apart (Unicode case, normalization) stay apart in a table rebuild")
  func namesComparedAsSQLiteDoes() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "t") { t in
        t.column("é")
        t.column("e\u{301}")
        t.column("É")
      }
      try db.alter(table: "t", forcingTableRebuild: true) { t in
        t.rename(column: "e\u{301}", to: "decomposed")
      }
      try db.alter(table: "t", forcingTableRebuild: true) { t in t.drop(column: "É") }
      #expect(
        try db.columns(in: "t").map { Array($0.name.utf8) } == [Array("é".utf8), Array("decomposed".utf8)])
    }
  }

  @Test("dates outside the years 0000–9999 are stored as timestamps and read back; none stops the program")
  func datesOutOfTextRange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (v)")
      for seconds in [-62_167_219_200.001, 253_402_300_800, 1e15, -1e300, .infinity, -.infinity] {
        let date = Date(timeIntervalSince1970: seconds)
        try db.execute(sql: "DELETE FROM t; INSERT INTO t VALUES (?)", arguments: [date])
        #expect(try Date.fetchOne(db, sql: "SELECT v FROM t") == date)
        #expect(try String.fetchOne(db, sql: "SELECT typeof(v) FROM t") == "real")
      }
      try db.execute(
        sql: "DELETE FROM t; INSERT INTO t VALUES (?)", arguments: [Date(timeIntervalSince1970: .nan)])
      #expect(try Date.fetchOne(db, sql: "SELECT v FROM t") == nil)
      // Year 0000 and 9999 still are texts.
      let edges = [-62_167_219_200, 253_402_300_799.999].map { Date(timeIntervalSince1970: $0).databaseValue }
      #expect(edges == ["0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999"])
    }
    // Records' integer strategies write a real where the number does not fit an Int64.
    let far = Date(timeIntervalSince1970: 1e300)
    let milliseconds = DatabaseDateEncodingStrategy.millisecondsSince1970
    #expect(isIdentical(milliseconds.encode(far), (1e300 * 1000).rounded(.down).databaseValue))
    #expect(isIdentical(DatabaseDateEncodingStrategy.secondsSince1970.encode(far), 1e300.databaseValue))
    #expect(isIdentical(milliseconds.encode(Date(timeIntervalSince1970: 1.5)), 1500.databaseValue))
    #expect(milliseconds.encode(Date(timeIntervalSince1970: .nan)).storageClassName == "REAL")
  }

  @Test(
    "dbkey: a directory is not a database (65), migrate of a missing file is 66, messages stay on one line")
  func dbkeyFindings() async throws {
    let sandbox = try DbkeySandbox()
    func run(_ arguments: [String], input: String = "") async throws -> DbkeyRun {
      try await spawnDbkey(arguments, input: input, sandbox: sandbox, timeout: .seconds(30))
    }
    let passphrase = sandbox.passphrase + "\n"
    for command in ["info", "verify", "migrate", "watch"] {
      let result = try await run([command, "dir", "--passphrase-fd", "0"], input: passphrase)
      #expect(result.status == 65, "\(command): \(result.stderr)")
      #expect(result.stderr == "dbkey: dir is a directory, not a database file\n", "\(command)")
    }
    // migrate copied a directory into itself as its "backup".
    #expect(try await run(["migrate", "dir/", "--passphrase-fd", "0"], input: passphrase).status == 65)
    #expect(entries(sandbox.work + "/dir").isEmpty)
    let missing = try await run(["migrate", "missing.sqlite", "--passphrase-fd", "0"], input: passphrase)
    #expect(missing.status == 66 && missing.stderr == "dbkey: no database file at missing.sqlite\n")
    let odd = try await run(["in\nfo\u{1B}[2J\u{2028}"])
    #expect(odd.status == 64)
    #expect(odd.stderr == "dbkey: unknown command in\\nfo\\u{1B}[2J\\u{2028} (dbkey --help lists them)\n")
  }
}
