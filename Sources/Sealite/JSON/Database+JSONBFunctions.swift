// The JSONB functions of SQLite 3.45 (https://www.sqlite.org/json1.html#jsonb), with GRDB's
// names: the same as the JSON functions, with results in SQLite's binary JSON format. Before
// SQLite 3.45, the statement that uses them throws SQLiteFeatureError.

extension Database {
  /// What ``jsonIsValid(_:options:)`` accepts as valid (SQLite 3.45).
  public struct JSONValidationOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Canonical RFC 8259 JSON text.
    public static let json = JSONValidationOptions(rawValue: 1)
    /// JSON5 text.
    public static let json5 = JSONValidationOptions(rawValue: 2)
    /// A blob that looks like JSONB (a quick check).
    public static let probablyJSONB = JSONValidationOptions(rawValue: 4)
    /// A blob that is JSONB (a thorough check).
    public static let jsonb = JSONValidationOptions(rawValue: 8)
  }

  /// `JSONB(value)`: the JSONB blob of a JSON text or blob.
  public static func jsonb(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSONB", [value.sqlExpression])
  }

  /// `JSONB_ARRAY(value1, value2, …)`: a JSONB array of the values.
  public static func jsonbArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
    jsonFunction("JSONB_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
  }

  /// `JSONB_ARRAY(value1, value2, …)`: a JSONB array of values of several types.
  public static func jsonbArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
    jsonFunction("JSONB_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
  }

  /// `JSONB_EXTRACT(value, path)`: the value at a path, JSONB for an array or object.
  public static func jsonbExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSONB_EXTRACT", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSONB_EXTRACT(value, path1, path2, …)`: a JSONB array of the values at the paths.
  public static func jsonbExtract(
    _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>
  ) -> SQLExpression {
    jsonFunction("JSONB_EXTRACT", [value.sqlExpression] + paths.map(\.jsonPathArgument))
  }

  /// `JSONB_INSERT(value, path1, value1, …)`: as ``jsonInsert(_:_:)``, as JSONB.
  public static func jsonbInsert(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSONB_INSERT", value, assignments)
  }

  /// `JSONB_REPLACE(value, path1, value1, …)`: as ``jsonReplace(_:_:)``, as JSONB.
  public static func jsonbReplace(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSONB_REPLACE", value, assignments)
  }

  /// `JSONB_SET(value, path1, value1, …)`: as ``jsonSet(_:_:)``, as JSONB.
  public static func jsonbSet(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSONB_SET", value, assignments)
  }

  /// `JSONB_OBJECT(key1, value1, …)`: a JSONB object.
  public static func jsonbObject(_ elements: some Collection<(key: String, value: any SQLExpressible)>)
    -> SQLExpression
  {
    jsonFunction("JSONB_OBJECT", keyValueArguments(elements))
  }

  /// `JSONB_PATCH(value, patch)`: as ``jsonPatch(_:with:)``, as JSONB.
  public static func jsonbPatch(_ value: some SQLExpressible, with patch: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSONB_PATCH", [value.sqlExpression, patch.sqlExpression])
  }

  /// `JSONB_REMOVE(value, path)`: as ``jsonRemove(_:atPath:)``, as JSONB.
  public static func jsonbRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSONB_REMOVE", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSONB_REMOVE(value, path1, path2, …)`: as ``jsonRemove(_:atPaths:)``, as JSONB.
  public static func jsonbRemove(
    _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>
  ) -> SQLExpression {
    jsonFunction("JSONB_REMOVE", [value.sqlExpression] + paths.map(\.jsonPathArgument))
  }

  /// `JSONB_GROUP_ARRAY(value ORDER BY ordering) FILTER (WHERE filter)`: as
  /// ``jsonGroupArray(_:orderBy:filter:)``, as JSONB.
  public static func jsonbGroupArray(
    _ value: some SQLExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)? = nil
  ) -> SQLExpression {
    .aggregate(
      "JSONB_GROUP_ARRAY", [value.sqlExpression.jsonBuilderArgument], orderBy: ordering, filter: filter)
  }

  /// `JSONB_GROUP_OBJECT(key, value) FILTER (WHERE filter)`: as
  /// ``jsonGroupObject(key:value:filter:)``, as JSONB.
  public static func jsonbGroupObject(
    key: some SQLExpressible, value: some SQLExpressible, filter: (any SQLSpecificExpressible)? = nil
  ) -> SQLExpression {
    .aggregate(
      "JSONB_GROUP_OBJECT", [key.sqlExpression, value.sqlExpression.jsonBuilderArgument], filter: filter)
  }
}
