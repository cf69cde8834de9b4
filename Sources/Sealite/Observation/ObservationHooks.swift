import CSQLCipher
import Foundation

/// SQLite's update, commit and rollback hooks of one connection, routed to
/// its observation broker; installed only while the connection has observers.
///
/// The hooks hold the broker unretained: the broker uninstalls them when it
/// goes away (its deinit), and it lives as long as the connection. They run
/// inside `sqlite3_step`, on the connection's queue, as every other use of
/// the broker.
struct ObservationHooks {
  /// Nil for a closed connection: no hook is installed.
  private let connection: SQLiteConnection?
  private(set) var isInstalled = false

  init(connection: SQLiteConnection?) {
    self.connection = connection
  }

  /// Installs the hooks when `needed` and not installed, removes them when
  /// not needed and installed.
  mutating func update(needed: Bool, broker: DatabaseObservationBroker) {
    if needed && !isInstalled { install(broker) }
    if !needed && isInstalled { uninstall() }
  }

  private mutating func install(_ broker: DatabaseObservationBroker) {
    guard let connection else { return }
    isInstalled = true
    let context = Unmanaged.passUnretained(broker).toOpaque()
    sqlite3_update_hook(
      connection,
      { context, kind, schema, table, rowID in
        guard let context, let table else { return }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        broker.rowDidChange(kind: kind, schema: schema, table: table, rowID: rowID)
      }, context)
    sqlite3_commit_hook(
      connection,
      { context in
        guard let context else { return 0 }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        return broker.transactionWillCommit() ? 0 : 1
      }, context)
    sqlite3_rollback_hook(
      connection,
      { context in
        guard let context else { return }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        broker.transactionDidRollBack()
      }, context)
  }

  mutating func uninstall() {
    guard isInstalled, let connection else { return }
    isInstalled = false
    sqlite3_update_hook(connection, nil, nil)
    sqlite3_commit_hook(connection, nil, nil)
    sqlite3_rollback_hook(connection, nil, nil)
  }
}

/// The broker notifying observers on this thread, for
/// `stopObservingDatabaseChangesUntilNextTransaction()`, which an observer
/// calls from inside a notification without naming its connection.
enum NotifyingBroker {
  static var current: DatabaseObservationBroker? {
    guard let pointer = pthread_getspecific(slot.key) else { return nil }
    return Unmanaged<DatabaseObservationBroker>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Runs `body` with `broker` as the notifying broker of this thread.
  static func with(_ broker: DatabaseObservationBroker, _ body: () -> Void) {
    let previous = pthread_getspecific(slot.key)
    pthread_setspecific(slot.key, Unmanaged.passUnretained(broker).toOpaque())
    defer { pthread_setspecific(slot.key, previous) }
    body()
  }

  /// The thread-specific slot of the notifying broker.
  private final class ThreadSpecificKey: Sendable {
    let key: pthread_key_t
    init() {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      self.key = key
    }
  }

  private static let slot = ThreadSpecificKey()
}
