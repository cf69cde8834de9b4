import Foundation
import Sealite
import Testing

@Suite("Conditions Sealite detects have extended result codes of their own")
struct SealiteResultCodeTests {
  @Test("a whole-file operation on a missing file: SEALITE_CANTOPEN_NOFILE, a kind of SQLITE_CANTOPEN")
  func missingFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("missing.sqlite")
    let error = try #require(throws: DatabaseError.self) {
      try DatabaseQueue.verifyDatabase(atPath: path, key: .passphrase("p"))
    }
    #expect(error.extendedResultCode == .SEALITE_CANTOPEN_NOFILE)
    #expect(error.resultCode == .SQLITE_CANTOPEN)
    #expect(ResultCode.SQLITE_CANTOPEN ~= error)
    #expect(DatabaseError.SEALITE_CANTOPEN_NOFILE ~= error)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("a file that is no whole number of pages: SEALITE_NOTADB_PARTIAL_PAGE, a kind of SQLITE_NOTADB")
  func partialPage() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    try bytes.write(to: URL(fileURLWithPath: path))
    var configuration = Configuration()
    configuration.key = .passphrase("p")
    let error = try #require(throws: DatabaseError.self) {
      try DatabaseQueue(path: path, configuration: configuration)
    }
    #expect(error.extendedResultCode == .SEALITE_NOTADB_PARTIAL_PAGE)
    #expect(error.resultCode == .SQLITE_NOTADB)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  @Test("another whole-file operation holding the file: SEALITE_BUSY_FILE_OPERATION, a kind of SQLITE_BUSY")
  func fileOperationInProgress() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    _ = try DatabaseQueue(path: path)
    let lock = try DatabaseFileLock.acquire(forDatabaseAtPath: path)
    defer { lock.release() }
    // The lock is reentrant on one thread: the other operation runs on another.
    let outcome = Shared<DatabaseError?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      do {
        try DatabaseFileLock.acquire(forDatabaseAtPath: path, timeout: .milliseconds(50)).release()
      } catch {
        outcome.update { $0 = error as? DatabaseError }
      }
      done.signal()
    }.start()
    done.wait()
    let error = try #require(outcome.value, "the second acquisition must fail")
    #expect(error.extendedResultCode == .SEALITE_BUSY_FILE_OPERATION)
    #expect(error.resultCode == .SQLITE_BUSY)
  }
}
