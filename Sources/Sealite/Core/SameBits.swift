/// Whether `a` and `b` are the same bits: two arrays, sets or strings of one
/// storage, say, which are then equal. The check is inline, a word compared
/// per word of the type; the caller compares with `==` when it fails, for
/// equal values of different storage. A cache key compared with its last hit
/// (a record type's columns, shared from one record to the next) is found
/// equal without calling the comparison of its elements, whose code would
/// otherwise run at every lookup.
@inline(__always)
func haveSameBits<T>(_ a: T, _ b: T) -> Bool {
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
