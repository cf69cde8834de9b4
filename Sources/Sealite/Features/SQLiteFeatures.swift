import CSQLCipher
import Foundation

/// What the linked SQLCipher library offers: its version, the version of the
/// SQLite it bundles (the one that matters, never the system's `libsqlite3`),
/// its crypto provider, compile options, and named capabilities.
///
///     let features = SQLiteFeatures.linked
///     print(features.sqliteVersion)          // "3.46.1"
///     if features.supports(.upsert) { … }
///     try features.require(.returning)       // throws SQLiteFeatureError on old SQLite
///
/// Capabilities are found by compiling a statement that uses them, so a
/// library built without one (FTS5, JSON, …) reports it missing whatever its
/// version.
public struct SQLiteFeatures: Sendable {
  /// A named capability of SQLite.
  public enum Capability: String, CaseIterable, Sendable {
    /// `INSERT … ON CONFLICT … DO UPDATE` (SQLite 3.24). Without it, upserts are emulated.
    case upsert
    /// `RETURNING` (SQLite 3.35). Without it, `…AndFetch` methods read the row back.
    case returning
    /// Window functions, `… OVER (…)` (SQLite 3.25).
    case windowFunctions
    /// The JSON functions, `json()`, `json_extract()`, … (JSON1).
    case jsonFunctions
    /// The JSON operators `->` and `->>` (SQLite 3.38).
    case jsonArrowOperators
    /// The binary JSON format and the `jsonb_…` functions (SQLite 3.45).
    case jsonb
    /// FTS4 full-text search tables.
    case fts4
    /// FTS5 full-text search tables.
    case fts5
    /// `remove_diacritics=2` of the `unicode61` full-text tokenizer, which also
    /// removes the diacritics of letters whose decomposition SQLite 3.27
    /// learned (`FTS3.Diacritics.remove`).
    case unicode61RemoveDiacritics
    /// The `trigram` tokenizer of FTS5 (SQLite 3.34).
    case fts5Trigram
    /// The `remove_diacritics` option of the FTS5 `trigram` tokenizer (SQLite 3.45).
    case fts5TrigramRemoveDiacritics
    /// The math functions, `sqrt()`, `pow()`, `ln()`, … (SQLite 3.35, compiled in).
    case mathFunctions
    /// `ALTER TABLE … RENAME COLUMN` (SQLite 3.25). Without it, `alter(table:)` rebuilds the table.
    case renameColumn
    /// `ALTER TABLE … DROP COLUMN` (SQLite 3.35). Without it, `alter(table:)` rebuilds the table.
    case dropColumn
    /// `STRICT` tables, whose columns hold only values of their declared type (SQLite 3.37).
    case strictTables
    /// Generated columns, `… GENERATED ALWAYS AS (…)` (SQLite 3.31).
    case generatedColumns
    /// `sqlite3_preupdate_hook` (compiled in; not in the SQLCipher builds of Debian).
    case preupdateHook
    /// WAL snapshots, `sqlite3_snapshot_get` (compiled in; not in the SQLCipher builds of Debian).
    case snapshots
    /// `PRAGMA optimize` (SQLite 3.18).
    case optimizePragma
    /// `PRAGMA table_xinfo`, which lists hidden and generated columns (SQLite 3.26).
    /// Without it, a table rebuild copies every column `table_info` lists.
    case tableXInfo
    /// `VACUUM INTO`, a compacted copy in another file (SQLite 3.27).
    case vacuumInto
    /// `NULLS FIRST` and `NULLS LAST` in `ORDER BY` (SQLite 3.30). Without them,
    /// orderings sort NULLs with a leading `x IS NULL` term.
    case nullsOrdering
    /// `FILTER (WHERE …)` on aggregate functions: `sum(x, filter: …)` (SQLite 3.30).
    case aggregateFilter
    /// `ORDER BY` inside an aggregate call: `sum(x, orderBy: …)` (SQLite 3.44).
    case aggregateOrderBy
    /// The authorizer reports a table read without any of its columns
    /// (`SELECT COUNT(*) FROM t`, `SELECT 1 FROM t`) (SQLite 3.19). Without it,
    /// observations learn such tables from the statement's program.
    case authorizerReportsTablesReadWithoutColumns
    /// Custom functions declared deterministic (`SQLITE_DETERMINISTIC`, SQLite
    /// 3.8.3), which SQLite may evaluate once and use in indexes. Without it, a
    /// pure ``DatabaseFunction`` is registered as an ordinary one.
    case deterministicFunctions

