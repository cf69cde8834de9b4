import Foundation

// GRDB's built-in collations, under GRDB's SQL names: they must never be
// renamed, since tables and indexes of existing files name them. Every
// connection has them.

extension DatabaseCollation {
  /// `swiftCompare`: the order of Swift's `<` and `==` on `String` (Unicode
  /// canonical equivalence, "é" written either way is one text).
  ///
  ///     try db.create(table: "player") { t in
  ///       t.column("name", .text).collate(.unicodeCompare)
  ///     }
  ///     try db.execute(sql: "SELECT * FROM player ORDER BY name COLLATE \(DatabaseCollation.unicodeCompare.name)")
  public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
    lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
  }

  /// `swiftCaseInsensitiveCompare`: the Foundation
  /// `String.caseInsensitiveCompare(_:)`, which ignores the case of every
  /// letter (SQLite's `NOCASE` ignores only ASCII case).
  ///
  ///     try db.create(table: "player") { t in
  ///       t.column("name", .text).collate(.caseInsensitiveCompare)
  ///     }
  public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") { lhs, rhs in
    lhs.caseInsensitiveCompare(rhs)
  }

  /// `swiftLocalizedCaseInsensitiveCompare`: the Foundation
  /// `String.localizedCaseInsensitiveCompare(_:)`, in the current locale.
  ///
  ///     Player.order(Column("name").collating(.localizedCaseInsensitiveCompare))
  public static let localizedCaseInsensitiveCompare = DatabaseCollation(
    "swiftLocalizedCaseInsensitiveCompare"
  ) { lhs, rhs in
    lhs.localizedCaseInsensitiveCompare(rhs)
  }

  /// `swiftLocalizedCompare`: the Foundation `String.localizedCompare(_:)`,
  /// in the current locale.
  ///
  ///     Player.order(Column("name").collating(.localizedCompare))
  public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") { lhs, rhs in
    lhs.localizedCompare(rhs)
  }

  /// `swiftLocalizedStandardCompare`: the Foundation
  /// `String.localizedStandardCompare(_:)`, the order of file names in a
  /// Finder ("file2" before "file10").
  ///
  ///     Player.order(Column("name").collating(.localizedStandardCompare))
  public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
    lhs, rhs in
    lhs.localizedStandardCompare(rhs)
  }

  /// The collations every connection has.
  static let builtIns: [DatabaseCollation] = [
    unicodeCompare, caseInsensitiveCompare, localizedCaseInsensitiveCompare, localizedCompare,
    localizedStandardCompare,
  ]
}
