// sealite-watch: a writer or an observer process on one encrypted database,
// for the multi-process observation tests and the latency benchmark.
//
//   sealite-watch write PATH --commits N [--queue] [--publish-tables] [--timestamps] [--interval SECONDS]
//   sealite-watch observe PATH --until N [--queue] [--timestamps] [--polling] [--timeout SECONDS]
//
// The key is read from standard input (one line: 64 hex digits, or "none"),
// never from the command line or the environment. The database must hold the
// tables `counter(id INTEGER PRIMARY KEY, value INTEGER)` with row 1, and
// `unrelated(id INTEGER PRIMARY KEY)`.
//
// `write` sets counter.value to 1…N, one transaction each, and prints
// `done N`. `observe` prints `ready` once its observations run, then, when it
// sees value N: `final N`, `values-seen K`, `backwards B` (values that went
// back in time), `unrelated-refreshes R` (fetches of an observation of the
// unrelated table after its first), `unrelated-changes C` (region observation
// notifications). With --timestamps, each commit or value is printed with the
// wall-clock time, for latency measurements.

import Dispatch
import Foundation
import Sealite
import Synchronization

struct Options {
  var command = ""
  var path = ""
  var count = 0
  var useQueue = false
  var publishTables = false
  var timestamps = false
  var polling = false
  var timeout: TimeInterval = 120
  var interval: TimeInterval = 0
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("sealite-watch: \(message)\n".utf8))
  exit(64)
}

func parseOptions() -> Options {
  var options = Options()
  var arguments = Array(CommandLine.arguments.dropFirst())
  guard arguments.count >= 2 else {
    fail("usage: sealite-watch write|observe PATH (--commits N | --until N) [options]")
  }
  options.command = arguments.removeFirst()
  options.path = arguments.removeFirst()
  guard ["write", "observe"].contains(options.command) else { fail("unknown command \(options.command)") }
  func number(_ name: String) -> Double {
    guard !arguments.isEmpty, let value = Double(arguments.removeFirst()), value >= 0 else {
      fail("\(name) needs a non-negative number")
    }
    return value
  }
  while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--commits", "--until": options.count = Int(number(argument))
    case "--queue": options.useQueue = true
    case "--publish-tables": options.publishTables = true
    case "--timestamps": options.timestamps = true
    case "--polling": options.polling = true
    case "--timeout": options.timeout = number(argument)
    case "--interval": options.interval = number(argument)
    default: fail("unknown option \(argument)")
    }
  }
  guard options.count > 0 else { fail("--commits or --until is required") }
  return options
}

func readKey() -> DatabaseKey? {
  guard let line = readLine(strippingNewline: true) else { fail("no key on standard input") }
  if line == "none" { return nil }
  var bytes: [UInt8] = []
  var index = line.startIndex
  while index < line.endIndex {
    let next = line.index(index, offsetBy: 2, limitedBy: line.endIndex) ?? line.endIndex
    guard let byte = UInt8(line[index..<next], radix: 16) else { fail("the key is not hexadecimal") }
    bytes.append(byte)
    index = next
  }
  do {
    return try .raw(Data(bytes))
  } catch {
    fail("invalid key: \(error)")
  }
}

/// Prints a line at once (standard output is a pipe).
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func now() -> String { String(format: "%.6f", Date().timeIntervalSince1970) }

func open(_ options: Options, key: DatabaseKey?) throws -> any DatabaseWriter {
  var config = Configuration()
  config.key = key
  config.busyMode = .timeout(30)
  config.publishesChangedTables = options.publishTables
  // Observers of this tool exist to see the other processes' commits.
  config.observesOtherProcesses = true
  config.observesOtherProcessesByPolling = options.polling
  if options.useQueue {
    config.journalMode = .wal
    return try DatabaseQueue(path: options.path, configuration: config)
  }
  return try DatabasePool(path: options.path, configuration: config)
}

func write(_ options: Options, key: DatabaseKey?) throws {
  let writer = try open(options, key: key)
  for value in 1...options.count {
    try writer.write { db in
      try db.execute(sql: "UPDATE counter SET value = ? WHERE id = 1", arguments: [value])
    }
    if options.timestamps { emit("commit \(value) \(now())") }
    if options.interval > 0 { Thread.sleep(forTimeInterval: options.interval) }
  }
  emit("done \(options.count)")
}

func observe(_ options: Options, key: DatabaseKey?) throws {
  let reader = try open(options, key: key)
  struct Progress {
    var values: [Int] = []
    var backwards = 0
    var unrelatedFetches = 0
    var unrelatedChanges = 0
    var isReady = false
  }
  let progress = Mutex(Progress())
  let finished = DispatchSemaphore(value: 0)
  let target = options.count
  let queue = DispatchQueue(label: "sealite-watch.values")

  let unrelated = ValueObservation.tracking { db in
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unrelated") ?? 0
  }.handleEvents(willFetch: { progress.withLock { $0.unrelatedFetches += 1 } })
  let unrelatedCancellable = unrelated.start(
    in: reader, scheduling: .async(onQueue: queue), onError: { fail("observation failed: \($0)") },
    onChange: { _ in })
  let regionCancellable = DatabaseRegionObservation(tracking: Table("unrelated")).start(
    in: reader, onError: { fail("region observation failed: \($0)") },
    onChange: { _ in progress.withLock { $0.unrelatedChanges += 1 } })

  let counter = ValueObservation.tracking { db in
    try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE id = 1") ?? 0
  }
  let counterCancellable = counter.start(
    in: reader, scheduling: .async(onQueue: queue), onError: { fail("observation failed: \($0)") },
    onChange: { value in
      let ready = progress.withLock { progress -> Bool in
        if let last = progress.values.last, value < last { progress.backwards += 1 }
        progress.values.append(value)
        defer { progress.isReady = true }
        return !progress.isReady
      }
      if ready { emit("ready") }
      if options.timestamps { emit("value \(value) \(now())") }
      if value >= target { finished.signal() }
    })

  let outcome = finished.wait(timeout: .now() + options.timeout)
  // Let late notifications of the unrelated observations arrive before counting.
  Thread.sleep(forTimeInterval: 0.3)
  let final = progress.withLock { $0 }
  counterCancellable.cancel()
  unrelatedCancellable.cancel()
  regionCancellable.cancel()
  guard outcome == .success else {
    fail("timed out at value \(final.values.last.map(String.init) ?? "none") waiting for \(target)")
  }
  emit("final \(final.values.last ?? -1)")
  emit("values-seen \(final.values.count)")
  emit("backwards \(final.backwards)")
  emit("unrelated-refreshes \(max(0, final.unrelatedFetches - 1))")
  emit("unrelated-changes \(final.unrelatedChanges)")
}

let options = parseOptions()
let key = readKey()
do {
  switch options.command {
  case "write": try write(options, key: key)
  default: try observe(options, key: key)
  }
} catch {
  fail("\(error)")
}