    /// ``minimumSQLiteVersion`` as SQLite's version number (3.24.0 → 3024000).
    public var minimumSQLiteVersionNumber: Int {
      let parts = minimumSQLiteVersion.split(separator: ".").compactMap { Int($0) }
      return parts[0] * 1_000_000 + parts[1] * 1000 + (parts.count > 2 ? parts[2] : 0)
    }

    /// What the capability needs beyond ``minimumSQLiteVersion``, if anything.
    public var compileRequirement: String? {
      switch self {
      case .jsonFunctions: return "built in from SQLite 3.38.0, or SQLITE_ENABLE_JSON1 before"
      case .fts4: return "SQLITE_ENABLE_FTS4 (or FTS3)"
      case .fts5, .fts5Trigram, .fts5TrigramRemoveDiacritics: return "SQLITE_ENABLE_FTS5"
      case .unicode61RemoveDiacritics: return "SQLITE_ENABLE_FTS4 (or FTS3)"
      case .mathFunctions: return "SQLITE_ENABLE_MATH_FUNCTIONS"
      case .preupdateHook: return "SQLITE_ENABLE_PREUPDATE_HOOK"
      case .snapshots: return "SQLITE_ENABLE_SNAPSHOT"
      default: return nil
      }
    }

    /// A readable name, for messages.
    public var name: String {
      switch self {
      case .upsert: return "UPSERT (INSERT … ON CONFLICT DO UPDATE)"
      case .returning: return "RETURNING clause"
      case .windowFunctions: return "window functions"
      case .jsonFunctions: return "JSON functions"
      case .jsonArrowOperators: return "JSON -> and ->> operators"
      case .jsonb: return "JSONB"
      case .fts4: return "FTS4 full-text search"
      case .fts5: return "FTS5 full-text search"
      case .unicode61RemoveDiacritics: return "remove_diacritics=2 of the unicode61 tokenizer"
      case .fts5Trigram: return "FTS5 trigram tokenizer"
      case .fts5TrigramRemoveDiacritics: return "remove_diacritics option of the FTS5 trigram tokenizer"
      case .mathFunctions: return "math functions"
      case .renameColumn: return "ALTER TABLE RENAME COLUMN"
      case .dropColumn: return "ALTER TABLE DROP COLUMN"
      case .strictTables: return "STRICT tables"
      case .generatedColumns: return "generated columns"
      case .preupdateHook: return "preupdate hook"
      case .snapshots: return "WAL snapshots"
      case .optimizePragma: return "PRAGMA optimize"
      case .tableXInfo: return "PRAGMA table_xinfo"
      case .vacuumInto: return "VACUUM INTO"
      case .nullsOrdering: return "NULLS FIRST and NULLS LAST"
      case .aggregateFilter: return "FILTER clause of aggregate functions"
      case .aggregateOrderBy: return "ORDER BY inside aggregate functions"
      case .authorizerReportsTablesReadWithoutColumns:
        return "authorizer reports of tables read without columns"
      case .deterministicFunctions: return "deterministic custom functions"
      }
    }

    /// The first SQLite version that has the capability (some also need a
    /// compile option).
    public var minimumSQLiteVersion: String {
      switch self {
      case .upsert: return "3.24.0"
      case .returning: return "3.35.0"
      case .windowFunctions: return "3.25.0"
      case .jsonFunctions: return "3.9.0"
      case .jsonArrowOperators: return "3.38.0"
      case .jsonb: return "3.45.0"
      case .fts4: return "3.7.4"
      case .fts5: return "3.9.0"
      case .unicode61RemoveDiacritics: return "3.27.0"
      case .fts5Trigram: return "3.34.0"
      case .fts5TrigramRemoveDiacritics: return "3.45.0"
      case .mathFunctions: return "3.35.0"
      case .renameColumn: return "3.25.0"
      case .dropColumn: return "3.35.0"
      case .strictTables: return "3.37.0"
      case .generatedColumns: return "3.31.0"
      case .preupdateHook: return "3.13.0"
      case .snapshots: return "3.10.0"
      case .optimizePragma: return "3.18.0"
      case .tableXInfo: return "3.26.0"
      case .vacuumInto: return "3.27.0"
      case .nullsOrdering: return "3.30.0"
      case .aggregateFilter: return "3.30.0"
      case .aggregateOrderBy: return "3.44.0"
      case .authorizerReportsTablesReadWithoutColumns: return "3.19.0"
      case .deterministicFunctions: return "3.8.3"
      }
    }

