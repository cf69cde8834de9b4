import Foundation

/// A custom string comparison that SQL can name in `COLLATE`, once it is
/// added to a connection with ``Database/add(collation:)``:
///
///     let byLength = DatabaseCollation("byLength") { lhs, rhs in
///       lhs.count == rhs.count ? .orderedSame : (lhs.count < rhs.count ? .orderedAscending : .orderedDescending)
///     }
///     try dbQueue.write { db in
///       db.add(collation: byLength)
///       try db.execute(sql: "CREATE TABLE word (text TEXT COLLATE byLength)")
///       try String.fetchAll(db, sql: "SELECT text FROM word ORDER BY text")
///     }
///
/// SQLite knows collations per connection: a table or index whose definition
/// names one can only be used by connections that have it. To give it to every
/// connection of a ``DatabasePool``, add it in
/// ``Configuration/prepareDatabase(_:)``. Sealite adds its built-in collations
/// (``unicodeCompare``, ``caseInsensitiveCompare``, …) to every connection.
public final class DatabaseCollation: Identifiable, Sendable {
  /// What identifies a collation for SQLite: its name, whose ASCII letters
  /// compare without case.
  ///
  ///     DatabaseCollation("byLength") { … }.id == DatabaseCollation("BYLENGTH") { … }.id  // true
  public struct ID: Hashable, Sendable {
    let name: String

    /// True if SQLite takes both names for one collation.
    public static func == (lhs: ID, rhs: ID) -> Bool { lhs.name.sameName(as: rhs.name) }

    /// Hashes the name as SQLite compares it, so that equal ids hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(name.nameKey) }
  }

  /// The name SQL gives in `COLLATE`.
  ///
  ///     "CREATE TABLE player (name TEXT COLLATE \(DatabaseCollation.localizedCompare.name))"
  public let name: String

  /// The collation's name, compared as SQLite compares collation names.
  ///
  ///     db.remove(collation: collation)  // removes the collation of that id
  public var id: ID { ID(name: name) }

  /// The comparison.
  let compare: @Sendable (String, String) -> ComparisonResult

  /// Creates a collation from a comparison of two strings.
  ///
  ///     let numeric = DatabaseCollation("numeric") { lhs, rhs in
  ///       lhs.compare(rhs, options: .numeric)
  ///     }
  ///
  /// - Parameters:
  ///   - name: The name SQL gives in `COLLATE`.
  ///   - function: Compares two texts. It must be a total order that never
  ///     changes for a collation used by an index: otherwise the index is
  ///     corrupt for SQLite (rebuild it with ``Database/reindex(collation:)-(DatabaseCollation)``
  ///     when the order changes).
  public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
    self.name = name
    self.compare = function
  }
}
