/// State that a layer above Core keeps on one connection, for as long as the
/// connection is open: the schema cache, Record's statements, the observation
/// broker, the watch on other processes, the key a pool hands to its readers.
///
/// Core knows none of these types. A layer declares its state as a final
/// class conforming to this protocol and gets it with
/// `db.state(for: MyState.self)`, created on first use; `Core` tells every
/// state of the connection when the schema changed and when the connection
/// closes. This is the one extension point of `Database` (registered
/// functions and collations need none: SQLite holds their Swift values).
protocol ConnectionState: AnyObject {
  /// Makes the state of `db`, on the first `db.state(for:)` of this type.
  static func make(for db: Database) -> Self

  /// Called when what the connection knew of the schema may be out of date:
  /// this connection ran a schema statement, another connection changed the
  /// schema since the last access, a transaction that changed it rolled back,
  /// or `clearSchemaCache()` was called; and when `releaseMemory()` asks
  /// every cache to be emptied. State derived from the schema forgets it here.
  func schemaDidChange()

  /// Called once when the connection closes, before the C connection is.
  func connectionWillClose()
}

extension ConnectionState {
  func schemaDidChange() {}
  func connectionWillClose() {}
}

/// The states of one connection, by type. A handful at most, and the most
/// used is asked for on every record insert: a scan of a short array costs
/// less than hashing.
struct ConnectionStates {
  private var entries: [(type: ObjectIdentifier, state: any ConnectionState)] = []

  func state<State: ConnectionState>(_ type: State.Type) -> State? {
    unretainedState(type)?.takeUnretainedValue()
  }

  /// The state of type `State`, not retained: its entry keeps it alive.
  func unretainedState<State: ConnectionState>(_ type: State.Type) -> Unmanaged<State>? {
    let id = ObjectIdentifier(type)
    return entries.withUnsafeBufferPointer { entries in
      for index in entries.indices where entries[index].type == id {
        // Stored under the identifier of its own type, by `insert` alone.
        return Unmanaged.passUnretained(unsafeDowncast(entries[index].state, to: State.self))
      }
      return nil
    }
  }

  mutating func insert<State: ConnectionState>(_ state: State) {
    assert(self.state(State.self) == nil, "one state per type and connection")
    entries.append((ObjectIdentifier(State.self), state))
  }

  /// Every state, in the order they were made.
  var all: [any ConnectionState] { entries.map(\.state) }

  mutating func removeAll() { entries.removeAll() }
}

extension Database {
  /// The state of type `State` of this connection, made on first use.
  func state<State: ConnectionState>(for type: State.Type) -> State {
    if let state = connectionStates.state(type) { return state }
    let state = State.make(for: self)
    connectionStates.insert(state)
    return state
  }

  /// Calls `body` with the state of type `State` of this connection, made on
  /// first use, borrowed: where a record or a request looks its state up
  /// once per run, `state(for:)` would retain and release it (two atomic
  /// operations). The connection keeps its states until it closes, which it
  /// can not do while `body` runs (states are dropped in `close()`, after the
  /// last access).
  @inline(__always)
  func withState<State: ConnectionState, Result>(for type: State.Type, _ body: (State) throws -> Result)
    rethrows -> Result
  {
    let state = connectionStates.unretainedState(type) ?? Unmanaged.passUnretained(state(for: type))
    return try state._withUnsafeGuaranteedRef(body)
  }

  /// The state of type `State` of this connection, if it was made.
  func existingState<State: ConnectionState>(for type: State.Type) -> State? {
    connectionStates.state(type)
  }
}
