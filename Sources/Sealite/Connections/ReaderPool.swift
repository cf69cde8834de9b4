import Dispatch

/// The reader connections of a ``DatabasePool``: at most `maximumCount` exist,
/// each lent to one read at a time. Connections are opened on demand and kept
/// for reuse; invalidated ones (after a key change) are dropped when returned.
final class ReaderPool: Sendable {
  private struct State {
    var available: [SerializedDatabase] = []
    /// Readers lent to a read now.
    var lent: [ObjectIdentifier: SerializedDatabase] = [:]
    var generation = 0
    var isClosed = false
    var openedCount = 0
  }

  private let capacity: DispatchSemaphore
  private let state = Locked(State())
  private let makeReader: @Sendable (Int) throws -> SerializedDatabase

  init(maximumCount: Int, makeReader: @escaping @Sendable (Int) throws -> SerializedDatabase) {
    capacity = DispatchSemaphore(value: maximumCount)
    self.makeReader = makeReader
  }

  /// A reader connection and the generation it belongs to. Blocks while all
  /// readers are busy.
  func get() throws -> (reader: SerializedDatabase, generation: Int) {
    capacity.wait()
    enum Pick {
      case existing(SerializedDatabase, Int)
      case new(Int, Int)
      case closed
    }
    let pick = state.withLock { state -> Pick in
      if state.isClosed { return .closed }
      if let reader = state.available.popLast() { return .existing(reader, state.generation) }
      state.openedCount += 1
      return .new(state.openedCount, state.generation)
    }
    switch pick {
    case .closed:
      capacity.signal()
      throw DatabaseError.misuse("the database pool is closed")
    case .existing(let reader, let generation):
      state.withLock { $0.lent[ObjectIdentifier(reader)] = reader }
      return (reader, generation)
    case .new(let number, let generation):
      do {
        let reader = try makeReader(number)
        state.withLock { $0.lent[ObjectIdentifier(reader)] = reader }
        return (reader, generation)
      } catch {
        capacity.signal()
        throw error
      }
    }
  }

  /// Returns a reader to the pool.
  func release(_ reader: SerializedDatabase, generation: Int) {
    let keep = state.withLock { state -> Bool in
      state.lent[ObjectIdentifier(reader)] = nil
      guard !state.isClosed, generation == state.generation else { return false }
      state.available.append(reader)
      return true
    }
    if !keep { try? reader.close() }
    capacity.signal()
  }

  /// The reader whose queue runs the caller, if any: the caller is inside a
  /// read of this pool.
  var current: SerializedDatabase? {
    state.withLock { state in state.lent.values.first { $0.isOnQueue } }
  }

  /// The readers not lent to a read now.
  var idle: [SerializedDatabase] {
    state.withLock { $0.available }
  }

  /// Interrupts the statement of every reader lent to a read now.
  func interrupt() {
    for reader in state.withLock({ Array($0.lent.values) }) { reader.interrupt() }
  }

  /// Drops every idle reader, and every busy one when it is returned.
  func invalidate() {
    let dropped = state.withLock { state -> [SerializedDatabase] in
      state.generation += 1
      defer { state.available.removeAll() }
      return state.available
    }
    for reader in dropped { try? reader.close() }
  }

  /// Closes the pool: idle readers now, busy ones when returned.
  func close() {
    let dropped = state.withLock { state -> [SerializedDatabase] in
      state.isClosed = true
      defer { state.available.removeAll() }
      return state.available
    }
    for reader in dropped { try? reader.close() }
  }
}
