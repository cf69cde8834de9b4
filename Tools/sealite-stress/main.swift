// sealite-stress: the processes of the reliability tests. Every database is
// encrypted, and every key comes from the Secret Service keyring (run under
// scripts/with-keyring; create the database with `dbkey init` first), so no
// key is ever on a command line, in the environment or in the output.
//
//   sealite-stress bank-setup PATH --accounts N --balance B
//   sealite-stress bank-write PATH --transfers N --writer W [--seed S]
//   sealite-stress bank-read PATH --until T [--seed S]
//   sealite-stress crash-write PATH [--queue]
//   sealite-stress check PATH
//   sealite-stress wait-for-signal DIR
//
// bank-*: accounts(id, balance) and transfers(writer, seq). A writer moves
// random amounts between random accounts, one transfer per transaction (two
// updates and an insert), and prints `done N`. A reader checks, in every
// snapshot it reads (plain reads, and every value a ValueObservation
// delivers), that the balances add up to the starting total; it stops once
// the observation shows T transfers, and prints `snapshots K`, `violations V`,
// `observed-final T`, `total X`. Any error (SQLITE_BUSY included) ends a
// process with status 1 and a message.
//
// crash-write: inserts rows seq = max + 1, max + 2, … in a table `log`, each
// in its own transaction that also sets `head.seq` to the same value, and
// prints `committed SEQ` once each commit returned — until it is killed.
//
// check: `integrity` (integrity_check), `cipher` (cipher_integrity_check, or
// `unsupported`), `rows` (count of `log`), `max` and `head` (0 if absent),
// `gaps` (missing sequence numbers), `checksum` (of every row of every table).
//
// wait-for-signal: moves to DIR, unblocks every signal (a test runner's
// threads may block some, and a child inherits the mask), gives SIGABRT its
// default action (not the Swift runtime's backtracer), prints `ready` and
// sleeps: the control of the core-dump tests, a program that keeps the default
// actions.

import Dispatch
import Foundation
import Sealite
import SealiteKeyring
import Synchronization

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("sealite-stress: \(message)\n".utf8))
  exit(1)
}

/// Prints a line at once (standard output is a pipe).
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct Options {
  var command = ""
  var path = ""
  var numbers: [String: Int] = [:]
  var flags: Set<String> = []

  func number(_ name: String, default value: Int? = nil) -> Int {
    guard let number = numbers[name] ?? value else { fail("\(name) is required") }
    return number
  }
}

func parseOptions() -> Options {
  var arguments = Array(CommandLine.arguments.dropFirst())
  guard arguments.count >= 2 else { fail("usage: sealite-stress COMMAND PATH [options]") }
  var options = Options()
  options.command = arguments.removeFirst()
  options.path = arguments.removeFirst()
  while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "--queue" {
      options.flags.insert(argument)
    } else if argument.hasPrefix("--"), let text = arguments.first, let value = Int(text) {
      arguments.removeFirst()
      options.numbers[argument] = value
    } else {
      fail("bad argument \(argument)")
    }
  }
  return options
}

/// A small deterministic generator (SplitMix64), so that a run can be replayed.
struct Generator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

func configuration(_ path: String) throws -> Configuration {
  var config = Configuration()
  try config.useKeyFromKeyring(for: KeyringDatabase(path: path))
  // Writers wait for each other; none may see SQLITE_BUSY.
  config.busyMode = .timeout(60)
  // The readers observe the writer processes' commits.
  config.observesOtherProcesses = true
  return config
}

func bankSetup(_ options: Options) throws {
  let pool = try DatabasePool(path: options.path, configuration: configuration(options.path))
  let accounts = options.number("--accounts")
  let balance = options.number("--balance")
  try pool.write { db in
    try db.execute(
      sql: """
        CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
        CREATE TABLE transfers (writer INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (writer, seq));
        """)
    for id in 1...accounts {
      try db.execute(sql: "INSERT INTO accounts (id, balance) VALUES (?, ?)", arguments: [id, balance])
    }
  }
  try pool.close()
  emit("total \(accounts * balance)")
}

func bankWrite(_ options: Options) throws {
  let pool = try DatabasePool(path: options.path, configuration: configuration(options.path))
  let transfers = options.number("--transfers")
  let writer = options.number("--writer")
  var generator = Generator(state: UInt64(options.number("--seed", default: writer)))
  let accounts = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accounts") ?? 0 }
  guard accounts >= 2 else { fail("run bank-setup first") }
  for seq in 1...transfers {
    let from = 1 + generator.next(below: accounts)
    let to = 1 + (from + generator.next(below: accounts - 1)) % accounts
    let amount = 1 + generator.next(below: 100)
    try pool.write { db in
      try db.execute(
        sql: "UPDATE accounts SET balance = balance - ? WHERE id = ?", arguments: [amount, from])
      try db.execute(sql: "UPDATE accounts SET balance = balance + ? WHERE id = ?", arguments: [amount, to])
      try db.execute(sql: "INSERT INTO transfers (writer, seq) VALUES (?, ?)", arguments: [writer, seq])
    }
  }
  try pool.close()
  emit("done \(transfers)")
}

/// One snapshot of the bank: the sum of the balances and the transfer count.
struct Snapshot: Equatable, Sendable {
  var total: Int
  var transfers: Int

