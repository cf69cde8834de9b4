/// Decodes `Decodable` records from rows, with the coding strategies the
/// record type declares.
///
///     struct Player: FetchableRecord, Decodable {
///       var id: Int64
///       var name: String
///     }
///     if let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 42") {
///       let player = try FetchableRecordDecoder().decode(Player.self, from: row)
///     }
///
/// It is what `init(row:)` of a `Decodable` record runs; call `Player(row:)` or
/// `Player.fetchOne(db, …)` instead, unless a decoder object is what an API
/// expects. The column names, dates, data, JSON values and user info follow the
/// record's ``FetchableRecord/databaseColumnDecodingStrategy``,
/// ``FetchableRecord/databaseDateDecodingStrategy(for:)``,
/// ``FetchableRecord/databaseDataDecodingStrategy(for:)``,
/// ``FetchableRecord/databaseJSONDecoder(for:)`` and
/// ``FetchableRecord/databaseDecodingUserInfo``.
///
/// A final class and Sendable, as GRDB plans for its next major version: it
/// holds no state, so one decoder may serve any thread.
public final class FetchableRecordDecoder: Sendable {
  /// A decoder of records.
  ///
  ///     let decoder = FetchableRecordDecoder()
  public init() {}

  /// The record of type `type` that `row` holds.
  ///
  ///     let player = try FetchableRecordDecoder().decode(Player.self, from: row)
  ///
  /// Throws the errors of the record's `init(from:)`: a missing column or a
  /// value that does not convert is a `RowDecodingError`.
  public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
    // The same decoder as `init(row:)`, without the column lookup cache that
    // only a cursor reading many rows of one statement can reuse.
    try T(from: RecordRowDecoder(row: row, recordType: T.self, columnCache: nil))
  }
}
