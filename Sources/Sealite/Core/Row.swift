import CSQLCipher

/// A database row: an ordered list of (column name, value) pairs.
///
///     let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player")!
///     let id: Int64 = row["id"]          // by column name, case-insensitive
///     let name: String = row[1]          // by index
///     let score: Int? = row["score"]     // nil for NULL or a missing column
///     let bonus = try row.decode(Int.self, forColumn: "bonus")  // throws
///
/// Rows handed out by a cursor are reused from one step to the next and read
/// the current statement row: call ``copy()`` to keep one.
///
/// The non-throwing subscripts stop the program when a value can not be
/// converted, as GRDB's do; the `decode` methods throw a ``RowDecodingError``
/// instead.
// Sendable, where GRDB's row is not: a copied row (every row of fetchAll,
// fetchOne, fetchSet and copy()) is immutable, and is the kind that leaves a
// database access. A live row of a cursor reads its statement: debug builds
// check that it is read only while its access lasts (`_isReadableLiveRow()`),
// which is where sending one would take it. Splitting live rows into a type of
// their own would make every cursor API differ from GRDB's. See
// docs/LIFETIMES.md and the "Differences from GRDB" article.
public final class Row: @unchecked Sendable {
  // Three stored properties (40 bytes with the object header, malloc's 48-byte
  // size class): `Row.fetchAll` allocates one row object per row, so each word
  // counts (the column count is the layout's, and the rare association rows
  // hang from the owner). The storage is plain stored properties, not an enum,
  // so that the inlinable subscripts read a column with a couple of loads: no
  // switch, and no retain of the statement or of the values on each access.
  /// The column names. Not retained by the row: `owner` keeps it alive (the
  /// statement of a live row has it; a value buffer keeps the layouts of the
  /// rows copied into it), which spares a fetch of many rows one atomic
  /// retain and one release per row.
  @usableFromInline let _layout: Unmanaged<RowLayout>
  /// The SQLite statement of a live row with its lowest bit set, or the address
  /// of a copied row's values (in a ``RowValueBuffer`` that `owner` keeps
  /// alive). Both are aligned, so the bit is free.
  @usableFromInline let _storage: UInt
  /// What keeps the row's data alive: for a live row, the cursor's stepper
  /// (which keeps the statement on the current row) or the statement; for a
  /// copied row, the buffer of its values. A row with ``extras`` has them in a
  /// ``RowExtrasHolder`` around that owner.
  private var owner: AnyObject

  /// The number of columns.
  @inlinable
  var _count: Int { _layout._withUnsafeGuaranteedRef { $0._count } }

  /// Rows of included associations, when the row comes from such a request.
  /// Set only while the request that fetches the row builds it.
  var extras: RowExtras? {
    get { (owner as? RowExtrasHolder)?.extras }
    set { owner = newValue.map { RowExtrasHolder(owner: baseOwner, extras: $0) } ?? baseOwner }
  }

  /// The owner that keeps the row's data alive, without the holder of its extras.
  private var baseOwner: AnyObject { (owner as? RowExtrasHolder)?.owner ?? owner }

  init(statement: Statement, keepAlive: StatementStepper? = nil) {
    // See docs/LIFETIMES.md: the tag bit must be free, and the owner must
    // keep this very statement (and so its layout) alive.
    assert(UInt(bitPattern: statement.sqliteStatement) & 1 == 0, "a statement address is aligned")
    assert(keepAlive.map { $0.statement === statement } ?? true, "a live row's stepper runs its statement")
    _layout = .passUnretained(statement.layout)
    _storage = UInt(bitPattern: statement.sqliteStatement) | 1
    owner = keepAlive ?? statement
  }

  /// A live row of `statement` that shows all its columns but the last:
  /// `layout` is the statement's ``Statement/layoutWithoutLastColumn``, kept
  /// alive by the statement, which the row keeps. (Not an optional layout
  /// parameter of the initializer above, which cursors and fetches call for
  /// each run: the debug build then retains and releases a layout at each
  /// call, 4 to 12 more per operation in `AllocationCountTests`.)
  init(statement: Statement, layoutWithoutLastColumn layout: RowLayout) {
    assert(UInt(bitPattern: statement.sqliteStatement) & 1 == 0, "a statement address is aligned")
    assert(statement.keptLayoutWithoutLastColumn === layout, "the statement keeps the row's layout")
    _layout = .passUnretained(layout)
    _storage = UInt(bitPattern: statement.sqliteStatement) | 1
    owner = statement
  }

