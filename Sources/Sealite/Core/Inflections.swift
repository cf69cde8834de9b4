import Foundation

/// Plurals and singulars of names: how Sealite turns the table names of
/// associations into their default keys (`author`, `books`) and aggregate names
/// (`bookCount`).
///
/// An `Inflections` value holds two ordered lists of rules, one that
/// pluralizes and one that singularizes, plus irregular pairs and uncountable
/// words. ``Inflections/default`` holds English rules, and a value made with
/// ``init()`` holds none:
///
/// ```swift
/// // The default English rules
/// Inflections.default.pluralize("person")         // "people"
/// Inflections.default.singularize("categories")   // "category"
/// Inflections.default.pluralize("playerScore")    // "playerScores"
/// Inflections.default.singularize("player_ids")   // "player_id"
/// Inflections.default.pluralize("sheep")          // "sheep"
///
/// // Rules of your own
/// var inflections = Inflections()
/// inflections.plural("$", "s")
/// inflections.singular("s$", "")
/// inflections.irregularSuffix("cow", "kine")
/// inflections.uncountableWords(["fish"])
/// inflections.pluralize("bird")     // "birds"
/// inflections.pluralize("Cow")      // "Kine"
/// inflections.singularize("kine")   // "cow"
/// inflections.pluralize("fish")     // "fish"
///
/// // The default rules, taught a word, once, before any request is built
/// Inflections.default.irregularSuffix("cactus", "cacti")
/// ```
///
/// ## The inflected word
///
/// Only the last word of a string changes. Words are separated by characters
/// that are not letters or digits (`"funky jeans"`), by underscores
/// (`"status_code"`), and by an uppercase letter after a lowercase one
/// (`"PostalAddress"`, `"playerId"`). Digits at the end of the string are
/// kept after the inflected word: `"player2"` pluralizes to `"players2"`.
///
/// ## How rules apply
///
/// When the last word ends with an uncountable word (a whole word, in any
/// case), the string is returned unchanged. Otherwise the rules are tried from
/// the last one added to the first: the first whose regular expression matches
/// the last word replaces each of its matches with its template, and the
/// others are not tried. When no rule matches, the string is returned
/// unchanged.
public struct Inflections: Sendable {
  /// Rules in the order they were added; the last one is tried first.
  private var pluralRules: [Rule] = []
  private var singularRules: [Rule] = []
  /// The uncountable words, each with the expression that finds it at the end
  /// of a word.
  private var uncountables: [String: NSRegularExpression] = [:]

  /// Creates inflections without any rule: they return every string
  /// unchanged until rules are added.
  ///
  /// ```swift
  /// var inflections = Inflections()
  /// inflections.pluralize("player")   // "player"
  /// inflections.plural("$", "s")
  /// inflections.pluralize("player")   // "players"
  /// ```
  public init() {}

  // MARK: - Rules

  /// Adds a pluralization rule, tried before the rules added earlier.
  ///
  /// ```swift
  /// var inflections = Inflections()
  /// inflections.plural("$", "s")
  /// inflections.plural("(x|ch|ss|sh)$", "$1es")
  /// inflections.pluralize("player")   // "players"
  /// inflections.pluralize("match")    // "matches"
  /// ```
  ///
  /// - parameters:
  ///   - pattern: A regular expression, matched against the last word of the
  ///     string. It must be valid: an invalid pattern is a programmer error.
  ///   - options: The options of the regular expression; case insensitive
  ///     by default.
  ///   - template: The replacement of each match, where `$1`, `$2`, …
  ///     stand for the groups of the match.
  public mutating func plural(
    _ pattern: String,
    options: NSRegularExpression.Options = [.caseInsensitive],
    _ template: String
  ) {
    pluralRules.append(Rule(pattern, options: options, template: template))
  }

  /// Adds a singularization rule, tried before the rules added earlier.
  ///
  /// ```swift
  /// var inflections = Inflections()
  /// inflections.singular("s$", "")
  /// inflections.singular("(x|ch|ss|sh)es$", "$1")
  /// inflections.singularize("players")   // "player"
  /// inflections.singularize("matches")   // "match"
  /// ```
  ///
  /// - parameters:
  ///   - pattern: A regular expression, matched against the last word of the
  ///     string. It must be valid: an invalid pattern is a programmer error.
  ///   - options: The options of the regular expression; case insensitive
  ///     by default.
  ///   - template: The replacement of each match, where `$1`, `$2`, …
  ///     stand for the groups of the match.
  public mutating func singular(
    _ pattern: String,
    options: NSRegularExpression.Options = [.caseInsensitive],
    _ template: String
  ) {
    singularRules.append(Rule(pattern, options: options, template: template))
  }

