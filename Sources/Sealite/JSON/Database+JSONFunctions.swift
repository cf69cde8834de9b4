// The JSON functions of SQLite (https://www.sqlite.org/json1.html), with GRDB's names.
// They need the JSON functions of SQLite (built in from 3.38, JSON1 before): where they are
// missing, the statement that uses them throws SQLiteFeatureError.

extension Database {
  /// `JSON(value)`: the minified JSON text of `value` (an error for invalid JSON).
  public static func json(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSON", [value.sqlExpression])
  }

  /// `JSON_ARRAY(value1, value2, …)`: a JSON array of the values.
  ///
  ///     // JSON_ARRAY(1, 2, 3)
  ///     Database.jsonArray(1...3)
  public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
    jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
  }

  /// `JSON_ARRAY(value1, value2, …)`: a JSON array of values of several types.
  ///
  ///     // JSON_ARRAY("name", JSON("info"))
  ///     Database.jsonArray([Column("name"), JSONColumn("info")] as [any SQLExpressible])
  public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
    jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
  }

  /// `JSON_ARRAY_LENGTH(value)`: the number of elements of a JSON array (0 for any other
  /// JSON value).
  public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression])
  }

  /// `JSON_ARRAY_LENGTH(value, path)`: the number of elements of the array at `path`.
  public static func jsonArrayLength(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSON_ERROR_POSITION(value)`: 0 for valid JSON, else the 1-based position of the first
  /// error (SQLite 3.42).
  public static func jsonErrorPosition(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSON_ERROR_POSITION", [value.sqlExpression])
  }

  /// `JSON_EXTRACT(value, path)`: the SQL value at a JSON path.
  public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSON_EXTRACT", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSON_EXTRACT(value, path1, path2, …)`: a JSON array of the values at several paths.
  public static func jsonExtract(
    _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>
  ) -> SQLExpression {
    jsonFunction("JSON_EXTRACT", [value.sqlExpression] + paths.map(\.jsonPathArgument))
  }

  /// `JSON_INSERT(value, path1, value1, …)`: the JSON with values inserted where their path
  /// does not exist yet (existing values are kept).
  public static func jsonInsert(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSON_INSERT", value, assignments)
  }

  /// `JSON_REPLACE(value, path1, value1, …)`: the JSON with the values at existing paths
  /// replaced (missing paths are not created).
  public static func jsonReplace(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSON_REPLACE", value, assignments)
  }

  /// `JSON_SET(value, path1, value1, …)`: the JSON with the values at the paths set,
  /// created or replaced.
  ///
  ///     // JSON_SET("info", '$.city', 'Paris')
  ///     Database.jsonSet(JSONColumn("info"), ["$.city": "Paris"])
  public static func jsonSet(
    _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonEdit("JSON_SET", value, assignments)
  }

  /// `JSON_OBJECT(key1, value1, …)`: a JSON object.
  ///
  ///     // JSON_OBJECT('name', "name", 'info', JSON("info"))
  ///     Database.jsonObject(["name": Column("name"), "info": JSONColumn("info")])
  public static func jsonObject(_ elements: some Collection<(key: String, value: any SQLExpressible)>)
    -> SQLExpression
  {
    jsonFunction("JSON_OBJECT", keyValueArguments(elements))
  }

  /// `JSON_PATCH(value, patch)`: the JSON merged with a patch (RFC 7396).
  public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
  }

  /// `JSON_REMOVE(value, path)`: the JSON without the element at `path`.
  public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSON_REMOVE", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSON_REMOVE(value, path1, path2, …)`: the JSON without the elements at the paths.
  public static func jsonRemove(
    _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>
  ) -> SQLExpression {
    jsonFunction("JSON_REMOVE", [value.sqlExpression] + paths.map(\.jsonPathArgument))
  }

  /// `JSON_TYPE(value)`: the type of the JSON value (`'object'`, `'array'`, `'text'`,
  /// `'integer'`, `'real'`, `'true'`, `'false'`, `'null'`).
  public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSON_TYPE", [value.sqlExpression])
  }

  /// `JSON_TYPE(value, path)`: the type of the value at `path`, NULL if there is none.
  public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible)
    -> SQLExpression
  {
    jsonFunction("JSON_TYPE", [value.sqlExpression, path.jsonPathArgument])
  }

  /// `JSON_VALID(value)` or `JSON_VALID(value, options)`: 1 if `value` is well-formed JSON
  /// (of the kinds the options name, SQLite 3.45), else 0.
  public static func jsonIsValid(_ value: some SQLExpressible, options: JSONValidationOptions? = nil)
    -> SQLExpression
  {
    var arguments = [value.sqlExpression]
    if let options { arguments.append(options.rawValue.sqlExpression) }
    return jsonFunction("JSON_VALID", arguments)
  }

  /// `JSON_QUOTE(value)`: the SQL value as JSON (a string is quoted; a value marked as JSON
  /// is kept as JSON).
  public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
    jsonFunction("JSON_QUOTE", [value.sqlExpression.jsonBuilderArgument])
  }

  /// `JSON_GROUP_ARRAY(value ORDER BY ordering) FILTER (WHERE filter)`: the aggregate that
  /// makes a JSON array of the values of a group. The ordering needs SQLite 3.44 and the
  /// filter SQLite 3.30.
  public static func jsonGroupArray(
    _ value: some SQLExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)? = nil
  ) -> SQLExpression {
    .aggregate(
      "JSON_GROUP_ARRAY", [value.sqlExpression.jsonBuilderArgument], orderBy: ordering, filter: filter)
  }

  /// `JSON_GROUP_OBJECT(key, value) FILTER (WHERE filter)`: the aggregate that makes a JSON
  /// object of the key-value pairs of a group.
  public static func jsonGroupObject(
    key: some SQLExpressible, value: some SQLExpressible, filter: (any SQLSpecificExpressible)? = nil
  ) -> SQLExpression {
    .aggregate(
      "JSON_GROUP_OBJECT", [key.sqlExpression, value.sqlExpression.jsonBuilderArgument], filter: filter)
  }

  // MARK: - Building

  /// A call of a JSON function.
  static func jsonFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
    SQLExpression(.function(name, arguments, distinct: false))
  }

  /// The arguments `key1, value1, key2, value2, …`, values read as JSON where marked.
  static func keyValueArguments(_ pairs: some Collection<(key: String, value: any SQLExpressible)>)
    -> [SQLExpression]
  {
    pairs.flatMap { [$0.key.jsonPathArgument, $0.value.sqlExpression.jsonBuilderArgument] }
  }

  /// A call `name(value, path1, value1, …)` of an editing function.
  static func jsonEdit(
    _ name: String, _ value: some SQLExpressible,
    _ assignments: some Collection<(key: String, value: any SQLExpressible)>
  ) -> SQLExpression {
    jsonFunction(name, [value.sqlExpression] + keyValueArguments(assignments))
  }
}
