/// Remembers, for one cursor, which column each coding key reads, so that a
/// cursor of Decodable records resolves column names once, not once per row.
///
/// Synthesized `init(from:)` asks for its keys in the same order for every row:
/// the cache records the first row's keys and replays that order. A replayed key
/// is recognized by its type and its bits when it is a plain value of at most 8
/// bytes (the enums that synthesized `CodingKeys` are), without building its
/// string; other keys compare their names. If a record asks in another order,
/// the cache falls back to a dictionary for the rest of the cursor.
final class ColumnLookupCache {
  private struct Entry {
    var keyType: ObjectIdentifier
    var keyBits: UInt64?
    var name: String
    var index: Int?
  }

  // Unchecked exclusivity and a manually managed buffer: the cache is used by
  // one decoding at a time, and the replay is the per-column cost of decoding a
  // record, which runtime access checks and reference counting would dominate.
  @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var capacity = 8
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var position = 0
  @exclusivity(unchecked) private var isRecording = true
  @exclusivity(unchecked) private var isOrdered = true
  @exclusivity(unchecked) private var dictionary: [String: Int?] = [:]

  init() {
    entries = .allocate(capacity: capacity)
  }

  deinit {
    entries.deinitialize(count: count)
    entries.deallocate()
  }

  /// Starts the keys of a new row.
  func startRow() {
    if position > 0 { isRecording = false }
    position = 0
  }

  /// The index of the column `key` reads (nil for none), from the cache or else
  /// from `resolve`, which is given the key's name.
  @inline(__always)
  func index<Key: CodingKey>(forKey key: Key, resolve: (String) -> Int?) -> Int? {
    if !isRecording && isOrdered && position < count {
      let entry = entries + position
      if entry.pointee.keyType == ObjectIdentifier(Key.self), let bits = Self.bits(of: key),
        entry.pointee.keyBits == bits
      {
        position += 1
        return entry.pointee.index
      }
    }
    return slowIndex(forKey: key, resolve: resolve)
  }

  @inline(never)
  private func slowIndex<Key: CodingKey>(forKey key: Key, resolve: (String) -> Int?) -> Int? {
    let name = key.stringValue
    if isOrdered {
      if isRecording {
        let index = resolve(name)
        append(
          Entry(keyType: ObjectIdentifier(Key.self), keyBits: Self.bits(of: key), name: name, index: index))
        position += 1
        return index
      }
      if position < count && entries[position].name == name {
        position += 1
        return entries[position - 1].index
      }
      // Another order than the first row's: switch to the dictionary.
      isOrdered = false
      for entry in UnsafeBufferPointer(start: entries, count: count) { dictionary[entry.name] = entry.index }
    }
    if let cached = dictionary[name] { return cached }
    let index = resolve(name)
    dictionary[name] = index
    return index
  }

  private func append(_ entry: Entry) {
    if count == capacity {
      let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: entries, count: count)
      entries.deallocate()
      entries = larger
      capacity *= 2
    }
    (entries + count).initialize(to: entry)
    count += 1
  }

  /// The bits of a key that is a plain value of at most 8 bytes: two such keys
  /// of one type are equal exactly when their bits are.
  @inline(__always)
  private static func bits<Key: CodingKey>(of key: Key) -> UInt64? {
    guard _isPOD(Key.self), MemoryLayout<Key>.size <= 8 else { return nil }
    var bits: UInt64 = 0
    withUnsafeMutableBytes(of: &bits) { target in
      withUnsafeBytes(of: key) { target.copyMemory(from: $0) }
    }
    return bits
  }
}
