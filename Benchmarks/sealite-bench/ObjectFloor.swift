// The least an array of row objects costs, whatever the row: the tight C
// loop reads each row into an Item, as its `rawFetchAll` does, but keeps it
// in an object of its own, allocated for the row and freed with the array.
// The values are stored inline, in one allocation per row: no buffer of
// values, no column names, no conversion.
//
// `Row` is a class in GRDB's API, so `Row.fetchAll` returns one object per
// row. This floor's ratio to the tight loop is what that alone costs: the
// allocation of each object, its reference count, and freeing it.
//
// A cursor of rows hands out one object, the same at every step, from a
// `next()` that is not inlined (`RowCursor.next()` is not): each step
// retains the object to return it, and the caller releases it. The cursor
// floor is the tight loop's `rawCursor` reading each row through such an
// object: what those two atomic operations a step cost.

import CSQLCipher

/// One row's Item, in an object.
final class ItemObject {
  let item: Item

  init(_ item: Item) {
    self.item = item
  }
}

/// The row object a cursor hands out at each step: it reads the current row
/// of its statement.
final class LiveRowObject {
  let statement: RawStatement

  init(_ statement: RawStatement) {
    self.statement = statement
  }
}

/// Steps a statement and hands out its one row object, as `RowCursor` does.
final class ObjectCursor {
  let row: LiveRowObject

  init(_ statement: RawStatement) {
    row = LiveRowObject(statement)
  }

  /// The row object, on the next row; nil after the last one.
  @inline(never)
  func next() throws -> LiveRowObject? {
    let code = sqlite3_step(row.statement.handle)
    if code == SQLITE_ROW { return row }
    guard code == SQLITE_DONE else { throw BenchError("step failed with code \(code)") }
    return nil
  }
}

enum ObjectFloor {
  /// The tight loop's `rawFetchAll`, each Item collected in its own object.
  static func fetchAll(_ connection: RawConnection) throws -> Int {
    var objects: [ItemObject] = []
    let statement = try connection.prepare(selectItemsSQL)
    var code = sqlite3_step(statement.handle)
    while code == SQLITE_ROW {
      objects.append(ItemObject(statement.item()))
      code = sqlite3_step(statement.handle)
    }
    guard code == SQLITE_DONE else { throw connection.error(code, selectItemsSQL) }
    var checksum = Checksum()
    for object in objects {
      object.item.addTo(&checksum)
    }
    return checksum.value
  }

  /// The tight loop's `rawCursor`, each row read through the object a
  /// cursor hands out.
  static func cursor(_ connection: RawConnection) throws -> Int {
    var checksum = Checksum()
    let cursor = ObjectCursor(try connection.prepare(selectItemsSQL))
    while let row = try cursor.next() {
      row.statement.item().addTo(&checksum)
    }
    return checksum.value
  }
}
