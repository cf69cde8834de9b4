// sealite-bench: Sealite against the SQLCipher C API, in one process, on
// encrypted databases. `sealite-bench --help` lists the workloads and options;
// each workload's file says what it measures and what its raw side does, and
// RawSQLite.swift how the raw connections are set up like Sealite's.
//
// Progress goes to standard error; the table, to standard output.

import Foundation

func runBenchmarks() throws {
  let options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("sealite-bench-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  var context = BenchContext(directory: directory)
  context.rows = options.rows
  context.rounds = options.rounds
  context.lookups = options.lookups
  context.requests = options.requests
  context.commits = options.commits
  context.memoryRows = options.memoryRows
  context.cacheSize = options.cacheSize

  var sharedTable: String?
  func table() throws -> String {
    if let sharedTable { return sharedTable }
    progress("writing the shared table of \(context.rows) rows…")
    let path = try context.populatedDatabase("fetch", count: context.rows)
    sharedTable = path
    return path
  }

  var results: [ResultRow] = []
  for workload in options.workloads {
    progress("\(workload.rawValue)…")
    switch workload {
    case .insertStatement: results += try InsertWorkloads.statement(context)
    case .insertCodable: results += try InsertWorkloads.codable(context)
    case .cursorIndex: results += try FetchWorkloads.cursorByIndex(context, path: table())
    case .cursorName: results += try FetchWorkloads.cursorByName(context, path: table())
    case .fetchAllRows: results += try FetchWorkloads.fetchAllRows(context, path: table())
    case .fetchAllRecords: results += try FetchWorkloads.fetchAllRecords(context, path: table())
    case .cursorRecords: results += try FetchWorkloads.cursorRecords(context, path: table())
    case .lookup: results += try LookupWorkload.run(context, path: table())
    case .requests: results += try LookupWorkload.requests(context, path: table())
    case .upsert: results += try PersistenceWorkloads.upsert(context)
    case .upsertAndFetch: results += try PersistenceWorkloads.upsertAndFetch(context)
    case .update: results += try PersistenceWorkloads.update(context)
    case .save: results += try PersistenceWorkloads.save(context)
    case .openPool: results += try OpenWorkload.run(context)
    case .observationInProcess: results += try ObservationLatency.inProcess(context)
    case .observationLatency: results += try ObservationLatency.crossProcess(context)
    case .memory: results += try MemoryWorkload.run(context)
    case .cacheSize: results += try CacheSizeWorkload.run(context)
    }
  }

  let report = Report(
    machine: .current(),
    options: RunOptions(
      rows: context.rows, rounds: context.rounds, lookups: context.lookups, commits: context.commits,
      memoryRows: context.memoryRows, cacheSize: context.cacheSize,
      workloads: options.workloads.map(\.rawValue),
      pragmas: [
        "busy_timeout 0", "cipher_log_level = NONE", "foreign_keys = ON", "temp_store = MEMORY",
        "cache_size = \(context.cacheSize.map(String.init) ?? "-16384 (Sealite's default for encrypted connections)")",
      ]),
    results: results)
  print(options.markdown ? report.markdown() : report.text())
  // The report out first (fflush(nil) flushes every stream: Swift 6 refuses the
  // global `stdout`): redirected, standard output is buffered and standard
  // error is not, so a message written before the buffer went out would land
  // inside the table (`make bench ARGS='--markdown --json out.json' > run.md 2>&1`).
  fflush(nil)
  if let jsonPath = options.jsonPath {
    try report.writeJSON(to: jsonPath)
    progress("results written to \(jsonPath)")
  }
}

do {
  if CommandLine.arguments.dropFirst().first == "memory-child" {
    try MemoryWorkload.child(Array(CommandLine.arguments.dropFirst(2)))
  } else {
    try runBenchmarks()
  }
} catch {
  progress("sealite-bench: \(error)")
  exit(1)
}
