// The English rules are the frozen default inflections of Ruby on Rails'
// ActiveSupport (MIT license), as GRDB adopted them: Sealite's default keys are
// GRDB's. Like Rails, the set is deliberately left as it is, incomplete, so that
// the names applications already rely on do not change.

extension Inflections {
  /// The inflections Sealite uses for the default keys of associations and
  /// the names of association aggregates: English rules.
  ///
  /// ```swift
  /// Inflections.default.pluralize("book")       // "books"
  /// Inflections.default.singularize("people")   // "person"
  /// ```
  ///
  /// Change them once, early, before any request derives a name from them:
  /// a request keeps the names it derived, and requests built before and after
  /// the change would disagree.
  ///
  /// ```swift
  /// Inflections.default.irregularSuffix("cactus", "cacti")
  /// Inflections.default.uncountableWords(["metadata"])
  /// ```
  ///
  /// Reading and setting the default is safe from any thread; a change made
  /// from several threads at once may lose all but one of them.
  public static var `default`: Inflections {
    get { defaultStorage.value }
    set { defaultStorage.withLock { $0 = newValue } }
  }

  private static let defaultStorage = Locked(english)

  /// The English rules, as ``Inflections/default`` starts.
  static let english: Inflections = {
    var inflections = Inflections()
    for (pattern, template) in englishPlurals {
      inflections.plural(pattern, template)
    }
    for (pattern, template) in englishSingulars {
      inflections.singular(pattern, template)
    }
    inflections.uncountableWords(englishUncountables)
    for (singular, plural) in englishIrregulars {
      inflections.irregularSuffix(singular, plural)
    }
    return inflections
  }()

  /// Pluralization rules, in the order they are added: the last one that
  /// matches wins. Patterns are case insensitive.
  private static let englishPlurals: [(pattern: String, template: String)] = [
    ("$", "s"),
    ("s$", "s"),
    ("^(ax|test)is$", "$1es"),
    ("(octop|vir)us$", "$1i"),
    ("(octop|vir)i$", "$1i"),
    ("(alias|bias|canvas|focus|gas|lens|status)$", "$1es"),
    ("(bu)s$", "$1ses"),
    ("(buffal|tomat|her)o$", "$1oes"),
    ("([ti])um$", "$1a"),
    ("([ti])a$", "$1a"),
    ("sis$", "ses"),
    ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
    ("(hive)$", "$1s"),
    ("([^aeiouy]|qu)y$", "$1ies"),
    ("(x|ch|ss|sh)$", "$1es"),
    ("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
    ("^(m|l)ouse$", "$1ice"),
    ("^(m|l)ice$", "$1ice"),
    ("^(ox)$", "$1en"),
    ("^(oxen)$", "$1"),
    ("(quiz)$", "$1zes"),
    ("(canva)s$", "$1ses"),
  ]

  /// Singularization rules, in the order they are added: the last one that
  /// matches wins. Patterns are case insensitive.
  private static let englishSingulars: [(pattern: String, template: String)] = [
    ("s$", ""),
    ("(ss)$", "$1"),
    ("(n)ews$", "$1ews"),
    ("([ti])a$", "$1um"),
    ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
    ("(^analy)(sis|ses)$", "$1sis"),
    ("([^f])ves$", "$1fe"),
    ("(hive)s$", "$1"),
    ("(tive)s$", "$1"),
    ("([lr])ves$", "$1f"),
    ("([^aeiouy]|qu)ies$", "$1y"),
    ("(s)eries$", "$1eries"),
    ("(m)ovies$", "$1ovie"),
    ("(x|ch|ss|sh)es$", "$1"),
    ("^(m|l)ice$", "$1ouse"),
    ("(bus)(es)?$", "$1"),
    ("(o)es$", "$1"),
    ("(shoe)s$", "$1"),
    ("(cris|test)(is|es)$", "$1is"),
    ("^(a)x[ie]s$", "$1xis"),
    ("(octop|vir)(us|i)$", "$1us"),
    ("(alias|bias|canvas|focus|gas|lens|status)(es)?$", "$1"),
    ("^(ox)en$", "$1"),
    ("(vert|ind)ices$", "$1ex"),
    ("(matr)ices$", "$1ix"),
    ("(quiz)zes$", "$1"),
    ("(database)s$", "$1"),
  ]

  /// Words whose plural is the singular.
  private static let englishUncountables = [
    "advice", "corps", "dice", "equipment", "fish", "information", "jeans", "kudos", "money",
    "offspring", "police", "rice", "sheep", "species",
  ]

  /// Irregular pairs, added after the rules above, so they win over them.
  private static let englishIrregulars: [(singular: String, plural: String)] = [
    ("child", "children"),
    ("foot", "feet"),
    ("leaf", "leaves"),
    ("man", "men"),
    ("move", "moves"),
    ("person", "people"),
    ("sex", "sexes"),
    ("specimen", "specimens"),
    ("zombie", "zombies"),
  ]
}
