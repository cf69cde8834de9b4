extension Database {
  // MARK: - Virtual tables

  /// Creates a virtual table of a module that takes no configuration from Swift:
  ///
  ///     try db.create(virtualTable: "vocabulary", using: "spellfix1")
  ///
  /// `module` is SQL, written after `USING` as it is (it may carry its arguments).
  public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String)
    throws
  {
    try execute(sql: Self.createVirtualTableSQL(name, options: options, module: module))
  }

  /// Creates a virtual table, configured by its module's definition:
  ///
  ///     try db.create(virtualTable: "book", using: FTS4()) { t in
  ///       t.column("title")
  ///       t.column("body")
  ///     }
  ///
  /// The table and what the module creates with it (such as the triggers of
  /// `synchronize(withTable:)`) are created in one savepoint: on error, nothing is left.
  /// A module that the linked SQLite lacks throws ``SQLiteFeatureError``.
  public func create<Module: VirtualTableModule>(
    virtualTable name: String, options: VirtualTableOptions = [], using module: Module,
    _ body: ((Module.TableDefinition) throws -> Void)? = nil
  ) throws {
    let configuration = VirtualTableConfiguration(
      ifNotExists: options.contains(.ifNotExists), temporary: options.contains(.temporary))
    let definition = module.makeTableDefinition(configuration: configuration)
    try body?(definition)
    let arguments = try module.moduleArguments(for: definition, in: self)
    let moduleSQL =
      arguments.isEmpty ? module.moduleName : "\(module.moduleName)(\(arguments.joined(separator: ", ")))"
    let sql = Self.createVirtualTableSQL(name, options: options, module: moduleSQL)
    try inSavepoint {
      try execute(sql: sql)
      try module.database(self, didCreate: name, using: definition)
      return .commit
    }
  }

  /// Creates a virtual table, with GRDB's legacy `ifNotExists` flag instead of
  /// ``VirtualTableOptions``; prefer ``create(virtualTable:options:using:)``.
  @_disfavoredOverload
  public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
    try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
  }

  /// Creates a virtual table, with GRDB's legacy `ifNotExists` flag instead of
  /// ``VirtualTableOptions``; prefer ``create(virtualTable:options:using:_:)``.
  @_disfavoredOverload
  public func create<Module: VirtualTableModule>(
    virtualTable name: String, ifNotExists: Bool = false, using module: Module,
    _ body: ((Module.TableDefinition) throws -> Void)? = nil
  ) throws {
    try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module, body)
  }

  private static func createVirtualTableSQL(_ name: String, options: VirtualTableOptions, module: String)
    -> String
  {
    var sql = "CREATE VIRTUAL TABLE "
    if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
    if options.contains(.temporary) { sql += "temp." }
    return sql + name.quotedDatabaseIdentifier + " USING " + module
  }
}
