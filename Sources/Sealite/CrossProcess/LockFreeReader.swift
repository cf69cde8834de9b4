import Foundation

/// Reads a rollback-journal database without taking any file lock, so that
/// the reads of an observer never make another connection's commit fail.
///
/// With a rollback journal, a reader holds a shared lock, and a writer that
/// does not wait for locks (``BusyMode/immediateError``, the default) fails
/// its `COMMIT` with `SQLITE_BUSY` if it meets one. This reader's connection
/// is opened read-only with `nolock=1`: SQLite takes no lock at all. It may
/// then read while a writer rewrites pages, so each read is validated as a
/// sequence lock would be: the ``CommitFingerprint`` (page 1, which every
/// commit rewrites) and the journal are looked at before and after it, and a
/// read during which a
/// writer was writing the database file (a journal whose header is written,
/// which SQLite does only once it holds the exclusive lock) or committed
/// (another fingerprint) is done again. The connection itself refuses to
/// read while such a journal exists (`SQLITE_READONLY_ROLLBACK`: a read-only
/// connection does not roll a journal back), which is retried as well.
///
/// This holds for the journal modes that keep the journal in a file
/// (`DELETE`, Sealite's default, `TRUNCATE` and `PERSIST`); with
/// `journal_mode=MEMORY` or `OFF`, a read during a commit may go unnoticed.
final class LockFreeReader: Sendable {
  private let filePath: String
  private let configuration: Configuration
  private let connection = Locked<Result<DatabaseQueue, any Error>?>(nil)
  /// The file the connection opened.
  private let connectionFile = Locked<ProcessLocks.FileID?>(nil)

  /// Thrown when the lock-free connection can not be opened (a
  /// `prepareDatabase` that writes fails on a read-only connection, say):
  /// the caller then reads as usual.
  struct Unavailable: Error {}

  /// A reader of the database file at `filePath`, with the key, cipher
  /// settings and preparations of `configuration`.
  init(filePath: String, configuration: Configuration) {
    self.filePath = filePath
    var configuration = configuration
    configuration.readonly = true
    configuration.observesOtherProcesses = false
    configuration.publishesChangedTables = false
    self.configuration = configuration
  }

  /// Runs `body` in a read transaction that saw no commit, retrying until it
  /// gets one, or until `isCancelled` says to stop (then nil). Throws
  /// ``Unavailable`` if the connection can not be opened.
  func read<T>(isCancelled: () -> Bool, _ body: (Database) throws -> T) throws -> T? {
    let queue = try queue()
    var pause: useconds_t = 200
    while !isCancelled() {
      let before = CommitFingerprint.read(databasePath: filePath)
      if !CommitFingerprint.journalIsActive(databasePath: filePath) {
        let result = Result { try queue.read(body) }
        let after = CommitFingerprint.read(databasePath: filePath)
        if before == after, !CommitFingerprint.journalIsActive(databasePath: filePath) {
          // A consistent read: its value, or its error (a database whose key
          // changed, a fetch that throws…) are the database's own.
          return try result.get()
        }
      }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
    return nil
  }

  deinit {
    // SQLite keeps no record of a `nolock=1` connection's file, and closes
    // its descriptor at once: that would release the locks of this process's
    // other connections of the file. So it closes once they hold none.
    guard case .success(let queue) = connection.value else { return }
    guard let file = connectionFile.value else { return }
    LockPreservingFileRead.closeWhenUnlocked(file) { try? queue.close() }
  }

  /// Whether the lock-free connection can be used (opening it if needed).
  var isAvailable: Bool { (try? queue()) != nil }

  private func queue() throws -> DatabaseQueue {
    let opened = connection.withLock { connection in
      if let connection { return connection }
      let opened = Result {
        try DatabaseQueue(
          path: Database.fileURI(filePath, parameters: "nolock=1"), configuration: configuration)
      }
      if case .success = opened {
        // The connection has its file open: a `stat` now names that file.
        connectionFile.withLock { $0 = ProcessLocks.FileID(path: filePath) }
      }
      connection = opened
      return opened
    }
    guard case .success(let queue) = opened else { throw Unavailable() }
    return queue
  }
}
