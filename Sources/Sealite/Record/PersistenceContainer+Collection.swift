// `Index` is `Int`, inferred from `startIndex` (declaring it here would make
// `scripts/check-layers` take Core's `String.Index` for a use of Record).
extension PersistenceContainer: RandomAccessCollection {
  /// The position of the first column (0). Positions (`Index`) are `Int`:
  /// the rank of a column in the order columns were first set.
  public var startIndex: Int { 0 }

  /// The position past the last column (the number of columns).
  public var endIndex: Int { columns.count }

  /// The column and value at `position`, in the order columns were first set.
  ///
  ///     var container = PersistenceContainer()
  ///     container["id"] = 1
  ///     container["name"] = "Arthur"
  ///     for (column, value) in container {
  ///       print("\(column): \(value)")  // "id: 1", then "name: 'Arthur'"
  ///     }
  public subscript(position: Int) -> (String, DatabaseValue) {
    (columns[position], values[position])
  }
}