  /// Adds words that are their own plural.
  ///
  /// A word is uncountable when it ends the last word of a string as a whole
  /// word, in any case: with `"ors"` uncountable, `"ors"` and `"ORS"` do not
  /// change, but `"sponsor"` still pluralizes to `"sponsors"`.
  ///
  /// ```swift
  /// var inflections = Inflections()
  /// inflections.plural("$", "s")
  /// inflections.uncountableWords(["fish"])
  /// inflections.pluralize("fish")         // "fish"
  /// inflections.pluralize("golden_fish")  // "golden_fish"
  /// inflections.pluralize("bird")         // "birds"
  /// ```
  public mutating func uncountableWords(_ words: [String]) {
    for word in words {
      let pattern = #"\b"# + NSRegularExpression.escapedPattern(for: word) + #"\Z"#
      uncountables[word] = Rule.compile(pattern, options: [.caseInsensitive])
    }
  }

  /// Adds an irregular pair of words, which ends words in both directions:
  /// with `("man", "men")`, `"woman"` pluralizes to `"women"`.
  ///
  /// The pair adds rules that are tried before the rules added earlier. A
  /// word ending with either form becomes the requested form; the first
  /// letter of the replaced suffix keeps its case, and the other letters are
  /// the ones given here.
  ///
  /// ```swift
  /// var inflections = Inflections()
  /// inflections.plural("$", "s")
  /// inflections.singular("s$", "")
  /// inflections.irregularSuffix("man", "men")
  /// inflections.irregularSuffix("cow", "kine")
  /// inflections.pluralize("man")            // "men"
  /// inflections.pluralize("Postman")        // "Postmen"
  /// inflections.singularize("women")        // "woman"
  /// inflections.singularize("prizedKine")   // "prizedCow"
  /// ```
  ///
  /// - parameters:
  ///   - singular: The singular form; not empty.
  ///   - plural: The plural form; not empty.
  public mutating func irregularSuffix(_ singular: String, _ plural: String) {
    guard let singularHead = singular.first, let pluralHead = plural.first else {
      preconditionFailure("Inflections.irregularSuffix needs two non-empty words")
    }
    // The first letter is matched in the case it has, and the replacement
    // starts with the same case; the rest of the suffix matches in any case.
    let cases: [(Character) -> String] = [{ $0.uppercased() }, { $0.lowercased() }]
    for (head, tail) in [(singularHead, singular.dropFirst()), (pluralHead, plural.dropFirst())] {
      for inCase in cases {
        var pattern = NSRegularExpression.escapedPattern(for: inCase(head))
        if !tail.isEmpty {
          pattern += "(?i:" + NSRegularExpression.escapedPattern(for: String(tail)) + ")"
        }
        pattern += "$"
        pluralRules.append(
          Rule(pattern, options: [], literal: inCase(pluralHead) + plural.dropFirst()))
        singularRules.append(
          Rule(pattern, options: [], literal: inCase(singularHead) + singular.dropFirst()))
      }
    }
  }

  // MARK: - Inflecting

  /// Returns the string with its last word in the plural.
  ///
  /// ```swift
  /// Inflections.default.pluralize("player")        // "players"
  /// Inflections.default.pluralize("players")       // "players"
  /// Inflections.default.pluralize("PostalAddress") // "PostalAddresses"
  /// Inflections.default.pluralize("child2")        // "children2"
  /// ```
  public func pluralize(_ string: String) -> String {
    inflect(string, with: pluralRules)
  }

  /// Returns the string with its last word in the singular.
  ///
  /// ```swift
  /// Inflections.default.singularize("players")     // "player"
  /// Inflections.default.singularize("player")      // "player"
  /// Inflections.default.singularize("playerIds")   // "playerId"
  /// Inflections.default.singularize("people")      // "person"
  /// ```
  public func singularize(_ string: String) -> String {
    inflect(string, with: singularRules)
  }

  /// ``Inflections/default``'s plural, for the names Sealite derives.
  static func pluralize(_ string: String) -> String {
    Inflections.default.pluralize(string)
  }

  /// ``Inflections/default``'s singular, for the names Sealite derives.
  static func singularize(_ string: String) -> String {
    Inflections.default.singularize(string)
  }

