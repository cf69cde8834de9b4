import Foundation
import Sealite
import Testing

// The plurals and singulars of the default rules are GRDB's: they name the
// default keys of associations, so a GRDB application's rows and records
// decode the same under Sealite.

/// Singular and plural pairs of the default English rules.
private let englishPairs: [(String, String)] = [
  // Regular
  ("player", "players"), ("book", "books"), ("comment", "comments"), ("case", "cases"),
  ("stack", "stacks"), ("day", "days"), ("experience", "experiences"), ("edge", "edges"),
  ("horse", "horses"), ("house", "houses"), ("prize", "prizes"), ("slice", "slices"),
  ("photo", "photos"), ("portfolio", "portfolios"), ("taxi", "taxis"), ("proof", "proofs"),
  ("archive", "archives"), ("perspective", "perspectives"), ("movie", "movies"),
  ("shoe", "shoes"), ("database", "databases"), ("newsletter", "newsletters"),
  // -es
  ("search", "searches"), ("switch", "switches"), ("match", "matches"), ("box", "boxes"),
  ("fix", "fixes"), ("wish", "wishes"), ("brush", "brushes"), ("address", "addresses"),
  ("process", "processes"), ("class", "classes"), ("kiss", "kisses"), ("witness", "witnesses"),
  ("bus", "buses"), ("status", "statuses"), ("alias", "aliases"), ("bias", "biases"),
  ("canvas", "canvases"), ("focus", "focuses"), ("gas", "gases"), ("lens", "lenses"),
  ("quiz", "quizzes"), ("hero", "heroes"), ("tomato", "tomatoes"), ("buffalo", "buffaloes"),
  // -y, -f, -fe
  ("category", "categories"), ("query", "queries"), ("ability", "abilities"),
  ("agency", "agencies"), ("wife", "wives"), ("life", "lives"), ("half", "halves"),
  ("elf", "elves"), ("dwarf", "dwarves"),
  // Latin and Greek
  ("datum", "data"), ("medium", "media"), ("stadium", "stadia"), ("index", "indices"),
  ("vertex", "vertices"), ("matrix", "matrices"), ("analysis", "analyses"), ("basis", "bases"),
  ("diagnosis", "diagnoses"), ("thesis", "theses"), ("crisis", "crises"), ("axis", "axes"),
  ("testis", "testes"), ("octopus", "octopi"), ("virus", "viri"),
  // Irregular
  ("person", "people"), ("salesperson", "salespeople"), ("man", "men"), ("woman", "women"),
  ("spokesman", "spokesmen"), ("child", "children"), ("foot", "feet"), ("leaf", "leaves"),
  ("move", "moves"), ("specimen", "specimens"), ("mouse", "mice"), ("louse", "lice"),
  ("ox", "oxen"),
  // Uncountable, and words that are their own plural
  ("sheep", "sheep"), ("fish", "fish"), ("jeans", "jeans"), ("information", "information"),
  ("equipment", "equipment"), ("police", "police"), ("news", "news"), ("series", "series"),
  ("miniseries", "miniseries"), ("species", "species"),
  // Several words: only the last one changes
  ("funky jeans", "funky jeans"), ("my money", "my money"), ("old_news", "old_news"),
  ("status_code", "status_codes"), ("node_child", "node_children"),
  ("my_analysis", "my_analyses"), ("matrix_fu", "matrix_fus"), ("diagnosis_a", "diagnosis_as"),
]

@Suite("Inflections: GRDB's plurals and singulars of names")
struct InflectionsTests {
  @Test("the default rules pluralize a singular word, and keep a plural one", arguments: englishPairs)
  func pluralize(singular: String, plural: String) {
    let inflections = Inflections.default
    #expect(inflections.pluralize(singular) == plural)
    #expect(inflections.pluralize(plural) == plural)
    #expect(inflections.pluralize(singular.capitalized) == plural.capitalized)
    #expect(inflections.pluralize(plural.capitalized) == plural.capitalized)
  }

