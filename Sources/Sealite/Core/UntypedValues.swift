// Values of unknown type (`Any`), as Foundation collections hold them
// (`NSArray`, `NSDictionary`, JSON objects): each initializer fails unless
// every value is ``DatabaseValueConvertible`` and every key a `String`.

extension DatabaseValue {
  /// The database value of `value`, or nil unless it is
  /// ``DatabaseValueConvertible``.
  ///
  ///     DatabaseValue(value: "foo")      // "foo"
  ///     DatabaseValue(value: NSNull())   // NULL
  ///     DatabaseValue(value: NSObject()) // nil
  public init?(value: Any) {
    guard let convertible = value as? any DatabaseValueConvertible else { return nil }
    self = convertible.databaseValue
  }
}

extension StatementArguments {
  /// Positional arguments from an array of untyped values, or nil unless
  /// every value is ``DatabaseValueConvertible``.
  ///
  ///     let arguments = StatementArguments(["Arthur", 41] as [Any])
  public init?(_ array: [Any]) {
    var values: [(any DatabaseValueConvertible)?] = []
    values.reserveCapacity(array.count)
    for element in array {
      guard let value = DatabaseValue(value: element) else { return nil }
      values.append(value)
    }
    self.init(values)
  }

  /// Named arguments from a dictionary of untyped values, or nil unless every
  /// key is a `String` and every value ``DatabaseValueConvertible``.
  public init?(_ dictionary: [AnyHashable: Any]) {
    guard let values = Self.namedValues(dictionary) else { return nil }
    self.init(values)
  }

  /// The values of `dictionary` by name, or nil when a key is not a `String` or a value not convertible.
  static func namedValues(_ dictionary: [AnyHashable: Any]) -> [String: (any DatabaseValueConvertible)?]? {
    var values: [String: (any DatabaseValueConvertible)?] = [:]
    for (key, element) in dictionary {
      guard let name = key as? String, let value = DatabaseValue(value: element) else { return nil }
      values[name] = value
    }
    return values
  }
}

extension Row {
  /// A row from a dictionary of untyped values, or nil unless every key is a
  /// `String` and every value ``DatabaseValueConvertible``.
  ///
  ///     let row = Row(["name": "Arthur", "score": 1000] as [AnyHashable: Any])
  public convenience init?(_ dictionary: [AnyHashable: Any]) {
    guard let values = StatementArguments.namedValues(dictionary) else { return nil }
    self.init(values)
  }
}
