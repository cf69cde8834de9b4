import Glibc
import Synchronization

/// Reads of the files SQLite locks (a database file, its `-shm`) that never
/// release SQLite's locks.
///
/// SQLite locks a database file and its `-shm` with POSIX record locks, which
/// belong to a process and a file, not to a descriptor: closing *any*
/// descriptor of the file releases every lock the process holds on it
/// (`fcntl(2)`). SQLite keeps its own descriptors of a locked file open for
/// that reason. A read of ours that opened and closed such a file would
/// silently release the locks of every connection of this process. Another
/// process could then find the `-shm` unused and truncate and rebuild it under
/// this process's mapping (which crashes on SIGBUS), take the WAL write lock
/// in the middle of a writer's transaction, checkpoint over the pages a
/// reader is reading, or commit while a rollback-journal reader reads.
///
/// So a descriptor opened here stays open, and is reused, while its file is
/// at its path. One whose file was replaced or unlinked is closed only once
/// this process holds no lock on that file, as the kernel lists the locks of
/// this process's descriptors (`/proc/self/fdinfo`).
enum LockPreservingFileRead {
  /// Calls `body` with a read-only descriptor of the file at `path`, or
  /// returns nil if the file can not be opened. `body` reads with `pread`
  /// (other threads share the descriptor, and its offset) and never closes it.
  static func withDescriptor<T>(of path: String, _ body: (Int32) throws -> T) rethrows -> T? {
    // Retired files are looked at when a file is opened, not at every read:
    // a read of an open file costs a `stat` and a `pread`, no more.
    let (checkedOut, closable) = table.withLock { table in
      let (file, opened) = table.checkOut(path)
      return (file, opened ? table.takeClosable() : [])
    }
    for close in closable { close() }
    guard let file = checkedOut else { return nil }
    defer { table.withLock { $0.checkIn(file) } }
    return try body(file.descriptor)
  }

  /// Up to the first `count` bytes of the file at `path` (empty if it can
  /// not be read), or nil if it can not be opened.
  static func prefix(of path: String, count: Int) -> [UInt8]? {
    withDescriptor(of: path) { descriptor in
      var buffer = [UInt8](repeating: 0, count: count)
      let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
      return read > 0 ? Array(buffer[..<read]) : []
    }
  }

  /// Closes something that holds the file `file` open (a connection opened
  /// with `nolock=1`, whose close would release the locks of this process's
  /// other connections too) once this process holds no lock on that file:
  /// at once if it holds none.
  static func closeWhenUnlocked(_ file: ProcessLocks.FileID, _ close: @escaping @Sendable () -> Void) {
    let closable = table.withLock { table in
      table.retired.append(RetiredFile(id: file, users: 0, descriptor: nil, close: close))
      return table.takeClosable()
    }
    // Outside the lock: a connection's close may read files through here.
    for close in closable { close() }
  }

  private static let table = Mutex(DescriptorTable())
}

/// One open descriptor, and the file it was opened on.
private struct OpenFile: Sendable {
  let descriptor: Int32
  let id: ProcessLocks.FileID
  var users = 0
}

/// What remains to close of a file that left its path, or of a connection.
private struct RetiredFile: Sendable {
  let id: ProcessLocks.FileID
  var users: Int
  let descriptor: Int32?
  let close: @Sendable () -> Void
}

private struct DescriptorTable: Sendable {
  /// The descriptor of the file now at each path.
  var current: [String: OpenFile] = [:]
  /// What to close once unused and unlocked.
  var retired: [RetiredFile] = []

  /// The descriptor of the file at `path`, counted as in use, and whether it
  /// was opened now.
  mutating func checkOut(_ path: String) -> (file: (path: String, descriptor: Int32)?, opened: Bool) {
    var status = stat()
    guard stat(path, &status) == 0 else { return (nil, false) }
    if var file = current[path], file.id == ProcessLocks.FileID(UInt64(status.st_dev), UInt64(status.st_ino))
    {
      file.users += 1
      current[path] = file
      return ((path, file.descriptor), false)
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return (nil, false) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
      // Not a regular file (a FIFO, a directory): SQLite never locks it.
      Glibc.close(descriptor)
      return (nil, false)
    }
    if let replaced = current[path] { retire(replaced) }
    current[path] = OpenFile(
      descriptor: descriptor, id: ProcessLocks.FileID(UInt64(opened.st_dev), UInt64(opened.st_ino)), users: 1)
    retireUnlinked()
    return ((path, descriptor), true)
  }

