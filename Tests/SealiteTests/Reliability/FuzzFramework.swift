import Foundation
import Sealite
import Testing

// The fuzzing framework: seeded generators and runs, random values, what "exactly"
// means per type, and the log of the SQL text a connection runs. The tests are in
// FuzzTests.swift; the environment variables that steer them are described there.

// MARK: - Seeds and iterations

/// SplitMix64 (Steele, Lea and Flood): small, fast, and the same on every platform.
/// The tests' one seeded generator: fuzzing, tampering and bad input replay from a seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
    Int.random(in: 0..<denominator, using: &self) < numerator
  }

  mutating func pick<T>(_ elements: [T]) -> T { elements.randomElement(using: &self)! }

  mutating func hex(_ count: Int) -> String {
    String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &self)! })
  }
}

/// One fuzz test's iterations, and their failures with what replays them.
final class FuzzRun {
  static let defaultSeed: UInt64 = 0x5EA1_17E0_F022_2024

  let test: String
  let seed: UInt64
  let iterations: Int
  private let replayIteration: Int?
  private(set) var iteration = 0
  private(set) var failedIterations: [Int] = []
  private var iterationFailed = false

  init(_ test: String, defaultIterations: Int) {
    self.test = test
    let environment = ProcessInfo.processInfo.environment
    seed = environment["SEALITE_FUZZ_SEED"].flatMap(FuzzRun.parseSeed) ?? FuzzRun.defaultSeed
    iterations =
      environment["SEALITE_FUZZ_ITERATIONS"].flatMap { Int($0) }.map { max(1, $0) } ?? defaultIterations
    replayIteration = environment["SEALITE_FUZZ_REPLAY"].flatMap { Int($0) }
  }

  static func parseSeed(_ text: String) -> UInt64? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if trimmed.hasPrefix("0x") {
      return UInt64(trimmed.dropFirst(2).replacingOccurrences(of: "_", with: ""), radix: 16)
    }
    return UInt64(trimmed)
  }

  /// What to set to run the failing iteration again.
  var replay: String {
    "[\(test): SEALITE_FUZZ_SEED=0x\(String(seed, radix: 16)) SEALITE_FUZZ_REPLAY=\(iteration)]"
  }

  /// Runs `body` once per iteration with that iteration's generator. A thrown error
  /// fails the iteration; after five failed iterations the run stops.
  func run(_ body: (inout SplitMix64) throws -> Void) {
    for iteration in iterationRange {
      var generator = begin(iteration)
      do {
        try body(&generator)
      } catch {
        fail("unexpected error: \(error)")
      }
      guard end() else { break }
    }
  }

  /// Runs `body` as ``run(_:)`` does, for iterations that wait for a child process.
  func runAwaiting(_ body: (inout SplitMix64) async throws -> Void) async {
    for iteration in iterationRange {
      var generator = begin(iteration)
      do {
        try await body(&generator)
      } catch {
        fail("unexpected error: \(error)")
      }
      guard end() else { break }
    }
  }

  private var iterationRange: ClosedRange<Int> { replayIteration.map { $0...$0 } ?? 0...(iterations - 1) }

  /// Starts `iteration`: its generator.
  private func begin(_ iteration: Int) -> SplitMix64 {
    self.iteration = iteration
    iterationFailed = false
    var generator = SplitMix64(
      seed: seed ^ FuzzRun.fnv1a(test) ^ (UInt64(iteration) &* 0xD1B5_4A32_D192_ED03))
    _ = generator.next()
    return generator
  }

  /// Ends the current iteration; false once the run stops.
  private func end() -> Bool {
    if iterationFailed { failedIterations.append(iteration) }
    if failedIterations.count >= 5 {
      Issue.record("\(test): stopped after 5 failed iterations (\(failedIterations))")
      return false
    }
    return true
  }

  /// Records a failure of the current iteration, with how to replay it.
  func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    iterationFailed = true
    Issue.record("\(replay) \(message)", sourceLocation: sourceLocation)
  }

  /// Fails the current iteration unless `condition` holds.
  func check(
    _ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if !condition { fail(message(), sourceLocation: sourceLocation) }
  }

  /// A stable hash of a name (String's hash changes from one process to the next).
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01B3
    }
    return hash
  }
}

// MARK: - Random values

/// Pieces that random strings are made of: SQL syntax, escapes, and Unicode that
/// breaks naive code.
let stringPieces: [String] = [
  "'", "''", "\"", "\\", "\\'", "--", "/*", "*/", ";", "\0", "\n", "\r\n", "\t", "?", "?1", ":v", "$v", "@v",
  "%s", "%n", "NULL", "X'00'", "'); DROP TABLE fuzz; --", "\" OR 1=1 --", "é", "e\u{301}", "\u{301}",
  "a\u{20DD}", "😀", "👩‍👩‍👧", "🇫🇷", "\u{FEFF}", "\u{202E}", "\u{200D}", "表", "\u{7F}", "\u{1B}[31m",
  "\u{10FFFF}", "\u{FFFD}", " ", "",
]

