// Workload 8: ValueObservation latency, from the return of a commit to the
// onChange callback that delivers that value (or a later one).
//
//   observation-in-process  a DatabasePool of this process commits --commits
//     values, 3 ms apart; a ValueObservation on the same pool delivers them
//     with `.async(onQueue:)`. Targets: median ≤0.1 ms, p99 ≤0.5 ms, 0 missed.
//   observation-latency  one writer process commits --commits values to an
//     encrypted WAL database, 10 ms apart; one reader process observes it with
//     a ValueObservation (both are `sealite-watch`, built next to this
//     executable). Measured with inotify, then with polling, using the wall
//     clock of this one machine. Targets (inotify): median ≤2 ms, p99 ≤10 ms,
//     0 missed.
//
// A commit is missed when no value at or past it is ever delivered; it is
// coalesced when its own value is not delivered but a later one is.

import Dispatch
import Foundation
import Sealite
import Synchronization

enum ObservationLatency {
  /// Latencies, in milliseconds, of the commits that were seen.
  struct Outcome {
    var latencies: [Double]
    var missed: Int
    var coalesced: Int
    var commits: Int

    /// `commitTimes[v]` is when value v was committed; `deliveries` are the
    /// values delivered and when, in delivery order.
    init(commitTimes: [Int: Double], deliveries: [(value: Int, time: Double)]) {
      let delivered = Set(deliveries.map(\.value))
      // The first delivery of each value, and the earliest delivery of any
      // value at or past v, scanning values from the top.
      var firstTime: [Int: Double] = [:]
      for delivery in deliveries where firstTime[delivery.value] == nil {
        firstTime[delivery.value] = delivery.time
      }
      var earliestAtOrPast: [Int: Double] = [:]
      var earliest = Double.infinity
      let lowest = commitTimes.keys.min() ?? 1
      let highest = max(lowest, commitTimes.keys.max() ?? 1, deliveries.map(\.value).max() ?? 1)
      for value in stride(from: highest, through: lowest, by: -1) {
        if let time = firstTime[value] { earliest = min(earliest, time) }
        earliestAtOrPast[value] = earliest
      }
      latencies = []
      missed = 0
      coalesced = 0
      for (value, commitTime) in commitTimes {
        guard let seen = earliestAtOrPast[value], seen.isFinite else {
          missed += 1
          continue
        }
        if !delivered.contains(value) { coalesced += 1 }
        latencies.append(max(0, seen - commitTime))
      }
      latencies.sort()
      commits = commitTimes.count
    }

    var median: Double { percentile(latencies, 0.5) }
    var p99: Double { percentile(latencies, 0.99) }
    var note: String {
      String(
        format: "%d commits, %d coalesced, max %.2f ms", commits, coalesced, latencies.last ?? .nan)
    }
  }

  // MARK: - In process

  final class Deliveries: Sendable {
    let values = Mutex<[(value: Int, time: Double)]>([])
    let last = DispatchSemaphore(value: 0)
  }

  static func inProcess(_ context: BenchContext) throws -> [ResultRow] {
    let path = context.path("observation")
    defer { context.remove(path) }
    let dbPool = try DatabasePool(path: path, configuration: context.configuration())
    defer { try? dbPool.close() }
    try dbPool.write { db in
      try db.execute(
        sql: """
          CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
          INSERT INTO counter (id, value) VALUES (1, 0);
          """)
    }
    let commits = context.commits
    let deliveries = Deliveries()
    let queue = DispatchQueue(label: "sealite-bench.observation")
    let observation = ValueObservation.tracking { db in
      try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE id = 1") ?? 0
    }
    let cancellable = observation.start(
      in: dbPool, scheduling: .async(onQueue: queue), onError: { progress("observation failed: \($0)") },
      onChange: { value in
        let time = nowMilliseconds()
        deliveries.values.withLock { $0.append((value, time)) }
        if value == commits { deliveries.last.signal() }
      })
    defer { cancellable.cancel() }
    // Let the first value (0) arrive before committing.
    Thread.sleep(forTimeInterval: 0.1)
    var commitTimes: [Int: Double] = [:]
    for value in 1...commits {
      try dbPool.write { db in
        try db.execute(sql: "UPDATE counter SET value = ? WHERE id = 1", arguments: [value])
      }
      commitTimes[value] = nowMilliseconds()
      Thread.sleep(forTimeInterval: 0.003)
    }
    _ = deliveries.last.wait(timeout: .now() + 10)
    let outcome = Outcome(
      commitTimes: commitTimes, deliveries: deliveries.values.withLock { $0 }.filter { $0.value > 0 })
    progress(
      String(
        format: "  observation-in-process: median %.3f ms, p99 %.3f ms, %d missed (%@)", outcome.median,
        outcome.p99, outcome.missed, outcome.note))
    let name = "observation-in-process"
    return [
      .value(
        name, "in-process commit → callback, median", unit: "ms", [outcome.median], target: 0.1,
        note: outcome.note),
      .value(name, "in-process commit → callback, p99", unit: "ms", [outcome.p99], target: 0.5),
      .value(name, "in-process commits missed", unit: "count", [Double(outcome.missed)], target: 0),
    ]
  }

