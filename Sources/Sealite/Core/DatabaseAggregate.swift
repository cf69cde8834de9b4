/// A custom SQL aggregate, computed row by row: the type of an aggregate
/// ``DatabaseFunction``.
///
///     struct Product: DatabaseAggregate {
///       var product = 1
///       mutating func step(_ values: [DatabaseValue]) throws {
///         guard let int = Int.fromDatabaseValue(values[0]) else {
///           throw DatabaseError(message: "product() needs integers")
///         }
///         product *= int
///       }
///       func finalize() -> (any DatabaseValueConvertible)? { product }
///     }
///
///     let product = DatabaseFunction("product", argumentCount: 1, aggregate: Product.self)
///     db.add(function: product)
///     try Int.fetchOne(db, sql: "SELECT product(score) FROM player")
///
/// SQLite creates a new instance with ``init()`` for each group (each result
/// row of a `GROUP BY`, or the whole query without one), calls
/// ``step(_:)`` once per row of the group, and reads the result with
/// ``finalize()``. An error thrown by either fails the statement, as the
/// error of a scalar function does.
public protocol DatabaseAggregate: SendableMetatype {
  /// Creates the aggregate of a new group.
  ///
  ///     struct Count: DatabaseAggregate {
  ///       var count = 0  // init() starts every group at zero
  ///       …
  ///     }
  init()

  /// Adds one row to the aggregate. `values` holds the arguments of the
  /// aggregate's call in this row: `SELECT longest(firstName, lastName)`
  /// steps with two values.
  ///
  ///     mutating func step(_ values: [DatabaseValue]) {
  ///       if !values[0].isNull { count += 1 }
  ///     }
  mutating func step(_ values: [DatabaseValue]) throws

  /// The result of the group, once every row was stepped; nil is NULL.
  ///
  ///     func finalize() -> (any DatabaseValueConvertible)? { count }
  func finalize() throws -> (any DatabaseValueConvertible)?
}
