/// The tokenizer of an ``FTS5`` table, as the `tokenize` option names it: a name
/// followed by arguments.
///
///     try db.create(virtualTable: "document", using: FTS5()) { t in
///       t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
///       t.column("content")
///     }
///
/// See <https://www.sqlite.org/fts5.html#tokenizers>.
public struct FTS5TokenizerDescriptor: Sendable {
  /// The name of the tokenizer, then its arguments: `["unicode61", "remove_diacritics", "0"]`.
  public let components: [String]

  /// The tokenizer's name.
  var name: String { components[0] }

  /// The tokenizer's arguments.
  var arguments: [String] { Array(components.dropFirst()) }

  /// A descriptor made of a tokenizer name and its arguments. `components`
  /// must not be empty.
  public init(components: [String]) {
    precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component")
    self.components = components
  }

  /// The `ascii` tokenizer: ASCII letters fold to lowercase, other characters are
  /// kept as they are.
  ///
  /// - parameters:
  ///   - separators: more characters that separate tokens.
  ///   - tokenCharacters: more characters that belong to tokens.
  public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = [])
    -> FTS5TokenizerDescriptor
  {
    FTS5TokenizerDescriptor(
      components: ["ascii"] + characterOptions(separators: separators, tokenCharacters: tokenCharacters))
  }

  /// The `porter` stemmer, which wraps another tokenizer (`unicode61` by default),
  /// so that "database" matches "databases".
  public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
    FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
  }

  /// The `unicode61` tokenizer, FTS5's default: Unicode letters and numbers make
  /// tokens, folded to lowercase.
  ///
  /// - parameters:
  ///   - diacritics: what is done with diacritics.
  ///   - categories: the Unicode categories of token characters (`"L* N* Co"`
  ///     when empty, the tokenizer's default).
  ///   - separators: more characters that separate tokens.
  ///   - tokenCharacters: more characters that belong to tokens.
  public static func unicode61(
    diacritics: FTS5.Diacritics = .removeLegacy,
    categories: String = "",
    separators: Set<Character> = [],
    tokenCharacters: Set<Character> = []
  ) -> FTS5TokenizerDescriptor {
    var components = ["unicode61"]
    switch diacritics {
    case .removeLegacy: break
    case .keep: components += ["remove_diacritics", "0"]
    case .remove: components += ["remove_diacritics", "2"]
    }
    if !categories.isEmpty { components += ["categories", categories] }
    components += characterOptions(separators: separators, tokenCharacters: tokenCharacters)
    return FTS5TokenizerDescriptor(components: components)
  }

  /// The `trigram` tokenizer: every sequence of three characters is a token, so
  /// that a pattern matches anywhere inside words (SQLite 3.34). A Sealite
  /// addition: GRDB 7.8 has no such descriptor.
  ///
  /// - parameters:
  ///   - caseSensitive: whether matching tells upper case from lower case
  ///     (`case_sensitive 1`).
  ///   - removeDiacritics: whether "e" matches "é" (`remove_diacritics 1`,
  ///     SQLite 3.45). SQLite refuses it together with `caseSensitive`.
  ///
  /// A table or tokenizer made from it throws ``SQLiteFeatureError``
  /// (``SQLiteFeatures/Capability/fts5Trigram`` or
  /// ``SQLiteFeatures/Capability/fts5TrigramRemoveDiacritics``) where the linked
  /// SQLite lacks it.
  public static func trigram(caseSensitive: Bool = false, removeDiacritics: Bool = false)
    -> FTS5TokenizerDescriptor
  {
    var components = ["trigram"]
    if caseSensitive { components += ["case_sensitive", "1"] }
    if removeDiacritics { components += ["remove_diacritics", "1"] }
    return FTS5TokenizerDescriptor(components: components)
  }

  private static func characterOptions(separators: Set<Character>, tokenCharacters: Set<Character>)
    -> [String]
  {
    var components: [String] = []
    if !separators.isEmpty { components += ["separators", String(separators.sorted())] }
    if !tokenCharacters.isEmpty { components += ["tokenchars", String(tokenCharacters.sorted())] }
    return components
  }

  /// Throws ``SQLiteFeatureError`` if the descriptor names a built-in tokenizer
  /// or option that the linked SQLite lacks: the trigram tokenizer, wherever it
  /// is wrapped, and its `remove_diacritics` option.
  func requireSupport(_ features: SQLiteFeatures) throws {
    try features.require(.fts5)
    guard let trigram = components.firstIndex(of: "trigram") else { return }
    try features.require(.fts5Trigram)
    if components[trigram...].contains("remove_diacritics") {
      try features.require(.fts5TrigramRemoveDiacritics)
    }
  }
}
