import Foundation
import Sealite
import Synchronization

/// A transaction observer that counts what it hears, as GRDB's own tests
/// count it, and observes the kinds of change a closure accepts.
final class FidelityObserver: TransactionObserver, Sendable {
  struct Counts: Equatable, CustomStringConvertible {
    var didChange = 0
    var didChangeWithEvent = 0
    var willCommit = 0
    var didCommit = 0
    var didRollback = 0

    var description: String {
      "change \(didChange), events \(didChangeWithEvent), willCommit \(willCommit), "
        + "commit \(didCommit), rollback \(didRollback)"
    }
  }

  private struct State {
    var counts = Counts()
    var events: [String] = []
    var log: [String] = []
    var commitError: (any Error)?
  }

  private let state = Mutex(State())
  private let observesKind: @Sendable (DatabaseEventKind) -> Bool

  init(observes: @escaping @Sendable (DatabaseEventKind) -> Bool = { _ in true }) {
    observesKind = observes
  }

  var counts: Counts { state.withLock { $0.counts } }
  /// Row events as "insert t 1".
  var events: [String] { state.withLock { $0.events } }
  /// Everything, in order: row events, "change", "willCommit", "commit", "rollback".
  var log: [String] { state.withLock { $0.log } }

  func refuseCommits(with error: (any Error)?) {
    state.withLock { $0.commitError = error }
  }

  func reset() {
    state.withLock { state in
      state.counts = Counts()
      state.events = []
      state.log = []
    }
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { observesKind(eventKind) }

  func databaseDidChange(with event: DatabaseEvent) {
    state.withLock { state in
      state.counts.didChangeWithEvent += 1
      let text = "\(event.kind) \(event.tableName) \(event.rowID)"
      state.events.append(text)
      state.log.append(text)
    }
  }

  func databaseDidChange() {
    state.withLock { state in
      state.counts.didChange += 1
      state.log.append("change")
    }
  }

  func databaseWillCommit() throws {
    let error = state.withLock { state in
      state.counts.willCommit += 1
      state.log.append("willCommit")
      return state.commitError
    }
    if let error { throw error }
  }

  func databaseDidCommit(_ db: Database) {
    state.withLock { state in
      state.counts.didCommit += 1
      state.log.append("commit")
    }
  }

  func databaseDidRollback(_ db: Database) {
    state.withLock { state in
      state.counts.didRollback += 1
      state.log.append("rollback")
    }
  }
}

/// The error an observer refuses a commit with.
struct RefusedCommit: Error, Equatable {}
