// The command line: `sealite-bench [options] [workload…]`.

import Foundation

enum Workload: String, CaseIterable {
  case insertStatement = "insert-statement"
  case insertCodable = "insert-codable"
  case cursorIndex = "cursor-index"
  case cursorName = "cursor-name"
  case fetchAllRows = "fetch-all-rows"
  case fetchAllRecords = "fetch-all-records"
  case cursorRecords = "cursor-records"
  case lookup
  case requests
  case upsert
  case upsertAndFetch = "upsert-and-fetch"
  case update
  case save
  case openPool = "open-pool"
  case observationInProcess = "observation-in-process"
  case observationLatency = "observation-latency"
  case memory
  case cacheSize = "cache-size"

  /// Whether the workload reads the shared table of --rows items.
  var readsSharedTable: Bool {
    [.cursorIndex, .cursorName, .fetchAllRows, .fetchAllRecords, .cursorRecords, .lookup, .requests].contains(
      self)
  }
}

struct CommandLineOptions {
  var workloads: [Workload] = []
  var jsonPath: String?
  var markdown = false
  var rows = 100_000
  var rounds = 11
  var lookups = 20_000
  var requests = 10_000
  var commits = 1_000
  var memoryRows = 1_000_000
  var cacheSize: Int?

  static let usage = """
    usage: sealite-bench [options] [workload…]   (no workload: all of them)

    Each workload runs the same work with Sealite and with the SQLCipher C API,
    in this process, on encrypted databases, and prints each side's median, the
    ratios Sealite / raw and Sealite / tight C loop (medians of the rounds'
    ratios), and their spread (quartiles).

    workloads: \(Workload.allCases.map(\.rawValue).joined(separator: " "))

    options:
      --rounds N        rounds after the warm-up round (default 11)
      --rows N          rows of the insert and fetch workloads (default 100000)
      --lookups N       primary-key lookups (default 20000)
      --requests N      small query-interface requests (default 10000)
      --commits N       commits of the observation workloads (default 1000)
      --memory-rows N   rows of the memory workload (default 1000000)
      --cache-size N    PRAGMA cache_size for both sides (Configuration.pageCacheSize;
                        default: -16384 on encrypted connections, as Sealite's)
      --json FILE       write every result (with per-round values) as JSON
      --markdown        print the table as Markdown, for the README

    For profiling one side (perf record …), SEALITE_BENCH_SIDE=raw or
    SEALITE_BENCH_SIDE=sealite runs only that side of each comparison.
    """

  static func parse(_ arguments: [String]) throws -> CommandLineOptions {
    var options = CommandLineOptions()
    var arguments = arguments[...]
    func number(_ name: String, minimum: Int = 1) throws -> Int {
      guard let text = arguments.popFirst(), let value = Int(text), value >= minimum else {
        throw BenchError("\(name) needs a number ≥ \(minimum)")
      }
      return value
    }
    while let argument = arguments.popFirst() {
      switch argument {
      case "-h", "--help":
        print(usage)
        exit(0)
      case "--rounds": options.rounds = try number(argument)
      case "--rows": options.rows = try number(argument)
      case "--lookups": options.lookups = try number(argument)
      case "--requests": options.requests = try number(argument)
      case "--commits": options.commits = try number(argument)
      case "--memory-rows": options.memoryRows = try number(argument)
      case "--cache-size":
        guard let text = arguments.popFirst(), let value = Int(text) else {
          throw BenchError("--cache-size needs a number (negative: KiB, positive: pages)")
        }
        options.cacheSize = value
      case "--json":
        guard let path = arguments.popFirst() else { throw BenchError("--json needs a file") }
        options.jsonPath = path
      case "--markdown": options.markdown = true
      default:
        guard let workload = Workload(rawValue: argument) else {
          throw BenchError("unknown workload or option \(argument)\n\n\(usage)")
        }
        options.workloads.append(workload)
      }
    }
    if options.workloads.isEmpty { options.workloads = Workload.allCases }
    return options
  }
}
