import CSQLCipher

/// The state of one group of an aggregate while SQLite steps it: the
/// ``DatabaseAggregate`` instance, and whether a step failed.
///
/// SQLite gives each group a zeroed buffer (`sqlite3_aggregate_context`),
/// the same at every step of the group: it holds a retained pointer to the
/// group, stored at the first step and released at the last call, `xFinal`.
final class AggregateGroup {
  var aggregate: any DatabaseAggregate
  /// True once a step threw: the statement fails, and `finalize()` is not
  /// called.
  var hasFailed = false

  private init(_ aggregate: any DatabaseAggregate) {
    self.aggregate = aggregate
  }

  /// The group of the current step, made with `make` at its first step; nil
  /// if SQLite could not allocate the buffer.
  static func current(
    _ context: OpaquePointer?, make: (OpaquePointer?) -> any DatabaseAggregate
  ) -> AggregateGroup? {
    guard let slot = slot(context) else { return nil }
    if let pointer = slot.pointee {
      return Unmanaged<AggregateGroup>.fromOpaque(pointer).takeUnretainedValue()
    }
    let group = AggregateGroup(make(context))
    slot.pointee = Unmanaged.passRetained(group).toOpaque()
    return group
  }

  /// The group being finalized, released from SQLite's buffer. A group that
  /// was never stepped (an aggregate of no rows) gets a fresh aggregate.
  static func take(
    _ context: OpaquePointer?, make: (OpaquePointer?) -> any DatabaseAggregate
  ) -> AggregateGroup? {
    guard let slot = slot(context) else { return nil }
    guard let pointer = slot.pointee else { return AggregateGroup(make(context)) }
    slot.pointee = nil
    return Unmanaged<AggregateGroup>.fromOpaque(pointer).takeRetainedValue()
  }

  /// The pointer-sized buffer SQLite keeps for the group, zeroed at first.
  private static func slot(_ context: OpaquePointer?) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
    let size = CInt(MemoryLayout<UnsafeMutableRawPointer?>.stride)
    return sqlite3_aggregate_context(context, size)?.bindMemory(
      to: UnsafeMutableRawPointer?.self, capacity: 1)
  }
}
