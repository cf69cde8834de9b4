import Dispatch
import Foundation
import Sealite
import Testing

/// One of the ways GRDB's tests run each observation: a scheduling, and
/// whether the writes come right after `start` or from the first value's
/// `onChange`.
struct SequenceRun: Sendable, CustomTestStringConvertible {
  enum Scheduling: String, Sendable, CaseIterable {
    case immediate
    case mainQueue
    case customQueue
  }

  var scheduling: Scheduling
  var writesFromFirstValue: Bool

  static let all: [SequenceRun] = Scheduling.allCases.flatMap { scheduling in
    [false, true].map { SequenceRun(scheduling: scheduling, writesFromFirstValue: $0) }
  }

  var testDescription: String {
    "\(scheduling.rawValue), writes \(writesFromFirstValue ? "from the first value" : "after start")"
  }
}

/// What a run of an observation recorded.
struct RecordedSequence<Value: Sendable>: Sendable {
  /// The values, in the order `onChange` received them.
  var values: [Value]
  /// The errors `onError` received.
  var errorCount: Int
  /// Whether the first value was there when `start` returned.
  var hadValueWhenStartReturned: Bool
  /// Whether every value was delivered on the queue the scheduling names.
  var deliveredOnSchedulingQueue: Bool
}

private let mainQueueMark = DispatchSpecificKey<Bool>()

/// Starts `observation` on a new database of `backend` prepared by `setup`,
/// runs `updates` outside of any transaction (each statement commits on its
/// own unless `updates` opens a transaction), and records values until
/// `last` arrives (or an error does).
func recordSequence<Reducer: ValueReducer>(
  _ observation: ValueObservation<Reducer>,
  backend: ObservationBackend,
  run: SequenceRun,
  setup: @escaping @Sendable (Database) throws -> Void,
  updates: @escaping @Sendable (Database) throws -> Void,
  until last: Reducer.Value
) async throws -> RecordedSequence<Reducer.Value> where Reducer.Value: Equatable {
  let directory = TemporaryDirectory()
  defer { withExtendedLifetime(directory) {} }
  let writer = try backend.makeWriter(directory)
  try await writer.write { db in try setup(db) }

  // The main queue is not always drained by the main thread: recognize it by a mark.
  DispatchQueue.main.setSpecific(key: mainQueueMark, value: true)
  let customQueue = DispatchQueue(label: "Sealite.tests.sequence")
  let customMark = DispatchSpecificKey<Bool>()
  customQueue.setSpecific(key: customMark, value: true)
  let scheduler: any ValueObservationScheduler
  let isOnSchedulingQueue: @Sendable () -> Bool
  switch run.scheduling {
  case .immediate:
    scheduler = anyImmediate
    // The first value comes in `start`, on the caller's thread; later ones on the main queue.
    isOnSchedulingQueue = { true }
  case .mainQueue:
    scheduler = .async(onQueue: .main)
    isOnSchedulingQueue = { DispatchQueue.getSpecific(key: mainQueueMark) == true }
  case .customQueue:
    scheduler = .async(onQueue: customQueue)
    isOnSchedulingQueue = { DispatchQueue.getSpecific(key: customMark) == true }
  }

  let values = Shared<[Reducer.Value]>([])
  let errors = Shared(0)
  let wrongQueue = Shared(false)
  let cancellable = observation.start(in: writer, scheduling: scheduler) { _ in
    errors.update { $0 += 1 }
  } onChange: { value in
    let count = values.withLock { values in
      values.append(value)
      return values.count
    }
    if count > 1 && !isOnSchedulingQueue() { wrongQueue.update { $0 = true } }
    if count == 1 && run.writesFromFirstValue {
      try! writer.writeWithoutTransaction { db in try updates(db) }
    }
  }
  let hadValue = !values.value.isEmpty
  if !run.writesFromFirstValue {
    try await writer.writeWithoutTransaction { db in try updates(db) }
  }
  _ = await eventually { values.value.last == last || errors.value > 0 }
  cancellable.cancel()
  return RecordedSequence(
    values: values.value, errorCount: errors.value, hadValueWhenStartReturned: hadValue,
    deliveredOnSchedulingQueue: !wrongQueue.value)
}

/// True if `recorded` is what an observation that may merge consecutive
/// changes delivers for `expected`: once repeated neighbours are merged, its
/// values appear in `expected` in the same order (some may be missing), and
/// the last one is the last of `expected`. GRDB allows this of a
/// `DatabasePool`, whose fetches run concurrently with the writes.
func isCoalesced<Value: Equatable>(_ recorded: [Value], from expected: [Value]) -> Bool {
  var merged: [Value] = []
  for value in recorded where merged.last != value { merged.append(value) }
  guard let last = merged.popLast() else { return expected.isEmpty }
  var index = expected.startIndex
  for value in merged {
    guard let found = expected[index...].firstIndex(of: value) else { return false }
    index = found + 1
  }
  return index < expected.endIndex && expected.last == last
}

extension RecordedSequence where Value: Equatable {
  /// Checks the recording as GRDB's tests check theirs: the exact values on a
  /// `DatabaseQueue` and when fetches need write access; on a pool, a
  /// coalesced sequence that starts with the first value (when the first
  /// value could not miss the writes) and ends with the last.
  func matches(
    _ expected: [Value], backend: ObservationBackend, run: SequenceRun, requiresWriteAccess: Bool = false
  ) -> Bool {
    guard errorCount == 0, deliveredOnSchedulingQueue else { return false }
    if run.scheduling == .immediate && !hadValueWhenStartReturned { return false }
    if backend == .queue || requiresWriteAccess { return values == expected }
    let firstIsKnown = run.scheduling == .immediate || run.writesFromFirstValue
    if firstIsKnown && values.first != expected.first { return false }
    return isCoalesced(values, from: expected)
  }
}
