import Dispatch
import Foundation
import Glibc

/// Wakes a handler when another process may have committed to an SQLite database file.
///
/// The monitor runs no SQL: it only tells when it is worth asking. The handler then compares
/// `PRAGMA data_version` with the last value it saw, so a spurious call costs one cheap query,
/// while a missed one would leave the application showing stale data. The monitor therefore
/// errs on the side of calling:
///
/// - In ``Mode/inotify`` mode it watches the database's directory, because the `-wal` and
///   `-journal` files are created and deleted as the database is used, and reacts to writes,
///   creations, deletions and renames of the database file, `<name>-wal` and `<name>-journal`.
///   It never reacts to `<name>-shm`: every reader writes that file, so a handler that reads
///   the database would wake itself up forever.
/// - An event can arrive before the writer has finished its commit (the `-wal` file is
///   written before the commit frame is complete), so each wake-up is followed by re-checks
///   after `recheckDelays`. A new event restarts that schedule.
/// - When the handler was not called for `idleInterval`, it is called anyway, in case an event
///   was missed (a lost watch, a change that inotify does not report).
/// - In ``Mode/polling`` mode, used where inotify can not see the writes of other processes,
///   the handler is simply called every `pollingInterval`.
///
/// The handler runs on the monitor's own thread, one call at a time, and includes wake-ups
/// caused by this process's own writes: the monitor can not tell them apart.
///
/// ```swift
/// let monitor = FileChangeMonitor(databasePath: path) {
///   // compare PRAGMA data_version, notify observers if it changed
/// }
/// monitor.start()
/// ```
final class FileChangeMonitor: Sendable {
  /// How the monitor learns of changes.
  enum Mode: Equatable, Sendable {
    /// The kernel reports writes to the directory; the handler runs right after them.
    case inotify
    /// The handler runs every polling interval, whatever happened.
    case polling
  }

  /// The mode chosen at init: ``Mode/polling`` when inotify is unavailable (inotify_init1 or
  /// inotify_add_watch fails, for instance because the directory does not exist), when the
  /// database lives on a network or FUSE file system (where inotify does not see other hosts'
  /// writes), or when `forcePolling` is true.
  ///
  /// If the directory is later deleted or unmounted, an ``Mode/inotify`` monitor keeps its
  /// mode but calls the handler every polling interval from then on.
  let mode: Mode

  private let worker: Worker

  /// Creates a stopped monitor; ``start()`` starts it.
  ///
  /// - Parameters:
  ///   - databasePath: The database file. When it is a symbolic link, the monitor watches the
  ///     file it points to, next to which SQLite creates the `-wal` and `-journal` files.
  ///   - pollingInterval: In polling mode, the time between two handler calls.
  ///   - recheckDelays: After each relevant event, the handler is called at once and again
  ///     after each of these delays, measured from the latest event. Delays of zero or less
  ///     add nothing to the immediate call.
  ///   - idleInterval: In inotify mode, the longest time without a handler call.
  ///   - forcePolling: Polls even where inotify would work.
  ///   - handler: Called on the monitor's thread, never concurrently with itself.
  init(
    databasePath: String,
    pollingInterval: TimeInterval = 0.05,
    recheckDelays: [TimeInterval] = [0.002, 0.008],
    idleInterval: TimeInterval = 1.0,
    forcePolling: Bool = false,
    handler: @escaping @Sendable () -> Void
  ) {
    let (directory, name) = Self.split(Self.resolvingSymbolicLink(databasePath))
    var watch: InotifyWatch?
    if !forcePolling && !FileSystemType.isRemoteOrFUSE(directory) {
      watch = InotifyWatch(directory: directory)
    }
    mode = watch == nil ? .polling : .inotify
    // A zero or negative interval would turn the poll loop into a busy loop.
    let minimumInterval: TimeInterval = 0.001
    worker = Worker(
      watch: watch,
      names: [name, name + "-wal", name + "-journal"].map { Array($0.utf8) },
      pollingInterval: max(pollingInterval, minimumInterval),
      recheckDelays: recheckDelays.filter { $0 > 0 }.sorted(),
      idleInterval: max(idleInterval, minimumInterval),
      handler: handler)
  }

