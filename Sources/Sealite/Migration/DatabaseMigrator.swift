import Foundation

/// Registers and runs migrations: named steps that take a database from one
/// schema to the next, each once, in order, in its own transaction.
///
///     var migrator = DatabaseMigrator()
///     migrator.registerMigration("v1") { db in
///       try db.create(table: "track") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("title", .text).notNull()
///       }
///     }
///     migrator.registerMigration("v2") { db in
///       try db.alter(table: "track") { t in t.add(column: "genre", .text) }
///     }
///     try migrator.migrate(dbQueue)  // or a DatabasePool
///
/// The identifiers of applied migrations are stored in the table
/// `grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)`, as GRDB stores
/// them, so a database migrated by GRDB goes on migrating here and back.
///
/// A migration that throws is rolled back entirely: the database is left as
/// after the previous migration, which stays applied, and the error is rethrown.
public struct DatabaseMigrator: Sendable {
  /// When a migration's foreign keys are checked.
  public enum ForeignKeyChecks: Sendable {
    /// Foreign keys are off while the migration runs (so that tables can be
    /// rebuilt and rows moved in any order), then every foreign key of the
    /// database is checked before the migration commits. The default.
    case deferred
    /// Foreign keys are enforced statement by statement while the migration
    /// runs, as they are in the rest of the app.
    case immediate
  }

  struct Migration: Sendable {
    /// How a registered migration treats foreign keys, fixed when it is
    /// registered (``disablingDeferredForeignKeyChecks()`` only reaches the
    /// migrations registered after it, as in GRDB).
    enum ForeignKeyMode: Sendable {
      /// Off while it runs, every foreign key checked before it commits.
      case deferred
      /// Enforced statement by statement.
      case immediate
      /// Off while it runs, never checked.
      case disabled
    }

    var identifier: String
    var foreignKeyMode: ForeignKeyMode
    /// The migrations of an older version of the app that this one replaces.
    var mergedIdentifiers: Set<String>
    /// Given the merged migrations that the database had applied.
    var migrate: @Sendable (Database, Set<String>) throws -> Void
  }

  /// Development only: when true, ``migrate(_:)`` erases the database and
  /// migrates it from scratch if the migrations it applied no longer produce
  /// the schema it has (a registered migration was edited), or if it holds
  /// migrations that are no longer registered.
  ///
  /// Erasing destroys every table and row. Never ship an app with this on:
  /// use it while you iterate on a migration that is not released yet.
  ///
  ///     var migrator = DatabaseMigrator()
  ///     #if DEBUG
  ///     migrator.eraseDatabaseOnSchemaChange = true
  ///     #endif
  public var eraseDatabaseOnSchemaChange = false

  /// The registered migrations, in order.
  private var steps: [Migration] = []
  /// Identifiers registered more than once: `migrate` throws for them, as
  /// registration itself can not (GRDB's `registerMigration` does not throw).
  private var duplicateIdentifiers: [String] = []
  private var defersForeignKeyChecks = true

  /// The name of the table of applied migrations (GRDB's).
  static let migrationsTableName = "grdb_migrations"

  /// Creates a migrator with no migration.
  public init() {}

  /// The identifiers of the registered migrations, in order.
  public var registeredMigrations: [String] { steps.map { $0.identifier } }

  /// The identifiers of the registered migrations, in the order they were
  /// registered (GRDB's name for ``registeredMigrations``).
  ///
  ///     migrator.registerMigration("v1") { db in … }
  ///     migrator.migrations  // ["v1"]
  public var migrations: [String] { registeredMigrations }