  init(layout: RowLayout, values: UnsafePointer<DatabaseValue>, owner: RowValueBuffer) {
    assert(owner.holds(values, count: layout._count), "a copied row's values are in its buffer")
    owner.keepAlive(layout)
    _layout = .passUnretained(layout)
    _storage = UInt(bitPattern: values)
    self.owner = owner
  }

  /// A copy of `row` (of the same layout) whose values are at `values`, in `owner`.
  @inline(__always)
  init(copyOf row: Row, values: UnsafePointer<DatabaseValue>, owner: RowValueBuffer) {
    assert(row._sqliteStatement != nil, "only a live row is copied value by value")
    assert(owner.holds(values, count: row._count), "a copied row's values are in its buffer")
    row._layout._withUnsafeGuaranteedRef { owner.keepAlive($0) }
    _layout = row._layout
    _storage = UInt(bitPattern: values)
    self.owner = owner
  }

  /// True for a row read from the database (see ``RowLayout/isFetched``).
  var isFetched: Bool { layout.isFetched }

  /// The column names and their lookup table.
  @inlinable
  var layout: RowLayout { _layout.takeUnretainedValue() }

  /// The SQLite statement a live cursor row reads; nil for a copied row.
  @inlinable
  var _sqliteStatement: SQLiteStatement? {
    _storage & 1 == 0 ? nil : SQLiteStatement(bitPattern: _storage & ~1)
  }

  /// The values of a copied row; nil for a live cursor row.
  @inlinable
  var _values: UnsafePointer<DatabaseValue>? {
    _storage & 1 == 0 ? UnsafePointer(bitPattern: _storage) : nil
  }

  /// The statement of a live row.
  var statement: Statement? {
    let owner = baseOwner
    if let stepper = owner as? StatementStepper { return stepper.statement }
    return owner as? Statement
  }

  convenience init(layout: RowLayout, values: ContiguousArray<DatabaseValue>) {
    let buffer = RowValueBuffer.make(capacity: values.count)
    for value in values { buffer.append(value) }
    precondition(values.count == layout._count, "a row needs one value per column")
    self.init(layout: layout, values: buffer.base, owner: buffer)
  }

  /// Creates an empty row.
  public convenience init() {
    self.init(layout: RowLayout.empty, values: [])
  }

  /// Creates a row from a dictionary. Columns are ordered by name.
  public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
    let pairs = dictionary.sorted { $0.key < $1.key }
    self.init(
      layout: RowLayout(names: pairs.map { $0.key }),
      values: ContiguousArray(pairs.map { $0.value?.databaseValue ?? .null }))
  }

  /// The number of columns.
  public var count: Int { _count }

  /// The column names, in order.
  public var columnNames: [String] { layout.names }

  /// The values, in order.
  public var databaseValues: [DatabaseValue] { (0..<count).map { databaseValue(atUncheckedIndex: $0) } }

  /// True if the row contains at least one NULL value.
  public var hasNull: Bool { (0..<count).contains { databaseValue(atUncheckedIndex: $0).isNull } }

  /// True if a column has this name (case-insensitive).
  public func hasColumn(_ columnName: String) -> Bool { layout.index(of: columnName) != nil }

  /// The index of the leftmost column with this name (case-insensitive).
  public func index(forColumn columnName: String) -> Int? { layout.index(of: columnName) }

  /// An immutable copy of the row, safe to keep after a cursor moved on.
  public func copy() -> Row {
    var copier = RowCopier(valuesPerBuffer: 0)
    return copier.copy(self)
  }

  @inline(__always)
  func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
    assert(index >= 0 && index < _count, "an unchecked index is in the row")
    if let sqliteStatement = _sqliteStatement {
      assert(
        _isReadableLiveRow(),
        "a row of a cursor was read after its database access ended: copy() a row to keep it")
      return readDatabaseValue(sqliteStatement, CInt(index))
    }
    return _values.unsafelyUnwrapped[index]
  }

  @inline(__always)
  func isNull(atUncheckedIndex index: Int) -> Bool {
    assert(index >= 0 && index < _count, "an unchecked index is in the row")
    if let sqliteStatement = _sqliteStatement {
      assert(
        _isReadableLiveRow(),
        "a row of a cursor was read after its database access ended: copy() a row to keep it")
      return sqlite3_column_type(sqliteStatement, CInt(index)) == SQLITE_NULL
    }
    return _values.unsafelyUnwrapped[index].isNull
  }

  var statementSQL: String? { statement?.sql }

  func checkedIndex(_ index: Int) throws -> Int {
    guard index >= 0, index < count else {
      throw RowDecodingError(kind: .indexOutOfRange(index), column: nil, row: description, sql: statementSQL)
    }
    return index
  }

  func checkedIndex(forColumn columnName: String) throws -> Int {
    guard let index = layout.index(of: columnName) else {
      throw RowDecodingError(
        kind: .columnNotFound(columnName), column: columnName, row: description, sql: statementSQL)
    }
    return index
  }

  func mismatch(_ type: Any.Type, atIndex index: Int) -> RowDecodingError {
    RowDecodingError(
      kind: .valueMismatch(type: String(describing: type), value: databaseValue(atUncheckedIndex: index)),
      column: layout.names[index], index: index, row: description, sql: statementSQL)
  }
}

