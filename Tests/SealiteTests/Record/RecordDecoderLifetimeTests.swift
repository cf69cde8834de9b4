import Foundation
import Sealite
import Testing

/// The decoder the last `EscapingDecoderRecord` was decoded with: a record
/// type that keeps its decoder, as no record should, but as one may.
private nonisolated(unsafe) var escapedDecoder: (any Decoder)?

private struct EscapingDecoderRecord: Decodable, FetchableRecord {
  var id: Int64
  enum CodingKeys: String, CodingKey { case id }
  init(from decoder: any Decoder) throws {
    id = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .id)
    escapedDecoder = decoder
  }
}

@Suite("Record: a decoder a record keeps is freed with it", .serialized)
struct RecordDecoderLifetimeTests {
  @Test("a decoder kept past its cursor and used again leaks nothing once released and its statement freed")
  func escapedDecoderIsFreed() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)")
    }
    weak var decoder: AnyObject?
    try dbQueue.read { db in
      let records = try EscapingDecoderRecord.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
      #expect(records.map(\.id) == [1, 2, 3])
      let kept = try #require(escapedDecoder)
      decoder = kept as AnyObject
      // Used again once its cursor is gone: it reads on, and keeps nothing.
      _ = try? kept.container(keyedBy: EscapingDecoderRecord.CodingKeys.self)
    }
    #expect(decoder != nil)
    escapedDecoder = nil
    // The statement keeps the decoder for its next run of the same record
    // type: the decoder is freed with the statement, when the queue closes.
    try dbQueue.close()
    #expect(decoder == nil)
  }
}
