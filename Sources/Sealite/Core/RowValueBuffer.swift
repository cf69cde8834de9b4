/// The values of copied rows, several rows to one allocation.
///
/// `Row.fetchAll` copies each row's values into the current buffer, so that a
/// fetched row costs one allocation (the ``Row`` itself) instead of two. Every
/// row copied into a buffer keeps it alive; the buffer is freed with the last
/// of them. Values are written once, before the row that reads them exists, and
/// never change after: the buffer is immutable as far as rows can tell.
// @unchecked Sendable: `count` and the values change only in `append`, and
// `layouts` and `lastLayout` only in `keepAlive`; both are called while a row is
// copied in (by the `RowCopier` of one fetch, on the thread of that database
// access, or by the initializer of a row that owns the buffer alone), before the
// row that reads them exists. A row, once handed out, only reads values that are
// never written again and a layout that is never released before the buffer;
// `deinit` runs after the last row is gone.
@usableFromInline
final class RowValueBuffer: @unchecked Sendable {
  let base: UnsafeMutablePointer<DatabaseValue>
  let capacity: Int
  private(set) var count = 0
  /// The layouts of the rows whose values are here: rows do not retain their
  /// layout, their buffer does (one fetch copies rows of one layout).
  private var layouts: [RowLayout] = []
  /// The last of `layouts`, compared without a retain.
  private var lastLayout: ObjectIdentifier?

  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: max(capacity, 1))
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Keeps `layout` alive as long as this buffer.
  @inline(__always)
  func keepAlive(_ layout: RowLayout) {
    if lastLayout != ObjectIdentifier(layout) { keepNewLayout(layout) }
  }

  @inline(never)
  private func keepNewLayout(_ layout: RowLayout) {
    layouts.append(layout)
    lastLayout = ObjectIdentifier(layout)
  }

  /// Appends the values of the current row of `sqliteStatement`, which `row`
  /// reads, and returns an immutable row of them; the caller checked
  /// ``available``. A method of the buffer, so that the buffer is at hand
  /// without a retain until the new row takes one.
  @inline(__always)
  func appendCopy(of row: Row, reading sqliteStatement: SQLiteStatement) -> Row {
    assert(row._count <= available, "the copier made room for the whole row")
    let start = base + count
    for index in 0..<row._count { append(readDatabaseValue(sqliteStatement, CInt(index))) }
    return Row(copyOf: row, values: start, owner: self)
  }

  /// True if the `count` values at `values` are initialized values of this
  /// buffer, and the address leaves the tag bit of `Row._storage` free.
  func holds(_ values: UnsafePointer<DatabaseValue>, count: Int) -> Bool {
    let start = UnsafePointer(base)
    return UInt(bitPattern: values) & 1 == 0 && start <= values && values + count <= start + self.count
  }

  /// The room left, in values.
  var available: Int { capacity - count }

  /// Appends one value; the caller checked ``available``.
  @inline(__always)
  func append(_ value: DatabaseValue) {
    assert(count < capacity, "a buffer never writes past its allocation")
    (base + count).initialize(to: value)
    count += 1
  }
}

/// Copies live rows into shared ``RowValueBuffer``s: one per fetch of many rows.
struct RowCopier {
  /// Values per buffer, unless a row needs more. Fetches of many rows use 1024
  /// values (24 KiB); a single copy allocates just what its row needs.
  let valuesPerBuffer: Int
  private var buffer: RowValueBuffer?

  init(valuesPerBuffer: Int = 1024) {
    self.valuesPerBuffer = valuesPerBuffer
  }

  /// An immutable copy of `row`, sharing a buffer with the rows copied before it.
  mutating func copy(_ row: Row) -> Row {
    guard let sqliteStatement = row._sqliteStatement else { return row }
    if buffer == nil || buffer.unsafelyUnwrapped.available < row._count {
      buffer = RowValueBuffer(capacity: max(row._count, valuesPerBuffer))
    }
    return buffer.unsafelyUnwrapped.appendCopy(of: row, reading: sqliteStatement)
  }
}
