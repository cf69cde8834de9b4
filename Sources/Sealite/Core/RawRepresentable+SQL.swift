// A type that wraps an SQL value or expression in its raw value stands for
// it, once it declares the conformance (`extension Wrapper: SQLExpressible
// where RawValue: SQLExpressible {}`), as in GRDB.

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
  /// The raw value's expression.
  public var sqlExpression: SQLExpression { rawValue.sqlExpression }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
  /// The raw value's selection.
  public var sqlSelection: SQLSelection { rawValue.sqlSelection }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
  /// The raw value's ordering.
  public var sqlOrdering: SQLOrdering { rawValue.sqlOrdering }
}
