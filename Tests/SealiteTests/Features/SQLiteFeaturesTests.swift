import CSQLCipher
import Foundation
import Sealite
import Testing

@Suite("The feature probe: versions and the linked library")
struct SQLiteFeaturesVersionTests {
  @Test("the probe reports the SQLite version the package manager installed")
  func sqliteVersionMatchesInstalledPackage() {
    let features = SQLiteFeatures.linked
    // The header the build compiled against and the library loaded at run time agree.
    #expect(features.sqliteVersion == SQLITE_VERSION)
    if let expected = TestEnvironment.expectedSQLiteVersion {
      #expect(features.sqliteVersion == expected)
    }
  }

  @Test("the probe reports the SQLCipher version the package manager installed")
  func sqlcipherVersionMatchesInstalledPackage() throws {
    let features = SQLiteFeatures.linked
    let number = try #require(features.sqlcipherVersionNumber)
    #expect(number.split(separator: ".").count == 3)
    #expect(features.sqlcipherVersion?.hasPrefix(number) == true)
    if let expected = TestEnvironment.expectedSQLCipherVersion {
      #expect(number == expected)
    }
  }

  @Test("each leg reports its known SQLite and SQLCipher versions")
  func legVersions() {
    let features = SQLiteFeatures.linked
    switch TestEnvironment.leg {
    case "legacy":
      #expect(features.sqliteVersion == "3.15.2")
      #expect(features.sqlcipherVersionNumber == "3.4.1")
    case "primary":
      // The primary leg is SQLCipher 4.x, whatever its minor version on this OS.
      #expect(features.sqlcipherVersionNumber?.hasPrefix("4.") == true)
      #expect(features.sqliteVersionNumber >= 3_046_000)
    default:
      // Outside make: the linked library is at least SQLCipher 3.
      #expect(features.sqlcipherVersionNumber != nil)
    }
  }

  @Test("the SQLite version number agrees with the version string")
  func versionNumberMatchesString() throws {
    let features = SQLiteFeatures.linked
    let parts = features.sqliteVersion.split(separator: ".").map { Int($0) }
    try #require(parts.count == 3 && parts.allSatisfy { $0 != nil })
    let number = parts[0]! * 1_000_000 + parts[1]! * 1000 + parts[2]!
    #expect(features.sqliteVersionNumber == number)
    #expect(features.sqliteVersionNumber == Int(SQLITE_VERSION_NUMBER))
    #expect(features.sqliteSourceID.isEmpty == false)
  }

  @Test("the crypto provider is OpenSSL, with a version")
  func cryptoProvider() throws {
    let features = SQLiteFeatures.linked
    #expect(features.cryptoProvider == "openssl")
    let providerVersion = try #require(features.cryptoProviderVersion)
    #expect(providerVersion.localizedCaseInsensitiveContains("openssl"))
  }

  @Test("compile options are listed and show an SQLCipher build")
  func compileOptions() {
    let options = SQLiteFeatures.linked.compileOptions
    #expect(!options.isEmpty)
    #expect(options.contains("HAS_CODEC"))
    #expect(options.allSatisfy { !$0.hasPrefix("SQLITE_") })
  }

  @Test("PRAGMA cipher_version answers from inside Sealite, keyed or not")
  func cipherVersionFromSealiteConnection() throws {
    let expected = try #require(SQLiteFeatures.linked.sqlcipherVersionNumber)
    let plain = try DatabaseQueue()
    let plainVersion = try plain.read { db in try String.fetchOne(db, sql: "PRAGMA cipher_version") }
    #expect(plainVersion?.hasPrefix(expected) == true)

    let keyed = try DatabaseQueue(configuration: rawKeyConfiguration())
    let keyedVersion = try keyed.read { db in try String.fetchOne(db, sql: "PRAGMA cipher_version") }
    #expect(keyedVersion?.hasPrefix(expected) == true)
  }

