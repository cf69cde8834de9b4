/// A running observation that can be stopped.
public protocol DatabaseCancellable: Sendable {
  /// Stops the observation: no value or change is delivered once `cancel()`
  /// returned (a delivery already running on another thread may complete).
  func cancel()
}

/// A type-erased cancellable, which cancels when it is deallocated: keep it
/// as long as the observation should run.
///
///     let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { print($0) })
///     // later
///     cancellable.cancel()
public final class AnyDatabaseCancellable: DatabaseCancellable, Hashable {
  private let onCancel: Locked<(@Sendable () -> Void)?>

  /// A cancellable that runs `cancel` once, at the first cancellation.
  public init(cancel: @escaping @Sendable () -> Void) {
    onCancel = Locked(cancel)
  }

  /// Wraps another cancellable.
  public convenience init(_ cancellable: some DatabaseCancellable) {
    self.init(cancel: { cancellable.cancel() })
  }

  deinit {
    cancel()
  }

  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  public static func == (lhs: AnyDatabaseCancellable, rhs: AnyDatabaseCancellable) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension AnyDatabaseCancellable {
  /// Keeps the cancellable in `set`: the observation runs until it is
  /// removed from the set, or the set is released.
  public func store(in set: inout Set<AnyDatabaseCancellable>) {
    set.insert(self)
  }

  /// Keeps the cancellable in `collection`.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyDatabaseCancellable {
    collection.append(self)
  }
}
