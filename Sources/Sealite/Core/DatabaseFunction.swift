/// A custom SQL function or aggregate, written in Swift, that SQL statements
/// can call once it is added to a connection with ``Database/add(function:)``:
///
///     let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
///       Int.fromDatabaseValue(values[0]).map { $0 + 1 }
///     }
///     try dbQueue.write { db in
///       db.add(function: succ)
///       try Int.fetchOne(db, sql: "SELECT succ(1)")  // 2
///     }
///
/// SQLite knows functions per connection, by name and number of arguments
/// (``id``). To give a function to every connection of a ``DatabasePool``, add
/// it in ``Configuration/prepareDatabase(_:)``.
public final class DatabaseFunction: Identifiable, Sendable {
  /// What identifies a function for SQLite: its name and its number of
  /// arguments. Adding a function with the ``id`` of another replaces it.
  ///
  ///     let f1 = DatabaseFunction("f", argumentCount: 1) { _ in 1 }
  ///     let f2 = DatabaseFunction("f", argumentCount: 2) { _ in 2 }
  ///     f1.id == f2.id  // false: both can be added
  public struct ID: Hashable, Sendable {
    let name: String
    /// SQLite's `nArg`: -1 for a function that takes any number of arguments.
    let arity: CInt
  }

  /// The name SQL calls the function by.
  ///
  ///     DatabaseFunction.capitalize.name  // "swiftCapitalizedString"
  public var name: String { id.name }

  /// The name and number of arguments of the function.
  ///
  ///     db.remove(function: f)  // removes the function of f's id
  public let id: ID

  /// True if the function was declared pure (deterministic).
  let isPure: Bool

  /// What SQLite calls.
  let kind: Kind

  /// The two ways SQLite computes a result.
  enum Kind: Sendable {
    /// A scalar function: one result per call.
    case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    /// An aggregate: a fresh instance per group, stepped once per row.
    case aggregate(@Sendable () -> any DatabaseAggregate)
  }

  /// Creates a scalar SQL function.
  ///
  ///     let concat = DatabaseFunction("concat") { values in
  ///       values.compactMap { String.fromDatabaseValue($0) }.joined()
  ///     }
  ///     try String.fetchOne(db, sql: "SELECT concat('a', 'b', 'c')")  // "abc"
  ///
  /// - Parameters:
  ///   - name: The name SQL calls the function by.
  ///   - argumentCount: The number of arguments, or nil (the default) for a
  ///     function that takes any number. SQLite refuses a call with another
  ///     number ("wrong number of arguments to function f()"), so `function`
  ///     always gets exactly `argumentCount` values.
  ///   - pure: True if the result depends on the arguments alone, which lets
  ///     SQLite compute it once and use it in indexes and generated columns.
  ///     Ignored by an SQLite older than 3.8.3
  ///     (``SQLiteFeatures/Capability/deterministicFunctions``).
  ///   - function: Computes the result from the arguments; nil is NULL. An
  ///     error it throws fails the statement: a ``DatabaseError`` with its
  ///     result code and message, any other error as `SQLITE_ERROR` with its
  ///     description.
  public init(
    _ name: String,
    argumentCount: Int? = nil,
    pure: Bool = false,
    function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
  ) {
    self.id = ID(name: name, arity: argumentCount.map { CInt($0) } ?? -1)
    self.isPure = pure
    self.kind = .function(function)
  }

  /// Creates an SQL aggregate function, computed by a ``DatabaseAggregate``
  /// type:
  ///
  ///     struct LongestName: DatabaseAggregate {
  ///       var longest: String?
  ///       mutating func step(_ values: [DatabaseValue]) {
  ///         guard let name = String.fromDatabaseValue(values[0]) else { return }
  ///         if name.count > longest?.count ?? -1 { longest = name }
  ///       }
  ///       func finalize() -> (any DatabaseValueConvertible)? { longest }
  ///     }
  ///     let longestName = DatabaseFunction("longestName", argumentCount: 1, aggregate: LongestName.self)
  ///     db.add(function: longestName)
  ///     try String.fetchAll(db, sql: "SELECT longestName(name) FROM player GROUP BY teamId")
  ///
  /// - Parameters:
  ///   - name: The name SQL calls the aggregate by.
  ///   - argumentCount: The number of arguments of each step, or nil (the
  ///     default) for any number.
  ///   - pure: True if the result depends on the aggregated values alone.
  ///   - aggregate: The type whose instances compute the aggregate: one new
  ///     instance for each group.
  public init<Aggregate: DatabaseAggregate>(
    _ name: String,
    argumentCount: Int? = nil,
    pure: Bool = false,
    aggregate: Aggregate.Type
  ) {
    self.id = ID(name: name, arity: argumentCount.map { CInt($0) } ?? -1)
    self.isPure = pure
    self.kind = .aggregate { Aggregate() }
  }

  /// An SQL expression that calls the function, for the query interface:
  ///
  ///     let succ = DatabaseFunction("succ", argumentCount: 1) { … }
  ///     // SELECT succ("score") FROM "player"
  ///     let scores = try Player.select(succ(Column("score")), as: Int.self).fetchAll(db)
  ///
  /// The function must be added to the connection that runs the request.
  public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
    SQLExpression(.function(name, arguments.map(\.sqlExpression), distinct: false))
  }
}