  @Test("the process links SQLCipher and never the system libsqlite3")
  func linksSQLCipherOnly() throws {
    // Make sure the library is loaded and used before looking at the mappings.
    let queue = try DatabaseQueue()
    _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    // /proc files report a size of 0: read them to the end rather than by size.
    let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
    defer { try? handle.close() }
    let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    try #require(!maps.isEmpty)
    let libraries = Set(
      maps.split(separator: "\n").compactMap { line in
        line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
      }
      .filter { $0.hasPrefix("/") }
      .map { URL(fileURLWithPath: $0).lastPathComponent })
    #expect(libraries.contains { $0.hasPrefix("libsqlcipher.so") })
    #expect(!libraries.contains { $0.hasPrefix("libsqlite3.so") })
    if TestEnvironment.isLegacy {
      #expect(libraries.contains { $0.hasPrefix("libsqlcipher.so.0") })
    }
  }

  @Test("a Database gives the same features as the static probe")
  func featuresFromDatabase() throws {
    let queue = try DatabaseQueue(configuration: rawKeyConfiguration())
    let features = try queue.read { db in db.features }
    let linked = SQLiteFeatures.linked
    #expect(features.sqliteVersion == linked.sqliteVersion)
    #expect(features.sqlcipherVersion == linked.sqlcipherVersion)
    #expect(features.capabilities == linked.capabilities)
    #expect(features.compileOptions == linked.compileOptions)
  }
}

@Suite("The feature probe: capabilities agree with what SQLite really does")
struct SQLiteFeaturesCapabilityTests {
  /// Capabilities the probe finds by compiling a statement; the others are C
  /// functions (hooks) or a pragma SQLite ignores silently when unknown.
  static let sqlCapabilities: [SQLiteFeatures.Capability] = [
    .upsert, .returning, .windowFunctions, .jsonFunctions, .jsonArrowOperators, .jsonb, .fts4, .fts5,
    .unicode61RemoveDiacritics, .mathFunctions, .renameColumn, .dropColumn, .strictTables, .generatedColumns,
    .tableXInfo, .vacuumInto,
    .nullsOrdering, .aggregateFilter, .aggregateOrderBy, .fts5Trigram, .fts5TrigramRemoveDiacritics,
  ]

  /// Capabilities that need a compile option (a module) as well as a version.
  static let moduleGated: Set<SQLiteFeatures.Capability> = [
    .fts4, .fts5, .unicode61RemoveDiacritics, .jsonFunctions, .jsonArrowOperators, .jsonb, .mathFunctions,
    .fts5Trigram, .fts5TrigramRemoveDiacritics,
  ]

