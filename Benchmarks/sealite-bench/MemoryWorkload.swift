// Workload 9: iterating --memory-rows rows (default 1,000,000) in constant
// memory. Each measure runs in a child process (this executable, re-run with
// the hidden workload `memory-child`), so that earlier workloads do not raise
// its peak: the child opens the database, notes VmRSS, reads every row and
// every column, and reports VmHWM (the peak resident set) from /proc/self/status.
//
//   raw-cursor     step + sqlite3_column_*, one Item at a time
//   cursor         Row.fetchCursor, row[0]…row[3]
//   raw-fetch-all  every row collected into [Item], then read
//   fetch-all      Row.fetchAll, then every column read
//
// The key reaches the child on its standard input, never in its arguments.

import CSQLCipher
import Foundation
import Sealite

enum MemoryWorkload {
  struct ChildReport {
    var rssBeforeKB = 0.0
    var peakKB = 0.0
    var milliseconds = 0.0
    var checksum = 0
  }

  static func run(_ context: BenchContext) throws -> [ResultRow] {
    progress("  memory: writing \(context.memoryRows) rows…")
    let path = try context.populatedDatabase("memory", count: context.memoryRows)
    defer { context.remove(path) }
    var reports: [String: ChildReport] = [:]
    for mode in ["raw-cursor", "cursor", "raw-fetch-all", "fetch-all"] {
      let report = try spawnChild(context, mode: mode, path: path)
      progress(
        String(
          format: "  memory %@: peak RSS %.1f MB (%.1f MB before iterating), %.0f ms", mode,
          report.peakKB / 1024, report.rssBeforeKB / 1024, report.milliseconds))
      reports[mode] = report
    }
    let checksums = Set(reports.values.map(\.checksum))
    guard checksums.count == 1 else { throw BenchError("memory: the children read different rows") }
    func megabytes(_ mode: String, _ value: (ChildReport) -> Double) -> [Double] {
      [value(reports[mode]!) / 1024]
    }
    func note(_ raw: String, _ sealite: String) -> String {
      String(
        format: "time raw %.0f ms, Sealite %.0f ms", reports[raw]!.milliseconds,
        reports[sealite]!.milliseconds)
    }
    let rows = context.memoryRows
    return [
      ResultRow(
        workload: "memory", measure: "Row cursor over \(rows) rows, peak RSS", unit: "MB",
        raw: Series(megabytes("raw-cursor", \.peakKB)), sealite: Series(megabytes("cursor", \.peakKB)),
        target: nil, note: note("raw-cursor", "cursor")),
      ResultRow(
        workload: "memory", measure: "Row cursor over \(rows) rows, RSS growth while iterating", unit: "MB",
        raw: Series(megabytes("raw-cursor") { $0.peakKB - $0.rssBeforeKB }),
        sealite: Series(megabytes("cursor") { $0.peakKB - $0.rssBeforeKB }), target: nil, note: nil),
      ResultRow(
        workload: "memory", measure: "Row.fetchAll of \(rows) rows, peak RSS", unit: "MB",
        baseline: "[Item] collected with the C API",
        raw: Series(megabytes("raw-fetch-all", \.peakKB)), sealite: Series(megabytes("fetch-all", \.peakKB)),
        target: nil, note: note("raw-fetch-all", "fetch-all")),
    ]
  }

  static func spawnChild(_ context: BenchContext, mode: String, path: String) throws -> ChildReport {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["memory-child", mode, path, context.cacheSize.map(String.init) ?? "default"]
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data((context.rawKey.hex + "\n").utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError("memory-child \(mode) failed") }
    var report = ChildReport()
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2, let value = Double(parts[1]) else { continue }
      if parts[0] == "checksum" { report.checksum = Int(parts[1]) ?? 0 }
      switch parts[0] {
      case "rss-before-kb": report.rssBeforeKB = value
      case "peak-kb": report.peakKB = value
      case "milliseconds": report.milliseconds = value
      default: break
      }
    }
    return report
  }

  /// A value of /proc/self/status, in kB.
  static func status(_ field: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
      return Double(String(digits)) ?? .nan
    }
    return .nan
  }

  /// The child: `memory-child MODE PATH CACHE_SIZE|default`, raw key on standard input.
  static func child(_ arguments: [String]) throws {
    guard arguments.count == 3, let line = readLine(), let key = BenchKey(rawHex: line) else {
      throw BenchError("usage: memory-child MODE PATH CACHE_SIZE|default, raw key in hex on standard input")
    }
    let (mode, path) = (arguments[0], arguments[1])
    var context = BenchContext(directory: URL(fileURLWithPath: path).deletingLastPathComponent(), key: key)
    context.cacheSize = Int(arguments[2])
    var checksum = 0
    var milliseconds = 0.0
    var rssBefore = 0.0
    switch mode {
    case "raw-cursor", "raw-fetch-all":
      let connection = try context.rawConnection(path, readOnly: true)
      rssBefore = status("VmRSS")
      milliseconds = try timed {
        try connection.execute("BEGIN DEFERRED TRANSACTION")
        checksum =
          try mode == "raw-cursor"
          ? FetchWorkloads.rawCursor(connection) : FetchWorkloads.rawFetchAll(connection)
        try connection.execute("COMMIT TRANSACTION")
      }
    case "cursor", "fetch-all":
      let dbQueue = try DatabaseQueue(path: path, configuration: context.configuration())
      rssBefore = status("VmRSS")
      milliseconds = try timed {
        checksum = try dbQueue.read { db in
          var checksum = Checksum()
          func read(_ row: Row) {
            let id: Int = row[0]
            let name: String = row[1]
            let score: Double = row[2]
            let flag: Int = row[3]
            Item(id: id, name: name, score: score, flag: flag).addTo(&checksum)
          }
          if mode == "cursor" {
            let cursor = try Row.fetchCursor(db, sql: selectItemsSQL)
            while let row = try cursor.next() { read(row) }
          } else {
            for row in try Row.fetchAll(db, sql: selectItemsSQL) { read(row) }
          }
          return checksum.value
        }
      }
    default:
      throw BenchError("memory-child: unknown mode \(mode)")
    }
    print("rss-before-kb \(rssBefore)")
    print("peak-kb \(status("VmHWM"))")
    print("milliseconds \(milliseconds)")
    print("checksum \(checksum)")
  }
}
