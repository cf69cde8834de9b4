/// A request whose selection can change: ``QueryInterfaceRequest`` and
/// associations.
public protocol SelectionRequest {
  /// Selects what `selection` builds when the request runs, replacing the
  /// current selection.
  func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self

  /// Appends what `selection` builds when the request runs to the selection.
  func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
    -> Self
}

extension SelectionRequest {
  /// Selects the given columns or expressions.
  public func select(_ selection: [any SQLSelectable]) -> Self {
    let selection = selection.map(\.sqlSelection)
    return selectWhenConnected { _ in selection }
  }

  /// Selects the given columns or expressions: `select(Column("id"), Column("name"))`.
  public func select(_ selection: any SQLSelectable...) -> Self {
    select(selection)
  }

  /// Selects raw SQL: `select(sql: "id, name")`.
  public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    select(SQL(sql: sql, arguments: arguments))
  }

  /// Selects an SQL literal.
  public func select(literal: SQL) -> Self {
    select(literal)
  }

  /// Appends the given columns or expressions to the selection.
  public func annotated(with selection: [any SQLSelectable]) -> Self {
    let selection = selection.map(\.sqlSelection)
    return annotatedWhenConnected { _ in selection }
  }

  /// Appends the given columns or expressions to the selection:
  /// `annotated(with: (Column("score") * 2).forKey("doubleScore"))`.
  public func annotated(with selection: any SQLSelectable...) -> Self {
    annotated(with: selection)
  }
}
