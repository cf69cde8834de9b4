import Dispatch
import Foundation
import Sealite
import Synchronization

let watchCommand = Command(
  name: "watch",
  summary: "print a line when another process commits to DB (commits closer than a check share a line)",
  synopsis:
    "watch DB [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--collection LABEL]\n"
    + "       [--count N] [--switch-to-wal | --keep-journal] [--json]",
  details: "DB is watched as it is, without blocking anyone: commits are seen with lock-free reads of\n"
    + "the file, so watching never makes another program's commit fail, with a WAL or a rollback\n"
    + "journal. --switch-to-wal makes a rollback-journal DB a WAL database first (a lasting change,\n"
    + "which lets readers and a writer work at once); --keep-journal, the default, keeps its journal.\n"
    + "When DB's key changes meanwhile (another process rekeyed it), watch stops with an error\n"
    + "(exit 65): run it again.\n" + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [
    .option("--count", "N", "stop after N commits"),
    .flag("--switch-to-wal", "a rollback-journal DB becomes a WAL database, then is watched"),
    .flag("--keep-journal", "a rollback-journal DB is watched as it is (the default)"),
    CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  let limit = try arguments.value("--count").map { text -> Int in
    guard let count = Int(text), count > 0 else {
      throw CommandError(code: .usage, message: "--count needs a positive number, not \(text)")
    }
    return count
  }
  let key = try resolveKey(arguments, path: path).key
  var config = Configuration()
  config.key = key
  config.cipher = try cipherSettings(path: path, key: key).cipher
  // Watching other processes' commits is what this command is for.
  config.observesOtherProcesses = true
  let ended = DispatchSemaphore(value: 0)
  let failure = Mutex<CommandError?>(nil)
  let seen = Mutex(0)
  let (writer, cancellable) = try keyringCall(path: path) {
    () -> (any DatabaseWriter, AnyDatabaseCancellable) in
    // The journal mode, read without changing it: a pool would switch a
    // rollback-journal database to WAL.
    var probe = config
    probe.readonly = true
    probe.observesOtherProcesses = false
    let mode = try DatabaseQueue(path: path, configuration: probe).read { db in
      try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased()
    }
    let choice = try watchChoice(arguments)
    let writer: any DatabaseWriter
    if mode == "wal" || choice == .switchToWAL {
      // A pool: WAL readers never block a writer (a pool switches DB to WAL).
      writer = try DatabasePool(path: path, configuration: config)
    } else {
      // Commits are detected without locks (Configuration.observesOtherProcesses),
      // and a region observation fetches nothing: no lock a writer could meet.
      var readOnly = config
      readOnly.readonly = true
      writer = try DatabaseQueue(path: path, configuration: readOnly)
    }
    let cancellable = DatabaseRegionObservation(tracking: DatabaseRegion.fullDatabase).start(
      in: writer,
      onError: { error in
        var mapped = ErrorMapping.commandError(error, path: path)
        if mapped.code == .cannotOpen || mapped.code == .damaged {
          mapped = CommandError(
            code: .cannotOpen,
            message: "\(path) no longer opens with its key: another process changed the key (or the "
              + "file) while it was watched; run watch again (\(mapped.message))")
        }
        failure.withLock { $0 = mapped }
        ended.signal()
      },
      onChange: { _ in
        let count = seen.withLock { count in
          count += 1
          return count
        }
        let time = Date().timeIntervalSince1970
        Output.result(
          "commit \(count) \(String(format: "%.6f", time))",
          ["event": "commit", "count": count, "time": time])
        if let limit, count >= limit { ended.signal() }
      })
    return (writer, cancellable)
  }
  Output.result("watching \(path)", ["event": "watching", "path": path])
  ended.wait()
  cancellable.cancel()
  try? writer.close()
  if let failure = failure.withLock({ $0 }) { throw failure }
}

/// How to watch a database with a rollback journal.
enum WatchChoice {
  case switchToWAL, keepJournal
}

/// The choice given by option: the journal is kept unless `--switch-to-wal` says otherwise.
private func watchChoice(_ arguments: Arguments) throws -> WatchChoice {
  try arguments.requireAtMostOne(of: ["--switch-to-wal", "--keep-journal"])
  return arguments.has("--switch-to-wal") ? .switchToWAL : .keepJournal
}
