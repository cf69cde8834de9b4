import Foundation
import Testing

// @testable: LockPreservingFileRead, ProcessLocks and CommitFingerprint are Core internals.
@testable import Sealite

// SQLite's locks are POSIX record locks: closing any descriptor of a locked
// file releases every lock the process holds on it. Sealite reads the files
// SQLite locks (commit fingerprints, SQLCipher's salt, the header of a file
// that fails to open) while connections of the same process have them
// locked; those reads must leave every lock in place. `/proc/locks` is the
// kernel's own list of the locks each process holds.

/// Whether this process holds a POSIX lock on the file at `path`, as the
/// kernel lists the locks of its descriptors.
private func holdsLock(_ path: String) throws -> Bool {
  let file = try file(path)
  return try #require(ProcessLocks.lockedFiles(among: [file])).contains(file)
}

private func file(_ path: String) throws -> ProcessLocks.FileID {
  try #require(ProcessLocks.FileID(path: path))
}

@Suite("Reads of the files SQLite locks keep SQLite's locks")
struct LockPreservingFileReadTests {
  @Test(
    "a commit fingerprint, the salt and an opening failure's diagnosis keep a pool's locks on the file and -shm"
  )
  func readsKeepTheLocks() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let dbPool = try DatabasePool(path: path, configuration: rawKeyConfiguration())
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    // A read transaction holds a read mark of the -shm until it ends.
    try dbPool.read { db in
      _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
      #expect(try holdsLock(path), "a WAL connection holds a lock on the database file")
      #expect(try holdsLock(path + "-shm"), "a WAL connection holds locks on the -shm")

      _ = CommitFingerprint.read(databasePath: path)
      _ = CommitFingerprint.walIndexExists(databasePath: path)
      _ = KeyDerivation.fileSalt(path)
      _ = OpeningFailure.classify(
        path: path, isKeyed: true, underlying: DatabaseError(resultCode: .SQLITE_NOTADB))
      _ = WALFrameCheck.problems(databasePath: path)

      #expect(try holdsLock(path), "the lock on the database file survived the reads")
      #expect(try holdsLock(path + "-shm"), "the locks on the -shm survived the reads")
    }
    try dbPool.close()
  }

  @Test("a lock-free reader, released while another connection holds a lock, leaves that lock in place")
  func lockFreeReaderKeepsOtherLocks() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await DatabaseQueue(path: path, configuration: rawKeyConfiguration()).write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
    }
    var holderConfig = rawKeyConfiguration()
    holderConfig.allowsUnsafeTransactions = true
    let holder = try DatabaseQueue(path: path, configuration: holderConfig)
    try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION") }
    #expect(try holdsLock(path), "BEGIN IMMEDIATE holds a reserved lock")

    // A reader made, used and released, while the holder keeps its lock.
    func readWithLockFreeReader() throws -> Int?? {
      let reader = LockFreeReader(filePath: path, configuration: rawKeyConfiguration())
      let count = { (db: Database) in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
      return try reader.read(isCancelled: { false }, count)
    }
    #expect(try readWithLockFreeReader() == .some(0))
    // The reader was released as the function returned, and with it (at once,
    // on the earlier code) its connection: the holder's lock must stay.
    #expect(try holdsLock(path), "the reserved lock survived the lock-free reader")
    try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    try holder.close()
    // With no lock left, the next file opened for a read closes the reader.
    let other = directory.path("other")
    #expect(FileManager.default.createFile(atPath: other, contents: Data("x".utf8)))
    _ = LockPreservingFileRead.prefix(of: other, count: 1)
    // The reader's connection is closed: what may stay is the one descriptor
    // the reader's fingerprints were read through. Any read of a file in this
    // process may be the one that closes it, on its own thread: a test running
    // in parallel may have taken the close before this read, and still be in
    // it. So the condition is awaited, not read once.
    #expect(await eventually { descriptors(of: path) <= 1 })
  }

  @Test("a lock is seen while 300 others are taken and released all along")
  func lockSeenAmongOthers() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("held")
    #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    let held = open(path, O_RDWR | O_CLOEXEC)
    #expect(held >= 0)
    defer { close(held) }
    #expect(lockByte(held, F_WRLCK))
    // Another thread takes and releases a lock on each of 300 other files,
    // over and over: the list of the system's locks changes all the time.
    let others = (0..<300).map { index -> Int32 in
      let other = directory.path("other\(index)")
      _ = FileManager.default.createFile(atPath: other, contents: Data("x".utf8))
      return open(other, O_RDWR | O_CLOEXEC)
    }
    defer { for other in others { close(other) } }
    #expect(others.allSatisfy { $0 >= 0 })
    let stop = Shared(false)
    let churn = Thread {
      while !stop.value {
        for other in others { _ = lockByte(other, F_WRLCK) }
        for other in others { _ = lockByte(other, F_UNLCK) }
      }
    }
    churn.start()
    var misses = 0
    for _ in 0..<2000 where try !holdsLock(path) { misses += 1 }
    stop.update { $0 = true }
    #expect(misses == 0, "the lock held all along was missed \(misses) times in 2,000")
    #expect(ProcessLocks.lockedFiles(among: [try file(directory.path("other0"))]) != nil)
    #expect(lockByte(held, F_UNLCK))
    #expect(try !holdsLock(path))
  }

  @Test("descriptors of deleted files are closed, and a replaced file is read anew")
  func noDescriptorLeak() throws {
    let directory = TemporaryDirectory()
    for index in 0..<50 {
      let path = directory.path("file\(index)")
      #expect(FileManager.default.createFile(atPath: path, contents: Data("bytes \(index)".utf8)))
      #expect(LockPreservingFileRead.prefix(of: path, count: 5) == Array("bytes".utf8))
      try FileManager.default.removeItem(atPath: path)
    }
    // Each file opened retires and closes the deleted ones: one may be left.
    #expect(descriptors(in: directory) <= 1)

    let path = directory.path("replaced")
    #expect(FileManager.default.createFile(atPath: path, contents: Data("first".utf8)))
    #expect(LockPreservingFileRead.prefix(of: path, count: 5) == Array("first".utf8))
    let replacement = directory.path("replacement")
    #expect(FileManager.default.createFile(atPath: replacement, contents: Data("other".utf8)))
    #expect(rename(replacement, path) == 0)
    #expect(LockPreservingFileRead.prefix(of: path, count: 5) == Array("other".utf8))
    #expect(LockPreservingFileRead.prefix(of: directory.path("absent"), count: 5) == nil)
  }
}

/// Takes (or, with `F_UNLCK`, releases) a POSIX lock on the first byte of
/// the file of `descriptor`.
private func lockByte(_ descriptor: Int32, _ type: Int32) -> Bool {
  var lock = flock()
  lock.l_type = Int16(type)
  lock.l_whence = Int16(SEEK_SET)
  lock.l_start = 0
  lock.l_len = 1
  return fcntl(descriptor, F_SETLK, &lock) == 0
}

/// The descriptors of this process open on files of `directory`, deleted
/// ones included.
private func descriptors(in directory: TemporaryDirectory) -> Int {
  openTargets().filter { $0.hasPrefix(directory.url.path + "/") }.count
}

/// The descriptors of this process open on the file at `path`.
private func descriptors(of path: String) -> Int {
  openTargets().filter { $0 == path || $0 == path + " (deleted)" }.count
}

private func openTargets() -> [String] {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return names.compactMap {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
  }
}
