// SQLite's bitwise operators on integers: `&`, `|`, `<<`, `>>` and `~`, and
// the assignments built on them (`Column("flags") |= 4`).

extension SQLSpecificExpressible {
  /// `lhs & rhs`, the bitwise AND of two integers: `Column("flags") & 4`.
  public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.bitwise("&", lhs, rhs)
  }

  /// `lhs & rhs`, the bitwise AND of two integers: `4 & Column("flags")`.
  public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
    SQLExpression.bitwise("&", lhs, rhs)
  }

  /// `lhs & rhs`, the bitwise AND of two integers.
  public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.bitwise("&", lhs, rhs)
  }

  /// `lhs | rhs`, the bitwise OR of two integers: `Column("flags") | 4`.
  public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.bitwise("|", lhs, rhs)
  }

  /// `lhs | rhs`, the bitwise OR of two integers: `4 | Column("flags")`.
  public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
    SQLExpression.bitwise("|", lhs, rhs)
  }

  /// `lhs | rhs`, the bitwise OR of two integers.
  public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.bitwise("|", lhs, rhs)
  }

  /// `lhs << rhs`, an integer shifted left: `Column("flags") << 1`.
  public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.bitwise("<<", lhs, rhs)
  }

  /// `lhs << rhs`, an integer shifted left: `1 << Column("bit")`.
  public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
    SQLExpression.bitwise("<<", lhs, rhs)
  }

  /// `lhs << rhs`, an integer shifted left.
  public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.bitwise("<<", lhs, rhs)
  }

  /// `lhs >> rhs`, an integer shifted right: `Column("flags") >> 1`.
  public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.bitwise(">>", lhs, rhs)
  }

  /// `lhs >> rhs`, an integer shifted right: `256 >> Column("bit")`.
  public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
    SQLExpression.bitwise(">>", lhs, rhs)
  }

  /// `lhs >> rhs`, an integer shifted right.
  public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.bitwise(">>", lhs, rhs)
  }

  /// `~value`, the bitwise complement of an integer: `~Column("flags")`.
  public static prefix func ~ (value: Self) -> SQLExpression {
    SQLExpression(.prefix("~", value.sqlExpression))
  }
}

extension SQLExpression {
  fileprivate static func bitwise(_ op: String, _ lhs: some SQLExpressible, _ rhs: some SQLExpressible)
    -> SQLExpression
  {
    SQLExpression(.binary(op, lhs.sqlExpression, rhs.sqlExpression))
  }
}

extension ColumnExpression {
  /// `column = column & value`: `Player.updateAll(db, Column("flags") &= 3)`.
  public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column & value)
  }

  /// `column = column | value`: `Player.updateAll(db, Column("flags") |= 4)`.
  public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column | value)
  }

  /// `column = column << value`.
  public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column << value)
  }

  /// `column = column >> value`.
  public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column >> value)
  }

  /// The column, never qualified by a table of the request, even in joins:
  /// it names a column of the result, such as an annotation's alias.
  ///
  ///     let request = Author
  ///       .annotated(with: Author.books.count.forKey("bookCount"))
  ///       .order(Column("bookCount").detached.desc)
  public var detached: SQLExpression {
    SQLExpression(sql: name.quotedDatabaseIdentifier)
  }
}
