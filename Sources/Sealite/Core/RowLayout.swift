/// The column names of a row, and a case-insensitive lookup table built once per
/// statement and shared by every row that statement produces.
@usableFromInline
final class RowLayout: Sendable {
  let names: [String]
  /// The number of columns.
  @usableFromInline let _count: Int
  private let indexes: [String: Int]
  /// Whether the rows of this layout come from the database (a statement, or a
  /// copy or adaptation of its rows), and not from a dictionary or literal: a
  /// `Record` built from a fetched row starts without changes. The layout
  /// holds the flag so that rows stay five words.
  let isFetched: Bool

  /// The layout of rows without columns, shared: `Row()` is made where a
  /// method has no row to return (an upsert asked for its rowid only).
  static let empty = RowLayout(names: [])

  init(names: [String], isFetched: Bool = false) {
    self.names = names
    self.isFetched = isFetched
    _count = names.count
    var indexes: [String: Int] = [:]
    indexes.reserveCapacity(names.count)
    // The leftmost column wins when several have the same name.
    for (index, name) in names.enumerated().reversed() {
      indexes[name.nameKey] = index
    }
    self.indexes = indexes
    isCanonical = names.indices.map { indexes[names[$0].nameKey] == $0 }
    spellings = SpellingTable(names: names, isCanonical: isCanonical)
  }

  /// The words of each column that answers its name, hashed: a lookup spelled
  /// as the statement spells it is one probe.
  private let spellings: SpellingTable

  /// Layouts of at most this many columns compare names with a linear scan
  /// before hashing them.
  static let scanLimit = 16
  /// Whether each column is the leftmost of its case-insensitive name.
  private let isCanonical: [Bool]

  // Most lookups spell the name exactly as the statement does, with the same
  // string words (a short name is stored in them; a long one points to the
  // same storage): one probe of the table finds it without reading the
  // characters, in a function small enough to save no register. Only a
  // column that is the leftmost of its case-insensitive name is in the table,
  // so that `["ID", "id"]` still resolves "id" to 0.

  /// The index of the leftmost column named `name` (case-insensitive), or -1:
  /// the form the inlinable row subscripts take.
  @usableFromInline
  func _index(of name: String) -> Int {
    spellings.index(of: name.bits) ?? otherSpellingIndex(of: name) ?? -1
  }

  /// The index of the leftmost column named `name` (case-insensitive).
  func index(of name: String) -> Int? {
    spellings.index(of: name.bits) ?? otherSpellingIndex(of: name)
  }

  /// The index of the leftmost column named `name` in other words than the
  /// statement's: another string of the same bytes, or another case.
  @inline(never)
  private func otherSpellingIndex(of name: String) -> Int? {
    // The same name in other words: the UTF-8 counts (stored in the string)
    // skip most other names without a full comparison.
    if names.count <= RowLayout.scanLimit {
      let count = name.utf8.count
      for index in names.indices where names[index].utf8.count == count && names[index] == name {
        if isCanonical[index] { return index }
        break
      }
    }
    // Past the scan, or a name spelled in another case: one hash lookup by
    // the name's key (which is the name itself, not a copy, when it has no
    // uppercase letter).
    return indexes[name.nameKey]
  }
}

/// An open-addressing table from the words of a column name (``StringBits``)
/// to the column's index, for the columns that answer their name. Words that
/// are not in it may still name a column: the caller then compares characters.
private struct SpellingTable: Sendable {
  private struct Slot: Sendable {
    var bits: StringBits
    /// The column, or -1 for an empty slot.
    var index: Int
  }

  private let slots: [Slot]
  private let mask: Int

  init(names: [String], isCanonical: [Bool]) {
    // At most half full, so that a probe ends at an empty slot soon.
    var capacity = 4
    while capacity < names.count * 2 { capacity *= 2 }
    var slots = [Slot](repeating: Slot(bits: StringBits(first: 0, second: 0), index: -1), count: capacity)
    mask = capacity - 1
    for (index, name) in names.enumerated() where isCanonical[index] {
      let bits = name.bits
      var slot = Self.hash(bits) & mask
      while slots[slot].index >= 0 && slots[slot].bits != bits { slot = (slot + 1) & mask }
      if slots[slot].index < 0 { slots[slot] = Slot(bits: bits, index: index) }
    }
    self.slots = slots
  }

  @inline(__always)
  private static func hash(_ bits: StringBits) -> Int {
    // Fibonacci hashing of both words: the high bits mix every byte.
    let mixed = (bits.first ^ (bits.second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: mixed >> 32)
  }

  @inline(__always)
  func index(of bits: StringBits) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      var slot = Self.hash(bits) & mask
      while true {
        let entry = slots[slot]
        if entry.index < 0 { return nil }
        if entry.bits == bits { return entry.index }
        slot = (slot + 1) & mask
      }
    }
  }
}
