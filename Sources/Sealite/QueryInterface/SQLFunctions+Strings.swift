// The string functions of the query interface call GRDB's built-in Swift
// functions, which every connection has (see DatabaseFunction+BuiltIns.swift),
// as GRDB's do: SQLite's own LOWER and UPPER change ASCII letters only.

extension SQLSpecificExpressible {
  /// The text capitalized by Foundation (``DatabaseFunction/capitalize``);
  /// NULL for other values.
  ///
  ///     // SELECT swiftCapitalizedString("name") FROM "player"
  ///     Player.select(Column("name").capitalized, as: String.self)
  public var capitalized: SQLExpression { DatabaseFunction.capitalize(sqlExpression) }

  /// The text lowercased by Swift (``DatabaseFunction/lowercase``): every
  /// letter, not only ASCII ones; NULL for other values.
  ///
  ///     // SELECT * FROM "player" WHERE swiftLowercaseString("name") = ?
  ///     Player.filter(Column("name").lowercased == "émile")
  public var lowercased: SQLExpression { DatabaseFunction.lowercase(sqlExpression) }

  /// The text uppercased by Swift (``DatabaseFunction/uppercase``); NULL for
  /// other values.
  ///
  ///     // SELECT swiftUppercaseString("name") FROM "player"
  ///     Player.select(Column("name").uppercased, as: String.self)
  public var uppercased: SQLExpression { DatabaseFunction.uppercase(sqlExpression) }

  /// The text capitalized in the current locale
  /// (``DatabaseFunction/localizedCapitalize``); NULL for other values.
  ///
  ///     Player.select(Column("name").localizedCapitalized, as: String.self)
  public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(sqlExpression) }

  /// The text lowercased in the current locale
  /// (``DatabaseFunction/localizedLowercase``); NULL for other values.
  ///
  ///     Player.select(Column("name").localizedLowercased, as: String.self)
  public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(sqlExpression) }

  /// The text uppercased in the current locale
  /// (``DatabaseFunction/localizedUppercase``); NULL for other values.
  ///
  ///     Player.select(Column("name").localizedUppercased, as: String.self)
  public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(sqlExpression) }

  /// `self COLLATE collation`, with a custom collation the connection has.
  ///
  ///     // SELECT * FROM "player" ORDER BY "name" COLLATE swiftLocalizedCompare
  ///     Player.order(Column("name").collating(.localizedCompare))
  public func collating(_ collation: DatabaseCollation) -> SQLExpression {
    collating(Database.CollationName(rawValue: collation.name))
  }
}