    /// The case's own bit of ``SQLiteFeatures/capabilityBits``. A case
    /// without payload is stored as its rank among the cases, in declaration
    /// order (at most 64 of them: a test checks it).
    var bit: UInt64 {
      1 << UInt64(unsafeBitCast(self, to: UInt8.self))
    }
  }

  /// The version of the SQLite bundled in the linked library, e.g. "3.46.1".
  public let sqliteVersion: String
  /// The same version as a number, e.g. 3046001.
  public let sqliteVersionNumber: Int
  /// The SQLite source id (date and hash of the check-in).
  public let sqliteSourceID: String
  /// The SQLCipher version, e.g. "4.6.1 community", or nil if the library is not SQLCipher.
  public let sqlcipherVersion: String?
  /// The crypto provider, e.g. "openssl".
  public let cryptoProvider: String?
  /// The crypto provider's version, e.g. "OpenSSL 3.0.19 ...".
  public let cryptoProviderVersion: String?
  /// The options the library was compiled with (`PRAGMA compile_options`).
  public let compileOptions: [String]
  /// The capabilities found.
  public let capabilities: Set<Capability>
  /// The same capabilities, one bit per case: `supports` is asked on hot
  /// paths (each upsert asks for RETURNING), where hashing the case's name
  /// cost more than the check it answers.
  private let capabilityBits: UInt64

  init(
    sqliteVersion: String, sqliteVersionNumber: Int, sqliteSourceID: String, sqlcipherVersion: String?,
    cryptoProvider: String?, cryptoProviderVersion: String?, compileOptions: [String],
    capabilities: Set<Capability>
  ) {
    self.sqliteVersion = sqliteVersion
    self.sqliteVersionNumber = sqliteVersionNumber
    self.sqliteSourceID = sqliteSourceID
    self.sqlcipherVersion = sqlcipherVersion
    self.cryptoProvider = cryptoProvider
    self.cryptoProviderVersion = cryptoProviderVersion
    self.compileOptions = compileOptions
    self.capabilities = capabilities
    capabilityBits = capabilities.reduce(0) { $0 | $1.bit }
  }

  /// The features of the SQLCipher library this program is linked with.
  public static let linked: SQLiteFeatures = SQLiteFeatures.probe()

  /// True if the linked library has the capability.
  public func supports(_ capability: Capability) -> Bool {
    capabilityBits & capability.bit != 0
  }

  /// Throws ``SQLiteFeatureError`` if the linked library lacks the capability.
  public func require(_ capability: Capability) throws {
    guard supports(capability) else {
      throw SQLiteFeatureError(capability: capability, presentVersion: sqliteVersion)
    }
  }

  /// The SQLCipher version number alone ("4.6.1"), or nil.
  public var sqlcipherVersionNumber: String? {
    sqlcipherVersion?.split(separator: " ").first.map(String.init)
  }