/// Random Unicode scalars of any plane (surrogates can not be scalars).
func randomScalar(_ random: inout SplitMix64) -> Character {
  while true {
    let limit: UInt32 = random.chance(1, in: 2) ? 0x7F : random.chance(1, in: 2) ? 0xFFFF : 0x10_FFFF
    if let scalar = Unicode.Scalar(UInt32.random(in: 0...limit, using: &random)) {
      return Character(scalar)
    }
  }
}

func randomString(_ random: inout SplitMix64, maxPieces: Int = 12) -> String {
  var result = ""
  for _ in 0..<Int.random(in: 0...maxPieces, using: &random) {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: result += random.pick(stringPieces)
    case 1: result.append(randomScalar(&random))
    case 2: result += String((0..<Int.random(in: 1...8, using: &random)).map { _ in randomScalar(&random) })
    default: result += random.hex(Int.random(in: 1...6, using: &random))
    }
  }
  return result
}

/// Bytes that are not UTF-8, and random bytes.
func randomData(_ random: inout SplitMix64) -> Data {
  switch Int.random(in: 0..<6, using: &random) {
  case 0: return Data()
  case 1: return Data([0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0xE2, 0x82].shuffled(using: &random))
  case 2: return Data([0])
  default:
    return Data(
      (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
  }
}

let specialDoubles: [Double] = [
  0, -0.0, 1, -1, .infinity, -.infinity, .nan, -.nan, .signalingNaN,
  Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
  .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, -.leastNormalMagnitude,
  .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi, .ulpOfOne, 0.1, 1e16, 0x1p53, 0x1p53 + 2, 0x1p63,
  -0x1p63,
  .leastNormalMagnitude / 3, 123_456_789.125, 1e308, 2.5e-308,
]

func randomDouble(_ random: inout SplitMix64) -> Double {
  switch Int.random(in: 0..<5, using: &random) {
  case 0: return random.pick(specialDoubles)
  case 1: return Double(bitPattern: random.next())
  case 2: return Double(bitPattern: random.next() & 0x800F_FFFF_FFFF_FFFF)  // subnormal or zero
  case 3: return Double(Int64.random(in: -1_000_000...1_000_000, using: &random)) / 1000
  default: return Double.random(in: -1e20...1e20, using: &random)
  }
}

let specialIntegers: [Int64] = [
  0, -1, 1, .min, .max, .min + 1, .max - 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, Int64(Int32.max) + 1,
]

func randomInt64(_ random: inout SplitMix64) -> Int64 {
  switch Int.random(in: 0..<3, using: &random) {
  case 0: return random.pick(specialIntegers)
  case 1: return Int64(bitPattern: random.next())
  default: return Int64.random(in: -1000...1000, using: &random)
  }
}

/// Dates in and out of the years 0000–9999 that SQLite's date texts cover.
func randomDate(_ random: inout SplitMix64) -> Date {
  let special: [TimeInterval] = [
    0, -0.001, -0.0005, 0.0005, 253_402_300_799.999, 253_402_300_800, -62_135_596_800, -62_167_219_200,
    -62_167_219_200.001, 1e15, -1e15, 1e300, .infinity, -.infinity, .nan,
    Date.distantPast.timeIntervalSince1970,
    Date.distantFuture.timeIntervalSince1970, 951_782_400, 4_107_542_400,
  ]
  switch Int.random(in: 0..<4, using: &random) {
  case 0: return Date(timeIntervalSince1970: random.pick(special))
  case 1:
    return Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800_000, using: &random)) / 1000)
  case 2:
    return Date(timeIntervalSince1970: Double.random(in: -62_167_219_200...253_402_300_799, using: &random))
  default: return Date(timeIntervalSince1970: Double.random(in: -1e13...1e13, using: &random))
  }
}

func randomUUID(_ random: inout SplitMix64) -> UUID {
  if random.chance(1, in: 8) {
    return random.chance(1, in: 2)
      ? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
      : UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
  }
  var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  withUnsafeMutableBytes(of: &bytes) { buffer in
    for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &random) }
  }
  return UUID(uuid: bytes)
}

// MARK: - What "exactly" means per type

/// A value type the fuzzer binds, with what SQLite must store for it and when a
/// value read back is the same value.
protocol FuzzValue: DatabaseValueConvertible, Codable, Sendable {
  /// The storage SQLite keeps: NaN is NULL (SQLite stores no NaN), everything else
  /// keeps its class and payload.
  var expectedStorage: DatabaseValue { get }
  /// True if `other`, read back, is exactly this value.
  func isExactly(_ other: Self?) -> Bool
}

extension Int64: FuzzValue {
  var expectedStorage: DatabaseValue { DatabaseValue(storage: .int64(self)) }
  func isExactly(_ other: Int64?) -> Bool { other == self }
}

