import Testing

@testable import Sealite

// `sameName(as:)` compares two small strings in their words, eight bytes at
// a time, and other strings byte by byte. Both ways must give SQLite's answer:
// the same bytes but for the case of ASCII letters.

@Suite("Names compare in their words as byte by byte")
struct NameComparisonTests {
  /// SQLite's rule, written the plain way.
  private func reference(_ first: String, _ second: String) -> Bool {
    func folded(_ string: String) -> [UInt8] {
      string.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }
    return folded(first) == folded(second)
  }

  @Test("small strings are compared in their words on this platform")
  func smallLayout() {
    // Without it, every comparison takes the byte-by-byte path: still right,
    // but the speed of a record's encode(to container:) depends on it.
    #expect(StringBits.smallLayoutHolds)
    #expect("i0".bits.isSmall)
    #expect("fifteen_bytes__".bits.isSmall)
    #expect(!"sixteen_bytes___".bits.isSmall)
  }

  @Test("the bytes around the letters, and letters beyond ASCII, are not folded")
  func boundaries() {
    #expect("AZ".sameName(as: "az"))
    #expect("aZ".sameName(as: "Az"))
    #expect(!"@".sameName(as: "`"))
    #expect(!"[".sameName(as: "{"))
    #expect(!"é".sameName(as: "É"))
    #expect(!"i0".sameName(as: "i1"))
    #expect(!"i".sameName(as: "i0"))
    #expect("".sameName(as: ""))
    #expect(!"".sameName(as: "a"))
    // The fifteenth byte is in the second word, next to its discriminator.
    #expect("abcdefghijklmnO".sameName(as: "ABCDEFGHIJKLMNo"))
    #expect(!"abcdefghijklmnO".sameName(as: "abcdefghijklmnP"))
  }

  @Test("thousands of pairs, small and large, give the answer of the byte-by-byte rule")
  func randomPairs() {
    let alphabet: [String] = ["A", "Z", "a", "z", "@", "[", "`", "{", "_", "0", "é", "É", "\u{7F}", "ÿ"]
    var generator = SystemRandomNumberGenerator()
    var compared = 0
    var equal = 0
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
      #expect(first.sameName(as: second) == expected, "\(first) / \(second)")
      #expect(second.sameName(as: first) == expected, "\(second) / \(first)")
      compared += 1
      if expected { equal += 1 }
    }
    // Both answers were put to the test.
    #expect(equal > 1_000 && compared - equal > 1_000)
  }
}
