/// A dictionary that remembers the last key it found. A loop that looks one
/// key up again and again (a record type inserting or updating row after
/// row) compares the key with the last one, a few words for keys of small
/// strings, instead of hashing it.
struct LastHitDictionary<Key: Hashable, Value> {
  /// The last hit, in a box: checking it reads the key in place and retains
  /// one reference, instead of copying every reference of the key and value.
  private final class Hit {
    let key: Key
    let value: Value
    init(key: Key, value: Value) {
      self.key = key
      self.value = value
    }
  }

  private var storage: [Key: Value] = [:]
  private var last: Hit? {
    didSet { unretainedLast = last.map(Unmanaged.passUnretained) }
  }
  /// The same hit, read without a retain (`last` keeps it alive).
  private var unretainedLast: Unmanaged<Hit>?

  /// The number of keys stored.
  var count: Int { storage.count }

  /// The value of `key`; a hit in the dictionary becomes the last hit.
  ///
  /// The last hit is checked inline, and the rest is out of line: a loop
  /// that finds its key again and again runs a few instructions of this
  /// method, and its instruction cache does not hold the others.
  @inline(__always)
  mutating func value(for key: Key) -> Value? {
    if let value = lastHitValue(recognizing: { $0 == key }) { return value }
    return valueMissingLastHit(for: key)
  }

  @inline(never)
  private mutating func valueMissingLastHit(for key: Key) -> Value? {
    guard let value = storage[key] else { return nil }
    last = Hit(key: key, value: value)
    return value
  }

  /// The value of the key that `isKey` recognizes where the caller holds it
  /// (written in a buffer, say), with no key made: the last hit's, when
  /// `isKey` recognizes the last key. Else `makeKey()` makes the key, to look
  /// it up (a hit becomes the last hit), and a miss returns it, for `set`.
  mutating func value(recognizing isKey: (Key) -> Bool, makeKey: () -> Key) -> (
    value: Value?, missedKey: Key?
  ) {
    if let last, isKey(last.key) { return (last.value, nil) }
    let key = makeKey()
    guard let value = storage[key] else { return (nil, key) }
    last = Hit(key: key, value: value)
    return (value, nil)
  }

  /// The last hit's value, if `isKey` recognizes the last hit's key: the
  /// check inline, with no key made. A caller whose key is not the last one
  /// then calls ``value(recognizing:makeKey:orMake:)`` out of line, so that a
  /// loop that finds its key again and again runs only this check.
  ///
  /// Mutating, though it changes nothing: the dictionary of a class's
  /// property is then read in place, where a plain method would be given a
  /// copy of it (a retain and a release of each of its references).
  @inline(__always)
  mutating func lastHitValue(recognizing isKey: (Key) -> Bool) -> Value? {
    guard let last = unretainedLast else { return nil }
    return last._withUnsafeGuaranteedRef { _fastPath(isKey($0.key)) ? $0.value : nil }
  }

  /// The value of the key that `isKey` recognizes where the caller holds
  /// its parts, as ``value(recognizing:makeKey:)`` finds it; on a miss,
  /// `make()`'s value, stored for the key `makeKey()` made. A loop that looks
  /// its key up again and again then makes no key, and retains none of its
  /// parts, to find it.
  mutating func value(
    recognizing isKey: (Key) -> Bool, makeKey: () -> Key, orMake make: () throws -> Value
  ) rethrows -> Value {
    let found = value(recognizing: isKey, makeKey: makeKey)
    if let value = found.value { return value }
    let value = try make()
    set(value, for: found.missedKey!)
    return value
  }

  /// Stores `value` for `key`, as the last hit.
  mutating func set(_ value: Value, for key: Key) {
    storage[key] = value
    last = Hit(key: key, value: value)
  }

  mutating func removeAll() {
    storage.removeAll()
    last = nil
  }
}
