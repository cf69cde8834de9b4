import Glibc

/// Bytes of a database's files that change with every commit, read without
/// taking any lock.
///
/// A commit with a rollback journal always rewrites page 1 of the database
/// file: SQLite increments its file change counter (offset 24), and SQLCipher
/// encrypts the new page with a fresh random IV, so that every ciphertext
/// byte of the page changes. A commit in WAL mode always rewrites the first
/// header of the wal-index (`-shm`: its change counter and `mxFrame`).
/// The size and modification time of the database file come with them, so
/// that pages written without page 1 (a large transaction's pages spilled
/// early, then rolled back) change the fingerprint too, as far as the clock's
/// resolution sees them. Equal fingerprints therefore mean that nothing was
/// committed in between; different ones mean that something may have been
/// (a checkpoint, say, also changes them).
struct CommitFingerprint: Equatable, Sendable {
  /// The first 100 bytes of the database file (the SQLite header region).
  static let databaseByteCount = 100
  /// The first copy of the wal-index header, which every commit rewrites.
  /// Reader marks, which every reader may write, come later in the file.
  static let walIndexHeaderByteCount = 48

  private var bytes: [UInt8]

  /// Reads the fingerprint of the database at `path` (and of its `-shm`
  /// file, when there is one). A file that can not be read counts as empty.
  static func read(databasePath path: String) -> CommitFingerprint {
    var bytes = LockPreservingFileRead.prefix(of: path, count: databaseByteCount) ?? []
    var status = stat()
    if stat(path, &status) == 0 {
      for field in [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)] {
        withUnsafeBytes(of: field) { bytes += $0 }
      }
    }
    bytes += [0xFF]  // separates the two parts
    bytes += LockPreservingFileRead.prefix(of: path + "-shm", count: walIndexHeaderByteCount) ?? []
    return CommitFingerprint(bytes: bytes)
  }

  /// Whether a rollback journal at `databasePath + "-journal"` may be in use by a
  /// writer: it exists, and its header is not zeroed (`journal_mode=PERSIST`
  /// zeroes it, `TRUNCATE` empties the file, `DELETE` removes it).
  static func journalIsActive(databasePath path: String) -> Bool {
    let header = readPrefix(path + "-journal", count: 8)
    return header.contains { $0 != 0 }
  }

  /// Whether the `-shm` file of the database at `path` exists, with a header.
  static func walIndexExists(databasePath path: String) -> Bool {
    !(LockPreservingFileRead.prefix(of: path + "-shm", count: walIndexHeaderByteCount) ?? []).isEmpty
  }

  /// Reads a file SQLite takes no lock on (a rollback journal, which comes
  /// and goes with each transaction): its descriptor can be closed at once.
  private static func readPrefix(_ path: String, count: Int) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: count)
    let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
    return read > 0 ? Array(buffer[..<read]) : []
  }
}