  // MARK: - Across processes

  /// The `sealite-watch` helper, built next to this executable.
  static var watchPath: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("sealite-watch").path
  }

  static func crossProcess(_ context: BenchContext) throws -> [ResultRow] {
    guard FileManager.default.isExecutableFile(atPath: watchPath) else {
      throw BenchError(
        "observation-latency needs sealite-watch next to sealite-bench: "
          + "swift build -c release --product sealite-watch (make bench builds it)")
    }
    var rows: [ResultRow] = []
    for polling in [false, true] {
      let outcome = try crossProcess(context, polling: polling)
      let mode = polling ? "polling" : "inotify"
      progress(
        String(
          format: "  observation-latency %@: median %.2f ms, p99 %.2f ms, %d missed (%@)", mode,
          outcome.median, outcome.p99, outcome.missed, outcome.note))
      let name = "observation-latency"
      rows += [
        .value(
          name, "cross-process commit → callback (\(mode)), median", unit: "ms", [outcome.median],
          target: polling ? nil : 2, note: outcome.note),
        .value(
          name, "cross-process commit → callback (\(mode)), p99", unit: "ms", [outcome.p99],
          target: polling ? nil : 10),
        .value(
          name, "cross-process commits missed (\(mode))", unit: "count", [Double(outcome.missed)], target: 0),
      ]
    }
    return rows
  }

  static func crossProcess(_ context: BenchContext, polling: Bool) throws -> Outcome {
    let path = context.path("cross-process")
    defer { context.remove(path) }
    var config = try context.configuration()
    config.publishesChangedTables = true
    let setup = try DatabasePool(path: path, configuration: config)
    try setup.write { db in
      try db.execute(
        sql: """
          CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
          INSERT INTO counter (id, value) VALUES (1, 0);
          CREATE TABLE unrelated (id INTEGER PRIMARY KEY);
          """)
    }
    try setup.close()

    let commits = context.commits
    let (reader, readerOutput) = try spawn(
      ["observe", path, "--until", "\(commits)", "--timestamps"] + (polling ? ["--polling"] : []),
      key: context.rawKey)
    var readerLines = readLines(readerOutput.fileHandleForReading, until: "ready")
    let (writer, writerOutput) = try spawn(
      ["write", path, "--commits", "\(commits)", "--publish-tables", "--timestamps", "--interval", "0.01"],
      key: context.rawKey)
    let writerLines = readLines(writerOutput.fileHandleForReading, until: "done")
    readerLines += readLines(readerOutput.fileHandleForReading, until: "unrelated-changes")
    writer.waitUntilExit()
    reader.waitUntilExit()
    guard writer.terminationStatus == 0, reader.terminationStatus == 0 else {
      throw BenchError("observation-latency: sealite-watch failed (see its messages above)")
    }
    // Seconds since 1970 in the helpers' lines; milliseconds here.
    let commitTimes = timestamps(writerLines, kind: "commit").first.mapValues { $0 * 1000 }
    let deliveries = timestamps(readerLines, kind: "value").all.map { (value: $0.0, time: $0.1 * 1000) }
    return Outcome(commitTimes: commitTimes, deliveries: deliveries.filter { $0.value > 0 })
  }

  /// Runs `sealite-watch` with the key on standard input; returns its process and output pipe.
  static func spawn(_ arguments: [String], key: BenchKey) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: watchPath)
    process.arguments = arguments
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data((key.hex + "\n").utf8))
    try input.fileHandleForWriting.close()
    return (process, output)
  }

  /// Reads lines until one starts with `prefix` (or the pipe ends); returns all lines read.
  static func readLines(_ handle: FileHandle, until prefix: String) -> [String] {
    var lines: [String] = []
    var buffer = Data()
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        lines.append(line)
        if line.hasPrefix(prefix) { return lines }
      }
    }
    return lines
  }

  /// The `commit V T` or `value V T` lines: every one in order, and the first time of each value.
  static func timestamps(_ lines: [String], kind: String) -> (all: [(Int, Double)], first: [Int: Double]) {
    var all: [(Int, Double)] = []
    var first: [Int: Double] = [:]
    for line in lines {
      let parts = line.split(separator: " ")
      guard parts.count == 3, parts[0] == kind, let value = Int(parts[1]), let time = Double(parts[2]) else {
        continue
      }
      all.append((value, time))
      if first[value] == nil { first[value] = time }
    }
    return (all, first)
  }
}
