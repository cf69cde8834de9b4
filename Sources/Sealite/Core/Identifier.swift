// SQLite's rule for names of tables, columns, indexes, savepoints…: they
// compare byte by byte, ignoring the case of ASCII letters only. "é" and "É",
// or "é" and "e\u{301}", are different names, which `lowercased()` and
// `caseInsensitiveCompare` would take for one. Every comparison of names in
// Sealite goes through these two.

/// The two words of a string. Two strings with the same words hold the same
/// bytes (the same small string, or the same storage); equal strings may still
/// differ in their words, so a miss falls back to a real comparison.
struct StringBits: Equatable {
  var first: UInt64
  var second: UInt64
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
    bits == other.bits || (utf8.count == other.utf8.count && sameBytesIgnoringASCIICase(as: other))
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
