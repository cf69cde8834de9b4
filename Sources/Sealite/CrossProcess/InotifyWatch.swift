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

/// Recognizes the file systems where inotify sees only this machine's writes, or none at all:
/// another host's (or a FUSE daemon's) commit would never wake the monitor.
enum FileSystemType {
  private static let magicNumbers: Set<UInt32> = [
    0x6969,  // NFS
    0x517B,  // SMB
    0xFE53_4D42,  // SMB2
    0xFF53_4D42,  // CIFS
    0x6573_5546,  // FUSE
    0x0102_1997,  // 9P
    0x00C3_6400,  // CEPH
    0x5346_414F,  // AFS
  ]

  private typealias StatFS = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32

  /// The Glibc module does not import <sys/vfs.h>, so statfs is looked up in the C library
  /// at run time. Nil when it can not be found (a static executable without dlsym support).
  private static let statfsFunction: StatFS? = {
    // A nil handle is glibc's RTLD_DEFAULT: the symbol is searched in every loaded library.
    guard let symbol = dlsym(nil, "statfs") else { return nil }
    return unsafeBitCast(symbol, to: StatFS.self)
  }()

  /// True when the directory is on a network or FUSE file system. False when it is local,
  /// and also when the type can not be read: then inotify_add_watch decides (it fails for a
  /// directory that does not exist), and the idle safety call still bounds the delay.
  static func isRemoteOrFUSE(_ directory: String) -> Bool {
    guard let statfs = statfsFunction else { return false }
    // `struct statfs` is 120 bytes on 64-bit Linux; 512 leaves room on every architecture.
    return withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer -> Bool in
      guard let base = buffer.baseAddress, statfs(directory, base) == 0 else { return false }
      // f_type is the first field, a native word (`__fsword_t`) except on s390x. The magic
      // numbers are 32-bit: truncating drops the sign extension of a 32-bit `int` f_type.
      #if arch(s390x)
        let type = base.load(as: UInt32.self)
      #else
        let type = UInt32(truncatingIfNeeded: base.load(as: Int.self))
      #endif
      return magicNumbers.contains(type)
    }
  }
}