  private func inflect(_ string: String, with rules: [Rule]) -> String {
    let range = Self.inflectedRange(in: string)
    let word = String(string[range])
    if word.isEmpty || isUncountable(word) { return string }
    for rule in rules.reversed() {
      if let inflected = rule.apply(to: word) {
        return String(string[..<range.lowerBound]) + inflected + string[range.upperBound...]
      }
    }
    return string
  }

  private func isUncountable(_ word: String) -> Bool {
    let range = NSRange(location: 0, length: word.utf16.count)
    return uncountables.values.contains { $0.firstMatch(in: word, options: [], range: range) != nil }
  }

  // MARK: - Rule

  /// A regular expression, and the template that replaces its matches.
  private struct Rule: Sendable {
    let regex: NSRegularExpression
    let template: String

    init(_ pattern: String, options: NSRegularExpression.Options, template: String) {
      regex = Rule.compile(pattern, options: options)
      self.template = template
    }

    /// A rule whose replacement is `replacement`, without groups.
    init(_ pattern: String, options: NSRegularExpression.Options, literal replacement: String) {
      self.init(
        pattern, options: options, template: NSRegularExpression.escapedTemplate(for: replacement))
    }

    static func compile(_ pattern: String, options: NSRegularExpression.Options) -> NSRegularExpression {
      do {
        return try NSRegularExpression(pattern: pattern, options: options)
      } catch {
        preconditionFailure("Invalid inflection pattern \(pattern): \(error)")
      }
    }

    /// The word with each match replaced, or nil when the expression does not
    /// match.
    func apply(to word: String) -> String? {
      let range = NSRange(location: 0, length: word.utf16.count)
      guard regex.firstMatch(in: word, options: [], range: range) != nil else { return nil }
      return regex.stringByReplacingMatches(in: word, options: [], range: range, withTemplate: template)
    }
  }
}

// MARK: - The inflected word

extension Inflections {
  /// The part of `string` that inflections change: its last word, without
  /// the ASCII digits that end the string.
  ///
  /// The last word starts after the last character that is not a letter,
  /// mark, digit or underscore, after the last underscore, or at the
  /// uppercase letters before a final run of lowercase letters and digits
  /// (`"Bar"` in `"fooBar"`, `"BAR"` in `"fooBAR2"`), whichever is the latest.
  static func inflectedRange(in string: String) -> Range<String.Index> {
    let scalars = string.unicodeScalars
    var end = scalars.endIndex
    while end > scalars.startIndex, ("0"..."9").contains(scalars[scalars.index(before: end)]) {
      end = scalars.index(before: end)
    }
    let starts = [
      startOfFinalWordCharacters(scalars),
      afterLastUnderscore(scalars),
      startOfCamelCaseWord(scalars),
    ]
    let start = starts.compactMap { $0 }.max() ?? scalars.startIndex
    return min(start, end)..<end
  }

  /// The start of the letters, marks, digits and underscores that end the
  /// string, if it ends with one.
  private static func startOfFinalWordCharacters(_ scalars: String.UnicodeScalarView) -> String.Index? {
    var start = scalars.endIndex
    while start > scalars.startIndex, isWordCharacter(scalars[scalars.index(before: start)]) {
      start = scalars.index(before: start)
    }
    return start == scalars.endIndex ? nil : start
  }

  /// The index after the last underscore, if something follows it.
  private static func afterLastUnderscore(_ scalars: String.UnicodeScalarView) -> String.Index? {
    guard let underscore = scalars.lastIndex(of: "_") else { return nil }
    let next = scalars.index(after: underscore)
    return next == scalars.endIndex ? nil : next
  }

  /// The start of the ASCII uppercase letters that precede the final run of
  /// ASCII lowercase letters and digits 1 to 9, when some other character
  /// precedes them: `"Score"` in `"playerScore"`, `"Ids"` in `"playerIds"`.
  private static func startOfCamelCaseWord(_ scalars: String.UnicodeScalarView) -> String.Index? {
    var index = scalars.endIndex
    func skip(while predicate: (Unicode.Scalar) -> Bool) -> Bool {
      let before = index
      while index > scalars.startIndex, predicate(scalars[scalars.index(before: index)]) {
        index = scalars.index(before: index)
      }
      return index != before
    }
    guard skip(while: { ("a"..."z").contains($0) || ("1"..."9").contains($0) }),
      skip(while: { ("A"..."Z").contains($0) }),
      index > scalars.startIndex
    else { return nil }
    return index
  }

  /// Whether a regular expression's `\w` matches the scalar.
  private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isAlphabetic { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
      return true
    default:
      return scalar == "\u{200C}" || scalar == "\u{200D}"
    }
  }
}