// MARK: - Throwing decoding

extension Row {
  /// The value at `index`, converted to `Value`; throws if the index is out of
  /// range or the value can not be converted (NULL included, unless `Value` is
  /// optional).
  public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int)
    throws -> Value
  {
    let index = try checkedIndex(index)
    guard let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) else {
      throw mismatch(Value.self, atIndex: index)
    }
    return value
  }

  /// The value at `index`, read straight from the statement when possible.
  @inline(__always)
  public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type = Value.self, atIndex index: Int
  ) throws -> Value {
    let index = try checkedIndex(index)
    if let sqliteStatement = _sqliteStatement {
      assert(
        _isReadableLiveRow(),
        "a row of a cursor was read after its database access ended: copy() a row to keep it")
      if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index)) {
        return value
      }
    } else if let value = Value.fromDatabaseValue(_values.unsafelyUnwrapped[index]) {
      return value
    }
    throw mismatch(Value.self, atIndex: index)
  }

  /// The value at `index`, or nil if it is NULL; throws if the index is out of
  /// range or the value can not be converted.
  public func decodeIfPresent<Value: DatabaseValueConvertible>(
    _ type: Value.Type = Value.self, atIndex index: Int
  ) throws -> Value? {
    let index = try checkedIndex(index)
    let dbValue = databaseValue(atUncheckedIndex: index)
    if dbValue.isNull { return nil }
    guard let value = Value.fromDatabaseValue(dbValue) else { throw mismatch(Value.self, atIndex: index) }
    return value
  }

  /// The value in the leftmost column named `columnName` (case-insensitive);
  /// throws if the value can not be converted, or if there is no such column
  /// (an optional `Value` is then nil).
  public func decode<Value: DatabaseValueConvertible>(
    _ type: Value.Type = Value.self, forColumn columnName: String
  ) throws -> Value {
    guard let index = layout.index(of: columnName) else {
      if let value = Value.fromMissingColumn() { return value }
      throw RowDecodingError(
        kind: .columnNotFound(columnName), column: columnName, row: description, sql: statementSQL)
    }
    return try decode(Value.self, atIndex: index)
  }

  /// The value in the leftmost column named `columnName`, read straight from the
  /// statement when possible.
  @inline(__always)
  public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type = Value.self, forColumn columnName: String
  ) throws -> Value {
    guard let index = layout.index(of: columnName) else {
      if let value = Value.fromMissingColumn() { return value }
      throw RowDecodingError(
        kind: .columnNotFound(columnName), column: columnName, row: description, sql: statementSQL)
    }
    return try decode(Value.self, atIndex: index)
  }

  /// The value in the leftmost column named `columnName`, or nil if the value
  /// is NULL or there is no such column; throws if it can not be converted.
  public func decodeIfPresent<Value: DatabaseValueConvertible>(
    _ type: Value.Type = Value.self, forColumn columnName: String
  ) throws -> Value? {
    guard let index = layout.index(of: columnName) else { return nil }
    return try decodeIfPresent(Value.self, atIndex: index)
  }
}

// MARK: - Subscripts

