/// English plurals and singulars for default association keys and aggregate names.
enum Inflections {
  private static let irregular: [(String, String)] = [
    ("person", "people"), ("child", "children"), ("man", "men"), ("woman", "women"), ("mouse", "mice"),
    ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"),
  ]

  static func pluralize(_ word: String) -> String {
    let lower = word.lowercased()
    for (singular, plural) in irregular where lower.hasSuffix(singular) {
      return String(word.dropLast(singular.count))
        + matchCase(plural, of: String(word.suffix(singular.count)))
    }
    if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
      || lower.hasSuffix("sh")
    {
      return word + "es"
    }
    if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
      return word.dropLast() + "ies"
    }
    return word + "s"
  }

  static func singularize(_ word: String) -> String {
    let lower = word.lowercased()
    for (singular, plural) in irregular where lower.hasSuffix(plural) {
      return String(word.dropLast(plural.count)) + matchCase(singular, of: String(word.suffix(plural.count)))
    }
    if lower.hasSuffix("ies") { return word.dropLast(3) + "y" }
    for suffix in ["ches", "shes", "sses", "xes", "zes"] where lower.hasSuffix(suffix) {
      return String(word.dropLast(2))
    }
    if lower.hasSuffix("s") && !lower.hasSuffix("ss") { return String(word.dropLast()) }
    return word
  }

  private static func matchCase(_ replacement: String, of original: String) -> String {
    guard let first = original.first, first.isUppercase else { return replacement }
    return replacement.prefix(1).uppercased() + replacement.dropFirst()
  }
}