extension Bool: FuzzValue {
  var expectedStorage: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
  func isExactly(_ other: Bool?) -> Bool { other == self }
}

extension Double: FuzzValue {
  var expectedStorage: DatabaseValue { isNaN ? .null : DatabaseValue(storage: .double(self)) }
  /// The same bits (so -0.0 stays -0.0 and subnormals stay subnormal); NaN reads nil.
  func isExactly(_ other: Double?) -> Bool {
    isNaN ? other == nil : other?.bitPattern == bitPattern
  }
}

extension String: FuzzValue {
  var expectedStorage: DatabaseValue { DatabaseValue(storage: .string(self)) }
  /// The same UTF-8 bytes: Swift's `==` would take "é" and "e\u{301}" as equal.
  func isExactly(_ other: String?) -> Bool { other.map { $0.utf8.elementsEqual(utf8) } ?? false }
}

extension Data: FuzzValue {
  var expectedStorage: DatabaseValue { DatabaseValue(storage: .blob(self)) }
  func isExactly(_ other: Data?) -> Bool { other == self }
}

extension UUID: FuzzValue {
  var expectedStorage: DatabaseValue {
    withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
  }
  func isExactly(_ other: UUID?) -> Bool { other == self }
}

extension Date: FuzzValue {
  /// Years 0000–9999 are texts `yyyy-MM-dd HH:mm:ss.SSS` (UTC, the millisecond
  /// below); other dates, which such texts can not hold, are Unix timestamps.
  var expectedStorage: DatabaseValue { timeIntervalSince1970.isNaN ? .null : databaseValue }
  /// Within the text years: the same millisecond (rounded down). Outside: the
  /// same timestamp. NaN reads nil.
  func isExactly(_ other: Date?) -> Bool {
    let seconds = timeIntervalSince1970
    if seconds.isNaN { return other == nil }
    guard let other else { return false }
    if Date.isInTextRange(self) {
      return (other.timeIntervalSince1970 * 1000).rounded() == (seconds * 1000).rounded(.down)
    }
    return other.timeIntervalSince1970.bitPattern == seconds.bitPattern
  }

  static func isInTextRange(_ date: Date) -> Bool {
    // 0000-01-01 00:00:00.000 ..< 10000-01-01
    (-62_167_219_200..<253_402_300_800).contains(date.timeIntervalSince1970)
  }
}

/// Exact equality of stored values (DatabaseValue's `==` follows SQL: 1 == 1.0).
func isIdentical(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
  switch (lhs.storage, rhs.storage) {
  case (.null, .null): return true
  case (.int64(let a), .int64(let b)): return a == b
  case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
  case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
  case (.blob(let a), .blob(let b)): return a == b
  default: return false
  }
}

func storageClass(_ value: DatabaseValue) -> String {
  switch value.storage {
  case .null: return "null"
  case .int64: return "integer"
  case .double: return "real"
  case .string: return "text"
  case .blob: return "blob"
  }
}

func describe(_ value: DatabaseValue) -> String {
  switch value.storage {
  case .string(let text):
    return "text(\(text.utf8.count) bytes: \(String(reflecting: String(text.prefix(60)))))"
  case .blob(let data):
    return "blob(\(data.count) bytes: \(data.prefix(24).map { String(format: "%02x", $0) }.joined()))"
  case .double(let double): return "real(\(double), bits 0x\(String(double.bitPattern, radix: 16)))"
  default: return "\(value)"
  }
}

/// The record every persistence method writes: one row of `fuzz`.
struct FuzzRecord<V: FuzzValue>: Codable, FetchableRecord, PersistableRecord {
  static var databaseTableName: String { "fuzz" }
  var id: Int64
  var v: V?
}

// MARK: - SQL text

/// Every statement SQLite runs on a connection, as its trace reports it: SQL with
/// placeholders, never expanded.
extension SQLCapture {
  /// The statements that hold one of `markers`, or an SQL string or blob literal
  /// other than the names of schema object types that Sealite's own schema queries
  /// spell out: values become placeholders, never literals.
  func leaks(of markers: [String]) -> [String] {
    statements.filter { sql in
      markers.contains { containsBytes(sql, $0) }
        || sql.matches(of: /[xX]?'(?:[^']|'')*'?/).contains {
          !schemaTypes.contains(String($0.output))
        }
    }
  }
}

/// The names of schema object types, which Sealite's schema queries spell out.
private let schemaTypes: Set<String> = ["'table'", "'index'", "'trigger'", "'view'"]

/// Texts that reveal a string or blob value in SQL: its marker, and the marker's
/// hex digits as a blob literal would spell them.
func markerForms(_ marker: String) -> [String] {
  let hex = marker.utf8.map { String(format: "%02x", $0) }.joined()
  return [marker, hex, hex.uppercased()]
}