  /// Builds the probe by opening a private in-memory connection.
  static func probe() -> SQLiteFeatures {
    // The probe may be the process's first use of SQLite.
    SQLiteErrorLog.install()
    var connection: OpaquePointer?
    sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    defer { sqlite3_close_v2(connection) }
    func text(_ sql: String) -> String? { column(sql, connection).first }

    // SQLCipher answers the cipher_provider pragmas only on a keyed connection.
    let dummyKey = "x'" + String(repeating: "0", count: 64) + "'"
    _ = sqlite3_key(connection, dummyKey, CInt(dummyKey.utf8.count))
    sqlite3_exec(connection, "PRAGMA cipher_log_level = NONE", nil, nil, nil)
    let version = String(cString: sqlite3_libversion())
    var capabilities: Set<Capability> = []
    if let connection {
      _ = run("CREATE TABLE t(a INTEGER PRIMARY KEY, b)", connection)
      let probes: [(Capability, [String])] = [
        (.upsert, ["INSERT INTO t(a) VALUES (1) ON CONFLICT(a) DO UPDATE SET b = excluded.b"]),
        (.returning, ["INSERT INTO t(a) VALUES (2) RETURNING a"]),
        (.windowFunctions, ["SELECT row_number() OVER (ORDER BY a) FROM t"]),
        (.jsonFunctions, ["SELECT json_extract('{\"a\":1}', '$.a')"]),
        (.jsonArrowOperators, ["SELECT '{\"a\":1}' ->> '$.a'"]),
        (.jsonb, ["SELECT jsonb('[1]')"]),
        (.fts4, ["CREATE VIRTUAL TABLE temp.f4 USING fts4(content)"]),
        (.fts5, ["CREATE VIRTUAL TABLE temp.f5 USING fts5(content)"]),
        (
          .unicode61RemoveDiacritics,
          [#"CREATE VIRTUAL TABLE temp.fd USING fts4(content, tokenize=unicode61 "remove_diacritics=2")"#]
        ),
        (.fts5Trigram, ["CREATE VIRTUAL TABLE temp.f5t USING fts5(content, tokenize='trigram')"]),
        (
          .fts5TrigramRemoveDiacritics,
          ["CREATE VIRTUAL TABLE temp.f5d USING fts5(content, tokenize='trigram remove_diacritics 1')"]
        ),
        (.mathFunctions, ["SELECT sqrt(4), ln(1), pi()"]),
        (.renameColumn, ["CREATE TABLE r(x)", "ALTER TABLE r RENAME COLUMN x TO y"]),
        (.dropColumn, ["CREATE TABLE d(x, y)", "ALTER TABLE d DROP COLUMN y"]),
        (.strictTables, ["CREATE TABLE s(x INTEGER) STRICT"]),
        (.generatedColumns, ["CREATE TABLE g(x, y AS (x + 1))"]),
        (.optimizePragma, ["PRAGMA optimize"]),
        // A pragma SQLite does not know is ignored: its table-valued function is not.
        (.tableXInfo, ["SELECT hidden FROM pragma_table_xinfo('t')"]),
        (.nullsOrdering, ["SELECT a FROM t ORDER BY a NULLS LAST"]),
        (.aggregateFilter, ["SELECT count(a) FILTER (WHERE a > 1) FROM t"]),
        (.aggregateOrderBy, ["SELECT group_concat(a ORDER BY a DESC) FROM t"]),
      ]
      // Both the version and a compiled statement must agree: an unknown pragma
      // is silently ignored by SQLite, and a recent version may be built
      // without an optional module.
      let versionNumber = Int(sqlite3_libversion_number())
      for (capability, statements) in probes
      where versionNumber >= capability.minimumSQLiteVersionNumber
        && statements.allSatisfy({ run($0, connection) })
      {
        capabilities.insert(capability)
      }
      // Compiled, not run: running them would write a file.
      let compiledOnly: [(Capability, String)] = [(.vacuumInto, "VACUUM INTO 'unused.sqlite'")]
      for (capability, statement) in compiledOnly
      where versionNumber >= capability.minimumSQLiteVersionNumber && compiles(statement, connection) {
        capabilities.insert(capability)
      }
      let reportsCount = Capability.authorizerReportsTablesReadWithoutColumns
      if versionNumber >= reportsCount.minimumSQLiteVersionNumber, authorizerReportsCountedTable(connection) {
        capabilities.insert(reportsCount)
      }
      let deterministic = Capability.deterministicFunctions
      if versionNumber >= deterministic.minimumSQLiteVersionNumber, acceptsDeterministicFunction(connection) {
        capabilities.insert(deterministic)
      }
    }
    let options = connection.map { column("PRAGMA compile_options", $0) } ?? []
    // The hooks are C functions: present only if exported, and only useful if
    // compiled in.
    if options.contains("ENABLE_PREUPDATE_HOOK"), symbolExists("sqlite3_preupdate_hook") {
      capabilities.insert(.preupdateHook)
    }
    if options.contains("ENABLE_SNAPSHOT"), symbolExists("sqlite3_snapshot_get") {
      capabilities.insert(.snapshots)
    }
    return SQLiteFeatures(
      sqliteVersion: version,
      sqliteVersionNumber: Int(sqlite3_libversion_number()),
      sqliteSourceID: String(cString: sqlite3_sourceid()),
      sqlcipherVersion: text("PRAGMA cipher_version"),
      cryptoProvider: text("PRAGMA cipher_provider"),
      cryptoProviderVersion: text("PRAGMA cipher_provider_version"),
      compileOptions: options,
      capabilities: capabilities)
  }

  private static func run(_ sql: String, _ connection: OpaquePointer) -> Bool {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return false
    }
    defer { sqlite3_finalize(statement) }
    var code = sqlite3_step(statement)
    while code == SQLITE_ROW { code = sqlite3_step(statement) }
    return code == SQLITE_DONE
  }

