// SQLite's rule for names of tables, columns, indexes, savepoints…: they
// compare byte by byte, ignoring the case of ASCII letters only. "é" and "É",
// or "é" and "e\u{301}", are different names, which `lowercased()` and
// `caseInsensitiveCompare` would take for one. Every comparison of names in
// Sealite goes through these.

/// The two words of a string. Two strings with the same words hold the same
/// bytes (the same small string, or the same storage); equal strings may still
/// differ in their words, so a miss falls back to a real comparison.
struct StringBits: Equatable {
  var first: UInt64
  var second: UInt64

  /// True for a small string: its bytes are in its words, the first eight in
  /// `first`, the next seven in `second`, whose top byte is the
  /// discriminator (its count in the low nibble); the bytes past the count
  /// are zero. The layout of Swift's strings on 64-bit platforms, which
  /// ``smallLayoutHolds`` checks (in debug builds, and in NameComparisonTests):
  /// reading a lazy global at each comparison would cost a call.
  @inline(__always)
  var isSmall: Bool {
    assert(StringBits.smallLayoutHolds, "small strings hold their bytes in their words")
    return (second >> 61) & 1 == 1
  }

  /// True if the words of a small string are laid out as ``isSmall`` reads
  /// them: a name of two bytes, "Ab", is 0x41 0x62 in the low bytes of the
  /// first word, and its discriminator says small, ASCII, two bytes.
  static let smallLayoutHolds: Bool = {
    let bits = "Ab".bits
    return bits.first == 0x6241 && bits.second == 0xE200_0000_0000_0000
  }()

  /// True if both small strings, of the same count, hold the same bytes but
  /// for the case of ASCII letters: both words folded at once, eight bytes at
  /// a time, and compared.
  @inline(__always)
  func sameSmallNameIgnoringASCIICase(as other: StringBits) -> Bool {
    let withoutDiscriminator: UInt64 = 0x00FF_FFFF_FFFF_FFFF
    return second >> 56 == other.second >> 56
      && StringBits.folded(first) == StringBits.folded(other.first)
      && StringBits.folded(second & withoutDiscriminator)
        == StringBits.folded(other.second & withoutDiscriminator)
  }

  /// The eight bytes of `word`, each ASCII uppercase letter lowercased.
  @inline(__always)
  private static func folded(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    // The low seven bits of each byte, plus a constant that sets the byte's
    // high bit from "A" (0x41) on, or from "[" (0x5B) on. No byte carries
    // into the next: 0x7F + 0x3F is below 0x100.
    let low = word & ~highBits
    let fromA = low &+ (0x80 - 0x41) &* ones
    let pastZ = low &+ (0x80 - 0x5B) &* ones
    // Bytes from "A" to "Z", whose own high bit is clear (not part of a
    // multibyte UTF-8 character).
    let uppercase = fromA & ~pastZ & ~word & highBits
    return word | (uppercase >> 2)
  }
}

extension String {
  /// The string's two words (see ``StringBits``).
  @inline(__always)
  var bits: StringBits { unsafeBitCast(self, to: StringBits.self) }

  /// True if both strings name the same schema object, as SQLite compares names.
  func sameName(as other: String) -> Bool {
    // Names are most often compared with their own spelling (a record's
    // column with the same column of its statement): identical string bits
    // are identical bytes (a small string holds its bytes in them, a large one
    // points to its storage). Not `==`, which takes canonically equivalent
    // strings for equal.
    let mine = bits
    let theirs = other.bits
    if mine == theirs { return true }
    // Two small strings (names of up to 15 bytes, most names) compare in
    // their words, without reaching their bytes one at a time: a record that
    // sets ten columns of two bytes each ("i0"…"i9") compares 45 pairs.
    if mine.isSmall && theirs.isSmall { return mine.sameSmallNameIgnoringASCIICase(as: theirs) }
    return utf8.count == other.utf8.count && sameBytesIgnoringASCIICase(as: other)
  }

  /// True if both strings, of the same length in UTF-8, hold the same bytes
  /// but for the case of ASCII letters. Compared in their buffers: `zip` of
  /// the two UTF-8 views costs some 300 instructions per comparison, in
  /// generic index code (a record's `encode(to container:)` compares each
  /// column it sets with those set before).
  private func sameBytesIgnoringASCIICase(as other: String) -> Bool {
    var mine = self
    var theirs = other
    return mine.withUTF8 { mine in
      theirs.withUTF8 { theirs in
        for index in mine.indices where mine[index].asciiFolded != theirs[index].asciiFolded { return false }
        return true
      }
    }
  }

  /// One bit of 64 for the name, the same for all the names SQLite takes for
  /// one (as ``sameName(as:)`` compares them): from the name's length and its
  /// last byte, an ASCII letter folded to lowercase ("i0"…"i9" take ten
  /// bits). A filter of names: a name whose bit is clear in it is not there.
  @inline(__always)
  var nameFilterBit: UInt64 {
    let bits = bits
    let count: Int
    var last: UInt64
    if bits.isSmall {
      // The bytes are in the words: the last one is read there.
      count = Int((bits.second >> 56) & 0xF)
      let shift = UInt64(truncatingIfNeeded: (count &- 1) & 7) &* 8
      last = count == 0 ? 0 : ((count <= 8 ? bits.first : bits.second) >> shift) & 0xFF
    } else {
      count = utf8.count
      last = UInt64(utf8.last ?? 0)
    }
    if last &- 65 < 26 { last |= 0x20 }
    return 1 << ((UInt64(truncatingIfNeeded: count) &* 7 &+ last) & 63)
  }

  /// The name with its ASCII letters lowercased: equal keys for the names
  /// SQLite takes for one, as ``sameName(as:)`` says. The key of dictionaries
  /// of names.
  var nameKey: String {
    // Most names have no uppercase letter: no copy.
    guard utf8.contains(where: { $0 &- 65 < 26 }) else { return self }
    return String(decoding: utf8.map(\.asciiFolded), as: UTF8.self)
  }
}

extension UInt8 {
  /// The byte, lowercased if it is an ASCII uppercase letter.
  fileprivate var asciiFolded: UInt8 { self &- 65 < 26 ? self + 32 : self }
}
