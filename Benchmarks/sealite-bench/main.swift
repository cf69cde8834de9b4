// sealite-bench: Sealite's benchmarks. Each workload prints one line per
// measure; ratios against the raw SQLite C API are computed in the same run.
//
//   sealite-bench [workload…]     workloads: observation-latency (default: all)
//
// observation-latency: one writer process commits to an encrypted WAL
// database, 10 ms apart; one reader process observes it with a
// ValueObservation. The latency of a commit is the time from the end of the
// commit in the writer to the reader's first onChange callback with that value
// or a later one, measured with the wall clock of this one machine. Reported:
// median and p99 over every commit, with inotify and with polling.

import Foundation
import Sealite

/// The `sealite-watch` helper, built next to this executable.
let watchPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("sealite-watch").path

/// Runs `sealite-watch` with the key on standard input; returns its process and output pipe.
func spawn(_ arguments: [String], key: String) throws -> (Process, Pipe) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: watchPath)
  process.arguments = arguments
  let output = Pipe()
  let input = Pipe()
  process.standardOutput = output
  process.standardInput = input
  try process.run()
  input.fileHandleForWriting.write(Data((key + "\n").utf8))
  try input.fileHandleForWriting.close()
  return (process, output)
}

/// Reads lines until one starts with `prefix` (or the pipe ends); returns all lines read.
func readLines(_ handle: FileHandle, until prefix: String) -> [String] {
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

/// Timestamps by value, from `commit V T` or `value V T` lines.
func timestamps(_ lines: [String], kind: String) -> [Int: Double] {
  var result: [Int: Double] = [:]
  for line in lines {
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == kind, let value = Int(parts[1]), let time = Double(parts[2]) else {
      continue
    }
    if result[value] == nil { result[value] = time }
  }
  return result
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
  return sorted[index]
}

func observationLatency(polling: Bool, commits: Int) throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("sealite-bench-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("db.sqlite").path
  let keyData = (0..<32).map { _ in UInt8.random(in: 0...255) }
  let key = keyData.map { String(format: "%02x", $0) }.joined()
  var config = Configuration()
  config.key = try .raw(Data(keyData))
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

  let (reader, readerOutput) = try spawn(
    ["observe", path, "--until", "\(commits)", "--timestamps"] + (polling ? ["--polling"] : []), key: key)
  var readerLines = readLines(readerOutput.fileHandleForReading, until: "ready")
  let (writer, writerOutput) = try spawn(
    ["write", path, "--commits", "\(commits)", "--publish-tables", "--timestamps", "--interval", "0.01"],
    key: key)
  let writerLines = readLines(writerOutput.fileHandleForReading, until: "done")
  readerLines += readLines(readerOutput.fileHandleForReading, until: "unrelated-changes")
  writer.waitUntilExit()
  reader.waitUntilExit()

  let commitTimes = timestamps(writerLines, kind: "commit")
  let valueTimes = timestamps(readerLines, kind: "value")
  // A commit is seen when the reader first delivers its value or a later one.
  let deliveries = valueTimes.sorted { $0.key < $1.key }
  var latencies: [Double] = []
  for (value, commitTime) in commitTimes {
    let seen = deliveries.filter { $0.key >= value }.map(\.value).min()
    if let seen { latencies.append((seen - commitTime) * 1000) }
  }
  latencies.sort()
  let mode = polling ? "polling" : "inotify"
  print(
    String(
      format:
        "observation-latency %@: %d commits, %d values delivered, commit to callback: "
        + "median %.2f ms, p99 %.2f ms, max %.2f ms",
      mode, commits, valueTimes.count, percentile(latencies, 0.5), percentile(latencies, 0.99),
      latencies.last ?? .nan))
}

let workloads = Array(CommandLine.arguments.dropFirst())
let all = ["observation-latency"]
for workload in workloads.isEmpty ? all : workloads {
  switch workload {
  case "observation-latency":
    let commits =
      ProcessInfo.processInfo.environment["SEALITE_BENCH_LATENCY_COMMITS"].flatMap(Int.init) ?? 300
    try observationLatency(polling: false, commits: commits)
    try observationLatency(polling: true, commits: commits)
  default:
    FileHandle.standardError.write(Data("sealite-bench: unknown workload \(workload)\n".utf8))
    exit(64)
  }
}
