/// A value or expression that can stand in SQL: every ``DatabaseValueConvertible``
/// value (bound as a statement argument), columns, and expressions.
///
/// The SQL expression types live in Core because every database value is one.
public protocol SQLExpressible {
  /// The expression.
  var sqlExpression: SQLExpression { get }
}

/// An expression that is not a plain Swift value: columns and built
/// expressions. Sealite's SQL operators (`==`, `<`, `&&`, …) apply to these, so
/// that they never compete with Swift's own operators on plain values.
///
/// As in GRDB, every such expression can be selected and ordered by: a
/// program's own ``ColumnExpression`` types go in `select` and `order` too.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm {}

extension SQLSpecificExpressible {
  /// The expression, selected.
  public var sqlSelection: SQLSelection { SQLSelection(impl: .expression(sqlExpression)) }

  /// The expression, in its natural order.
  public var sqlOrdering: SQLOrdering { SQLOrdering(impl: .expression(sqlExpression, .none)) }
}

extension DatabaseValueConvertible {
  /// The value, as a bound argument.
  public var sqlExpression: SQLExpression { SQLExpression(.value(databaseValue)) }
}

/// A type that names a column: ``Column``, and coding keys of records.
public protocol ColumnExpression: SQLSpecificExpressible {
  /// The column name.
  var name: String { get }
}

extension ColumnExpression {
  /// The column, as an expression.
  public var sqlExpression: SQLExpression { SQLExpression(.column(name, alias: nil)) }
}

extension ColumnExpression where Self: RawRepresentable, Self.RawValue == String {
  /// The raw value, so that an enum of strings names columns:
  ///
  ///     enum Columns: String, ColumnExpression {
  ///       case id, name, score
  ///     }
  ///     Player.filter(Columns.score > 100)
  public var name: String { rawValue }
}

extension ColumnExpression where Self == Column {
  /// The hidden rowid column, wherever a column is expected.
  public static var rowID: Self { Column.rowID }
}

extension SQLExpressible where Self == Column {
  /// The hidden rowid column, wherever an expression is expected.
  public static var rowID: Self { Column.rowID }
}

/// A column of a table or of a query.
///
///     Player.filter(Column("score") > 100).order(Column("name"))
public struct Column: ColumnExpression, Sendable {
  /// The hidden rowid column.
  public static let rowID = Column("rowid")

  /// The column name.
  public let name: String

  /// Creates a column from its name.
  public init(_ name: String) {
    self.name = name
  }

  /// Creates a column from a coding key.
  public init(_ codingKey: some CodingKey) {
    self.name = codingKey.stringValue
  }
}

extension Column: CustomStringConvertible {
  public var description: String { name }
}
