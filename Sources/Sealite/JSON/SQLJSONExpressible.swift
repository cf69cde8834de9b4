/// An expression known to hold JSON: ``JSONColumn``, or any expression seen through
/// ``SQLSpecificExpressible/asJSON``.
///
/// Such an expression gives access to what its JSON holds (``subscript(_:)``, the `->>`
/// operator), and JSON builders embed it as JSON rather than as a string.
///
/// The `->` and `->>` operators need SQLite 3.38 (and the JSON functions SQLite 3.9 with
/// JSON1): before, the statement that uses them throws ``SQLiteFeatureError``.
public protocol SQLJSONExpressible: SQLSpecificExpressible {}

extension ColumnExpression where Self: SQLJSONExpressible {
  /// The column, marked as JSON for JSON builders.
  public var sqlExpression: SQLExpression {
    SQLExpression(.jsonValue(SQLExpression(.column(name, alias: nil))))
  }
}

extension SQLJSONExpressible {
  /// The SQL value at `path`, with the `->>` operator: a JSON string comes out as text,
  /// a JSON number as a number, a JSON object or array as its JSON text.
  ///
  ///     // "address" ->> 'city'
  ///     JSONColumn("address")["city"]
  ///     // "address" ->> '$.street[0]'
  ///     JSONColumn("address")["$.street[0]"]
  ///
  /// A path is a key (`"city"`), an array index (`0`) or a
  /// [JSON path](https://www.sqlite.org/json1.html#path_arguments) (`"$.a.b"`).
  public subscript(_ path: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary("->>", sqlExpression, path.jsonPathArgument))
  }

  /// `JSON_EXTRACT(json, path)`: the SQL value at a JSON path.
  public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
    Database.jsonExtract(self, atPath: path)
  }

  /// `JSON_EXTRACT(json, path1, path2, …)`: a JSON array of the values at several paths.
  public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
    Database.jsonExtract(self, atPaths: paths)
  }

  /// The JSON representation of the value at `path`, with the `->` operator: a JSON
  /// string comes out quoted (`'"Paris"'`), and the result counts as JSON.
  ///
  ///     // "address" -> 'city'
  ///     JSONColumn("address").jsonRepresentation(atPath: "city")
  public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary("->", sqlExpression, path.jsonPathArgument))
  }
}

/// Any expression seen as JSON, as ``SQLSpecificExpressible/asJSON`` returns it.
public struct AnySQLJSONExpressible: SQLJSONExpressible {
  /// The expression, marked as JSON for JSON builders.
  public let sqlExpression: SQLExpression

  /// Wraps a JSON expression.
  public init(_ base: some SQLJSONExpressible) {
    self.sqlExpression = base.sqlExpression.asJSONValue
  }

  init(sqlExpression: SQLExpression) {
    self.sqlExpression = sqlExpression.asJSONValue
  }
}

extension SQLSpecificExpressible {
  /// The expression, read as JSON: it gains the accessors of ``SQLJSONExpressible``, and
  /// JSON builders embed it as JSON instead of quoting it as a string.
  ///
  ///     // JSON_ARRAY('[1, 2]') → '["[1, 2]"]'
  ///     Database.jsonArray(["[1, 2]"])
  ///     // JSON_ARRAY(JSON('[1, 2]')) → '[[1,2]]'
  ///     Database.jsonArray(["[1, 2]".databaseValue.asJSON])
  public var asJSON: AnySQLJSONExpressible {
    AnySQLJSONExpressible(sqlExpression: sqlExpression)
  }
}
