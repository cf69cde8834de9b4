import CSQLCipher
import Foundation
import Synchronization

extension Database {
  /// Installs the busy handler of ``BusyMode/immediateError``: it retries for
  /// about 100 ms, quickly at first, since the locks it waits for are held for
  /// microseconds, unless a thread is preempted while it holds one. It counts
  /// its calls in ``busyCalls``.
  func waitForMomentaryLocks() throws {
    let connection = try self.connection
    sqlite3_busy_handler(
      connection,
      { context, numberOfTries in
        if let context { Unmanaged<BusyCallCount>.fromOpaque(context).takeUnretainedValue().increment() }
        guard numberOfTries < 120 else { return 0 }
        usleep(numberOfTries < 20 ? 20 : 1_000)
        return 1
      }, Unmanaged.passUnretained(busyCalls).toOpaque())
  }

  /// Installs `callback` as the connection's busy handler
  /// (``BusyMode/callback(_:)``). SQLite keeps a raw pointer to the holder,
  /// which the connection's state keeps alive until it closes; installing a
  /// busy timeout later replaces the handler.
  func setBusyCallback(_ callback: @escaping BusyCallback) throws {
    let connection = try self.connection
    let holder = state(for: BusyCallbackHolder.self)
    holder.callback = callback
    holder.connection = connection
    let context = Unmanaged.passUnretained(holder).toOpaque()
    sqlite3_busy_handler(
      connection,
      { context, count in
        guard let context else { return 0 }
        let holder = Unmanaged<BusyCallbackHolder>.fromOpaque(context).takeUnretainedValue()
        guard let callback = holder.callback else { return 0 }
        return callback(Int(count)) ? 1 : 0
      }, context)
  }
}

/// The busy callback of a connection, kept alive for SQLite's handler.
final class BusyCallbackHolder: ConnectionState {
  var callback: Database.BusyCallback?
  var connection: SQLiteConnection?

  static func make(for db: Database) -> BusyCallbackHolder { BusyCallbackHolder() }

  func connectionWillClose() {
    // The holder goes away with the connection's states, while SQLite may
    // keep the connection (statements still alive): take the handler back.
    if let connection { sqlite3_busy_handler(connection, nil, nil) }
    callback = nil
  }
}

/// How many times SQLite found the database locked and called a connection's
/// busy handler: tests wait on it, from other threads, for a connection to
/// wait for a lock.
final class BusyCallCount: Sendable {
  private let count = Atomic<Int>(0)
  private let firstCall = DispatchSemaphore(value: 0)

  var value: Int { count.load(ordering: .relaxed) }

  func increment() {
    if count.add(1, ordering: .relaxed).newValue == 1 { firstCall.signal() }
  }

  /// Returns true once the handler was called, false after `timeout`.
  func waitForFirstCall(timeout: DispatchTime) -> Bool {
    guard firstCall.wait(timeout: timeout) == .success else { return false }
    firstCall.signal()
    return true
  }
}
