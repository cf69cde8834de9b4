/// The decoding a connection keeps for the rows its persistence methods
/// return (`insertAndFetch`, `updateAndFetch`, `saveAndFetch`,
/// `upsertAndFetch`): the record type and row layout decoded last, and their
/// ``RecordDecoding``.
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

extension Database {
  /// `Record(row: row)`, for a row a persistence method returns, decoded with
  /// the decoding this connection kept for the last returned row of the same
  /// record type and layout.
  @usableFromInline
  func decodeReturnedRow<Record: FetchableRecord>(_ row: Row, as type: Record.Type) throws -> Record {
    let recordType = ObjectIdentifier(Record.self)
    let layout = row.layout
    let kept = withRecordStatements { cache -> ReturnedRowDecoding in
      if let last = cache.lastReturnedRowDecoding, last.recordType == recordType, last.layout === layout {
        // Taken out while it decodes: a record of the same type and layout
        // returned inside this record's `init(row:)` gets a decoding of its own.
        cache.lastReturnedRowDecoding = nil
        return last
      }
      return ReturnedRowDecoding(recordType: recordType, layout: layout, decoding: RecordDecoding<Record>())
    }
    // Kept for this very record type.
    let record = try unsafeDowncast(kept.decoding, to: RecordDecoding<Record>.self).decode(row)
    withRecordStatements { $0.lastReturnedRowDecoding = kept }
    return record
  }
}
