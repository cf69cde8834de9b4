/// A virtual table module, such as ``FTS4`` or ``FTS5``: it describes the arguments of a
/// `CREATE VIRTUAL TABLE … USING module(…)` statement and what must follow the creation.
///
///     try db.create(virtualTable: "document", using: FTS5()) { t in
///       t.column("content")
///     }
///
/// A module makes a definition (``makeTableDefinition(configuration:)``), lets the body of
/// ``Database/create(virtualTable:options:using:_:)`` configure it, turns it into module
/// arguments, and may create more schema once the table exists (the triggers of an
/// external-content full-text index, for example).
public protocol VirtualTableModule {
  /// The type of the definition that the body of
  /// ``Database/create(virtualTable:options:using:_:)`` configures.
  associatedtype TableDefinition

  /// The name of the module, as `CREATE VIRTUAL TABLE … USING` names it (`fts5`).
  var moduleName: String { get }

  /// A fresh definition of a table about to be created.
  func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

  /// The arguments of the module, each written as SQL (`"content"`, `"tokenize='porter'"`).
  func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

  /// Called in the savepoint that created the table, to create what goes with it.
  func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created, given to
/// ``VirtualTableModule/makeTableDefinition(configuration:)``.
public struct VirtualTableConfiguration: Sendable {
  /// Whether the table is created with `IF NOT EXISTS`.
  public var ifNotExists: Bool

  /// Whether the table is temporary (created in the `temp` schema).
  public var temporary: Bool

  /// A configuration; GRDB keeps the initializer internal, Sealite makes it public so that
  /// modules written outside the library can be tested.
  public init(ifNotExists: Bool = false, temporary: Bool = false) {
    self.ifNotExists = ifNotExists
    self.temporary = temporary
  }
}

/// The options of ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableOptions: OptionSet, Sendable {
  public let rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Creates the table only if it does not exist yet (`IF NOT EXISTS`).
  public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)

  /// Creates a temporary table, in the `temp` schema.
  public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}