  @Test("the default rules singularize a plural word, and keep a singular one", arguments: englishPairs)
  func singularize(singular: String, plural: String) {
    let inflections = Inflections.default
    #expect(inflections.singularize(plural) == singular)
    #expect(inflections.singularize(singular) == singular)
    #expect(inflections.singularize(plural.capitalized) == singular.capitalized)
    #expect(inflections.singularize(singular.capitalized) == singular.capitalized)
  }

  @Test(
    "a camelCase name inflects its last word, and trailing digits stay at the end",
    arguments: englishPairs)
  func prefixesAndDigits(singular: String, plural: String) {
    let inflections = Inflections.default
    let prefixedSingular = "prefixed" + singular.capitalized
    let prefixedPlural = "prefixed" + plural.capitalized
    #expect(inflections.pluralize(prefixedSingular) == prefixedPlural)
    #expect(inflections.singularize(prefixedPlural) == prefixedSingular)
    #expect(inflections.pluralize(singular + "123") == plural + "123")
    #expect(inflections.singularize(plural + "123") == singular + "123")
  }

  @Test("the last word is found after a space, an underscore or a change to uppercase")
  func lastWord() {
    let inflections = Inflections.default
    #expect(inflections.pluralize("playerId") == "playerIds")
    #expect(inflections.singularize("playerIds") == "playerId")
    #expect(inflections.pluralize("PostalAddress") == "PostalAddresses")
    #expect(inflections.singularize("PostalAddresses") == "PostalAddress")
    #expect(inflections.pluralize("bestPlayerScore") == "bestPlayerScores")
    #expect(inflections.pluralize("best player score") == "best player scores")
    #expect(inflections.pluralize("best_player_score") == "best_player_scores")
    #expect(inflections.pluralize("Best_Player_Person") == "Best_Player_People")
    #expect(inflections.pluralize("PlayerScore1") == "PlayerScores1")
    #expect(inflections.singularize("player_children2") == "player_child2")
    #expect(inflections.pluralize("teamCategory") == "teamCategories")
  }

  @Test("empty strings, and words that are already plural, do not change")
  func unchanged() {
    let inflections = Inflections.default
    #expect(inflections.pluralize("") == "")
    #expect(inflections.singularize("") == "")
    #expect(inflections.pluralize("plurals") == "plurals")
    #expect(inflections.pluralize("Plurals") == "Plurals")
  }

  @Test("an irregular suffix keeps the case of its first letter, and takes the rest as given")
  func irregularCase() {
    let inflections = Inflections.default
    #expect(inflections.pluralize("Person") == "People")
    #expect(inflections.pluralize("PERSON") == "People")
    #expect(inflections.singularize("Children") == "Child")
    #expect(inflections.pluralize("Woman") == "Women")
  }

  @Test(
    "the default uncountable words do not change, in any case",
    arguments: [
      "advice", "corps", "dice", "equipment", "fish", "information", "jeans", "kudos", "money",
      "offspring", "police", "rice", "sheep", "species",
    ])
  func uncountable(word: String) {
    let inflections = Inflections.default
    for form in [word, word.capitalized, word.uppercased()] {
      #expect(inflections.pluralize(form) == form)
      #expect(inflections.singularize(form) == form)
    }
  }

  @Test(
    "a copy of the default rules learns irregular pairs in both directions",
    arguments: [
      ("person", "people"), ("man", "men"), ("child", "children"), ("sex", "sexes"),
      ("move", "moves"), ("cow", "kine"), ("zombie", "zombies"), ("genus", "genera"),
    ])
  func irregularSuffix(singular: String, plural: String) {
    var inflections = Inflections.default
    inflections.irregularSuffix(singular, plural)
    #expect(inflections.pluralize(singular) == plural)
    #expect(inflections.pluralize(plural) == plural)
    #expect(inflections.singularize(plural) == singular)
    #expect(inflections.singularize(singular) == singular)

    let prefixedSingular = "prefixed" + singular.capitalized
    let prefixedPlural = "prefixed" + plural.capitalized
    #expect(inflections.pluralize(prefixedSingular) == prefixedPlural)
    #expect(inflections.pluralize(prefixedPlural) == prefixedPlural)
    #expect(inflections.singularize(prefixedPlural) == prefixedSingular)
    #expect(inflections.singularize(prefixedSingular) == prefixedSingular)

    #expect(inflections.pluralize(singular + "123") == plural + "123")
    #expect(inflections.singularize(plural + "123") == singular + "123")
  }

