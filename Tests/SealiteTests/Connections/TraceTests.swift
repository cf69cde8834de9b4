import Foundation
import Sealite
import Testing

/// Collects what traces report, from any connection and thread.
private final class TraceLog: Sendable {
  private let mutex = Locked<[String]>([])

  var lines: [String] { mutex.withLock { $0 } }

  func append(_ line: String) { mutex.withLock { $0.append(line) } }

  /// Records every form of the event a user could print.
  func record(_ event: Database.TraceEvent) {
    append(event.description)
    switch event {
    case .statement(let statement), .profile(let statement, _):
      append(statement.sql)
      append(statement.expandedSQL)
    }
  }

  var text: String { lines.joined(separator: "\n") }
}

/// Every printable form of a value.
private func printedForms(_ value: Any) -> String {
  var dumped = ""
  dump(value, to: &dumped)
  return [String(describing: value), String(reflecting: value), "\(value)", dumped].joined(separator: "\n")
}

@Suite("Tracing")
struct TraceTests {
  // MARK: statements and profiles

  @Test("statement events report SQL with placeholders; expandedSQL inlines the arguments")
  func statementEvents() throws {
    let queue = try DatabaseQueue()
    let log = TraceLog()
    let expanded = TraceLog()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT, size INT)")
      db.trace { event in
        guard case .statement(let statement) = event else { return }
        log.append(statement.sql)
        expanded.append(statement.expandedSQL)
      }
      try db.execute(sql: "INSERT INTO item (name, size) VALUES (?, ?)", arguments: ["private-name", 42])
    }
    #expect(log.lines.contains("INSERT INTO item (name, size) VALUES (?, ?)"))
    #expect(!log.text.contains("private-name"))
    #expect(expanded.lines.contains("INSERT INTO item (name, size) VALUES ('private-name', 42)"))
    // The transaction statements of write are traced too.
    #expect(log.lines.contains { $0.hasPrefix("COMMIT") })
  }

  @Test(
    "an event's description shows arguments only with publicStatementArguments", arguments: [false, true])
  func descriptionArguments(publicArguments: Bool) throws {
    var config = rawKeyConfiguration()
    config.publicStatementArguments = publicArguments
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    let log = TraceLog()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT)")
      db.trace(options: [.statement, .profile]) { log.append($0.description) }
      try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["private-name"])
    }
    #expect(log.text.contains("private-name") == publicArguments)
    #expect(log.text.contains("INSERT INTO item (name) VALUES (") == true)
  }

  @Test("profile events report each statement once it ends, with its duration")
  func profileEvents() throws {
    let queue = try DatabaseQueue()
    var statements: [String] = []
    var profiles: [(String, TimeInterval)] = []
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (n INT)")
      db.trace(options: .profile) { event in
        switch event {
        case .statement(let statement): statements.append(statement.sql)
        case .profile(let statement, let duration): profiles.append((statement.sql, duration))
        }
      }
      try db.execute(
        sql: """
          WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000)
          INSERT INTO item SELECT n FROM c
          """)
    }
    #expect(statements.isEmpty)
    let insert = profiles.first { $0.0.contains("INSERT INTO item") }
    #expect(insert != nil)
    #expect((insert?.1 ?? -1) > 0)
    #expect(profiles.allSatisfy { $0.1 >= 0 })
  }

  @Test("statement and profile events together: the start comes before the end")
  func bothEvents() throws {
    let queue = try DatabaseQueue()
    var kinds: [String] = []
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { event in
        switch event {
        case .statement(let statement): kinds.append("start \(statement.sql)")
        case .profile(let statement, _): kinds.append("end \(statement.sql)")
        }
      }
      _ = try Int.fetchOne(db, sql: "SELECT 1 + 1")
    }
    #expect(kinds == ["start SELECT 1 + 1", "end SELECT 1 + 1"])
  }

  @Test("trace(nil) stops tracing")
  func stopTracing() throws {
    let queue = try DatabaseQueue()
    var lines: [String] = []
    try queue.inDatabase { db in
      db.trace { lines.append($0.description) }
      _ = try Int.fetchOne(db, sql: "SELECT 1")
      db.trace(nil)
      _ = try Int.fetchOne(db, sql: "SELECT 2")
      db.trace(options: .statement) { lines.append($0.description) }
      db.trace(options: []) { lines.append($0.description) }
      _ = try Int.fetchOne(db, sql: "SELECT 3")
    }
    #expect(lines == ["SELECT 1"])
  }

  @Test("a trace reports statements run by triggers as a trigger comment")
  func triggerStatements() throws {
    let queue = try DatabaseQueue()
    var lines: [String] = []
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE item (name TEXT);
          CREATE TABLE log (name TEXT);
          CREATE TRIGGER item_log AFTER INSERT ON item BEGIN INSERT INTO log VALUES (new.name); END;
          """)
      db.trace { lines.append($0.description) }
      try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
    }
    #expect(lines.contains("INSERT INTO item (name) VALUES ('a')"))
    #expect(lines.contains { $0.hasPrefix("-- TRIGGER item_log") })
  }

  @Test("each reader of a pool can be traced")
  func traceInPoolRead() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try pool.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    let log = TraceLog()
    _ = try pool.read { db in
      db.trace { log.append($0.description) }
      return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
    }
    #expect(log.lines.contains("SELECT COUNT(*) FROM item"))
  }

  // MARK: keying statements

  @Test("PRAGMA key and rekey run while tracing appear as <redacted keying statement>")
  func keyPragmasAreRedacted() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let log = TraceLog()
    let queue = try DatabaseQueue(path: directory.path())
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { log.record($0) }
      try db.execute(sql: "PRAGMA key = 'key-pragma-secret'")
      try db.execute(sql: "CREATE TABLE item (name TEXT)")
      try db.execute(sql: "PRAGMA rekey = 'rekey-pragma-secret'")
      try db.execute(sql: "pragma  main.KEY=\"odd-spacing-secret\"")
    }
    #expect(log.lines.contains("<redacted keying statement>"))
    for secret in ["key-pragma-secret", "rekey-pragma-secret", "odd-spacing-secret"] {
      #expect(!log.text.contains(secret), "\(secret) reached a trace")
    }
  }

  @Test("a keying statement after a leading comment is redacted too")
  func commentedKeyPragmaIsRedacted() throws {
    let queue = try DatabaseQueue()
    let log = TraceLog()
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { log.record($0) }
      // Whether SQLCipher accepts them on this connection does not matter here.
      try? db.execute(sql: "-- the app's key\nPRAGMA key = 'commented-secret'")
      try? db.execute(sql: "/* key */ PRAGMA rekey = 'block-comment-secret'")
    }
    #expect(log.lines.count >= 6, "both statements were traced")
    #expect(!log.text.contains("commented-secret"))
    #expect(!log.text.contains("block-comment-secret"))
  }

  @Test("ATTACH … KEY is redacted from traces, with literal and with bound keys")
  func attachKeyIsRedacted() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.publicStatementArguments = true  // even then, keys never print
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    let log = TraceLog()
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { log.record($0) }
      try db.execute(sql: "ATTACH DATABASE '\(directory.path("a.sqlite"))' AS a KEY 'attach-literal-secret'")
      try db.execute(
        sql: "ATTACH DATABASE ? AS b KEY ?", arguments: [directory.path("b.sqlite"), "attach-bound-secret"])
      try db.execute(sql: "CREATE TABLE b.item (name TEXT)")
      try db.execute(sql: "DETACH DATABASE a")
      try db.execute(sql: "DETACH DATABASE b")
    }
    #expect(log.lines.contains("<redacted keying statement>"))
    #expect(log.lines.contains("DETACH DATABASE a"))
    #expect(!log.text.contains("attach-literal-secret"))
    #expect(!log.text.contains("attach-bound-secret"))
    // The attached database was really encrypted with the bound key.
    var attachedConfig = Configuration()
    attachedConfig.key = .passphrase("attach-bound-secret")
    let attached = try DatabaseQueue(path: directory.path("b.sqlite"), configuration: attachedConfig)
    #expect(try attached.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 0)
  }

  @Test("an error thrown by a keying statement does not contain the key")
  func keyingErrorsHideTheKey() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = Configuration()
    config.publicStatementArguments = true
    let queue = try DatabaseQueue(configuration: config)
    let missing = directory.url.appendingPathComponent("no/such/dir/x.sqlite").path
    let attempts: [(secret: String, run: (Database) throws -> Void)] = [
      ("unterminated-secret", { db in try db.execute(sql: "PRAGMA key = 'unterminated-secret") }),
      ("trailing-token-secret", { db in try db.execute(sql: "PRAGMA rekey = 'x' 'trailing-token-secret'") }),
      (
        "attach-literal-error-secret",
        { db in try db.execute(sql: "ATTACH DATABASE '\(missing)' AS x KEY 'attach-literal-error-secret'") }
      ),
      (
        "attach-bound-error-secret",
        { db in
          try db.execute(
            sql: "ATTACH DATABASE ? AS x KEY ?", arguments: [missing, "attach-bound-error-secret"])
        }
      ),
    ]
    for attempt in attempts {
      let error = #expect(throws: DatabaseError.self, "\(attempt.secret)") {
        try queue.inDatabase { db in try attempt.run(db) }
      }
      guard let error else { continue }
      #expect(!printedForms(error).contains(attempt.secret), "the error for \(attempt.secret) shows it")
      #expect(!(error.message ?? "").contains(attempt.secret))
      #expect(error.sql == nil || error.sql == "<redacted keying statement>")
      #expect(error.arguments == nil)
    }
  }

  @Test("dumping a trace event or a prepared statement shows neither a key nor arguments")
  func dumpsHideKeysAndArguments() throws {
    let queue = try DatabaseQueue()
    var dumped: [String] = []
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { event in
        dumped.append(printedForms(event))
        switch event {
        case .statement(let statement), .profile(let statement, _): dumped.append(printedForms(statement))
        }
      }
      // Keys the in-memory database before anything is in it.
      try db.execute(sql: "PRAGMA key = 'dumped-key-secret'")
      try db.execute(sql: "CREATE TABLE item (name TEXT)")
      try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["dumped-argument"])
      let statement = try db.makeStatement(sql: "INSERT INTO item (name) VALUES (?)")
      try statement.execute(arguments: ["prepared-argument"])
      dumped.append(printedForms(statement))
      dumped.append(printedForms(try db.makeStatement(sql: "ATTACH ? AS a KEY 'prepared-key-secret'")))
    }
    let text = dumped.joined(separator: "\n")
    #expect(text.contains("INSERT INTO item (name) VALUES (?)"), "the dumps show the SQL")
    #expect(text.contains("<redacted keying statement>"))
    for secret in ["dumped-key-secret", "prepared-key-secret", "dumped-argument", "prepared-argument"] {
      #expect(!text.contains(secret), "a dump shows \(secret)")
    }
  }

  @Test("a key from Configuration.key or usePassphrase never reaches a trace", arguments: [false, true])
  func configuredKeysNeverTraced(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let log = TraceLog()
    let rawBytes = Data((0..<32).map { UInt8(0xA0 + ($0 % 16)) })
    let rawHex = rawBytes.map { String(format: "%02x", $0) }.joined()

    // A passphrase given in prepareDatabase, traced from before it is used.
    var passphraseConfig = Configuration()
    passphraseConfig.maximumReaderCount = 2
    passphraseConfig.publicStatementArguments = true
    passphraseConfig.prepareDatabase { db in
      db.trace(options: [.statement, .profile]) { log.record($0) }
      try db.usePassphrase("prepare-passphrase-secret")
    }
    // A raw key given in the configuration.
    var rawConfig = Configuration()
    rawConfig.key = try .raw(rawBytes)
    rawConfig.publicStatementArguments = true
    rawConfig.prepareDatabase { db in db.trace(options: [.statement, .profile]) { log.record($0) } }

    for (name, config) in [("passphrase.sqlite", passphraseConfig), ("raw.sqlite", rawConfig)] {
      let path = directory.path(name)
      let writer: any DatabaseWriter =
        pool
        ? try DatabasePool(path: path, configuration: config)
        : try DatabaseQueue(path: path, configuration: config)
      try writer.write { db in
        try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('a')")
      }
      #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
      try writer.close()
    }
    #expect(log.lines.contains("CREATE TABLE item (name TEXT)"))
    #expect(!log.text.contains("prepare-passphrase-secret"))
    #expect(!log.text.lowercased().contains(rawHex))
  }

  @Test("changing the passphrase while tracing never traces the new one", arguments: [false, true])
  func changePassphraseNeverTraced(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let log = TraceLog()
    var config = rawKeyConfiguration()
    config.prepareDatabase { db in db.trace(options: [.statement, .profile]) { log.record($0) } }
    let writer: any DatabaseWriter
    if pool {
      let dbPool = try DatabasePool(path: directory.path(), configuration: config)
      try dbPool.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
      _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
      try dbPool.changePassphrase("changed-passphrase-secret")
      writer = dbPool
    } else {
      let dbQueue = try DatabaseQueue(path: directory.path(), configuration: config)
      try dbQueue.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
      try dbQueue.changePassphrase("changed-passphrase-secret")
      writer = dbQueue
    }
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 0)
    if !pool {
      // Database.changePassphrase, outside of a transaction (a pool reconnects its readers
      // only through DatabasePool.changePassphrase).
      try writer.writeWithoutTransaction { db in try db.changePassphrase("in-write-passphrase-secret") }
    }
    try writer.close()
    #expect(!log.text.contains("changed-passphrase-secret"))
    #expect(!log.text.contains("in-write-passphrase-secret"))
  }

  @Test("DatabaseKey and Configuration never print the key")
  func keysNeverPrint() throws {
    let rawBytes = Data((0..<32).map { UInt8(0xC0 + ($0 % 16)) })
    let salt = Data((0..<16).map { UInt8(0x30 + $0) })
    let keys: [DatabaseKey] = [
      .passphrase("printed-passphrase-secret"),
      .passphrase(Data("printed-data-secret".utf8)),
      try .raw(rawBytes),
      try .raw(rawBytes, salt: salt),
    ]
    let forbidden =
      ["printed-passphrase-secret", "printed-data-secret"]
      + [rawBytes, salt].flatMap { bytes in
        [
          bytes.map { String(format: "%02x", $0) }.joined(),
          bytes.map { String(format: "%02X", $0) }.joined(),
          bytes.map { String($0) }.joined(separator: ", "),
        ]
      }
    for key in keys {
      var config = Configuration()
      config.key = key
      let texts = [printedForms(key), key.debugDescription, printedForms(config)].joined(separator: "\n")
      for secret in forbidden {
        #expect(!texts.contains(secret), "\(key) prints \(secret.prefix(4))…")
      }
      #expect(key.description.contains("redacted"))
    }
  }

  // MARK: PRAGMA optimize on close

  @Test(
    "closing runs PRAGMA optimize on the writer where the linked SQLite has it", arguments: [false, true])
  func optimizeOnClose(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let log = TraceLog()
    var config = rawKeyConfiguration()
    config.prepareDatabase { db in db.trace { log.append($0.description) } }
    let writer: any DatabaseWriter =
      pool
      ? try DatabasePool(path: directory.path(), configuration: config)
      : try DatabaseQueue(path: directory.path(), configuration: config)
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT); CREATE INDEX item_name ON item(name)")
    }
    _ = try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM item WHERE name = 'a'") }
    #expect(!log.lines.contains("PRAGMA optimize"))
    try writer.close()
    let optimizeRuns = log.lines.filter { $0 == "PRAGMA optimize" }.count
    if SQLiteFeatures.linked.supports(.optimizePragma) {
      #expect(optimizeRuns == 1, "once, on the writer (readers can not write statistics)")
    } else {
      // SQLite before 3.18 has no PRAGMA optimize: closing does not try it.
      #expect(optimizeRuns == 0)
    }
  }
}
