/// Remembers, for one cursor, which column each coding key reads, so that a
/// cursor of Decodable records resolves column names once, not once per row.
///
/// Synthesized `init(from:)` asks for its keys in the same order for every row:
/// the cache records the first row's keys and replays that order. A replayed key
/// is recognized by its name, which is all its column depends on: the names of
/// synthesized `CodingKeys` are string literals, so the comparison is one of
/// their two words. If a record asks in another order, the cache falls back to
/// a dictionary for the rest of the cursor.
final class ColumnLookupCache {
  private struct Entry {
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

  /// The index of the column named `name` (nil for none), from the cache or
  /// else from `resolve`.
  @inline(__always)
  func index(forName name: String, resolve: (String) -> Int?) -> Int? {
    if !isRecording && isOrdered && position < count {
      let entry = entries + position
      if entry.pointee.name == name {
        position += 1
        return entry.pointee.index
      }
    }
    return slowIndex(forName: name, resolve: resolve)
  }

  @inline(never)
  private func slowIndex(forName name: String, resolve: (String) -> Int?) -> Int? {
    if isOrdered {
      if isRecording {
        let index = resolve(name)
        append(Entry(name: name, index: index))
        position += 1
        return index
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
    assert(count < capacity, "the entry buffer has room")
    (entries + count).initialize(to: entry)
    count += 1
  }
}