  mutating func checkIn(_ file: (path: String, descriptor: Int32)) {
    if let index = current.index(forKey: file.path), current.values[index].descriptor == file.descriptor {
      current.values[index].users -= 1
    } else if let index = retired.firstIndex(where: { $0.descriptor == file.descriptor }) {
      retired[index].users -= 1
    }
  }

  private mutating func retire(_ file: OpenFile) {
    let descriptor = file.descriptor
    retired.append(
      RetiredFile(
        id: file.id, users: file.users, descriptor: descriptor, close: { _ = Glibc.close(descriptor) }))
  }

  /// Retires the descriptors of files that no longer have a name: a deleted
  /// database, a `-shm` SQLite removed.
  private mutating func retireUnlinked() {
    for (path, file) in current {
      var status = stat()
      if fstat(file.descriptor, &status) == 0, status.st_nlink == 0 {
        current[path] = nil
        retire(file)
      }
    }
  }

  /// Takes out what is retired, unused, and on a file this process holds no
  /// lock on, for the caller to close: closing it releases nothing.
  mutating func takeClosable() -> [@Sendable () -> Void] {
    let unused = Set(retired.filter { $0.users == 0 }.map(\.id))
    guard !unused.isEmpty, let locked = ProcessLocks.lockedFiles(among: unused) else { return [] }
    var closable: [@Sendable () -> Void] = []
    retired.removeAll { file in
      guard file.users == 0, !locked.contains(file.id) else { return false }
      closable.append(file.close)
      return true
    }
    return closable
  }
}

/// The POSIX record locks this process holds.
enum ProcessLocks {
  /// A file: its device's major and minor numbers, and its inode.
  struct FileID: Hashable, Sendable {
    let major: UInt64
    let minor: UInt64
    let inode: UInt64

    init(major: UInt64, minor: UInt64, inode: UInt64) {
      self.major = major
      self.minor = minor
      self.inode = inode
    }

    /// The file at `path` now, or nil.
    init?(path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      self.init(UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The file of a `stat` device and inode number (glibc's encoding of
    /// `dev_t`).
    init(_ device: UInt64, _ inode: UInt64) {
      major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
      minor = (device & 0xff) | ((device >> 12) & ~0xff)
      self.inode = inode
    }
  }

  /// Those of `files` on which this process holds a POSIX lock; nil if that
  /// can not be told (then every file counts as locked). One listing of the
  /// process's descriptors answers for all of them.
  ///
  /// The kernel lists a lock with the descriptor it was taken through
  /// (`/proc/self/fdinfo/N`): the lock lines of this process's descriptors
  /// of a file, each list read whole, are all its locks on that file, and
  /// no descriptor of it means no lock. `/proc/locks`, read before, lists
  /// the locks of every process on the system, in chunks: a lock taken or
  /// released by any process between two chunks could hide one of ours, and
  /// a descriptor was then closed under it.
  static func lockedFiles(among files: Set<FileID>) -> Set<FileID>? {
    guard let directory = opendir("/proc/self/fd") else { return nil }
    defer { closedir(directory) }
    let listing = dirfd(directory)
    var locked = Set<FileID>()
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let descriptor = Int32(name), descriptor != listing else { continue }
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { continue }
      let file = FileID(UInt64(status.st_dev), UInt64(status.st_ino))
      guard files.contains(file), !locked.contains(file) else { continue }
      // A descriptor closed meanwhile took its locks with it.
      guard let info = readSmallFile("/proc/self/fdinfo/\(descriptor)") else { continue }
      if info.hasPrefix("lock:") || info.contains("\nlock:") { locked.insert(file) }
    }
    return locked
  }

  private static func readSmallFile(_ path: String) -> String? {
    // Opened and closed freely: no file of /proc is a file SQLite locks.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { return nil }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
