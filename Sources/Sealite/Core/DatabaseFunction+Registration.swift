import CSQLCipher

// How a DatabaseFunction reaches SQLite. Each registration hands SQLite a
// retained box of the function's kind as `pApp`; SQLite calls the destroy
// callback, which releases it, when the function is replaced, removed, or the
// connection closes. The C callbacks capture nothing: they find the box with
// `sqlite3_user_data`.

extension DatabaseFunction {
  /// What SQLite keeps as the function's user data.
  private final class Registration {
    let kind: Kind
    init(_ kind: Kind) { self.kind = kind }
  }

  /// The text encoding and flags of `sqlite3_create_function_v2`: pure
  /// functions are deterministic where the linked SQLite knows the flag.
  private var textRepresentation: CInt {
    guard isPure, SQLiteFeatures.linked.supports(.deterministicFunctions) else { return SQLITE_UTF8 }
    return SQLITE_UTF8 | SQLITE_DETERMINISTIC
  }

  /// Registers the function on `connection`, replacing the one of the same
  /// name and number of arguments. SQLite's result code.
  func register(on connection: SQLiteConnection) -> CInt {
    let userData = Unmanaged.passRetained(Registration(kind)).toOpaque()
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
      if let userData { Unmanaged<Registration>.fromOpaque(userData).release() }
    }
    // SQLite calls `destroy` itself if the registration fails.
    switch kind {
    case .function:
      return sqlite3_create_function_v2(
        connection, name, id.arity, textRepresentation, userData,
        { context, argc, argv in DatabaseFunction.call(context, argc, argv) }, nil, nil, destroy)
    case .aggregate:
      return sqlite3_create_function_v2(
        connection, name, id.arity, textRepresentation, userData, nil,
        { context, argc, argv in DatabaseFunction.step(context, argc, argv) },
        { context in DatabaseFunction.finalize(context) }, destroy)
    }
  }

  /// Removes the function from `connection`. SQLite's result code.
  func unregister(from connection: SQLiteConnection) -> CInt {
    sqlite3_create_function_v2(connection, name, id.arity, textRepresentation, nil, nil, nil, nil, nil)
  }

  /// The kind registered with the function SQLite is calling.
  private static func kind(_ context: OpaquePointer?) -> Kind {
    Unmanaged<Registration>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().kind
  }

  /// `xFunc`: one call of a scalar function.
  private static func call(
    _ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?
  ) {
    guard case .function(let function) = kind(context) else { return }
    do {
      setResult(try function(arguments(argc, argv)), in: context)
    } catch {
      setError(error, in: context)
    }
  }

  /// `xStep`: one row of a group, given to the group's aggregate. After an
  /// error SQLite steps no further: the statement fails.
  private static func step(
    _ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?
  ) {
    guard let group = AggregateGroup.current(context, make: makeAggregate) else {
      return sqlite3_result_error_nomem(context)
    }
    do {
      try group.aggregate.step(arguments(argc, argv))
    } catch {
      group.hasFailed = true
      setError(error, in: context)
    }
  }

  /// `xFinal`: the result of a group. SQLite also calls it to clean up a
  /// group whose statement failed or was reset, when no result is read.
  private static func finalize(_ context: OpaquePointer?) {
    guard let group = AggregateGroup.take(context, make: makeAggregate) else {
      return sqlite3_result_error_nomem(context)
    }
    // A failed step already set the statement's error.
    guard !group.hasFailed else { return }
    do {
      setResult(try group.aggregate.finalize(), in: context)
    } catch {
      setError(error, in: context)
    }
  }

  /// A new aggregate for the group SQLite starts.
  private static func makeAggregate(_ context: OpaquePointer?) -> any DatabaseAggregate {
    guard case .aggregate(let make) = kind(context) else {
      preconditionFailure("an aggregate callback of a scalar function")
    }
    return make()
  }

  /// The arguments of a call, read with the conversion rows use.
  private static func arguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?)
    -> [DatabaseValue]
  {
    guard let argv else { return [] }
    return (0..<Int(argc)).map { readDatabaseValue(argv[$0]) }
  }
}
