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
    nameBits = names.map(\.bits)
  }

  /// The words of each name: a short name (15 UTF-8 bytes at most) is stored in
  /// them, so a lookup spelled as the statement spells it matches without
  /// reading the characters.
  private let nameBits: [StringBits]

  /// Layouts of at most this many columns look names up with a linear scan first.
  static let scanLimit = 16
  /// Whether each column is the leftmost of its case-insensitive name.
  private let isCanonical: [Bool]

  /// The index of the leftmost column named `name` (case-insensitive), or -1:
  /// the form the inlinable row subscripts take.
  @usableFromInline
  func _index(of name: String) -> Int { index(of: name) ?? -1 }

  @inline(__always)
  func index(of name: String) -> Int? {
    // Most lookups spell the name exactly as the statement does: a scan with
    // String equality (a couple of word compares for short names) beats
    // hashing. Only a column that is the leftmost of its case-insensitive name
    // may answer, so that `["ID", "id"]` still resolves "id" to 0.
    // The words of short names are compared first; then the UTF-8 counts
    // (stored in the string) skip most other names without a full comparison,
    // which is a call when the words differ.
    if names.count <= RowLayout.scanLimit {
      let bits = name.bits
      for index in nameBits.indices where nameBits[index] == bits {
        if isCanonical[index] { return index }
        break
      }
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
