import Foundation
import Glibc
import Synchronization
import Testing

// @testable: FileChangeMonitor (inotify or polling) is CrossProcess's internal watcher.
@testable import Sealite

/// The times of a handler's calls, on the monitor's monotonic clock.
private final class Calls: Sendable {
  private let times = Locked<[TimeInterval]>([])

  func record() {
    let now = monotonicSeconds()
    times.withLock { $0.append(now) }
  }

  var count: Int { times.withLock { $0.count } }
  var all: [TimeInterval] { times.withLock { $0 } }
}

/// A boolean shared with a handler (an `Atomic` can not be captured by an escaping closure).
private final class Flag: Sendable {
  private let storage = Atomic<Bool>(false)

  var value: Bool { storage.load(ordering: .sequentiallyConsistent) }
  /// Sets the flag and tells whether it was set already.
  func set(_ value: Bool = true) -> Bool { storage.exchange(value, ordering: .sequentiallyConsistent) }
}

/// Released together with the handler that captures it, hence with the monitor's thread state.
private final class Sentinel: Sendable {}

/// Written by the test once the monitor exists, read by a handler that stops its own monitor.
private final class MonitorReference: Sendable {
  private let monitor = Locked<FileChangeMonitor?>(nil)

  func set(_ value: FileChangeMonitor?) { monitor.withLock { $0 = value } }
  var value: FileChangeMonitor? { monitor.withLock { $0 } }
}

private func monotonicSeconds() -> TimeInterval {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
}

/// Returns as soon as `condition` holds, or false after `timeout` seconds: generous, because
/// the machine running the tests may be busy with something else.
private func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) async throws -> Bool {
  let deadline = monotonicSeconds() + timeout
  while !condition() {
    if monotonicSeconds() > deadline { return false }
    try await Task.sleep(for: .milliseconds(5))
  }
  return true
}

/// Appends bytes to a file, creating it if needed, with plain system calls so that the
/// monitor sees exactly a creation (maybe), a modification and a close.
private func append(_ path: String, _ text: String = "x") {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
  precondition(descriptor >= 0, "open \(path): \(errno)")
  _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
  close(descriptor)
}

/// A change to one of the files the monitor must react to.
private enum FileChange: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case writeDatabase
  case writeWAL
  case createWAL
  case createJournal
  case deleteJournal
  case renameOverDatabase

  var testDescription: String { rawValue }

  /// Files that exist before the monitor starts, so that only `apply` produces events.
  func prepare(_ directory: TemporaryDirectory) {
    switch self {
    case .writeDatabase, .renameOverDatabase: append(directory.path())
    case .writeWAL: append(directory.path("db.sqlite-wal"))
    case .deleteJournal: append(directory.path("db.sqlite-journal"))
    case .createWAL, .createJournal: break
    }
  }

  func apply(_ directory: TemporaryDirectory) {
    switch self {
    case .writeDatabase: append(directory.path())
    case .writeWAL, .createWAL: append(directory.path("db.sqlite-wal"))
    case .createJournal: append(directory.path("db.sqlite-journal"))
    case .deleteJournal: unlink(directory.path("db.sqlite-journal"))
    case .renameOverDatabase:
      append(directory.path("replacement"))
      rename(directory.path("replacement"), directory.path())
    }
  }
}

@Suite("File change monitor")
struct FileChangeMonitorTests {
  @Test(
    "A change to the database, its -wal or its -journal file wakes the handler",
    arguments: FileChange.allCases)
  fileprivate func relevantChangeWakesHandler(change: FileChange) async throws {
    let directory = TemporaryDirectory()
    change.prepare(directory)
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [], idleInterval: 3600, handler: calls.record)
    defer { monitor.stop() }
    #expect(monitor.mode == .inotify)
    monitor.start()

