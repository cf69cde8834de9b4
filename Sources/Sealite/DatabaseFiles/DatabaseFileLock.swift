import Foundation

/// An advisory lock that serializes the whole-file operations on one database
/// — key changes, exports and imports into it, cipher migrations, settling what
/// an interrupted one left — across threads and processes.
///
///     try DatabaseFileLock.withLock(forDatabaseAtPath: path) {
///       // no other whole-file operation on `path` runs meanwhile
///     }
///
/// Sealite's own whole-file operations take it themselves; take it around a
/// sequence of them that must not be interleaved with another program's. It
/// is reentrant on one thread. It does not lock the database against ordinary
/// connections (SQLite's own locks do that).
///
/// The lock is an `flock` on `.NAME.sealite-lock` beside the database, so the
/// kernel releases it when its process dies, even of SIGKILL: an operation
/// that finds the lock free knows that no live operation owns what it finds
/// (a pending key, a temporary copy). The first holder removes the temporary
/// copies that interrupted operations left, and every holder removes the lock
/// file when it releases it. Where the lock file can not be created (a
/// directory the process may not write), no whole-file operation can run
/// either, and the lock holds nothing.
public final class DatabaseFileLock: Sendable {
  /// How long ``acquire(forDatabaseAtPath:timeout:cancellation:)`` waits by default.
  public static let defaultTimeout = Duration.seconds(30)

  /// The database's path, with symbolic links resolved.
  public let canonicalPath: String
  /// The temporary copies that interrupted operations left beside the
  /// database, which this acquisition removed (empty for a reentrant one).
  public let removedLeftovers: [String]
  private let isReleased = Locked(false)

  private struct Holding {
    let owner: pthread_t
    var depth: Int
    /// The locked file, or -1 where none could be made.
    let descriptor: Int32
  }

  /// The locks this process holds, by canonical path.
  private static let holdings = Locked<[String: Holding]>([:])

  private init(canonicalPath: String, removedLeftovers: [String] = []) {
    self.canonicalPath = canonicalPath
    self.removedLeftovers = removedLeftovers
  }

  deinit { release() }

  /// Takes the lock of the database at `path` (which need not exist yet),
  /// waiting for another holder as long as `timeout`.
  ///
  /// - parameter path: the database (the lock is the same whichever path reaches it).
  /// - parameter timeout: how long to wait for another holder.
  /// - parameter cancellation: stops the wait, throwing `SQLITE_INTERRUPT`.
  /// - Throws: `SQLITE_BUSY` when another operation held it all that time.
  public static func acquire(
    forDatabaseAtPath path: String, timeout: Duration = defaultTimeout,
    cancellation: OperationCancellation? = nil
  ) throws -> DatabaseFileLock {
    let canonicalPath = DatabaseSiblingFiles.canonicalPath(path)
    let me = pthread_self()
    let reentered = holdings.withLock { holdings -> Bool in
      guard var holding = holdings[canonicalPath], pthread_equal(holding.owner, me) != 0 else { return false }
      holding.depth += 1
      holdings[canonicalPath] = holding
      return true
    }
    if reentered { return DatabaseFileLock(canonicalPath: canonicalPath) }

    let lockPath = DatabaseSiblingFiles.lockPath(canonicalPath)
    let deadline = ContinuousClock.now + timeout
    // flock has no timeout: the wait polls, backing off from 1 ms to 50 ms.
    var delay = Duration.milliseconds(1)
    while true {
      let heldHere = holdings.withLock { $0[canonicalPath] != nil }
      if !heldHere, let descriptor = tryLock(lockPath) {
        holdings.withLock { $0[canonicalPath] = Holding(owner: me, depth: 1, descriptor: descriptor) }
        // No live operation owns the temporary copies of an interrupted one.
        let leftovers = DatabaseSiblingFiles.leftovers(of: canonicalPath)
        for leftover in leftovers { unlink(leftover) }
        return DatabaseFileLock(canonicalPath: canonicalPath, removedLeftovers: leftovers)
      }
      try cancellation.check("waiting for another operation on \(canonicalPath)")
      guard ContinuousClock.now < deadline else {
        throw DatabaseError(
          resultCode: .SEALITE_BUSY_FILE_OPERATION,
          message: "another operation on \(canonicalPath) is in progress (a key change, an export or import "
            + "into it, or a migration): try again once it ends")
      }
      Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18)
      delay = min(delay * 2, .milliseconds(50))
    }
  }

  /// One attempt: the descriptor of the locked file (-1 when no lock file can
  /// exist), or nil when another holder has it.
  private static func tryLock(_ lockPath: String) -> Int32? {
    while true {
      var descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
      if descriptor < 0 {
        // A directory this process may not write: use the file if it is there,
        // else there is nothing to lock (no whole-file operation can run there).
        descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 { return -1 }
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        return nil
      }
      // The holder before may have removed the file after this open: the lock
      // counts only if it is on the file the path names now.
      var opened = stat()
      var named = stat()
      if fstat(descriptor, &opened) == 0, lstat(lockPath, &named) == 0, opened.st_dev == named.st_dev,
        opened.st_ino == named.st_ino
      {
        return descriptor
      }
      close(descriptor)
    }
  }

  /// Releases the lock (once; later calls do nothing). The outermost release
  /// of a thread removes the lock file.
  public func release() {
    let first = isReleased.withLock { released -> Bool in
      defer { released = true }
      return !released
    }
    guard first else { return }
    let path = canonicalPath
    Self.holdings.withLock { holdings in
      guard var holding = holdings[path] else { return }
      holding.depth -= 1
      if holding.depth > 0 {
        holdings[path] = holding
        return
      }
      holdings[path] = nil
      if holding.descriptor >= 0 {
        // Removed while still locked: a waiter then finds its file gone, and
        // starts over with a new one.
        unlink(DatabaseSiblingFiles.lockPath(path))
        close(holding.descriptor)
      }
    }
  }

  /// Runs `body` with the lock of the database at `path` held; see
  /// ``acquire(forDatabaseAtPath:timeout:cancellation:)``.
  ///
  /// - parameter path: the database.
  /// - parameter timeout: how long to wait for another holder.
  /// - parameter cancellation: stops the wait, throwing `SQLITE_INTERRUPT`.
  /// - parameter body: what runs with the lock held.
  public static func withLock<T>(
    forDatabaseAtPath path: String, timeout: Duration = defaultTimeout,
    cancellation: OperationCancellation? = nil, _ body: () throws -> T
  ) throws -> T {
    let lock = try acquire(forDatabaseAtPath: path, timeout: timeout, cancellation: cancellation)
    defer { lock.release() }
    return try body()
  }
}
