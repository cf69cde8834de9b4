// The output of a run: a table for the terminal, the same as Markdown for the
// README (--markdown), and everything as JSON (--json FILE).

import Foundation
import Sealite

struct MachineFacts: Encodable {
  var cpu: String
  var cores: Int
  var memoryGB: Double
  var system: String
  var sqlite: String
  var sqlcipher: String
  var cryptoProvider: String
  var date: String

  static func current() -> MachineFacts {
    let features = SQLiteFeatures.linked
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    return MachineFacts(
      cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
      memoryGB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824,
      system: ProcessInfo.processInfo.operatingSystemVersionString,
      sqlite: features.sqliteVersion, sqlcipher: features.sqlcipherVersion ?? "none",
      cryptoProvider: [features.cryptoProvider, features.cryptoProviderVersion].compactMap { $0 }.joined(
        separator: " "),
      date: ISO8601DateFormatter().string(from: Date()))
  }

  var lines: [String] {
    [
      "CPU: \(cpu), \(cores) cores, \(String(format: "%.1f", memoryGB)) GB",
      "System: \(system)",
      "SQLCipher \(sqlcipher) (SQLite \(sqlite)), \(cryptoProvider)",
      "Date: \(date)",
    ]
  }
}

struct RunOptions: Encodable {
  var rows: Int
  var rounds: Int
  var lookups: Int
  var commits: Int
  var memoryRows: Int
  var cacheSize: Int?
  var workloads: [String]
  var pragmas: [String]
}

struct Report: Encodable {
  var machine: MachineFacts
  var options: RunOptions
  var results: [ResultRow]
  var targetsMet: Int { results.filter { $0.passed == true }.count }
  var targetsMissed: Int { results.filter { $0.passed == false }.count }

  private enum CodingKeys: String, CodingKey {
    case machine, options, results, targetsMet, targetsMissed
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(machine, forKey: .machine)
    try container.encode(options, forKey: .options)
    try container.encode(results, forKey: .results)
    try container.encode(targetsMet, forKey: .targetsMet)
    try container.encode(targetsMissed, forKey: .targetsMissed)
  }

  func writeJSON(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    try encoder.encode(self).write(to: URL(fileURLWithPath: path))
  }

  // MARK: - Tables

  static let header = [
    "Workload", "Raw C API", "Tight C loop", "Sealite", "Sealite / raw", "Sealite / tight", "Spread",
    "Target",
    "Met",
  ]

  /// The cells of each row, and the footnotes they refer to.
  private func cells() -> (rows: [[String]], footnotes: [String]) {
    var footnotes: [String] = []
    let rows = results.map { result -> [String] in
      var measure = result.measure
      if let baseline = result.baseline {
        footnotes.append("raw: \(baseline)")
        measure += " [\(footnotes.count)]"
      }
      if let note = result.note {
        footnotes.append(note)
        measure += " [\(footnotes.count)]"
      }
      return [
        measure,
        result.raw.map { format($0.median, unit: result.unit) } ?? "–",
        result.tight.map { format($0.median, unit: result.unit) } ?? "–",
        result.sealite.map { format($0.median, unit: result.unit) } ?? "–",
        result.rawRatio.map { String(format: "%.2f×", $0) } ?? "–",
        result.tightRatio.map { String(format: "%.2f×", $0) } ?? "–",
        result.spread.map { String(format: "%.2f×–%.2f×", $0.lower, $0.upper) } ?? "–",
        result.target.map { describe($0, unit: result.unit) } ?? "",
        result.passed.map { $0 ? "yes" : "NO" } ?? "",
      ]
    }
    return (rows, footnotes)
  }

  func format(_ value: Double, unit: String) -> String {
    switch unit {
    case "count": return String(format: "%.0f", value)
    case "ms": return String(format: value < 10 ? "%.2f ms" : "%.1f ms", value)
    default: return String(format: "%.1f %@", value, unit)
    }
  }

  func describe(_ target: Target, unit: String) -> String {
    switch target.kind {
    case .ratio: return String(format: "≤ %g×", target.maximum)
    case .value:
      return unit == "count"
        ? String(format: "%g", target.maximum) : String(format: "≤ %g %@", target.maximum, unit)
    }
  }

  func summary() -> String {
    "\(targetsMet) of \(targetsMet + targetsMissed) targets met"
  }

  func text() -> String {
    let (rows, footnotes) = cells()
    let table = [Report.header] + rows
    let widths = Report.header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        // Text left, numbers right.
        return column == 0 || column >= 7 ? cell + padding : padding + cell
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    var lines = machine.lines + [""]
    lines.append(line(Report.header))
    lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    lines += rows.map(line)
    lines.append("")
    lines += footnotes.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
    lines.append(summary())
    return lines.joined(separator: "\n")
  }

  func markdown() -> String {
    let (rows, footnotes) = cells()
    var lines = machine.lines.map { "- \($0)" }
    lines.append(
      "- \(options.rows) rows, \(options.rounds) rounds after a warm-up, one process, "
        + "encrypted databases (raw 32-byte key unless said); times are each side's median, ratios the "
        + "median of the rounds' ratios, spread their quartiles")
    lines.append("")
    lines.append("| " + Report.header.joined(separator: " | ") + " |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
    lines.append("")
    lines += footnotes.enumerated().map { "\($0.offset + 1). \($0.element)" }
    lines.append("")
    lines.append(summary())
    return lines.joined(separator: "\n")
  }
}
