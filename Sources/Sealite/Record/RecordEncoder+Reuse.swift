#if canImport(Glibc)
  import Glibc
#endif

// Encoding a record allocates an encoder, and `container(keyedBy:)` a keyed
// container whose generic metadata the runtime looks up: together more than
// writing a few columns. Each thread keeps the encoder of the last record
// type it encoded, with its keyed container, and hands it to the next record
// of that type. The kept encoder stays in the slot while it encodes, marked
// in use (`isLent`): a record encoded meanwhile (a nested record, a record
// encoded by a callback) gets an encoder of its own, which does not replace
// it. A record of one type after another thus reads the slot when its
// encoding starts and when its values are recycled, and never writes it.
extension RecordEncoder {
  /// This thread's kept encoder, retained by the slot. A pthread key: Swift
  /// has no thread-local variables, and Foundation's thread dictionary costs
  /// a dictionary lookup per record. The destructor releases the encoder of a
  /// thread that ends.
  private static let slot: pthread_key_t = {
    var key = pthread_key_t()
    let code = pthread_key_create(&key) { raw in
      guard let raw else { return }
      Unmanaged<RecordEncoder>.fromOpaque(raw).takeRetainedValue().releaseCachedContainer()
    }
    precondition(code == 0, "a pthread key for record encoding is available")
    return key
  }()

  /// An encoder of `recordType` that starts from `container`: this thread's
  /// kept encoder when it is of that type and not in use, lent until
  /// `giveBack()`.
  static func take(recordType: any EncodableRecord.Type, container: PersistenceContainer) -> RecordEncoder {
    if let raw = pthread_getspecific(RecordEncoder.slot) {
      // The slot keeps the encoder alive: borrowed, not retained, to check it.
      let kept = Unmanaged<RecordEncoder>.fromOpaque(raw)
      let isAvailable = kept._withUnsafeGuaranteedRef {
        !$0.isLent && ObjectIdentifier($0.recordType) == ObjectIdentifier(recordType)
      }
      if _fastPath(isAvailable) {
        let encoder = kept.takeUnretainedValue()
        encoder.isLent = true
        encoder.start(with: container)
        return encoder
      }
    }
    return RecordEncoder(recordType: recordType, container: container)
  }

  /// Keeps `values`' storage, emptied, for the next record this thread
  /// encodes (see ``PersistenceContainer/recycle()``): no allocation of its
  /// values array, nor free of the last one. (Storage that a copy of the
  /// container still shares, kept by a callback, is not emptied in place: the
  /// first element removed copies the others, and the copy is the spare.)
  static func recycle(_ values: inout [DatabaseValue]) {
    guard let raw = pthread_getspecific(RecordEncoder.slot) else { return }
    // The slot keeps the encoder alive: borrowed, not retained.
    Unmanaged<RecordEncoder>.fromOpaque(raw)._withUnsafeGuaranteedRef { kept in
      guard kept.spareValues.capacity == 0 else { return }
      swap(&kept.spareValues, &values)
      // One element at a time: `removeAll(keepingCapacity:)` goes through the
      // general `replaceSubrange`, which costs several times more.
      while kept.spareValues.popLast() != nil {}
    }
  }

  /// The encoded container, moved out. The thread's kept encoder is given
  /// back to its slot; another one takes the slot, unless the encoder there
  /// is in use (this one encoded a record nested in that one's).
  func giveBack() -> PersistenceContainer {
    writePendingColumns()
    shareRecordedColumns()
    var encoded = PersistenceContainer()
    swap(&encoded, &container)
    codingPath = []
    if _fastPath(isLent) {
      isLent = false
      return encoded
    }
    keepInSlot()
    return encoded
  }

  /// Puts this encoder in the thread's slot, in place of the one kept there,
  /// unless that one is in use: then this one is dropped.
  @inline(never)
  private func keepInSlot() {
    let slot = RecordEncoder.slot
    if let raw = pthread_getspecific(slot) {
      let kept = Unmanaged<RecordEncoder>.fromOpaque(raw)
      if kept._withUnsafeGuaranteedRef({ $0.isLent }) {
        releaseCachedContainer()
        return
      }
      kept.takeRetainedValue().releaseCachedContainer()
    }
    pthread_setspecific(slot, Unmanaged.passRetained(self).toOpaque())
  }
}
