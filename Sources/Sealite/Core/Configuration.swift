import Foundation

/// How a connection waits when another connection holds a lock.
public enum BusyMode: Sendable {
  /// Fail with `SQLITE_BUSY` when another connection holds the lock for more
  /// than a moment.
  ///
  /// GRDB fails at once. Sealite waits up to about 100 ms first, because
  /// connections that only read take locks for a moment too: a reader that
  /// finds the WAL index being rewritten by a commit takes the write lock for
  /// a few microseconds to read it again, and a writer that begins its
  /// transaction then would fail. In a C loop with three busy readers, one
  /// commit in sixty did. A lock held for longer, by a writer in another
  /// process, still fails the statement.
  case immediateError
  /// Retry for up to this many seconds (SQLite's busy timeout: it sleeps, never spins).
  case timeout(TimeInterval)
  /// Ask the callback, each time the database is found locked, whether to
  /// try again (`true`) or fail with `SQLITE_BUSY` (`false`); it is given the
  /// number of times it was already called for this lock
  /// (`sqlite3_busy_handler`). The callback decides how long to wait before
  /// it returns:
  ///
  ///     config.busyMode = .callback { numberOfTries in
  ///       guard numberOfTries < 20 else { return false }
  ///       usleep(10_000)
  ///       return true
  ///     }
  ///
  /// It runs on the connection's thread, while a statement waits.
  case callback(Database.BusyCallback)
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

extension Database {
  /// How a connection waits for locks, where GRDB spells it.
  public typealias BusyMode = Sealite.BusyMode

  /// The callback of ``BusyMode/callback(_:)``: given the number of times it
  /// was already called for the current lock, it returns whether to try again.
  public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

  /// What to do at the end of ``Database/inTransaction(_:_:)`` and
  /// ``Database/inSavepoint(_:)``, where GRDB spells it.
  public typealias TransactionCompletion = Sealite.TransactionCompletion

  /// The kind of a transaction, where GRDB spells it.
  public typealias TransactionKind = Sealite.TransactionKind
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
  /// to the same database file. Default false: as in GRDB, an observation
  /// sees only the commits of the queue or pool it was started in.
  ///
  /// When true, the first observation started on the queue or pool starts a
  /// watch of the database file, which costs, for as long as the queue or
  /// pool is open:
  ///
  /// - One thread, blocked in `poll()` on an inotify descriptor that watches
  ///   the database's directory (or waking every 50 ms where inotify is
  ///   unavailable, on network and FUSE file systems, or with
  ///   ``observesOtherProcessesByPolling``).
  /// - After each write to the database, `-wal` or `-journal` file (and at
  ///   least once a second), two `pread` calls: the first 100 bytes of the
  ///   database file and the first 48 bytes of the `-shm` file. They take no
  ///   lock. Every commit with a rollback journal rewrites page 1 (its
  ///   ciphertext changes with its fresh IV; in plaintext, its file change
  ///   counter), and every commit in WAL mode rewrites the `-shm` header,
  ///   so bytes that did not change mean that nothing was committed.
  /// - When those bytes changed, in WAL mode: one short read transaction on
  ///   the writer connection (`PRAGMA data_version`, and the change journal
  ///   of ``publishesChangedTables``), which never blocks a writer in WAL
  ///   mode. With a rollback journal, no SQL at all: every observation of
  ///   the queue is told that the whole database may have changed.
  /// - Then the fetch of each observation told of the change. With a rollback
  ///   journal, those fetches read without taking any lock (a read-only
  ///   connection opened with `nolock=1`, one per observed queue), and keep
  ///   a value only if page 1 and the journal say that no commit ran
  ///   meanwhile (otherwise they fetch again): a lock taken there would make
  ///   another connection's commit fail with `SQLITE_BUSY` when it does not
  ///   wait for locks (the default ``BusyMode/immediateError``). That costs
  ///   one more connection (its key derivation, once), and a fetch retried
  ///   while another connection keeps committing.
  ///
  /// With a rollback journal, the watch can not tell this queue's commits
  /// from the others': each of them also refreshes its observations once
  /// more (an equal value is not delivered again).
  public var observesOtherProcesses = false

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
  /// True for a pool's writer: a passphrase given in `prepareDatabase` is
  /// derived by Sealite, once, and the key shared with the pool's readers.
  var derivesPassphraseForReaders = false
  /// True for a pool's readers and snapshots: whatever ``busyMode`` says, they
  /// wait up to 10 seconds, as in GRDB, for the rare locks of WAL mode
  /// (another process's recovery, or its last connection closing), since
  /// readers of a pool are not supposed to fail (`Database.busyMode`).
  var readersWaitForLocks = false

