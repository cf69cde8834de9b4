import Glibc

/// One inotify instance watching one directory for changes to a few file names in it.
///
/// The descriptor is non-blocking so that ``drain(names:)`` can empty the queue in one go and
/// the monitor calls its handler once per burst of events, however many there were.
final class InotifyWatch: Sendable {
  /// What a drain found in the queue.
  enum Drained: Equatable, Sendable {
    /// Only events for other files (or none at all).
    case nothing
    /// At least one event for a watched name, or a queue overflow (which may have lost some).
    case relevant
    /// The kernel removed the watch (the directory is gone or unmounted) or reading failed:
    /// no event will ever come again.
    case watchLost
  }

  let descriptor: Int32

  /// The watch, or nil when the kernel refuses it (no inotify, too many watches,
  /// the directory does not exist).
  init?(directory: String) {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO)
    guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
      close(descriptor)
      return nil
    }
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// Reads every queued event, without blocking, and tells whether one of them names a file
  /// in `names` (file names as UTF-8, compared byte for byte).
  func drain(names: [[UInt8]]) -> Drained {
    // Large enough for at least one event with the longest file name (NAME_MAX = 255),
    // as read(2) fails with EINVAL when the next event does not fit.
    let capacity = 4096
    let headerSize = MemoryLayout<inotify_event>.size
    var result = Drained.nothing
    return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 8) { buffer in
      while true {
        let count = read(descriptor, buffer.baseAddress, capacity)
        if count < 0 {
          if errno == EINTR { continue }
          if errno == EAGAIN || errno == EWOULDBLOCK { return result }
          return .watchLost
        }
        if count == 0 { return result }
        var offset = 0
        while offset + headerSize <= count {
          let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          let nameStart = offset + headerSize
          offset = nameStart + nameLength
          if mask & UInt32(IN_IGNORED) != 0 { return .watchLost }
          if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            result = .relevant
            continue
          }
          guard nameLength > 0, offset <= count, result == .nothing else { continue }
          // The kernel pads the name with NUL bytes up to an aligned length.
          let padded = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<offset])
          let name = padded.prefix { $0 != 0 }
          if names.contains(where: { $0.elementsEqual(name) }) { result = .relevant }
        }
      }
    }
  }
}
