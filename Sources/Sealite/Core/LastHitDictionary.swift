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
  private var last: Hit?

  /// The number of keys stored.
  var count: Int { storage.count }

  /// The value of `key`; a hit in the dictionary becomes the last hit.
  mutating func value(for key: Key) -> Value? {
    if let last, last.key == key { return last.value }
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
