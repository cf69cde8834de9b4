#if canImport(Glibc)
  import Glibc
#endif

// A cursor of Decodable records calls the record's `init(row:)` for each row,
// as GRDB does, so that a record's own `init(row:)` wins over Decodable. The
// default `init(row:)` only gets the row: the cursor lends it its
// `RecordDecoderReuse` through this thread's slot, for the duration of the
// call. The first default `init(row:)` of the same record type takes it, so a
// record decoded inside another (a scope, a nested record) never uses the
// outer one's decoder.
extension RecordDecoderReuse {
  /// This thread's slot. A pthread key: Swift has no thread-local variables,
  /// and Foundation's thread dictionary costs a dictionary lookup per row.
  private static let slot: pthread_key_t = {
    var key = pthread_key_t()
    let code = pthread_key_create(&key, nil)
    precondition(code == 0, "a pthread key for record decoding is available")
    return key
  }()

  /// Runs `body` with this object lent to the first default `init(row:)` of
  /// its record type.
  @inline(__always)
  func lend<T>(_ body: () throws -> T) rethrows -> T {
    let slot = RecordDecoderReuse.slot
    let previous = pthread_getspecific(slot)
    pthread_setspecific(slot, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(slot, previous) }
    return try body()
  }

  /// The object lent for `type`, taken out of the slot; nil when no cursor of
  /// that type is decoding a row on this thread.
  @inline(__always)
  static func take(for type: any FetchableRecord.Type) -> RecordDecoderReuse? {
    let slot = RecordDecoderReuse.slot
    guard let raw = pthread_getspecific(slot) else { return nil }
    let reuse = Unmanaged<RecordDecoderReuse>.fromOpaque(raw).takeUnretainedValue()
    guard reuse.recordType == ObjectIdentifier(type) else { return nil }
    pthread_setspecific(slot, nil)
    reuse.isTakenByDefaultInitializer = true
    return reuse
  }
}
