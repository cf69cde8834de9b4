/// The decoding a connection keeps for the rows its persistence methods
/// return (`insertAndFetch`, `updateAndFetch`, `saveAndFetch`,
/// `upsertAndFetch`): a record type and row layout decoded lately, and their
/// ``RecordDecoding``. The connection keeps the last one and a few before it
/// (`RecordStatementCache.keep(_:)`).
///
/// Each returned row is a new row object, of the layout its cached statement
/// made once. Decoded on its own, a Decodable record would make a decoder and
/// a keyed container for each row, and look up the generic metadata of that
/// container (about 700 instructions, more than decoding the columns). Kept,
/// the decoder reads each new row of the same layout, with the keyed container
/// and the columns of its coding keys found for the first one.
final class ReturnedRowDecoding {
  let recordType: ObjectIdentifier
  /// Kept, so that no other layout is ever allocated at its address while
  /// this decoding is compared with it.
  let layout: RowLayout
  /// A `RecordDecoding` of the record type.
  let decoding: AnyObject

  init(recordType: ObjectIdentifier, layout: RowLayout, decoding: AnyObject) {
    self.recordType = recordType
    self.layout = layout
    self.decoding = decoding
  }
}

extension RecordStatementCache {
  /// How many returned-row decodings a connection keeps besides the last one:
  /// enough for a few record types written in turn, and no more, since a
  /// decoding keeps its layout, and an upsert with assignments of its own
  /// makes a new statement, and layout, at each call.
  static let otherReturnedRowDecodingLimit = 3

  /// The decoding kept for `recordType` and `layout`, taken out of the cache
  /// until `keep(_:)` puts it back; nil when none is kept.
  @inline(__always)
  func takeReturnedRowDecoding(recordType: ObjectIdentifier, layout: RowLayout) -> ReturnedRowDecoding? {
    if let last = lastReturnedRowDecoding, last.recordType == recordType, last.layout === layout {
      lastReturnedRowDecoding = nil
      return last
    }
    guard
      let index = otherReturnedRowDecodings.firstIndex(where: {
        $0.recordType == recordType && $0.layout === layout
      })
    else { return nil }
    return otherReturnedRowDecodings.remove(at: index)
  }

  /// Keeps `decoding` as the last one; the one it replaces joins the others.
  @inline(__always)
  func keep(_ decoding: ReturnedRowDecoding) {
    if let last = lastReturnedRowDecoding, last !== decoding {
      otherReturnedRowDecodings.insert(last, at: 0)
      if otherReturnedRowDecodings.count > Self.otherReturnedRowDecodingLimit {
        otherReturnedRowDecodings.removeLast()
      }
    }
    lastReturnedRowDecoding = decoding
  }
}

extension Database {
  /// `Record(row: row)`, for a row a persistence method returns, decoded with
  /// the decoding this connection kept for a returned row of the same record
  /// type and layout.
  @usableFromInline
  func decodeReturnedRow<Record: FetchableRecord>(_ row: Row, as type: Record.Type) throws -> Record {
    let recordType = ObjectIdentifier(Record.self)
    let layout = row.layout
    // Taken out while it decodes: a record of the same type and layout
    // returned inside this record's `init(row:)` gets a decoding of its own.
    let kept = withRecordStatements { cache in
      cache.takeReturnedRowDecoding(recordType: recordType, layout: layout)
        ?? ReturnedRowDecoding(recordType: recordType, layout: layout, decoding: RecordDecoding<Record>())
    }
    // Kept for this very record type.
    let record = try unsafeDowncast(kept.decoding, to: RecordDecoding<Record>.self).decode(row)
    withRecordStatements { $0.keep(kept) }
    return record
  }
}

extension Database {
  /// The record that `write` stores, decoded as `Record` from the row it
  /// hands the reader it is given (with ``decodeReturnedRow(_:as:)``). The
  /// write hands it over inside the statement that returned it, before
  /// `didInsert` or `didUpdate`, as GRDB decodes it: a record that fails to
  /// decode stops the write's callbacks there, and the row is read where the
  /// statement holds it, not copied.
  @inlinable
  func decodingReturnedRow<Record: FetchableRecord>(
    as type: Record.Type, _ write: (_ read: (Row) throws -> Void) throws -> Void
  ) throws -> Record {
    var record: Record?
    try write { record = try decodeReturnedRow($0, as: Record.self) }
    guard let record else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the stored row could not be read back")
    }
    return record
  }
}