  @Test("a copy of the default rules learns uncountable words, ASCII or not")
  func addedUncountables() {
    var inflections = Inflections.default
    inflections.uncountableWords(["HTTP", "猫"])
    for word in ["HTTP", "http", "猫"] {
      #expect(inflections.pluralize(word) == word)
      #expect(inflections.singularize(word) == word)
    }
    #expect(Inflections.default.pluralize("http") == "https")
  }

  @Test("an uncountable word must be a whole word: \"ors\" leaves \"sponsor\" countable")
  func uncountableIsNotGreedy() {
    var inflections = Inflections.default
    inflections.uncountableWords(["ors"])
    #expect(inflections.pluralize("ors") == "ors")
    #expect(inflections.singularize("ors") == "ors")
    #expect(inflections.pluralize("sponsor") == "sponsors")
    #expect(inflections.singularize("sponsors") == "sponsor")
  }

  @Test("changing the default changes it for everyone, and a copy leaves it alone")
  func defaultIsShared() {
    var copy = Inflections.default
    copy.irregularSuffix("cow", "kine")
    #expect(copy.pluralize("cow") == "kine")
    #expect(Inflections.default.pluralize("cow") == "cows")

    // A made-up word no other test uses: the default is shared by the process.
    Inflections.default.irregularSuffix("sealitum", "sealita")
    #expect(Inflections.default.pluralize("sealitum") == "sealita")
    #expect(Inflections.default.singularize("bigSealita") == "bigSealitum")
  }

  @Test("new inflections have no rule and return every word unchanged")
  func emptyInflections() {
    let inflections = Inflections()
    for word in ["player", "players", "person", "people", "sheep", ""] {
      #expect(inflections.pluralize(word) == word)
      #expect(inflections.singularize(word) == word)
    }
  }

  @Test("the rule added last is tried first, and groups fill the template")
  func customRules() {
    var inflections = Inflections()
    inflections.plural("$", "s")
    inflections.plural("(x|ch)$", "$1es")
    inflections.singular("s$", "")
    inflections.singular("(x|ch)es$", "$1")
    #expect(inflections.pluralize("bird") == "birds")
    #expect(inflections.pluralize("box") == "boxes")
    #expect(inflections.pluralize("Church") == "Churches")
    #expect(inflections.pluralize("redBox") == "redBoxes")
    #expect(inflections.singularize("birds") == "bird")
    #expect(inflections.singularize("BOXES") == "BOX")
    #expect(inflections.singularize("bird_boxes") == "bird_box")
  }

  @Test("rules are case insensitive unless other options are given")
  func ruleOptions() {
    var inflections = Inflections()
    inflections.plural("$", "s")
    inflections.plural("^ox$", options: [], "oxen")
    #expect(inflections.pluralize("ox") == "oxen")
    #expect(inflections.pluralize("Ox") == "Oxs")

    var insensitive = Inflections()
    insensitive.plural("^ox$", "oxen")
    #expect(insensitive.pluralize("OX") == "oxen")
  }

  @Test("an irregular pair alone pluralizes and singularizes the words that end with it")
  func irregularAlone() {
    var inflections = Inflections()
    inflections.irregularSuffix("cow", "kine")
    #expect(inflections.pluralize("cow") == "kine")
    #expect(inflections.pluralize("Cow") == "Kine")
    #expect(inflections.pluralize("prizedCow") == "prizedKine")
    #expect(inflections.singularize("kine") == "cow")
    #expect(inflections.singularize("KINE") == "Cow")
    #expect(inflections.pluralize("horse") == "horse")
  }

  @Test("uncountable words win over the rules")
  func uncountableWinsOverRules() {
    var inflections = Inflections()
    inflections.plural("$", "s")
    inflections.uncountableWords(["fish"])
    inflections.irregularSuffix("fish", "fishes")
    #expect(inflections.pluralize("fish") == "fish")
    #expect(inflections.pluralize("golden_fish") == "golden_fish")
    #expect(inflections.pluralize("GoldenFish") == "GoldenFish")
    #expect(inflections.pluralize("bird") == "birds")
  }
}
