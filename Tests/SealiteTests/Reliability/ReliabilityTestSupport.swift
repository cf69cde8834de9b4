import Foundation
import Sealite
import Testing

/// The `sealite-stress` helper, built next to the test bundle.
var sealiteStressPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("sealite-stress").path
}

/// A count from the environment (the long versions of the reliability tests),
/// or `short`, what every CI run does.
func stressCount(_ variable: String, short: Int) -> Int {
  ProcessInfo.processInfo.environment[variable].flatMap(Int.init) ?? short
}

/// `sealite-stress check PATH`: the integrity of the database, opened with the
/// key from the keyring, as name → value.
func stressCheck(_ path: String) async throws -> [String: String] {
  let result = try await runProcess(sealiteStressPath, ["check", path], input: "")
  #expect(result.status == 0, "\(result.stderr)")
  var values: [String: String] = [:]
  for line in result.stdout.split(separator: "\n") {
    let parts = line.split(separator: " ", maxSplits: 1)
    if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
  }
  return values
}

/// A deterministic generator for random moments, seeded from
/// SEALITE_STRESS_SEED (printed on failure, so that a run can be replayed).
struct StressGenerator {
  let seed: UInt64
  private var state: UInt64

  init() {
    seed =
      ProcessInfo.processInfo.environment["SEALITE_STRESS_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 1...UInt64.max)
    state = seed
  }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