  /// True if the authorizer reports the table of `SELECT COUNT(*) FROM t`,
  /// whose statement reads none of its columns.
  private static func authorizerReportsCountedTable(_ connection: OpaquePointer) -> Bool {
    var reported = false
    withUnsafeMutablePointer(to: &reported) { pointer in
      sqlite3_set_authorizer(
        connection,
        { context, action, table, _, _, _ in
          if action == SQLITE_READ, let table, let context, String(cString: table) == "t" {
            context.assumingMemoryBound(to: Bool.self).pointee = true
          }
          return SQLITE_OK
        }, pointer)
      _ = compiles("SELECT COUNT(*) FROM t", connection)
      sqlite3_set_authorizer(connection, nil, nil)
    }
    return reported
  }

  /// True if SQLite registers a function flagged `SQLITE_DETERMINISTIC`: an
  /// SQLite that predates the flag takes it for a wrong text encoding.
  private static func acceptsDeterministicFunction(_ connection: OpaquePointer) -> Bool {
    let code = sqlite3_create_function_v2(
      connection, "sealite_probe", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
      { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
    return code == SQLITE_OK && run("SELECT sealite_probe()", connection)
  }

  private static func compiles(_ sql: String, _ connection: OpaquePointer) -> Bool {
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    return sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK && statement != nil
  }

  private static func column(_ sql: String, _ connection: OpaquePointer?) -> [String] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return []
    }
    defer { sqlite3_finalize(statement) }
    var result: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      if let text = sqlite3_column_text(statement, 0) { result.append(String(cString: text)) }
    }
    return result
  }

  private static func symbolExists(_ name: String) -> Bool {
    guard let handle = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(handle) }
    return dlsym(handle, name) != nil
  }
}

/// Thrown when an operation needs a capability the linked SQLite lacks. Its
/// description names the feature, the SQLite version it needs and the version present.
public struct SQLiteFeatureError: Error, Sendable, CustomStringConvertible {
  /// The missing capability.
  public let capability: SQLiteFeatures.Capability
  /// The SQLite version linked.
  public let presentVersion: String
  /// The statement that needed the capability, if any.
  public let sql: String?
  /// What SQLite itself said about the statement, if it was compiled.
  public let sqliteMessage: String?

  init(
    capability: SQLiteFeatures.Capability, presentVersion: String, sql: String? = nil,
    sqliteMessage: String? = nil
  ) {
    self.capability = capability
    self.presentVersion = presentVersion
    self.sql = sql
    self.sqliteMessage = sqliteMessage
  }

  public var description: String {
    var text = "\(capability.name) needs SQLite \(capability.minimumSQLiteVersion) or later"
    if let requirement = capability.compileRequirement { text += " (\(requirement))" }
    text += "; the linked SQLCipher bundles SQLite \(presentVersion)"
    if let sqliteMessage { text += " (SQLite: \(sqliteMessage))" }
    if let sql { text += " - while compiling `\(sql)`" }
    return text
  }
}