    change.apply(directory)
    #expect(try await eventually { calls.count >= 1 })
  }

  @Test("Writes to -shm and to other files in the directory do not wake the handler")
  func irrelevantChangesAreIgnored() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [], idleInterval: 3600, handler: calls.record)
    defer { monitor.stop() }
    #expect(monitor.mode == .inotify)
    monitor.start()

    let others = [
      "db.sqlite-shm", "other.sqlite", "other.sqlite-wal", "db.sqlite.bak", "xdb.sqlite",
      "db.sqlite-walx", "db.sqlite-journal-old", "db.sqlit",
    ]
    for name in others {
      append(directory.path(name))
    }
    unlink(directory.path("other.sqlite-wal"))
    rename(directory.path("db.sqlite.bak"), directory.path("db.sqlite.bak2"))
    try await Task.sleep(for: .milliseconds(300))
    #expect(calls.count == 0)

    // The monitor was listening all along.
    append(directory.path("db.sqlite-wal"))
    #expect(try await eventually { calls.count >= 1 })
  }

  @Test("Many changes queued together wake the handler once")
  func queuedChangesCoalesce() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [], idleInterval: 3600, handler: calls.record)
    defer { monitor.stop() }
    // The watch exists from init on: these events (more than one read() can take) wait in
    // the queue until the thread starts.
    for index in 0..<200 {
      append(directory.path(index.isMultiple(of: 2) ? "db.sqlite-wal" : "db.sqlite"))
    }
    append(directory.path("db.sqlite-journal"))
    unlink(directory.path("db.sqlite-journal"))
    monitor.start()

    #expect(try await eventually { calls.count >= 1 })
    try await Task.sleep(for: .milliseconds(300))
    #expect(calls.count == 1)
  }

  @Test("One change is followed by the re-checks, each after its delay")
  func rechecksFollowAChange() async throws {
    let directory = TemporaryDirectory()
    let walPath = directory.path("db.sqlite-wal")
    append(walPath)
    // Open before the monitor exists: the single write below is then a single event.
    let wal = open(walPath, O_WRONLY | O_APPEND)
    try #require(wal >= 0)
    defer { close(wal) }
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [0.05, 0.1], idleInterval: 3600, handler: calls.record)
    defer { monitor.stop() }
    monitor.start()

    let writeTime = monotonicSeconds()
    var byte: UInt8 = 1
    #expect(write(wal, &byte, 1) == 1)
    #expect(try await eventually { calls.count >= 3 })
    let times = calls.all
    try #require(times.count >= 3)
    #expect(times[0] >= writeTime)
    #expect(times[1] >= writeTime + 0.05)
    #expect(times[2] >= writeTime + 0.1)

    // Nothing else is due for an hour (the routine call: a loaded machine may
    // resume this test a minute later, so it must not come due in between).
    try await Task.sleep(for: .milliseconds(300))
    #expect(calls.count == 3)
  }

  @Test("A new change restarts the re-check schedule")
  func newChangeRestartsRechecks() async throws {
    let directory = TemporaryDirectory()
    append(directory.path())
    let database = open(directory.path(), O_WRONLY | O_APPEND)
    try #require(database >= 0)
    defer { close(database) }
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [0.5], idleInterval: 3600, handler: calls.record)
    defer { monitor.stop() }
    monitor.start()

    var byte: UInt8 = 1
    let firstWrite = monotonicSeconds()
    #expect(write(database, &byte, 1) == 1)
    #expect(try await eventually { calls.count >= 1 })
    try await Task.sleep(for: .milliseconds(100))
    let secondWrite = monotonicSeconds()
    #expect(write(database, &byte, 1) == 1)
    let secondWriteEnd = monotonicSeconds()
    // The re-check of the second change comes at least its delay after that change.
    #expect(try await eventually { (calls.all.last ?? 0) >= secondWrite + 0.5 })
    try await Task.sleep(for: .milliseconds(300))

    let times = calls.all
    // Unless this machine took longer than the delay to write twice and to answer both
    // changes, the second change came before the first re-check was due and replaced it:
    // two immediate calls, one re-check.
    if secondWriteEnd < firstWrite + 0.5, times.count >= 2, times[1] < firstWrite + 0.5 {
      #expect(times.count == 3)
    }
  }

  @Test("In inotify mode, the handler is still called after the idle interval without events")
  func idleSafetyCall() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), recheckDelays: [], idleInterval: 0.05, handler: calls.record)
    defer { monitor.stop() }
    #expect(monitor.mode == .inotify)
    let start = monotonicSeconds()
    monitor.start()

    #expect(try await eventually { calls.count >= 2 })
    let times = [start] + calls.all
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect(later - earlier >= 0.05)
    }
  }

  @Test("Forced polling calls the handler repeatedly without any file activity")
  func forcedPolling() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), pollingInterval: 0.02, forcePolling: true, handler: calls.record)
    defer { monitor.stop() }
    #expect(monitor.mode == .polling)
    let start = monotonicSeconds()
    monitor.start()

    #expect(try await eventually { calls.count >= 5 })
    let times = [start] + calls.all
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect(later - earlier >= 0.02)
    }
  }

  @Test("A database in a directory that does not exist is polled")
  func missingDirectoryFallsBackToPolling() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path("missing/db.sqlite"), pollingInterval: 0.02, handler: calls.record)
    defer { monitor.stop() }
    #expect(monitor.mode == .polling)
    monitor.start()
    #expect(try await eventually { calls.count >= 2 })
  }

  @Test("After stop() returns, the handler is not running and is never called again")
  func stopEndsCalls() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let inHandler = Flag()
    let overlapped = Flag()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), pollingInterval: 0.005, recheckDelays: [0.005], idleInterval: 0.01
    ) {
      if inHandler.set() {
        _ = overlapped.set()
      }
      calls.record()
      usleep(20_000)  // widens the window in which stop() meets a running call
      _ = inHandler.set(false)
    }
    monitor.start()
    append(directory.path("db.sqlite-wal"))
    #expect(try await eventually { calls.count >= 2 })

    monitor.stop()
    #expect(!inHandler.value)
    let count = calls.count
    append(directory.path("db.sqlite-wal"))
    append(directory.path())
    monitor.stop()
    monitor.start()
    try await Task.sleep(for: .milliseconds(300))
    #expect(calls.count == count)
    #expect(!overlapped.value)
  }

  @Test("A monitor stopped before it starts never calls the handler")
  func stopBeforeStart() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), pollingInterval: 0.005, forcePolling: true, handler: calls.record)
    monitor.stop()
    monitor.start()
    monitor.stop()
    try await Task.sleep(for: .milliseconds(100))
    #expect(calls.count == 0)
  }

  @Test("stop() called from inside the handler returns, and that call is the last")
  func stopFromHandler() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    let returned = Flag()
    let reference = MonitorReference()
    let monitor = FileChangeMonitor(
      databasePath: directory.path(), pollingInterval: 0.005, forcePolling: true
    ) {
      calls.record()
      reference.value?.stop()
      _ = returned.set()
    }
    reference.set(monitor)
    defer { reference.set(nil) }
    monitor.start()

    #expect(try await eventually { returned.value })
    try await Task.sleep(for: .milliseconds(100))
    #expect(calls.count == 1)
    monitor.stop()
  }

  @Test("Releasing a started monitor without stop() ends its thread")
  func releaseEndsThread() async throws {
    let directory = TemporaryDirectory()
    let calls = Calls()
    var monitor: FileChangeMonitor?
    weak var sentinel: Sentinel?
    do {
      let captured = Sentinel()
      sentinel = captured
      monitor = FileChangeMonitor(
        databasePath: directory.path(), pollingInterval: 0.005, forcePolling: true
      ) {
        withExtendedLifetime(captured) { calls.record() }
      }
    }
    monitor?.start()
    #expect(try await eventually { calls.count >= 2 })

    monitor = nil
    // The thread held the handler until it ended, and the monitor's deinit waited for that.
    #expect(sentinel == nil)
    let count = calls.count
    try await Task.sleep(for: .milliseconds(100))
    #expect(calls.count == count)
  }
}
