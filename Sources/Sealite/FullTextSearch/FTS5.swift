import CSQLCipher

/// The FTS5 full-text search module, for ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "book", using: FTS5()) { t in
///       t.tokenizer = .porter()
///       t.column("title")
///       t.column("body")
///     }
///
/// FTS5 needs an SQLite built with it (SQLCipher 4 is; the legacy SQLCipher 3.4.1 is not):
/// where it is missing, creating a table, a tokenizer or a pattern throws
/// ``SQLiteFeatureError`` naming ``SQLiteFeatures/Capability/fts5``.
///
/// See <https://www.sqlite.org/fts5.html>.
public struct FTS5: Sendable {
  /// How the `unicode61` tokenizer treats diacritics (its `remove_diacritics` option).
  public enum Diacritics: Sendable {
    /// Diacritics are kept: "e" does not match "é" (`remove_diacritics 0`).
    case keep
    /// Diacritics are removed from Latin characters that carry a single one
    /// (`remove_diacritics 1`, the tokenizer's default).
    case removeLegacy
    /// Diacritics are removed from every Latin character (`remove_diacritics 2`,
    /// SQLite 3.27).
    case remove
  }

  /// The FTS5 module.
  public init() {}

  /// The FTS5 C API of the connection, for registering or finding tokenizers with the C
  /// functions of `fts5_api`.
  ///
  /// It is a programmer error to ask for it where the linked SQLite has no FTS5
  /// (``SQLiteFeatures/Capability/fts5``): the program stops, as in GRDB.
  public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
    do {
      return try db.fts5API()
    } catch {
      preconditionFailure("FTS5 is not available: \(error)")
    }
  }

  /// The tokens of `string` as the `ascii` tokenizer reads a query, without the
  /// colocated ones: what the pattern initializers made from user input are built of.
  static func queryTokens(_ string: String) throws -> [String] {
    try DatabaseQueue().inDatabase { db in
      try db.makeTokenizer(.ascii()).tokenize(query: string).compactMap { token, flags in
        flags.contains(.colocated) ? nil : token
      }
    }
  }
}
