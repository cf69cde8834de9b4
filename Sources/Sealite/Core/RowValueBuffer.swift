/// The values of copied rows, several rows to one allocation.
///
/// `Row.fetchAll` copies each row's values into the current buffer, so that a
/// fetched row costs one allocation (the ``Row`` itself) instead of two. Every
/// row copied into a buffer keeps it alive; the buffer is freed with the last
/// of them. Values are written once, before the row that reads them exists, and
/// never change after: the buffer is immutable as far as rows can tell.
///
/// The values are tail-allocated after the buffer's header, in the buffer
/// object itself, and the header holds the first layout the buffer keeps
/// alive (a fetch copies rows of one layout): a buffer is one allocation.
// @unchecked Sendable: the header's `count` and the values change only in
// `append`, and its layouts only in `keepAlive`; both are called while a row is
// copied in (by the `RowCopier` of one fetch, on the thread of that database
// access, or by the initializer of a row that owns the buffer alone), before the
// row that reads them exists. Nothing else writes the header (it is reached
// through `state` alone, not through `ManagedBuffer.header`). A row, once handed
// out, only reads values that are never written again and a layout that is
// never released before the buffer; `deinit` runs after the last row is gone.
@usableFromInline
final class RowValueBuffer: ManagedBuffer<RowValueBuffer.Header, DatabaseValue>, @unchecked Sendable {
  /// What the buffer knows of its values. (A subclass of `ManagedBuffer` has
  /// no stored properties of its own: they would sit where its values are.)
  @usableFromInline
  struct Header {
    /// The values the buffer was made for. Not `ManagedBuffer.capacity`,
    /// which is the size malloc happened to hand out: how many rows share a
    /// buffer must not depend on the state of the heap.
    let capacity: Int
    var count = 0
    /// The layouts of the rows whose values are here: rows do not retain their
    /// layout, their buffer does. The first is stored here, the others (rare)
    /// in an array.
    var firstLayout: RowLayout?
    var otherLayouts: [RowLayout] = []
    /// The last layout kept, compared without a retain.
    var lastLayout: ObjectIdentifier?
  }

  /// A buffer with room for `capacity` values.
  static func make(capacity: Int) -> RowValueBuffer {
    let buffer = create(minimumCapacity: max(capacity, 1)) { _ in Header(capacity: capacity) }
    return unsafeDowncast(buffer, to: RowValueBuffer.self)
  }

  deinit {
    // Each value moved out and dropped, in code specialized for
    // `DatabaseValue`: `deinitialize(count:)` destroys each one through the
    // type's value witness, a call per value of every fetched row.
    let base = base
    for index in 0..<count { _ = (base + index).move() }
  }

  /// The address of the first value; stable for the buffer's life.
  var base: UnsafeMutablePointer<DatabaseValue> { withUnsafeMutablePointerToElements { $0 } }

  /// The header, read and written through its address: `ManagedBuffer.header`
  /// is a stored property of a public class, whose every access Swift checks
  /// for exclusivity at run time (two runtime calls per value copied).
  private var state: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

  /// The number of values written.
  var count: Int { state.pointee.count }

  /// Keeps `layout` alive as long as this buffer.
  @inline(__always)
  func keepAlive(_ layout: RowLayout) {
    if state.pointee.lastLayout != ObjectIdentifier(layout) { keepNewLayout(layout) }
  }

  @inline(never)
  private func keepNewLayout(_ layout: RowLayout) {
    if state.pointee.firstLayout == nil {
      state.pointee.firstLayout = layout
    } else {
      state.pointee.otherLayouts.append(layout)
    }
    state.pointee.lastLayout = ObjectIdentifier(layout)
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
  var available: Int { state.pointee.capacity - state.pointee.count }

  /// Appends one value; the caller checked ``available``.
  @inline(__always)
  func append(_ value: DatabaseValue) {
    let state = state
    assert(state.pointee.count < state.pointee.capacity, "a buffer never writes past its allocation")
    (base + state.pointee.count).initialize(to: value)
    state.pointee.count += 1
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
      buffer = RowValueBuffer.make(capacity: max(row._count, valuesPerBuffer))
    }
    return buffer.unsafelyUnwrapped.appendCopy(of: row, reading: sqliteStatement)
  }
}
