/// Remembers, for one statement, which column each coding key reads, so that a
/// cursor of Decodable records resolves column names once, not once per row.
///
/// Synthesized `init(from:)` asks for its keys in the same order for every row:
/// the cache replays that order and only compares key names (a string compare
/// that usually succeeds on identical storage). If a record asks in another
/// order, the cache falls back to a dictionary for the rest of the cursor.
final class ColumnLookupCache {
  private var keys: [String] = []
  private var indexes: [Int?] = []
  private var position = 0
  private var isRecording = true
  private var isOrdered = true
  private var dictionary: [String: Int?] = [:]

  func startRow() {
    if position > 0 { isRecording = false }
    position = 0
  }

  /// The index remembered for `key` (`.some(nil)` for a key that reads no
  /// column), or nil if the key must be resolved and then ``store(_:forKey:)``d.
  @inline(__always)
  func cachedIndex(forKey key: String) -> Int?? {
    if isOrdered {
      if isRecording { return nil }
      if position < keys.count && keys[position] == key {
        defer { position += 1 }
        return .some(indexes[position])
      }
      // Another order than the first row's: switch to the dictionary.
      isOrdered = false
      for (key, index) in zip(keys, indexes) { dictionary[key] = index }
    }
    return dictionary[key]
  }

  /// Remembers the index of a key that ``cachedIndex(forKey:)`` did not know.
  @inline(__always)
  func store(_ index: Int?, forKey key: String) {
    if isOrdered {
      keys.append(key)
      indexes.append(index)
      position += 1
    } else {
      dictionary[key] = index
    }
  }
}
