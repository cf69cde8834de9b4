/// A tokenizer of the FTS3 and FTS4 modules (see
/// <https://www.sqlite.org/fts3.html#tokenizer>):
///
///     try db.create(virtualTable: "book", using: FTS4()) { t in
///       t.tokenizer = .unicode61(diacritics: .keep)
///     }
public struct FTS3TokenizerDescriptor: Sendable {
  /// The tokenizer's name, as SQLite knows it (`unicode61`).
  let name: String
  /// Its arguments, unquoted (`remove_diacritics=0`).
  let arguments: [String]

  init(_ name: String, arguments: [String] = []) {
    self.name = name
    self.arguments = arguments
  }

  /// The `simple` tokenizer: ASCII case folding, no stemming.
  public static let simple = FTS3TokenizerDescriptor("simple")

  /// The `porter` tokenizer: English stemming ("databases" matches "database").
  public static let porter = FTS3TokenizerDescriptor("porter")

  /// The `unicode61` tokenizer: Unicode case folding, and diacritics removed
  /// or kept.
  ///
  /// - parameters:
  ///   - diacritics: what happens to diacritics (removed from Latin letters by default).
  ///   - separators: characters that separate tokens, in addition to the default ones.
  ///   - tokenCharacters: characters that belong to tokens, although SQLite
  ///     takes them for separators by default.
  public static func unicode61(
    diacritics: FTS3.Diacritics = .removeLegacy,
    separators: Set<Character> = [],
    tokenCharacters: Set<Character> = []
  ) -> FTS3TokenizerDescriptor {
    var arguments: [String] = []
    switch diacritics {
    case .removeLegacy: break  // The tokenizer's default needs no argument.
    case .keep: arguments.append("remove_diacritics=0")
    case .remove: arguments.append("remove_diacritics=2")
    }
    // Sorted, so that the same sets always make the same SQL.
    if !separators.isEmpty {
      arguments.append("separators=" + String(separators.sorted()))
    }
    if !tokenCharacters.isEmpty {
      arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
    }
    return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
  }

  /// The `tokenize=` argument of `fts3(…)` and `fts4(…)`: the name, then each
  /// argument in double quotes (`tokenize=unicode61 "remove_diacritics=0"`).
  var moduleArgument: String {
    (["tokenize=\(name)"] + arguments.map { "\"\($0)\"" }).joined(separator: " ")
  }

  /// Throws ``SQLiteFeatureError`` if the linked SQLite lacks an option of
  /// the tokenizer.
  func checkFeatures() throws {
    if name == "unicode61" && arguments.contains("remove_diacritics=2") {
      try SQLiteFeatures.linked.require(.unicode61RemoveDiacritics)
    }
  }
}
