import Foundation

/// How a connection waits when another connection holds a lock.
public enum BusyMode: Sendable {
  /// Fail at once with `SQLITE_BUSY`.
  case immediateError
  /// Retry for up to this many seconds (SQLite's busy timeout: it sleeps, never spins).
  case timeout(TimeInterval)
}

/// The journal mode of a ``DatabaseQueue``. A ``DatabasePool`` always uses WAL.
public enum JournalModeConfiguration: Sendable, Equatable {
  /// Leave SQLite's default (a rollback journal, or whatever the file already uses).
  case `default`
  /// Write-ahead logging.
  case wal
}

/// The kind of an SQLite transaction.
public enum TransactionKind: String, Sendable {
  /// Locks are taken at the first read or write.
  case deferred = "DEFERRED"
  /// A write lock is taken at once.
  case immediate = "IMMEDIATE"
  /// An exclusive lock is taken at once.
  case exclusive = "EXCLUSIVE"
}

/// What to do at the end of ``Database/inTransaction(_:_:)`` and
/// ``Database/inSavepoint(_:)``.
public enum TransactionCompletion: Sendable {
  /// Commit (or release the savepoint).
  case commit
  /// Roll back.
  case rollback
}

/// The settings of a ``DatabaseQueue`` or ``DatabasePool`` and of each of their
/// connections.
///
///     var config = Configuration()
///     config.key = .passphrase("secret")
///     config.foreignKeysEnabled = true
///     let dbQueue = try DatabaseQueue(path: path, configuration: config)
public struct Configuration: Sendable {
  /// Whether foreign keys are enforced. Default true.
  public var foreignKeysEnabled = true
  /// Whether connections are read-only. Default false.
  public var readonly = false
  /// A label for the connections' dispatch queues and error messages.
  public var label: String?
  /// How connections wait for locks. Default `.immediateError`, as in GRDB;
  /// apps with several writer processes should set a timeout.
  public var busyMode: BusyMode = .immediateError
  /// The maximum number of reader connections of a ``DatabasePool``. Default 5.
  public var maximumReaderCount = 5
  /// The journal mode of a ``DatabaseQueue``.
  public var journalMode: JournalModeConfiguration = .default
  /// Whether statement arguments appear in error descriptions and traced SQL.
  /// Default false: arguments may hold personal or secret data.
  public var publicStatementArguments = false
  /// The kind of the transactions opened by `write` and `inTransaction()`.
  /// Default `.immediate`: the write lock is taken at once, so that two writers
  /// (threads or processes) never deadlock upgrading a read lock.
  public var defaultTransactionKind: TransactionKind = .immediate
  /// Whether a `writeWithoutTransaction` may leave a transaction open. Default
  /// false: such a transaction is rolled back and an error is thrown.
  public var allowsUnsafeTransactions = false
  /// The encryption key applied to every connection, or nil for none (or for a
  /// key applied in ``prepareDatabase(_:)`` with ``Database/usePassphrase(_:)-(String)``).
  public var key: DatabaseKey?
  /// SQLCipher settings applied after the key, before the first read.
  public var cipher = CipherConfiguration()
  /// The page cache size of each connection, as SQLite's `PRAGMA cache_size`
  /// takes it (negative: KiB; positive: pages), or nil for the default: 16 MiB
  /// (`-16384`) on encrypted connections, SQLite's 2 MiB otherwise. (Another
  /// `PRAGMA cache_size` run in ``prepareDatabase(_:)`` wins over the default;
  /// a value set here wins over both.)
  ///
  /// An encrypted page is decrypted each time it enters the cache, so a cache
  /// that holds the working set makes encrypted reads as fast as plaintext ones
  /// (`make bench ARGS=cache-size`: with 100,000 rows, lookups cost 4.7× the
  /// plaintext time with 2 MiB, 1.4× with 8 MiB, 1.0× with 32 MiB). The cost is
  /// memory: up to this much per connection (a pool has a writer and up to
  /// ``maximumReaderCount`` readers), used only as pages are read.
  public var pageCacheSize: Int?

  /// The page cache of encrypted connections when ``pageCacheSize`` is nil.
  static let encryptedPageCacheSize = -16_384

  /// Whether observations started on this queue or pool also see commits
  /// made by other processes (and by other queues or pools of this process)
  /// to the same database file. Default true. Other processes are watched with
  /// inotify, or by polling every 50 ms where inotify is unavailable or the
  /// file lives on a network file system.
  ///
  /// Each check is a short read transaction. In WAL mode (every
  /// ``DatabasePool``) it never blocks a writer; with a rollback journal it
  /// holds a shared lock for a moment, so writers in other processes should
  /// then use a ``BusyMode/timeout(_:)``.
  public var observesOtherProcesses = true

  /// Table precision for observers in other processes. When true, each
  /// transaction this writer commits also records, in the same transaction
  /// (so encrypted and atomic), the names of the tables it changed, in the
  /// table `sealite_change_journal`. Observers in other processes then
  /// refresh only the observations whose region meets those tables; without
  /// it, every observation refreshes after any commit of another process.
  /// Default false.
  ///
  /// Every writer of the database should publish its tables. A commit of a
  /// writer that does not (another program, say) still refreshes every
  /// observation: at once when it comes alone (after 100 ms spent waiting for
  /// an entry that never comes), and otherwise with the next commit of a
  /// writer that publishes.
  public var publishesChangedTables = false

  /// Whether other processes are watched by polling `PRAGMA data_version`
  /// every 50 ms even where inotify works. Default false. Sealite already
  /// polls where inotify is unavailable and on network file systems, whose
  /// remote writes inotify does not see.
  public var observesOtherProcessesByPolling = false

  var preparations: [@Sendable (Database) throws -> Void] = []
  /// The key set by a key change: it wins over ``key`` and over keys given in
  /// ``prepareDatabase(_:)``, so that connections opened later use it.
  var rekeyedKey: DatabaseKey?

  /// Creates the default configuration.
  public init() {}

  /// Adds a function run on each new connection, before it is used: the place
  /// for `db.usePassphrase(_:)`, custom functions or pragmas.
  public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
    preparations.append(setup)
  }
}
