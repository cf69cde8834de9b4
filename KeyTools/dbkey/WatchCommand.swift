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
  details: "A WAL database is watched as it is, without blocking anyone. A database with a rollback\n"
    + "journal is not watched without a choice, which watch asks for on a terminal and otherwise takes\n"
    + "from an option: --switch-to-wal makes DB a WAL database (a lasting change, which lets readers\n"
    + "and a writer work at once); --keep-journal watches it as it is, with a read lock of a moment\n"
    + "after each change, which can make another program's commit fail if it does not wait for locks\n"
    + "(a busy timeout). When DB's key changes meanwhile (another process rekeyed it), watch stops\n"
    + "with an error (exit 65): run it again.\n" + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [
    .option("--count", "N", "stop after N commits"),
    .flag("--switch-to-wal", "a rollback-journal DB becomes a WAL database, then is watched"),
    .flag("--keep-journal", "a rollback-journal DB is watched as it is (short read locks)"),
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
    let writer: any DatabaseWriter
    switch (mode == "wal", try watchChoice(arguments, path: path)) {
    case (true, _), (false, .switchToWAL?):
      // A pool: WAL readers never block a writer (a pool switches DB to WAL).
      writer = try DatabasePool(path: path, configuration: config)
    case (false, .keepJournal?):
      var readOnly = config
      readOnly.readonly = true
      writer = try DatabaseQueue(path: path, configuration: readOnly)
    case (false, nil):
      throw CommandError(
        code: .usage,
        message: "\(path) has a rollback journal: watching it takes a read lock after each change, which "
          + "can make another program's commit fail; choose --switch-to-wal (DB becomes a WAL database) "
          + "or --keep-journal (watch it as it is)")
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

/// The choice given by option, else asked on a terminal; nil without either.
private func watchChoice(_ arguments: Arguments, path: String) throws -> WatchChoice? {
  try arguments.requireAtMostOne(of: ["--switch-to-wal", "--keep-journal"])
  if arguments.has("--switch-to-wal") { return .switchToWAL }
  if arguments.has("--keep-journal") { return .keepJournal }
  guard isatty(0) == 1 else { return nil }
  let question =
    "\(path) has a rollback journal. Watching it as it is takes a read lock after each change, which can "
    + "make another program's commit fail. Type yes to make it a WAL database (a lasting change), or "
    + "anything else to watch it as it is: "
  return TerminalPrompt.confirm(question) == true ? .switchToWAL : .keepJournal
}