  deinit {
    worker.stop()
  }

  /// Starts the background thread. Idempotent; does nothing once the monitor was stopped.
  func start() {
    worker.start()
  }

  /// Stops the background thread. Idempotent, and final: ``start()`` does nothing afterwards.
  ///
  /// When `stop()` returns, the handler is not running and will never be called again, so
  /// whatever the handler uses can be torn down. It waits for a running handler call to
  /// finish: a handler must not wait for the thread that calls `stop()`. Called from inside
  /// the handler, it returns at once and the current call is the last one.
  func stop() {
    worker.stop()
  }

  /// The directory and the file name, as SQLite derives the journal names from the path.
  private static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    return (directory, String(path[path.index(after: slash)...]))
  }

  /// SQLite resolves a symbolic link to the database and puts its journals next to the
  /// target; a path that does not exist yet is kept as it is.
  private static func resolvingSymbolicLink(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

/// The state shared between the monitor and its thread.
///
/// It is a separate object so that the thread does not keep the monitor alive: releasing the
/// monitor runs its deinit, which stops the thread. The descriptors close when the last
/// reference goes, which is the monitor's once ``stop()`` has returned (the thread drops its
/// own before it signals that it is done).
private final class Worker: Sendable {
  private enum Phase {
    case idle
    case running
    case stopped
  }

  private struct State {
    var phase = Phase.idle
    /// Set by the thread itself, before its first handler call, so that `stop()` called from
    /// the handler can tell that it must not wait for its own thread.
    var thread: pthread_t?
  }

  private let watch: InotifyWatch?
  private let wakePipe = WakePipe()
  private let names: [[UInt8]]
  private let pollingInterval: TimeInterval
  private let recheckDelays: [TimeInterval]
  private let idleInterval: TimeInterval
  private let handler: @Sendable () -> Void
  private let state = Locked(State())
  /// Entered by `start()`, left by the thread once it has dropped its reference: waiters of
  /// every `stop()` call return together, which a semaphore or a join would not allow.
  private let finished = DispatchGroup()

  init(
    watch: InotifyWatch?, names: [[UInt8]], pollingInterval: TimeInterval,
    recheckDelays: [TimeInterval], idleInterval: TimeInterval, handler: @escaping @Sendable () -> Void
  ) {
    self.watch = watch
    self.names = names
    self.pollingInterval = pollingInterval
    self.recheckDelays = recheckDelays
    self.idleInterval = idleInterval
    self.handler = handler
  }

  func start() {
    let launch = state.withLock { state -> Bool in
      guard state.phase == .idle else { return false }
      state.phase = .running
      finished.enter()
      return true
    }
    guard launch else { return }
    // A plain pthread rather than Foundation's Thread, whose block (and the worker it
    // captures) lives as long as the Thread object: here the thread hands its reference back
    // before `finished` is signaled, so that the descriptors close when the monitor goes.
    let context = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { context in
        let finished = Worker.runThread(context!)
        finished.leave()
        return nil
      }, context)
    if created == 0 {
      pthread_detach(thread)
    } else {
      // Out of threads: the monitor stays silent rather than crashing the application,
      // as a database without a monitor still works, only without change notifications.
      Unmanaged<Worker>.fromOpaque(context).release()
      state.withLock { $0.phase = .stopped }
      finished.leave()
    }
  }

  /// Runs the loop with the reference handed over by `start()`, and releases it on return,
  /// before the caller signals `finished`.
  private static func runThread(_ context: UnsafeMutableRawPointer) -> DispatchGroup {
    let worker = Unmanaged<Worker>.fromOpaque(context).takeRetainedValue()
    worker.run()
    return worker.finished
  }

  func stop() {
    let mustWait = state.withLock { state -> Bool in
      if state.phase == .running {
        // Inside the lock, so that the thread can not miss the request between its check
        // and its call to poll(): the byte keeps the pipe readable until it is drained.
        wakePipe.signal()
      }
      state.phase = .stopped
      guard let thread = state.thread else { return true }
      return pthread_equal(thread, pthread_self()) == 0
    }
    if mustWait {
      finished.wait()
    }
  }

  private var isStopped: Bool {
    state.withLock { $0.phase == .stopped }
  }

  private func run() {
    state.withLock { $0.thread = pthread_self() }
    defer { state.withLock { $0.thread = nil } }
    var watching = watch != nil
    var routineInterval = watching ? idleInterval : pollingInterval
    var rechecks: [TimeInterval] = []  // due times, ascending
    var nextRoutineCall = monotonicNow() + routineInterval
    while !isStopped {
      let deadline = min(rechecks.first ?? .infinity, nextRoutineCall)
      let readable = waitForInput(inotify: watching, until: deadline)
      var changed = false
      if readable.wake {
        wakePipe.drain()
      }
      if readable.inotify, let watch {
        switch watch.drain(names: names) {
        case .nothing:
          break
        case .relevant:
          changed = true
        case .watchLost:
          // Polling is all that is left; call once in case the loss hid a change.
          watching = false
          routineInterval = pollingInterval
          changed = true
        }
      }
      let now = monotonicNow()
      if changed {
        rechecks = recheckDelays.map { now + $0 }
      } else if let first = rechecks.first, first <= now {
        // Several re-checks may be overdue after a slow handler call: one call covers them.
        rechecks.removeAll { $0 <= now }
      } else if nextRoutineCall > now {
        continue
      }
      if isStopped { break }
      handler()
      nextRoutineCall = monotonicNow() + routineInterval
    }
  }

  /// Blocks in poll() until the inotify descriptor (when `inotify` is true) or the wake pipe
  /// is readable, or until `deadline`; tells which descriptors are readable.
  private func waitForInput(inotify: Bool, until deadline: TimeInterval) -> (inotify: Bool, wake: Bool) {
    let events = Int16(POLLIN)
    // poll() ignores negative descriptors: a lost watch or a missing pipe drop out this way.
    var descriptors = [
      pollfd(fd: inotify ? watch?.descriptor ?? -1 : -1, events: events, revents: 0),
      pollfd(fd: wakePipe.readEnd, events: events, revents: 0),
    ]
    var timeout = Self.milliseconds(until: deadline)
    if wakePipe.readEnd < 0 {
      // Without a pipe, stop() can not interrupt poll(): bound how long it may wait.
      timeout = min(timeout, 50)
    }
    let result = poll(&descriptors, nfds_t(descriptors.count), timeout)
    if result < 0 {
      if errno != EINTR {
        // ENOMEM and the like: pause rather than retry at once in a tight loop.
        usleep(10_000)
      }
      return (false, false)
    }
    // POLLERR, POLLHUP or POLLNVAL also count: the read that follows reports the failure
    // (and a lost watch), instead of poll() returning at once forever.
    return (descriptors[0].revents != 0, descriptors[1].revents != 0)
  }

  /// The poll() timeout that ends at `deadline`, rounded up so that the loop never wakes
  /// just before a due time and spins on zero timeouts.
  private static func milliseconds(until deadline: TimeInterval) -> Int32 {
    let remaining = (deadline - monotonicNow()) * 1000
    guard remaining > 0 else { return 0 }
    return Int32(min(remaining.rounded(.up), Double(Int32.max)))
  }
}

/// Seconds on the monotonic clock, which system clock changes do not move.
private func monotonicNow() -> TimeInterval {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
}

/// A self-pipe that lets stop() interrupt the monitor's poll().
///
/// A pipe rather than an eventfd because the Glibc module does not import <sys/eventfd.h>,
/// and pipe() rather than pipe2() for the same reason: close-on-exec is set just after
/// creation, so a process forked by another thread in between could inherit the ends.
private final class WakePipe: Sendable {
  /// -1 when the pipe could not be created.
  let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      readEnd = -1
      writeEnd = -1
      return
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    if readEnd >= 0 {
      close(readEnd)
      close(writeEnd)
    }
  }

  /// Makes the read end readable. A full pipe (EAGAIN) is readable already.
  func signal() {
    guard writeEnd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  func drain() {
    var bytes = (UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &bytes, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
  }
}