  /// Whether a ``DatabasePool`` keeps its reader connections open when it
  /// releases memory. Default false: ``DatabasePool/releaseMemory()`` closes
  /// the idle readers (new reads open new ones, which costs a key derivation
  /// for a passphrase only once per pool); true keeps them and frees their
  /// caches instead.
  public var persistentReadOnlyConnections = false

  /// Whether a double-quoted string that names no column is taken as a
  /// string literal, SQLite's
  /// [misfeature](https://sqlite.org/quirks.html#double_quoted_string_literals_are_accepted).
  /// Default false, as in GRDB: `SELECT "missingColumn" FROM player` fails
  /// with "no such column" (SQLite before 3.29 always takes the string).
  public var acceptsDoubleQuotedStringLiterals = false

  /// The quality of service of database accesses, unless ``targetQueue`` or
  /// ``writeTargetQueue`` is given. Default `.userInitiated`.
  public var qos: DispatchQoS = .userInitiated

  /// The quality of service of reads: the ``targetQueue``'s, or ``qos``.
  public var readQoS: DispatchQoS { targetQueue?.qos ?? qos }

  /// The quality of service of writes: the ``writeTargetQueue``'s, the
  /// ``targetQueue``'s, or ``qos``.
  public var writeQoS: DispatchQoS { writeTargetQueue?.qos ?? targetQueue?.qos ?? qos }

  /// The dispatch queue every connection's queue targets (the writer's too,
  /// unless ``writeTargetQueue`` is given), or nil (default). For a
  /// ``DatabasePool``, make it concurrent: a serial one would run one read
  /// at a time, and a read that waits for the writer would never end.
  ///
  ///     var config = Configuration()
  ///     config.targetQueue = DispatchQueue(label: "db", qos: .utility, attributes: .concurrent)
  public var targetQueue: DispatchQueue?

  /// The dispatch queue the writer connection's queue targets, or nil
  /// (default: ``targetQueue``).
  public var writeTargetQueue: DispatchQueue?

  /// The clock of ``Database/transactionDate``: the system clock by
  /// default, or a clock of the program's (tests give a fixed date).
  public var transactionClock: any TransactionClock = .default

  /// What the program knows of the schema that SQLite does not say, such as
  /// the primary key of a view; nil (the default) for SQLite's schema alone.
  /// See ``DatabaseSchemaSource``; ``Database/withSchemaSource(_:execute:)``
  /// changes it for the statements of a closure.
  public var schemaSource: (any DatabaseSchemaSource)?

  /// Whether the queue or pool suspends its writes when
  /// ``Database/suspendNotification`` is posted, and resumes them on
  /// ``Database/resumeNotification``. Default false.
  ///
  /// A suspended database does not take locks it could keep: statements that
  /// would write (or read, outside of WAL mode) throw a ``DatabaseError`` of
  /// code `SQLITE_ABORT` after the current transaction is rolled back, and a
  /// statement that runs when the notification is posted is interrupted.
  /// Reads of a WAL database keep working.
  public var observesSuspensionNotifications = false

  /// Creates the default configuration.
  public init() {}

  /// Adds a function run on each new connection, before it is used: the place
  /// for `db.usePassphrase(_:)`, custom functions or pragmas.
  public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
    preparations.append(setup)
  }
}

extension Configuration {
  /// The journal mode of a queue, where GRDB spells it.
  public typealias JournalModeConfiguration = Sealite.JournalModeConfiguration
}
