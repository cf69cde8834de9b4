/// Whether `a` equals `b`, found at once, inline, when they are the same bits
/// (two arrays, sets or strings of one storage), and by `==` otherwise. A
/// cache key compared with its last hit (a record type's columns, shared
/// from one record to the next) is then found equal without calling the
/// comparison of its elements, whose code would otherwise run at every
/// lookup.
@inline(__always)
func equalsBitsFirst<T: Equatable>(_ a: T, _ b: T) -> Bool {
  haveSameBits(a, b) || a == b
}

/// Whether `a` and `b` are the same bits, a word compared per word of the
/// type.
@inline(__always)
private func haveSameBits<T>(_ a: T, _ b: T) -> Bool {
  withUnsafeBytes(of: a) { a in
    withUnsafeBytes(of: b) { b in
      var offset = 0
      while offset + 8 <= a.count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset += 8
      }
      while offset < a.count {
        if a[offset] != b[offset] { return false }
        offset += 1
      }
      return true
    }
  }
}