  /// Registers a migration, to run after those registered before it.
  ///
  /// Registering an identifier twice is a programming error: the migrator
  /// then refuses to migrate (``migrate(_:)`` throws, naming the identifier).
  public mutating func registerMigration(
    _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
    migrate: @escaping @Sendable (Database) throws -> Void
  ) {
    registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in try migrate(db)
    }
  }

  /// Registers a migration that merges and replaces migrations of an older
  /// version of the app, to run after those registered before it.
  ///
  /// The closure is given the merged migrations that the database had
  /// already applied, so that it does only what remains. After it ran, the
  /// database records this migration alone; a database that had applied it
  /// already just forgets the merged identifiers.
  ///
  ///     // Old app: "v1", "v2" and "v3". New app: "v3" merges "v1" and "v2".
  ///     migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
  ///       if !appliedIDs.contains("v1") {
  ///         // create the schema of v1
  ///       }
  ///       if !appliedIDs.contains("v2") {
  ///         // change it as v2 did
  ///       }
  ///       // change it as v3 does
  ///     }
  ///
  /// Do not give the merged migration the identifier of one of the first
  /// migrations it merges: a database that applied that one would not run it.
  public mutating func registerMigration(
    _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
    merging mergedIdentifiers: Set<String> = [],
    migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void
  ) {
    if steps.contains(where: { $0.identifier == identifier }) {
      duplicateIdentifiers.append(identifier)
      return
    }
    let mode: Migration.ForeignKeyMode
    switch foreignKeyChecks {
    case .deferred: mode = defersForeignKeyChecks ? .deferred : .disabled
    case .immediate: mode = .immediate
    }
    steps.append(
      Migration(
        identifier: identifier, foreignKeyMode: mode, mergedIdentifiers: mergedIdentifiers, migrate: migrate))
  }

  /// A migrator whose `.deferred` migrations registered from now on run with
  /// foreign keys off and no check at the end: for databases known to hold
  /// violations, at your own risk. Migrations registered before the call keep
  /// their checks, as in GRDB.
  public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
    var migrator = self
    migrator.defersForeignKeyChecks = false
    return migrator
  }

  // MARK: - Migrating

  /// Runs every registered migration not applied yet, in order. Runs as a
  /// barrier: no read of a ``DatabasePool`` overlaps it.
  public func migrate(_ writer: some DatabaseWriter) throws {
    guard let last = steps.last else { return try checkRegistrations() }
    try migrate(writer, upTo: last.identifier)
  }

  /// Runs the registered migrations not applied yet, up to and including
  /// `targetIdentifier`. Throws if it is not registered, or if the database
  /// already went past it (migrations only go forward).
  public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
    try checkRegistrations()
    try writer.barrierWriteWithoutTransaction { db in
      try migrate(db, upTo: targetIdentifier, configuration: writer.configuration)
    }
  }

  /// Runs every registered migration not applied yet, later, off the caller's
  /// thread; `completion` receives the connection and the error, if any.
  public func asyncMigrate(
    _ writer: some DatabaseWriter,
    completion: @escaping @Sendable (Result<Database, any Error>) -> Void
  ) {
    let migrator = self
    let configuration = writer.configuration
    writer.asyncBarrierWriteWithoutTransaction { result in
      do {
        let db = try result.get()
        try migrator.checkRegistrations()
        if let last = migrator.steps.last {
          try db.withoutTransaction { db in
            try migrator.migrate(db, upTo: last.identifier, configuration: configuration)
          }
        }
        completion(.success(db))
      } catch {
        completion(.failure(error))
      }
    }
  }

  // MARK: - Reading the state of a database

  /// The identifiers of the registered migrations applied to the database,
  /// in registration order.
  public func appliedMigrations(_ db: Database) throws -> [String] {
    let applied = try appliedIdentifiers(db)
    return registeredMigrations.filter { applied.contains($0) }
  }

  /// Every identifier recorded in the database, registered here or not.
  public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
    guard try db.tableExists(Self.migrationsTableName) else { return [] }
    return try Set(String.fetchAll(db, sql: "SELECT identifier FROM \(Self.migrationsTableName)"))
  }

  /// The registered migrations applied to the database with every one before
  /// them: the unbroken prefix of ``registeredMigrations`` that is done.
  public func completedMigrations(_ db: Database) throws -> [String] {
    let applied = try appliedIdentifiers(db)
    return Array(registeredMigrations.prefix { applied.contains($0) })
  }

  /// True if every registered migration is completed.
  public func hasCompletedMigrations(_ db: Database) throws -> Bool {
    try completedMigrations(db).last == steps.last?.identifier
  }

  /// True if the database holds migrations that are not registered here: it
  /// was migrated by a newer version of the app.
  public func hasBeenSuperseded(_ db: Database) throws -> Bool {
    let registered = Set(registeredMigrations)
    return try appliedIdentifiers(db).contains { !registered.contains($0) }
  }

  // MARK: - Running migrations

  private func checkRegistrations() throws {
    if let duplicate = duplicateIdentifiers.first {
      throw DatabaseError.misuse("migration \(duplicate.debugDescription) is registered more than once")
    }
  }

  private func migrate(_ db: Database, upTo targetIdentifier: String, configuration: Configuration) throws {
    guard let targetIndex = steps.firstIndex(where: { $0.identifier == targetIdentifier }) else {
      throw DatabaseError.misuse("undefined migration: \(targetIdentifier.debugDescription)")
    }
    if eraseDatabaseOnSchemaChange, try needsErasing(db, configuration: configuration) {
      try DatabaseEraser.erase(db)
    }
    var applied = try appliedIdentifiers(db)
    if targetIndex + 1 < steps.count, applied.contains(steps[targetIndex + 1].identifier) {
      throw DatabaseError.misuse(
        "database is already migrated beyond migration \(targetIdentifier.debugDescription)")
    }
    try createMigrationsTable(db)
    for migration in steps[...targetIndex] {
      let appliedMerged = migration.mergedIdentifiers.intersection(applied)
      if !applied.contains(migration.identifier) {
        try run(migration, in: db, appliedMerged: appliedMerged)
        applied.insert(migration.identifier)
        applied.subtract(appliedMerged)
      } else if !appliedMerged.isEmpty {
        // Applied under its new identifier, but an older app recorded the
        // migrations it merges since: forget them.
        try db.inTransaction(.immediate) {
          try forget(appliedMerged, in: db)
          return .commit
        }
        applied.subtract(appliedMerged)
      }
    }
  }

  private func forget(_ identifiers: Set<String>, in db: Database) throws {
    for identifier in identifiers.sorted() {
      try db.execute(
        sql: "DELETE FROM \(Self.migrationsTableName) WHERE identifier = ?", arguments: [identifier])
    }
  }

  private func createMigrationsTable(_ db: Database) throws {
    try db.execute(
      sql: "CREATE TABLE IF NOT EXISTS \(Self.migrationsTableName) (identifier TEXT NOT NULL PRIMARY KEY)")
  }

  /// Runs one migration in its own transaction, with its identifier recorded
  /// (and those it merges forgotten) in the same transaction: all happen or
  /// nothing does. The schema source is left out: a migration sees the schema
  /// as SQLite has it, so that it does the same on every database.
  private func run(_ migration: Migration, in db: Database, appliedMerged: Set<String>) throws {
    try db.withSchemaSource(nil) {
      try runWithoutSchemaSource(migration, in: db, appliedMerged: appliedMerged)
    }
  }

  private func runWithoutSchemaSource(_ migration: Migration, in db: Database, appliedMerged: Set<String>)
    throws
  {
    let record = {
      try forget(appliedMerged, in: db)
      try db.execute(
        sql: "INSERT INTO \(Self.migrationsTableName) (identifier) VALUES (?)",
        arguments: [migration.identifier])
    }
    let enforcesForeignKeys = try db.foreignKeysAreEnforced
    if migration.foreignKeyMode != .immediate && enforcesForeignKeys {
      // Foreign keys can only be switched off outside a transaction.
      try db.execute(sql: "PRAGMA foreign_keys = OFF")
      defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
      try db.inTransaction(.immediate) {
        try migration.migrate(db, appliedMerged)
        if migration.foreignKeyMode == .deferred { try db.checkForeignKeys() }
        try record()
        return .commit
      }
    } else {
      try db.inTransaction(.immediate) {
        try migration.migrate(db, appliedMerged)
        // Deferred constraints (DEFERRABLE INITIALLY DEFERRED) would only fail
        // at commit, with no word on the row: name it now.
        if enforcesForeignKeys { try db.checkForeignKeys() }
        try record()
        return .commit
      }
    }
  }

  // MARK: - Erasing on schema change

  /// True if the database holds migrations that are not registered, or if its
  /// schema differs from the schema the registered migrations, up to the last
  /// one it applied, produce on an empty database: what
  /// ``eraseDatabaseOnSchemaChange`` looks at.
  public func hasSchemaChanges(_ db: Database) throws -> Bool {
    try needsErasing(db, configuration: db.configuration)
  }

  /// See ``hasSchemaChanges(_:)``.
  ///
  /// That empty database is a temporary file, opened with the configuration
  /// of the migrated one (its key, its `prepareDatabase`), as in GRDB: code
  /// that needs a file (WAL, attached databases, extensions) works there too,
  /// and the scratch copy of an encrypted schema is encrypted with the same key.
  private func needsErasing(_ db: Database, configuration: Configuration) throws -> Bool {
    if try hasBeenSuperseded(db) { return true }
    let applied = try appliedIdentifiers(db)
    guard let lastApplied = steps.last(where: { applied.contains($0.identifier) }) else { return false }
    var scratchConfiguration = configuration
    scratchConfiguration.readonly = false
    scratchConfiguration.label = "Sealite.DatabaseMigrator.temporary"
    let scratchPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("sealite-migrator-\(UUID().uuidString).sqlite").path
    defer {
      for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: scratchPath + suffix)
      }
    }
    let expected: [String] = try {
      let scratch = try DatabaseQueue(path: scratchPath, configuration: scratchConfiguration)
      defer { try? scratch.close() }
      var scratchMigrator = self
      scratchMigrator.eraseDatabaseOnSchemaChange = false
      try scratchMigrator.migrate(scratch, upTo: lastApplied.identifier)
      return try scratch.read { try DatabaseEraser.schemaDescription($0) }
    }()
    return try DatabaseEraser.schemaDescription(db) != expected
  }
}