  static func fetch(_ db: Database) throws -> Snapshot {
    Snapshot(
      total: try Int.fetchOne(db, sql: "SELECT SUM(balance) FROM accounts") ?? 0,
      transfers: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transfers") ?? 0)
  }
}

func bankRead(_ options: Options) throws {
  let pool = try DatabasePool(path: options.path, configuration: configuration(options.path))
  let target = options.number("--until")
  let expected = try pool.read { db in try Snapshot.fetch(db) }.total
  struct Progress {
    var snapshots = 0
    var violations = 0
    var last = 0
    var backwards = 0
    var finished = false
  }
  let progress = Mutex(Progress())
  let finished = DispatchSemaphore(value: 0)
  let observation = ValueObservation.tracking(Snapshot.fetch).start(
    in: pool, scheduling: .async(onQueue: DispatchQueue(label: "sealite-stress.values")),
    onError: { fail("observation failed: \($0)") },
    onChange: { snapshot in
      let done = progress.withLock { progress -> Bool in
        progress.snapshots += 1
        if snapshot.total != expected { progress.violations += 1 }
        if snapshot.transfers < progress.last { progress.backwards += 1 }
        progress.last = snapshot.transfers
        guard snapshot.transfers >= target, !progress.finished else { return false }
        progress.finished = true
        return true
      }
      if done { finished.signal() }
    })
  // Plain reads too, as fast as they come, until the observation is done.
  while !progress.withLock({ $0.finished }) {
    let snapshot = try pool.read { db in try Snapshot.fetch(db) }
    progress.withLock { progress in
      progress.snapshots += 1
      if snapshot.total != expected { progress.violations += 1 }
    }
    if finished.wait(timeout: .now() + .milliseconds(2)) == .success {
      finished.signal()
      break
    }
  }
  guard finished.wait(timeout: .now() + 300) == .success else {
    fail("the observation never reached \(target)")
  }
  observation.cancel()
  let final = try pool.read { db in try Snapshot.fetch(db) }
  try pool.close()
  let result = progress.withLock { $0 }
  emit("snapshots \(result.snapshots)")
  emit("violations \(result.violations)")
  emit("backwards \(result.backwards)")
  emit("observed-final \(result.last)")
  emit("final-transfers \(final.transfers)")
  emit("total \(final.total)")
}

func crashWrite(_ options: Options) throws {
  var config = try configuration(options.path)
  let writer: any DatabaseWriter
  if options.flags.contains("--queue") {
    writer = try DatabaseQueue(path: options.path, configuration: config)
  } else {
    writer = try DatabasePool(path: options.path, configuration: config)
  }
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, payload BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
        INSERT OR IGNORE INTO head (id, seq) VALUES (1, 0);
        """)
  }
  var seq = try writer.read { db in try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM log") ?? 0 }
  emit("ready \(seq)")
  while true {
    seq += 1
    let value = seq
    try writer.write { db in
      // Rows of varying size, so that commits touch several pages.
      try db.execute(
        sql: "INSERT INTO log (seq, payload) VALUES (?, randomblob(?))",
        arguments: [value, 100 + value % 3000])
      try db.execute(sql: "UPDATE head SET seq = ?", arguments: [value])
    }
    emit("committed \(value)")
  }
}

func check(_ options: Options) throws {
  // Not read-only: after a crash, opening rolls back a hot journal, as any
  // program's next open does.
  let config = try configuration(options.path)
  let queue = try DatabaseQueue(path: options.path, configuration: config)
  try queue.read { db in
    let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
    emit("integrity \(integrity.joined(separator: "; "))")
    if SQLiteFeatures.linked.sqlcipherVersionNumber?.hasPrefix("3.") == true {
      emit("cipher unsupported")
    } else {
      let messages = try String.fetchAll(db, sql: "PRAGMA cipher_integrity_check")
      emit("cipher \(messages.isEmpty ? "ok" : messages.joined(separator: "; "))")
    }
    let tables = try String.fetchAll(
      db,
      sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    if tables.contains("log") {
      let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM log") ?? 0
      let max = try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM log") ?? 0
      emit("rows \(rows)")
      emit("max \(max)")
      emit("head \(try Int.fetchOne(db, sql: "SELECT seq FROM head") ?? 0)")
      emit("gaps \(max - rows)")
    }
    // A checksum of every row of every table, to compare before and after.
    var hasher = Checksum()
    for table in tables {
      for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid") {
        hasher.add(table)
        for value in row.databaseValues {
          if case .blob(let data) = value.storage {
            hasher.add(bytes: data)
          } else {
            hasher.add(value.description)
          }
        }
      }
    }
    emit("checksum \(String(hasher.value, radix: 16))")
  }
  try queue.close()
}

/// FNV-1a over strings: enough to tell two contents apart in a test.
struct Checksum {
  var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    add(bytes: text.utf8)
  }

  mutating func add(bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value &*= 0x100_0000_01b3
    }
    value ^= 0xff
    value &*= 0x100_0000_01b3
  }
}

let options = parseOptions()
do {
  switch options.command {
  case "bank-setup": try bankSetup(options)
  case "bank-write": try bankWrite(options)
  case "bank-read": try bankRead(options)
  case "crash-write": try crashWrite(options)
  case "check": try check(options)
  case "wait-for-signal":
    guard chdir(options.path) == 0 else { fail("can not enter \(options.path)") }
    var nothing = sigset_t()
    sigemptyset(&nothing)
    pthread_sigmask(SIG_SETMASK, &nothing, nil)
    // The default action, not the Swift runtime's backtracer.
    _ = signal(SIGABRT, SIG_DFL)
    emit("ready")
    sleep(60)
  default: fail("unknown command \(options.command)")
  }
} catch {
  fail("\(error)")
}