extension Row {
  /// The value at `index`: nil for NULL, else an `Int64`, `Double`, `String` or `Data`.
  public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
    Row.unwrapStorage(databaseValue(atUncheckedIndex: Row.trap { try checkedIndex(index) }))
  }

  /// The value of the leftmost column named `columnName`, or nil if the value is
  /// NULL or there is no such column.
  public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
    guard let index = layout.index(of: columnName) else { return nil }
    return Row.unwrapStorage(databaseValue(atUncheckedIndex: index))
  }

  /// The value at `index`. Stops the program if it can not be converted; use
  /// ``decode(_:atIndex:)-5j76f`` to get an error instead. Ask for an optional
  /// when the value may be NULL: `let score: Int? = row[0]`.
  public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
    Row.trap { try decode(Value.self, atIndex: index) }
  }

  /// The value at `index`, read straight from the statement of a row that a
  /// cursor is reading, with SQLite's conversions (see ``StatementColumnConvertible``).
  @inlinable
  public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
    // Inlinable so that the call site is specialized for `Value`: a live cursor
    // row reads the column straight from the statement, a copied row reads its
    // stored value, without any generic metadata; every other case (NULL,
    // mismatch, out of range) takes the slow path, which stops the program.
    if let value = _fastValue(Value.self, at: index) { return value }
    return _decodeOrTrap(Value.self, atIndex: index)
  }

  /// The value of the leftmost column named `columnName`. Stops the program if
  /// the value can not be converted, or if there is no such column and `Value`
  /// is not optional (an optional is then nil); use
  /// ``decode(_:forColumn:)-98ec7`` to get an error instead.
  public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
    Row.trap { try decode(Value.self, forColumn: columnName) }
  }

  /// The value of the leftmost column named `columnName`, read straight from the statement.
  @inlinable
  public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String)
    -> Value
  {
    let index = _layout._withUnsafeGuaranteedRef { $0._index(of: columnName) }
    if let value = _fastValue(Value.self, at: index) { return value }
    return _decodeOrTrap(Value.self, forColumn: columnName)
  }

  /// The value at `index` when it converts on the fast path: a live row's column
  /// that is not NULL, or a copied row's value; nil for anything else (out of
  /// range, NULL, a value that does not convert), which the caller reports.
  @inlinable
  @inline(__always)
  func _fastValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, at index: Int
  ) -> Value? {
    // One unsigned compare rejects negative indexes (a missing column is -1) too.
    guard UInt(bitPattern: index) < UInt(bitPattern: _count) else { return nil }
    if let sqliteStatement = _sqliteStatement {
      assert(
        _isReadableLiveRow(),
        "a row of a cursor was read after its database access ended: copy() a row to keep it")
      return Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index))
    }
    return Value.fromDatabaseValue(_values.unsafelyUnwrapped[index])
  }

  /// False for a live row of a cursor whose database access ended: its
  /// statement was reset, or runs for a later cursor, and reading it gives
  /// another row's values or none. Checked in debug builds only, at each read
  /// of a live row: this is what keeps a live row from being used where its
  /// `Sendable` conformance would let it go (see docs/LIFETIMES.md).
  @usableFromInline
  func _isReadableLiveRow() -> Bool {
    guard let stepper = baseOwner as? StatementStepper else { return true }
    return stepper.access.isValid
  }

  @usableFromInline
  @inline(never)
  func _decodeOrTrap<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, atIndex index: Int
  ) -> Value {
    Row.trap { try decode(Value.self, atIndex: index) }
  }

  @usableFromInline
  @inline(never)
  func _decodeOrTrap<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, forColumn columnName: String
  ) -> Value {
    Row.trap { try decode(Value.self, forColumn: columnName) }
  }

  static func unwrapStorage(_ dbValue: DatabaseValue) -> (any DatabaseValueConvertible)? {
    switch dbValue.storage {
    case .null: return nil
    case .int64(let value): return value
    case .double(let value): return value
    case .string(let value): return value
    case .blob(let value): return value
    }
  }

  /// The non-throwing subscripts follow GRDB: a conversion failure is a
  /// programmer error that stops the program, with a message that names the
  /// column, the value and the type.
  @inline(__always)
  static func trap<T>(_ body: () throws -> T) -> T {
    do {
      return try body()
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

// MARK: - Collection of (column name, value) pairs

/// A position in a ``Row``: positions are strideable, so that
/// `row.index(row.startIndex, offsetBy: 2)` and `distance(to:)` count columns.
public struct RowIndex: Strideable, Hashable, Sendable {
  let index: Int
  public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { lhs.index < rhs.index }

  /// The number of columns from this position to `other`.
  public func distance(to other: RowIndex) -> Int { other.index - index }

  /// The position `n` columns after this one (before it, if `n` is negative).
  public func advanced(by n: Int) -> RowIndex { RowIndex(index: index + n) }
}

extension Row: RandomAccessCollection {
  public var startIndex: RowIndex { RowIndex(index: 0) }
  public var endIndex: RowIndex { RowIndex(index: count) }
  public func index(after i: RowIndex) -> RowIndex { RowIndex(index: i.index + 1) }
  public func index(before i: RowIndex) -> RowIndex { RowIndex(index: i.index - 1) }
  /// The (column name, value) pair at a position.
  public subscript(position: RowIndex) -> (String, DatabaseValue) {
    (layout.names[position.index], databaseValue(atUncheckedIndex: position.index))
  }
}

extension Row: ExpressibleByDictionaryLiteral {
  /// Creates a row from pairs, keeping their order (duplicate names allowed).
  public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
    self.init(
      layout: RowLayout(names: elements.map(\.0)),
      values: ContiguousArray(elements.map { $0.1?.databaseValue ?? .null }))
  }
}

extension Row: Hashable {
  /// Rows are equal when they have the same column names (case-sensitive) and
  /// equal values, in the same order, and equal scopes and prefetched rows
  /// under the same names (in any order). Use ``unscoped`` to compare the
  /// columns only.
  public static func == (lhs: Row, rhs: Row) -> Bool {
    if lhs === rhs { return true }
    guard lhs.layout.names == rhs.layout.names else { return false }
    for index in 0..<lhs.count
    where lhs.databaseValue(atUncheckedIndex: index) != rhs.databaseValue(atUncheckedIndex: index) {
      return false
    }
    // Most rows have neither scopes nor prefetched rows.
    if lhs.extras == nil && rhs.extras == nil { return true }
    let lhsScopes = lhs.extras?.scopes ?? []
    let rhsScopes = rhs.extras?.scopes ?? []
    guard lhsScopes.count == rhsScopes.count,
      lhsScopes.allSatisfy({ name, scope in rhs.scopes[name] == scope })
    else { return false }
    return (lhs.extras?.prefetchedRows ?? [:]) == (rhs.extras?.prefetchedRows ?? [:])
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(layout.names)
    for index in 0..<count { hasher.combine(databaseValue(atUncheckedIndex: index)) }
  }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
  /// `[id:1 name:"Arthur" score:NULL]`: each column as `name:value`, values as
  /// ``DatabaseValue/description`` prints them, as GRDB prints rows.
  public var description: String {
    "["
      + (0..<count).map { "\(layout.names[$0]):\(databaseValue(atUncheckedIndex: $0))" }.joined(
        separator: " ")
      + "]"
  }

  /// The ``description`` of a plain row. A row of a request with included
  /// associations prints as a tree, as GRDB prints it:
  ///
  ///     ▿ [id:1 title:"Foo"]
  ///       unadapted: [id:1 title:"Foo" authorId:2 id:2 name:"Bob"]
  ///       - author: [id:2 name:"Bob"]
  ///       + reviews: 3 rows
  ///
  /// (the joined row it was cut from, its scopes by name, and its prefetched
  /// rows by key).
  public var debugDescription: String { debugDescription(level: 0) }

  private func debugDescription(level: Int) -> String {
    let unadapted = extras?.unadaptedRow.flatMap { $0 == self ? nil : $0 }
    let scopes = (extras?.scopes ?? []).sorted { $0.0 < $1.0 }
    let prefetched = (extras?.prefetchedRows ?? [:]).sorted { $0.key < $1.key }
    if level == 0 && unadapted == nil && scopes.isEmpty && prefetched.isEmpty { return description }
    let indent = String(repeating: "  ", count: level + 1)
    var text = level == 0 ? "▿ " + description : description
    if level == 0, let unadapted { text += "\n" + indent + "unadapted: " + unadapted.description }
    for (name, scope) in scopes {
      text += "\n" + indent + "- " + name + ": " + scope.debugDescription(level: level + 1)
    }
    for (key, rows) in prefetched {
      text +=
        "\n" + indent + "+ " + key + ": " + (rows.count <= 1 ? "\(rows.count) row" : "\(rows.count) rows")
    }
    return text
  }
}
