/// Whether ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``
/// prints the name of each table before its rows.
///
///     // player
///     // 1|Arthur|500
///     try db.dumpTables(["player"], tableHeader: .always)
public enum DumpTableHeaderOptions: Sendable {
  /// Names are printed when several tables are: one table needs no name.
  ///
  ///     try db.dumpTables(["player", "team"], tableHeader: .automatic)
  case automatic

  /// Names are always printed.
  ///
  ///     try db.dumpTables(["player"], tableHeader: .always)
  case always
}
