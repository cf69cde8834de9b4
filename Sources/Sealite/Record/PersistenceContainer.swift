/// The columns and values a record writes, in order.
///
///     func encode(to container: inout PersistenceContainer) {
///       container["id"] = id
///       container["name"] = name
///     }
///
/// Column lookup is case-insensitive, as SQLite's.
public struct PersistenceContainer: Sendable {
  /// Column names, in the order they were set.
  public private(set) var columns: [String] = []
  /// Values, parallel to ``columns``.
  private(set) var values: [DatabaseValue] = []
  /// The message of the first value that failed to convert, if any.
  var conversionFailure: String? {
    get { conversionFailures.first }
    set { conversionFailures = newValue.map { [$0] } ?? [] }
  }
  /// ``conversionFailure``, stored in one word (an array of none or one
  /// message, where an optional string takes two): with ``possibleNames``,
  /// the container is four words, which Swift passes in registers.
  private var conversionFailures: [String] = []
  /// A filter of the names in ``columns``: the bit `nameFilterBit` of each
  /// is set (every bit, once the columns were set at once). A name whose bit
  /// is clear is not among them: `set` appends it without comparing it with
  /// each column set before (a record of ten columns compares 45 pairs).
  private var possibleNames: UInt64 = 0

  /// An empty container. It allocates nothing until a column is set: an
  /// Encodable record's encoder replaces it with a container of its own.
  public init() {}

  /// The value of a column, or nil if the column was not set.
  public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
    get { index(of: column).map { values[$0] } }
    // Inlined into the record's `encode(to:)`, where the value's type is
    // known: the existential built for the subscript is opened there, and the
    // value converted as its own type (see `setConverted(_:forColumn:)`).
    @inlinable
    @inline(__always)
    set {
      switch consume newValue {
      case .some(let value): setConverted(value, forColumn: column)
      case .none: set(.null, forColumn: column)
      }
    }
  }

  /// Sets the database value of `value`, converted as its own type: the
  /// subscript opens its existential here, instead of copying, testing and
  /// destroying it through the generic witnesses of an optional existential.
  @inlinable
  @inline(__always)
  mutating func setConverted(_ value: some DatabaseValueConvertible, forColumn column: String) {
    var failure: String?
    let dbValue = StatementArguments.convert(value, failure: &failure)
    if let failure { keepConversionFailure(failure) }
    set(dbValue, forColumn: column)
  }

  /// Keeps the first conversion failure: it is the one reported.
  @usableFromInline
  mutating func keepConversionFailure(_ failure: String) {
    if conversionFailure == nil { conversionFailure = failure }
  }

  /// The value of a column, or nil if the column was not set.
  public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
    get { self[column.name] }
    set { self[column.name] = newValue }
  }

  /// The container, moved out: `self` is left empty. Moving spares the
  /// retain and release of each array that a copy and a destroy cost.
  @inlinable
  mutating func take() -> PersistenceContainer {
    var taken = PersistenceContainer()
    swap(&taken, &self)
    return taken
  }

  /// Hands the storage of the container's values to this thread's record
  /// encoder, for the next record it encodes. Called where a write is done
  /// with the container it encoded, which is dropped right after: its values
  /// are gone, its columns are not.
  @usableFromInline
  mutating func recycle() {
    RecordEncoder.recycle(&values)
  }

  /// Takes `spare`'s storage for the values (emptied, its capacity kept),
  /// when the container has none yet.
  mutating func reuseStorage(of spare: inout [DatabaseValue]) {
    guard values.capacity == 0, spare.capacity != 0 else { return }
    swap(&values, &spare)
  }

  /// True if no column was set.
  public var isEmpty: Bool { columns.isEmpty }

  /// True for a container that holds nothing, as `PersistenceContainer()`.
  var isBlank: Bool { columns.isEmpty && values.isEmpty && conversionFailures.isEmpty }

  /// The database value of a column, if set.
  func databaseValue(forColumn column: String) -> DatabaseValue? {
    index(of: column).map { values[$0] }
  }

  @usableFromInline
  mutating func set(_ value: DatabaseValue, forColumn column: String) {
    if let index = index(of: column) {
      values[index] = value
    } else {
      append(value, forNewColumn: column)
    }
  }

  /// Sets the value of a column, unless the column holds this very value: a
  /// record that gave its id already holds it, and its container is left as
  /// it is (a copy of it, elsewhere, is not duplicated by a write). A
  /// mutating method, so that the search reads the arrays in place, without
  /// the retain and release of each that reading them from outside costs.
  /// `knownIndex`, if given, is the column's index, which the caller knows.
  mutating func setUnlessIdentical(
    _ value: DatabaseValue, forColumn column: String, at knownIndex: Int? = nil
  ) {
    guard let index = knownIndex ?? index(of: column) else {
      return append(value, forNewColumn: column)
    }
    if !values[index].isIdentical(to: value) { values[index] = value }
  }

  /// Appends a column that the caller knows is not in the container yet.
  mutating func append(_ value: DatabaseValue, forNewColumn column: String) {
    if columns.capacity == 0 {
      // Room for a record's columns at once, instead of growing 1, 2, 4, 8:
      // sixteen, as many records have more than eight columns (400 bytes).
      columns.reserveCapacity(16)
      values.reserveCapacity(16)
    }
    columns.append(column)
    values.append(value)
    possibleNames |= column.nameFilterBit
  }

  /// Appends the value of a column whose name comes later, from
  /// `setPendingColumns(_:)`: until then the container has more values than
  /// columns, and only the encoder that appends so reads it.
  /// `count` is the number of values expected: the first one makes room
  /// for them all.
  mutating func appendValueOfPendingColumn(_ value: DatabaseValue, expecting count: Int) {
    if values.capacity == 0 { values.reserveCapacity(count) }
    values.append(value)
  }

  /// The names of the columns of the values appended alone, in order; with
  /// `replacing`, the same names as the columns already written, in another
  /// array.
  mutating func setPendingColumns(_ names: [String], replacing: Bool = false) {
    assert(
      (replacing ? columns == names : columns.isEmpty) && names.count == values.count,
      "the names of the values appended alone, or the same names")
    columns = names
    possibleNames = .max
  }

  @inline(__always)
  func index(of column: String) -> Int? {
    guard possibleNames & column.nameFilterBit != 0 else { return nil }
    // No two columns are equal ignoring case (`set` replaces the value of a
    // column it finds), so one pass finds the only candidate.
    return columns.firstIndex { $0.sameName(as: column) }
  }

  /// The values as a dictionary keyed by column.
  var dictionary: [String: DatabaseValue] {
    Dictionary(zip(columns, values), uniquingKeysWith: { _, last in last })
  }
}
