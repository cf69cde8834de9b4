// The measuring loop shared by every timed workload: a warm-up round, then N
// rounds that alternate which side runs first, and the median of each side
// (the ratios are the medians of the rounds' ratios: see RoundRatios).

import Dispatch
import Foundation
import Sealite

/// Monotonic time in milliseconds.
func nowMilliseconds() -> Double {
  Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
}

/// Runs `body` and returns how long it took, in milliseconds.
func timed(_ body: () throws -> Void) rethrows -> Double {
  let start = nowMilliseconds()
  try body()
  return nowMilliseconds() - start
}

/// The median: the middle value, or the mean of the two middle values.
func medianOf(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The value at `fraction` of a sorted array (nearest rank).
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
  return sorted[index]
}

/// One side of a comparison: a round returns its time in milliseconds and a
/// checksum of what it read or wrote, so that both sides are seen to do the
/// same work and the optimizer can not drop it.
struct Side {
  var name: String
  var round: () throws -> (milliseconds: Double, checksum: Int)
}

/// Another way to do a workload's work, timed in the same rounds: another
/// Sealite API, or the tight loop doing more (a floor). Its row shows it in
/// the Sealite column, against the same raw and tight times, and has no
/// target. Exactly one of `sealite` and `tight` is given.
struct Alternative {
  var measure: String
  var note: String?
  var sealite: ((Database) throws -> Int)?
  /// Runs on a tight connection: the workload's own for a read, one to a
  /// database of its own for a write.
  var tight: ((RawConnection) throws -> Int)?
}

/// The times of the sides of a comparison.
struct Comparison {
  var raw: [Double]
  /// The tight C loop, when the workload has one.
  var tight: [Double]?
  var sealite: [Double]
}

/// Runs a warm-up round, then `rounds` rounds of each side, each round
/// starting with the next side in turn. Throws if the checksums of the sides
/// ever differ.
func compare(_ name: String, rounds: Int, raw: Side, tight: Side? = nil, sealite: Side) throws -> Comparison {
  let times = try compare(name, rounds: rounds, sides: [raw] + (tight.map { [$0] } ?? []) + [sealite])
  let comparison = Comparison(
    raw: times[0], tight: tight == nil ? nil : times[1], sealite: times[times.count - 1])
  progress(name, comparison, rounds: rounds)
  return comparison
}

/// Prints the medians of a comparison's sides.
func progress(_ name: String, _ comparison: Comparison, rounds: Int) {
  progress(
    String(
      format: "  %@: raw %.1f ms, tight %.1f ms, Sealite %.1f ms (medians of %d rounds)", name,
      medianOf(comparison.raw), medianOf(comparison.tight ?? [.nan]), medianOf(comparison.sealite), rounds))
}

/// For profiling: with SEALITE_BENCH_SIDE=raw or sealite, only the sides
/// whose names start with it run (the others report NaN).
let onlySide = ProcessInfo.processInfo.environment["SEALITE_BENCH_SIDE"]?.lowercased()

/// Runs a warm-up round, then `rounds` rounds of every side, each round
/// starting with the next side in turn; returns the times of each side, in
/// the order given. Throws if the sides' checksums ever differ.
func compare(_ name: String, rounds: Int, sides: [Side]) throws -> [[Double]] {
  var times = Array(repeating: [Double](), count: sides.count)
  for round in 0...rounds {
    var checksums = Array(repeating: 0, count: sides.count)
    for offset in sides.indices {
      let index = (round + offset) % sides.count
      if let onlySide, !sides[index].name.lowercased().hasPrefix(onlySide) {
        times[index].append(.nan)
        continue
      }
      let (milliseconds, checksum) = try sides[index].round()
      checksums[index] = checksum
      // Round 0 warms up: caches, statement compilation, page cache.
      if round > 0 { times[index].append(milliseconds) }
    }
    guard onlySide != nil || Set(checksums).count == 1 else {
      let described = zip(sides, checksums).map { "\($0.name) \($1)" }.joined(separator: ", ")
      throw BenchError("\(name): the sides did different work (checksums \(described))")
    }
  }
  return times
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Progress goes to standard error, so that standard output holds the table.
func progress(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A checksum that mixes values in order (FNV-style), cheap next to SQLite.
struct Checksum {
  private(set) var value = 0

  @inline(__always)
  mutating func add(_ int: Int) {
    value = (value &* 31) &+ int
  }

  @inline(__always)
  mutating func add(_ double: Double) {
    add(Int(truncatingIfNeeded: double.bitPattern))
  }

  @inline(__always)
  mutating func add(_ string: String) {
    add(string.utf8.count)
  }
}
