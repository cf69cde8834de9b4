// What a run measured: one row per measure, with the per-round values of each
// side, the ratios Sealite / raw and Sealite / tight C loop, and the target
// it is held to (against the tight loop where the row has one).

/// The values of one side of a row: one per round, and their median.
struct Series: Codable {
  var median: Double
  var rounds: [Double]

  init(_ rounds: [Double]) {
    self.rounds = rounds
    median = medianOf(rounds)
  }
}

/// A target: a maximum for the ratio Sealite / raw, or for Sealite's value.
struct Target: Codable {
  enum Kind: String, Codable {
    case ratio
    case value
  }
  var kind: Kind
  var maximum: Double

  static func ratio(_ maximum: Double) -> Target { Target(kind: .ratio, maximum: maximum) }
  static func value(_ maximum: Double) -> Target { Target(kind: .value, maximum: maximum) }
}

struct ResultRow: Encodable {
  /// The workload that measured it, as named on the command line.
  var workload: String
  /// What the row shows, for the table.
  var measure: String
  /// "ms", "MB" or "count".
  var unit: String
  /// What the raw column measured, when it is not the same work done with the C API.
  var baseline: String?
  var raw: Series?
  /// The tight C loop: the raw side with text bound and read by its byte
  /// count (`sqlite3_column_bytes` + `String(decoding:as:)`).
  var tight: Series?
  var sealite: Series?
  var target: Target?
  var note: String?

  /// Sealite over the raw side: the median of the rounds' ratios.
  var rawRatio: Double? { RoundRatios(sealite, over: raw)?.median }

  /// Sealite over the tight C loop: the median of the rounds' ratios.
  var tightRatio: Double? { RoundRatios(sealite, over: tight)?.median }

  /// The quartiles of the rounds' ratios to the tight loop (to the raw side
  /// where there is no tight loop): how far the rounds spread.
  var spread: (lower: Double, upper: Double)? {
    guard let ratios = RoundRatios(sealite, over: tight ?? raw), ratios.isPaired else { return nil }
    return (ratios.lowerQuartile, ratios.upperQuartile)
  }

  /// The ratio the target holds: against the tight loop where there is one.
  var ratio: Double? { tightRatio ?? rawRatio }

  /// Whether the target is met, or nil without a target.
  var passed: Bool? {
    guard let target else { return nil }
    switch target.kind {
    case .ratio: return ratio.map { $0 <= target.maximum }
    case .value: return sealite.map { $0.median <= target.maximum }
    }
  }

  /// A comparison of both sides, in milliseconds.
  static func comparison(
    _ workload: String, _ measure: String, _ comparison: Comparison, target: Double? = nil,
    baseline: String? = nil, note: String? = nil
  ) -> ResultRow {
    ResultRow(
      workload: workload, measure: measure, unit: "ms", baseline: baseline, raw: Series(comparison.raw),
      tight: comparison.tight.map(Series.init), sealite: Series(comparison.sealite),
      target: target.map(Target.ratio), note: note)
  }

  /// A value measured on Sealite alone.
  static func value(
    _ workload: String, _ measure: String, unit: String, _ values: [Double], target: Double? = nil,
    note: String? = nil
  ) -> ResultRow {
    ResultRow(
      workload: workload, measure: measure, unit: unit, raw: nil, sealite: Series(values),
      target: target.map(Target.value), note: note)
  }

  private enum CodingKeys: String, CodingKey {
    case workload, measure, unit, baseline, raw, tight, sealite, target, note, ratio, tightRatio, passed
    case ratioOfMedians, tightRatioOfMedians, spread
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(workload, forKey: .workload)
    try container.encode(measure, forKey: .measure)
    try container.encode(unit, forKey: .unit)
    try container.encodeIfPresent(baseline, forKey: .baseline)
    try container.encodeIfPresent(raw, forKey: .raw)
    try container.encodeIfPresent(tight, forKey: .tight)
    try container.encodeIfPresent(sealite, forKey: .sealite)
    // "ratio" stays Sealite / raw, as in the runs before the tight loop.
    try container.encodeIfPresent(rawRatio, forKey: .ratio)
    try container.encodeIfPresent(tightRatio, forKey: .tightRatio)
    // The ratios of the medians, as the runs before 2026-12-07 reported them.
    try container.encodeIfPresent(RoundRatios(sealite, over: raw)?.ofMedians, forKey: .ratioOfMedians)
    try container.encodeIfPresent(RoundRatios(sealite, over: tight)?.ofMedians, forKey: .tightRatioOfMedians)
    try container.encodeIfPresent(spread.map { [$0.lower, $0.upper] }, forKey: .spread)
    try container.encodeIfPresent(target, forKey: .target)
    try container.encodeIfPresent(passed, forKey: .passed)
    try container.encodeIfPresent(note, forKey: .note)
  }

  init(
    workload: String, measure: String, unit: String, baseline: String? = nil, raw: Series?,
    tight: Series? = nil, sealite: Series?, target: Target?, note: String?
  ) {
    self.workload = workload
    self.measure = measure
    self.unit = unit
    self.baseline = baseline
    self.raw = raw
    self.tight = tight
    self.sealite = sealite
    self.target = target
    self.note = note
  }
}

/// The ratios of one side's rounds to another's. The sides of a round run
/// one after the other (see `compare`), so each round's ratio compares times
/// taken moments apart, on a machine whose speed drifts over a run: their
/// median follows the code, where the ratio of the two sides' medians may
/// set a round from a fast phase of one side against a slow one of the other.
struct RoundRatios {
  /// The rounds' ratios, sorted; the ratio of the medians when the sides do
  /// not have the same rounds.
  let sorted: [Double]
  let ofMedians: Double
  /// Whether `sorted` holds one ratio per round.
  let isPaired: Bool

  init?(_ numerator: Series?, over denominator: Series?) {
    guard let numerator, let denominator, denominator.median > 0 else { return nil }
    ofMedians = numerator.median / denominator.median
    let ratios = zip(numerator.rounds, denominator.rounds).compactMap { value, base in
      value.isFinite && base.isFinite && base > 0 ? value / base : nil
    }
    isPaired = numerator.rounds.count == denominator.rounds.count && ratios.count == numerator.rounds.count
    sorted = isPaired ? ratios.sorted() : [ofMedians]
  }

  var median: Double { medianOf(sorted) }
  var lowerQuartile: Double { percentile(sorted, 0.25) }
  var upperQuartile: Double { percentile(sorted, 0.75) }
}
