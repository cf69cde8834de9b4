extension PersistenceContainer: RandomAccessCollection {
  /// The position of a column in the container: its rank in the order
  /// columns were first set.
  public typealias Index = Int

  /// The position of the first column (0).
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
