import Sealite
import Testing

// A persistence container finds a column by its name as SQLite compares
// names: the same bytes but for the case of ASCII letters. Names of up to 15
// bytes are compared eight bytes at a time, longer ones byte by byte, and the
// container filters names by length and last byte first: every way must give
// SQLite's answer.

@Suite("A container finds its columns as SQLite compares names, short or long")
struct NameComparisonTests {
  /// SQLite's rule, written the plain way.
  private func reference(_ first: String, _ second: String) -> Bool {
    func folded(_ string: String) -> [UInt8] {
      string.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }
    return folded(first) == folded(second)
  }

  /// True if a container with a column named `column` finds it by `name`.
  private func finds(_ column: String, by name: String) -> Bool {
    var container = PersistenceContainer()
    container[column] = 1
    return container[name] != nil
  }

  @Test("the bytes around the letters, and letters beyond ASCII, are not folded")
  func boundaries() {
    #expect(finds("AZ", by: "az"))
    #expect(finds("aZ", by: "Az"))
    #expect(!finds("@", by: "`"))
    #expect(!finds("[", by: "{"))
    #expect(!finds("é", by: "É"))
    #expect(!finds("i0", by: "i1"))
    #expect(!finds("i", by: "i0"))
    #expect(finds("", by: ""))
    #expect(!finds("", by: "a"))
    // Fifteen bytes, the most a small string holds: the last one sits next to
    // the string's discriminator. Sixteen bytes are stored out of line.
    #expect(finds("abcdefghijklmnO", by: "ABCDEFGHIJKLMNo"))
    #expect(!finds("abcdefghijklmnO", by: "abcdefghijklmnP"))
    #expect(finds("abcdefghijklmnOp", by: "ABCDEFGHIJKLMNoP"))
    #expect(!finds("abcdefghijklmnOp", by: "abcdefghijklmnPp"))
  }

  @Test("thousands of pairs, short and long, give the answer of the byte-by-byte rule")
  func randomPairs() {
    let alphabet: [String] = ["A", "Z", "a", "z", "@", "[", "`", "{", "_", "0", "é", "É", "\u{7F}", "ÿ"]
    var generator = SystemRandomNumberGenerator()
    var equal = 0
    var different = 0
    for _ in 0..<4_000 {
      let count = Int.random(in: 0...20, using: &generator)
      let first = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined()
      // Half the pairs are the same name with the case of some letters
      // flipped, where an answer of true is expected; the others are random.
      let second: String
      if Bool.random(using: &generator) {
        second = String(
          first.map { character in
            guard Bool.random(using: &generator), character.isASCII, character.isLetter else {
              return character
            }
            return character.isUppercase
              ? Character(character.lowercased()) : Character(character.uppercased())
          })
      } else {
        second = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined()
      }
      let expected = reference(first, second)
      #expect(finds(first, by: second) == expected, "\(first) / \(second)")
      #expect(finds(second, by: first) == expected, "\(second) / \(first)")
      if expected { equal += 1 } else { different += 1 }
    }
    // Both answers were put to the test.
    #expect(equal > 1_000 && different > 1_000)
  }
}
