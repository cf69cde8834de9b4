import Foundation

// GRDB's built-in functions, under GRDB's SQL names: a database that a GRDB
// app wrote (a view or trigger that calls them) reads the same in Sealite.
// Every connection has them; they return NULL for anything but a text.

extension DatabaseFunction {
  /// `swiftCapitalizedString(x)`: the Foundation `String.capitalized` of a
  /// text, NULL for other values. The function of ``SQLSpecificExpressible/capitalized``.
  ///
  ///     try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('hello world')")  // "Hello World"
  ///     try Player.select(DatabaseFunction.capitalize(Column("name")), as: String.self).fetchAll(db)
  public static let capitalize = textFunction("swiftCapitalizedString") { $0.capitalized }

  /// `swiftLowercaseString(x)`: the Swift `String.lowercased()` of a text,
  /// NULL for other values: unlike SQLite's `LOWER`, it lowercases every
  /// letter, not only ASCII ones. The function of ``SQLSpecificExpressible/lowercased``.
  ///
  ///     try String.fetchOne(db, sql: "SELECT swiftLowercaseString('ÉCOLE')")  // "école"
  public static let lowercase = textFunction("swiftLowercaseString") { $0.lowercased() }

  /// `swiftUppercaseString(x)`: the Swift `String.uppercased()` of a text,
  /// NULL for other values. The function of ``SQLSpecificExpressible/uppercased``.
  ///
  ///     try String.fetchOne(db, sql: "SELECT swiftUppercaseString('école')")  // "ÉCOLE"
  public static let uppercase = textFunction("swiftUppercaseString") { $0.uppercased() }

  /// `swiftLocalizedCapitalizedString(x)`: the Foundation
  /// `String.localizedCapitalized` of a text, in the current locale; NULL for
  /// other values. The function of ``SQLSpecificExpressible/localizedCapitalized``.
  ///
  ///     try Player.select(DatabaseFunction.localizedCapitalize(Column("name")), as: String.self).fetchAll(db)
  public static let localizedCapitalize = textFunction("swiftLocalizedCapitalizedString") {
    // What `localizedCapitalized` does, by a name the query interface does
    // not also declare.
    $0.capitalized(with: Locale.current)
  }

  /// `swiftLocalizedLowercaseString(x)`: the Foundation
  /// `String.localizedLowercase` of a text, in the current locale; NULL for
  /// other values. The function of ``SQLSpecificExpressible/localizedLowercased``.
  ///
  ///     try Player.select(DatabaseFunction.localizedLowercase(Column("name")), as: String.self).fetchAll(db)
  public static let localizedLowercase = textFunction("swiftLocalizedLowercaseString") {
    $0.localizedLowercase
  }

  /// `swiftLocalizedUppercaseString(x)`: the Foundation
  /// `String.localizedUppercase` of a text, in the current locale; NULL for
  /// other values. The function of ``SQLSpecificExpressible/localizedUppercased``.
  ///
  ///     try Player.select(DatabaseFunction.localizedUppercase(Column("name")), as: String.self).fetchAll(db)
  public static let localizedUppercase = textFunction("swiftLocalizedUppercaseString") {
    $0.localizedUppercase
  }

  /// The functions every connection has.
  static let builtIns: [DatabaseFunction] = [
    capitalize, lowercase, uppercase, localizedCapitalize, localizedLowercase, localizedUppercase,
  ]

  /// A pure function of one text argument.
  private static func textFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String)
    -> DatabaseFunction
  {
    DatabaseFunction(name, argumentCount: 1, pure: true) { values in
      String.fromDatabaseValue(values[0]).map(transform)
    }
  }
}