  @Test("the probe's answer equals what running SQL through Sealite does", arguments: sqlCapabilities)
  func probeMatchesReality(capability: SQLiteFeatures.Capability) throws {
    let queue = try DatabaseQueue(configuration: rawKeyConfiguration())
    let outcome: Result<Void, any Error> = Result {
      try queue.writeWithoutTransaction { db in try Self.exercise(capability, db) }
    }
    let works: Bool
    if case .success = outcome { works = true } else { works = false }
    #expect(
      works == SQLiteFeatures.linked.supports(capability),
      "\(capability): probe says \(SQLiteFeatures.linked.supports(capability)), SQL \(outcome)")
  }

  @Test("a version-gated capability is present exactly when the SQLite version has it")
  func versionGating() {
    let features = SQLiteFeatures.linked
    for capability in Self.sqlCapabilities + [
      .optimizePragma, .authorizerReportsTablesReadWithoutColumns, .deterministicFunctions,
    ] {
      let versionAllows = features.sqliteVersionNumber >= capability.minimumSQLiteVersionNumber
      if Self.moduleGated.contains(capability) {
        // A module also needs the build: present implies the version allows it.
        if features.supports(capability) { #expect(versionAllows, "\(capability)") }
      } else {
        #expect(features.supports(capability) == versionAllows, "\(capability)")
      }
    }
  }

  @Test("minimum versions are given as strings and as SQLite version numbers")
  func minimumVersionNumbers() {
    for capability in SQLiteFeatures.Capability.allCases {
      let parts = capability.minimumSQLiteVersion.split(separator: ".").compactMap { Int($0) }
      #expect(parts.count == 3, "\(capability)")
      guard parts.count == 3 else { continue }
      #expect(capability.minimumSQLiteVersionNumber == parts[0] * 1_000_000 + parts[1] * 1000 + parts[2])
    }
    #expect(SQLiteFeatures.Capability.upsert.minimumSQLiteVersionNumber == 3_024_000)
    #expect(SQLiteFeatures.Capability.returning.minimumSQLiteVersionNumber == 3_035_000)
  }

  @Test("the legacy leg lacks upsert, RETURNING, window functions and JSON; the primary leg has them")
  func legCapabilities() {
    let features = SQLiteFeatures.linked
    let modern: [SQLiteFeatures.Capability] = [.upsert, .returning, .windowFunctions, .jsonFunctions]
    if TestEnvironment.isLegacy {
      for capability in modern { #expect(!features.supports(capability), "\(capability)") }
      #expect(!features.supports(.dropColumn))
      #expect(!features.supports(.renameColumn))
    } else if TestEnvironment.leg == "primary" {
      for capability in modern { #expect(features.supports(capability), "\(capability)") }
      for capability in [SQLiteFeatures.Capability.fts5, .jsonb, .mathFunctions, .strictTables] {
        #expect(features.supports(capability), "\(capability)")
      }
    } else {
      // Outside make: the answers still follow the version.
      for capability in modern where !Self.moduleGated.contains(capability) {
        #expect(
          features.supports(capability)
            == (features.sqliteVersionNumber >= capability.minimumSQLiteVersionNumber))
      }
    }
  }

  @Test("neither SQLCipher build exports the preupdate hook or snapshots, and the probe says so")
  func hooksAbsent() {
    let features = SQLiteFeatures.linked
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    #expect(features.supports(.preupdateHook) == (dlsym(handle, "sqlite3_preupdate_hook") != nil))
    #expect(features.supports(.snapshots) == (dlsym(handle, "sqlite3_snapshot_get") != nil))
    if TestEnvironment.leg != nil {
      #expect(!features.supports(.preupdateHook))
      #expect(!features.supports(.snapshots))
    }
  }

  @Test("vacuum(into:) writes a copy where SQLite has VACUUM INTO, and throws SQLiteFeatureError where not")
  func vacuumInto() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
    let copy = directory.path("copy.sqlite")
    if SQLiteFeatures.linked.supports(.vacuumInto) {
      try dbQueue.vacuum(into: copy)
      let copyQueue = try DatabaseQueue(path: copy, configuration: rawKeyConfiguration())
      #expect(try copyQueue.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    } else {
      let error = try #require(throws: SQLiteFeatureError.self) { try dbQueue.vacuum(into: copy) }
      #expect(error.capability == .vacuumInto)
      #expect(!FileManager.default.fileExists(atPath: copy))
    }
  }

  @Test("require(_:) passes for every capability the probe found")
  func requirePresent() {
    let features = SQLiteFeatures.linked
    for capability in features.capabilities {
      #expect(throws: Never.self) { try features.require(capability) }
    }
  }

  @Test("require(_:) of a missing capability names the feature, the version it needs and the version present")
  func requireMissing() throws {
    let features = SQLiteFeatures.linked
    let missing = SQLiteFeatures.Capability.allCases.filter { !features.supports($0) }
    // Every leg lacks something (at least the snapshot functions).
    try #require(!missing.isEmpty)
    for capability in missing {
      let error = try #require(throws: SQLiteFeatureError.self) { try features.require(capability) }
      #expect(error.capability == capability)
      #expect(error.presentVersion == features.sqliteVersion)
      let text = error.description
      #expect(text.contains(capability.name), "\(text)")
      #expect(text.contains(capability.minimumSQLiteVersion), "\(text)")
      #expect(text.contains(features.sqliteVersion), "\(text)")
    }
  }

  @Test("a capability missing from a recent enough SQLite names the compile option the build lacks")
  func requireMissingFromBuild() throws {
    let features = SQLiteFeatures.linked
    let builtWithout = SQLiteFeatures.Capability.allCases.filter {
      !features.supports($0) && features.sqliteVersionNumber >= $0.minimumSQLiteVersionNumber
    }
    // Both legs have one: snapshots need SQLite 3.10.0, neither build exports them.
    try #require(!builtWithout.isEmpty)
    for capability in builtWithout {
      let error = try #require(throws: SQLiteFeatureError.self) { try features.require(capability) }
      // "needs SQLite 3.10.0 or later; ... bundles SQLite 3.46.1" alone would send
      // the user looking for a newer SQLite that would not help: the message
      // must name what the build lacks.
      let requirement = try #require(
        capability.compileRequirement, "\(capability) is missing although the version has it")
      #expect(error.description.contains(requirement), "\(error.description)")
    }
  }

  @Test("every capability that needs a compile option names it")
  func compileRequirementsNamed() {
    // These are left out of builds by compile options (SQLite's configure
    // enables math functions; the bare amalgamation does not).
    let needsOption: [SQLiteFeatures.Capability] = [
      .jsonFunctions, .fts4, .fts5, .mathFunctions, .preupdateHook, .snapshots,
    ]
    for capability in needsOption {
      #expect(capability.compileRequirement?.isEmpty == false, "\(capability)")
    }
  }

  /// Uses a capability through Sealite and checks the result; throws if SQLite
  /// refuses it or gives a wrong answer.
  static func exercise(_ capability: SQLiteFeatures.Capability, _ db: Database) throws {
    struct WrongAnswer: Error {}
    func check(_ condition: Bool) throws { if !condition { throw WrongAnswer() } }
    switch capability {
    case .upsert:
      try db.execute(sql: "CREATE TABLE u(id INTEGER PRIMARY KEY, n INTEGER)")
      try db.execute(sql: "INSERT INTO u VALUES (1, 1)")
      try db.execute(sql: "INSERT INTO u VALUES (1, 5) ON CONFLICT(id) DO UPDATE SET n = n + excluded.n")
      try check(try Int.fetchOne(db, sql: "SELECT n FROM u WHERE id = 1") == 6)
    case .returning:
      try db.execute(sql: "CREATE TABLE r(id INTEGER PRIMARY KEY, name TEXT)")
      let row = try Row.fetchOne(db, sql: "INSERT INTO r(name) VALUES ('a') RETURNING id, name")
      let id: Int? = row?["id"]
      let name: String? = row?["name"]
      try check(id == 1 && name == "a")
    case .windowFunctions:
      let ranks = try Int.fetchAll(
        db, sql: "SELECT row_number() OVER (ORDER BY x DESC) FROM (SELECT 1 AS x UNION ALL SELECT 2)")
      try check(ranks == [1, 2])
    case .jsonFunctions:
      try check(try Int.fetchOne(db, sql: "SELECT json_extract('{\"a\":[1,42]}', '$.a[1]')") == 42)
    case .jsonArrowOperators:
      try check(try String.fetchOne(db, sql: "SELECT '{\"a\":{\"b\":\"x\"}}' -> '$.a' ->> 'b'") == "x")
    case .jsonb:
      try check(try String.fetchOne(db, sql: "SELECT json(jsonb('[1, 2]'))") == "[1,2]")
    case .fts4:
      try db.execute(sql: "CREATE VIRTUAL TABLE f4 USING fts4(body)")
      try db.execute(sql: "INSERT INTO f4(body) VALUES ('secret garden'), ('open field')")
      try check(
        try String.fetchAll(db, sql: "SELECT body FROM f4 WHERE f4 MATCH 'garden'") == ["secret garden"])
    case .fts5:
      try db.execute(sql: "CREATE VIRTUAL TABLE f5 USING fts5(body)")
      try db.execute(sql: "INSERT INTO f5(body) VALUES ('secret garden'), ('open field')")
      try check(try String.fetchAll(db, sql: "SELECT body FROM f5 WHERE f5 MATCH 'field'") == ["open field"])
    case .unicode61RemoveDiacritics:
      // SQLite before 3.27 refuses the option when the table is created.
      try db.execute(
        sql: #"CREATE VIRTUAL TABLE fd USING fts4(body, tokenize=unicode61 "remove_diacritics=2")"#)
      try db.execute(sql: "INSERT INTO fd(body) VALUES ('élan')")
      try check(try String.fetchAll(db, sql: "SELECT body FROM fd WHERE fd MATCH 'elan'") == ["élan"])
    case .fts5Trigram:
      try db.execute(sql: "CREATE VIRTUAL TABLE f5t USING fts5(body, tokenize='trigram')")
      try db.execute(sql: "INSERT INTO f5t(body) VALUES ('secret garden'), ('open field')")
      try check(
        try String.fetchAll(db, sql: "SELECT body FROM f5t WHERE f5t MATCH 'arde'") == ["secret garden"])
    case .fts5TrigramRemoveDiacritics:
      try db.execute(sql: "CREATE VIRTUAL TABLE f5d USING fts5(body, tokenize='trigram remove_diacritics 1')")
      try db.execute(sql: "INSERT INTO f5d(body) VALUES ('café crème'), ('open field')")
      try check(
        try String.fetchAll(db, sql: "SELECT body FROM f5d WHERE f5d MATCH 'creme'") == ["café crème"])
    case .mathFunctions:
      try check(try Double.fetchOne(db, sql: "SELECT sqrt(16) + floor(2.5)") == 6)
    case .renameColumn:
      try db.execute(sql: "CREATE TABLE rc(old INTEGER); INSERT INTO rc VALUES (7)")
      try db.execute(sql: "ALTER TABLE rc RENAME COLUMN old TO new")
      try check(try Int.fetchOne(db, sql: "SELECT new FROM rc") == 7)
    case .dropColumn:
      try db.execute(sql: "CREATE TABLE dc(a, b); INSERT INTO dc VALUES (1, 2)")
      try db.execute(sql: "ALTER TABLE dc DROP COLUMN b")
      try check(try Row.fetchOne(db, sql: "SELECT * FROM dc")?.columnNames == ["a"])
    case .strictTables:
      try db.execute(sql: "CREATE TABLE st(x INTEGER) STRICT")
      do {
        try db.execute(sql: "INSERT INTO st VALUES ('not a number')")
        throw WrongAnswer()
      } catch let error as DatabaseError {
        try check(error.resultCode == .SQLITE_CONSTRAINT)
      }
    case .tableXInfo:
      try db.execute(sql: "CREATE TABLE tx(a)")
      let rows = try Row.fetchAll(db, sql: "PRAGMA table_xinfo(tx)")
      try check(rows.count == 1 && rows[0].hasColumn("hidden"))
    case .vacuumInto:
      let directory = TemporaryDirectory()
      try db.execute(sql: "CREATE TABLE vi(a); INSERT INTO vi VALUES (1)")
      try db.execute(sql: "VACUUM INTO ?", arguments: [directory.path("copy.sqlite")])
      try check(FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
    case .nullsOrdering:
      let values = try Int?.fetchAll(
        db, sql: "SELECT x FROM (SELECT NULL AS x UNION ALL SELECT 1) ORDER BY x NULLS LAST")
      try check(values == [1, nil])
    case .aggregateFilter:
      let count = try Int.fetchOne(
        db,
        sql: "SELECT count(x) FILTER (WHERE x > 1) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3)"
      )
      try check(count == 2)
    case .aggregateOrderBy:
      let text = try String.fetchOne(
        db, sql: "SELECT group_concat(x, '') FROM (SELECT 'a' AS x UNION ALL SELECT 'b')")
      let ordered = try String.fetchOne(
        db, sql: "SELECT group_concat(x, '' ORDER BY x DESC) FROM (SELECT 'a' AS x UNION ALL SELECT 'b')")
      try check(text != nil && ordered == "ba")
    case .generatedColumns:
      try db.execute(sql: "CREATE TABLE gc(x INTEGER, y INTEGER AS (x * 2)); INSERT INTO gc(x) VALUES (21)")
      try check(try Int.fetchOne(db, sql: "SELECT y FROM gc") == 42)
    case .preupdateHook, .snapshots, .optimizePragma, .authorizerReportsTablesReadWithoutColumns,
      .deterministicFunctions:
      throw WrongAnswer()
    }
  }
}
