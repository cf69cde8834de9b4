extension SQLRelation {
  /// ` RETURNING …` for a DELETE or UPDATE of this relation's table.
  ///
  /// SQLite reads a RETURNING clause against the modified table alone, so the
  /// selection is rendered in a context of its own (a joined request has
  /// qualified the columns of its subquery) where the table keeps its own
  /// name, unqualified; it still knows the table, which
  /// `allColumns(excluding:)` asks for its columns. Its arguments come last,
  /// as its placeholders do.
  func returningClause(_ selection: [SQLSelection], _ context: SQLGenerationContext) throws -> String {
    let nested = SQLGenerationContext.nested(in: context)
    nested.register(alias, tableName: tableName)
    let columns = try selection.map { try $0.qualified(with: alias).sql(nested) }
    try context.append(nested.arguments ?? StatementArguments())
    return " RETURNING " + columns.joined(separator: ", ")
  }
}
