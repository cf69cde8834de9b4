/// How a ``ValueObservation`` fetches and turns fetched values into the
/// values it delivers. Sealite provides the reducers; the protocol is public
/// so that observation types can be named.
public protocol ValueReducer: Sendable {
  /// What a fetch returns.
  associatedtype Fetched: Sendable
  /// What the observation delivers.
  associatedtype Value: Sendable

  /// Fetches from the database (any thread, in a read transaction).
  func _fetch(_ db: Database) throws -> Fetched

  /// The value to deliver for a fetched value, or nil to deliver nothing.
  /// Called once per fetch, in fetch order.
  mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The reducers of ``ValueObservation``.
public enum ValueReducers {
  /// Delivers each fetched value.
  public struct Fetch<Value: Sendable>: ValueReducer {
    let fetch: @Sendable (Database) throws -> Value

    public func _fetch(_ db: Database) throws -> Value { try fetch(db) }
    public mutating func _value(_ fetched: Value) throws -> Value? { fetched }
  }

  /// Transforms the values of another reducer.
  public struct Map<Base: ValueReducer, Value: Sendable>: ValueReducer {
    var base: Base
    let transform: @Sendable (Base.Value) throws -> Value

    public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }
    public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
      guard let value = try base._value(fetched) else { return nil }
      return try transform(value)
    }
  }

  /// Drops values equal to the previous delivered one.
  public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
    var base: Base
    let predicate: @Sendable (Base.Value, Base.Value) -> Bool
    var previous: Base.Value?

    public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }
    public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
      guard let value = try base._value(fetched) else { return nil }
      if let previous, predicate(previous, value) { return nil }
      previous = value
      return value
    }
  }

  /// Runs the `willFetch` and `didReceiveValue` callbacks of
  /// ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
  /// around another reducer: at its level of a chain of `map` and
  /// `removeDuplicates`, right after each fetch.
  public struct Trace<Base: ValueReducer>: ValueReducer {
    var base: Base
    let willFetch: @Sendable () -> Void
    let didReceiveValue: @Sendable (Base.Value) -> Void

    public func _fetch(_ db: Database) throws -> Base.Fetched {
      willFetch()
      return try base._fetch(db)
    }

    public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
      guard let value = try base._value(fetched) else { return nil }
      didReceiveValue(value)
      return value
    }
  }
}
