import Glibc

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
