/// The column names of a row, and a case-insensitive lookup table built once per
/// statement and shared by every row that statement produces.
final class RowLayout: Sendable {
  let names: [String]
  private let indexes: [String: Int]

  init(names: [String]) {
    self.names = names
    var indexes: [String: Int] = [:]
    indexes.reserveCapacity(names.count)
    // The leftmost column wins when several have the same name.
    for (index, name) in names.enumerated().reversed() {
      indexes[name.lowercased()] = index
    }
    self.indexes = indexes
  }

  @inline(__always)
  func index(of name: String) -> Int? {
    if let index = indexes[name] { return index }
    return indexes[name.lowercased()]
  }
}
