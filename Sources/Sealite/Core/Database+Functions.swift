import CSQLCipher

// Custom functions and collations live on one connection: SQLite keeps them
// (and the retained Swift values behind them) until they are replaced,
// removed, or the connection closes. As in GRDB, adding or removing one is not
// expected to fail: a failure is a programmer error (an argument count SQLite
// refuses, or a replacement while a statement of the connection runs), and
// stops the program with SQLite's message.

extension Database {
  /// Adds a custom SQL function or aggregate to this connection, or replaces
  /// the one of the same name and number of arguments.
  ///
  ///     try dbQueue.write { db in
  ///       db.add(function: succ)
  ///       try Int.fetchOne(db, sql: "SELECT succ(1)")  // 2
  ///     }
  ///
  /// Every connection of a ``DatabasePool`` needs its own: add the function
  /// in ``Configuration/prepareDatabase(_:)``, which prepares the writer and
  /// each reader:
  ///
  ///     var configuration = Configuration()
  ///     configuration.prepareDatabase { db in db.add(function: succ) }
  ///     let dbPool = try DatabasePool(path: path, configuration: configuration)
  public func add(function: DatabaseFunction) {
    let code = function.register(on: connectionOrTrap)
    checkRegistration(code, "add function \(function.name)")
  }

  /// Removes a custom SQL function from this connection: statements that
  /// call it fail to compile afterwards ("no such function").
  ///
  ///     db.remove(function: succ)
  public func remove(function: DatabaseFunction) {
    let code = function.unregister(from: connectionOrTrap)
    checkRegistration(code, "remove function \(function.name)")
  }

  /// Adds a collation to this connection, or replaces the one of the same
  /// name (ASCII letters compared without case).
  ///
  ///     db.add(collation: byLength)
  ///     try db.execute(sql: "CREATE TABLE word (text TEXT COLLATE byLength)")
  ///
  /// As functions, collations are per connection: add those of a
  /// ``DatabasePool`` in ``Configuration/prepareDatabase(_:)``.
  public func add(collation: DatabaseCollation) {
    let code = collation.register(on: connectionOrTrap)
    checkRegistration(code, "add collation \(collation.name)")
  }

  /// Removes a collation from this connection: statements that use it fail
  /// to compile afterwards ("no such collation sequence").
  ///
  ///     db.remove(collation: byLength)
  public func remove(collation: DatabaseCollation) {
    let code = collation.unregister(from: connectionOrTrap)
    checkRegistration(code, "remove collation \(collation.name)")
  }

  /// Rebuilds every index that uses the collation (`REINDEX`): needed when
  /// the order a collation defines has changed.
  ///
  ///     try db.reindex(collation: .nocase)
  public func reindex(collation: Database.CollationName) throws {
    try execute(sql: "REINDEX \(collation.rawValue.quotedDatabaseIdentifier)")
  }

  /// Rebuilds every index that uses the custom collation (`REINDEX`): needed
  /// when the order it defines has changed, as when a new version of the app
  /// compares differently.
  ///
  ///     try db.reindex(collation: DatabaseCollation.localizedCompare)
  public func reindex(collation: DatabaseCollation) throws {
    try reindex(collation: Database.CollationName(rawValue: collation.name))
  }

  /// Adds GRDB's built-in functions and collations, which every connection
  /// has (a new connection, before the user's preparations).
  func addBuiltInFunctionsAndCollations() {
    for function in DatabaseFunction.builtIns { add(function: function) }
    for collation in DatabaseCollation.builtIns { add(collation: collation) }
  }

  /// The connection; a closed one is a programmer error here.
  private var connectionOrTrap: SQLiteConnection {
    guard let sqliteConnection else { preconditionFailure("the database connection is closed") }
    return sqliteConnection
  }

  private func checkRegistration(_ code: CInt, _ operation: String) {
    guard code != SQLITE_OK else { return }
    let error = DatabaseError.fromConnection(sqliteConnection, code: code)
    preconditionFailure("could not \(operation): \(error)")
  }
}
