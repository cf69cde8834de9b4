import Dispatch
import Foundation
import Sealite
import SealiteKeyring
import Testing

/// The files of the directory of `path`.
private func siblings(_ path: String) -> [String] {
  let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
  return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// A value set by one thread and read by another.
private final class Box<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: every access holds `lock`.
  private let lock = NSLock()
  private var stored: Value?
  var value: Value? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

@Suite("Key operations of one database never undo each other")
struct KeyringConcurrencyTests {
  let keyring = Keyring()

  @Test("a settle waits for the key change in progress, and never drops its pending key")
  func settleWaitsForLiveKeyChange() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    let keyA = DatabaseKey.randomRaw()
    let keyB = DatabaseKey.randomRaw()
    try makeDatabase(path, key: keyA)
    try keyring.store(keyA, for: database)

    // A key change in progress: it holds the lock and stored its new key as
    // pending, and the database still opens with the stored key.
    let lock = try DatabaseFileLock.acquire(forDatabaseAtPath: path)
    try keyring.store(keyB, for: database.pendingKeyItem)
    let outcome = Box<Result<PendingKeyChangeOutcome?, any Error>>()
    let settled = DispatchSemaphore(value: 0)
    let keyring = keyring
    DispatchQueue.global().async {
      outcome.value = Result { try keyring.settlePendingKeyChange(for: database) }
      settled.signal()
    }
    // Another opener (an app's useKeyFromKeyring, dbkey info…) waits.
    #expect(
      settled.wait(timeout: .now() + .milliseconds(400)) == .timedOut, "settled while the change was live")
    #expect(try keyring.key(for: database.pendingKeyItem).hasSameBytes(as: keyB))
    // The change commits, then dies before it promotes its key (SIGKILL).
    var config = Configuration()
    config.key = keyA
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.changeKey(to: keyB)
    try dbQueue.close()
    lock.release()

    #expect(settled.wait(timeout: .now() + 30) == .success)
    #expect(try outcome.value?.get() == .promotedPendingKey)
    #expect(try keyring.key(for: database).hasSameBytes(as: keyB))
    #expect(try itemNames(keyring, database) == [""])
    #expect(opens(path, keyB))
  }

  @Test("two key changes of one database at once both complete, one after the other")
  func concurrentKeyChanges() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    let first = DatabaseKey.randomRaw()
    try makeDatabase(path, key: first)
    try keyring.store(first, for: database)
    let keyring = keyring
    let results = (0..<2).map { _ in Box<Result<Void, any Error>>() }
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      results[index].value = Result { try keyring.changeKey(of: database, to: .randomRaw()) }
    }
    for result in results { #expect(throws: Never.self) { try result.value?.get() } }
    #expect(try itemNames(keyring, database) == [""])
    #expect(opens(path, try keyring.key(for: database)))
    #expect(!opens(path, first))
  }

  @Test("two creations of one path at once: one creates, the other changes nothing")
  func concurrentCreations() throws {
    let keyring = keyring
    for _ in 0..<4 {
      let path = uniqueDatabasePath()
      let database = try KeyringDatabase(path: path)
      let results = (0..<2).map { _ in Box<Result<Void, any Error>>() }
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        results[index].value = Result { try keyring.createDatabase(database) }
      }
      let failures = results.compactMap { result -> DatabaseError? in
        guard case .failure(let error)? = result.value else { return nil }
        return error as? DatabaseError
      }
      #expect(failures.count == 1, "\(results.map { String(describing: $0.value) })")
      #expect(failures.first?.resultCode == .SQLITE_CANTOPEN)
      #expect(try itemNames(keyring, database) == [""])
      #expect(opens(path, try keyring.key(for: database)))
      #expect(siblings(path) == [URL(fileURLWithPath: path).lastPathComponent])
    }
  }

  @Test("what an interrupted creation left — a pending key, a temporary file — is dropped by the next settle")
  func interruptedCreation() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    try keyring.store(.randomRaw(), for: database.pendingKeyItem)
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let leftover =
      "\(directory)/.\(URL(fileURLWithPath: path).lastPathComponent).sealite-tmp-0123456789abcdef"
    try Data("partial".utf8).write(to: URL(fileURLWithPath: leftover))
    #expect(try keyring.settlePendingKeyChange(for: database) == .droppedPendingKey)
    #expect(try itemNames(keyring, database) == [])
    #expect(!FileManager.default.fileExists(atPath: leftover))
    // A creation then works at once.
    try keyring.createDatabase(database)
    #expect(opens(path, try keyring.key(for: database)))
  }

  @Test("no file is ever written where the keyring holds the key of a database that was moved away")
  func keyOfMovedDatabase() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    let moved = DatabaseKey.randomRaw()
    try keyring.store(moved, for: database)  // its file went elsewhere
    let source = uniqueDatabasePath()
    try makeDatabase(source, key: .randomRaw())
    let error = try #require(throws: KeyringError.self) {
      try keyring.exportDatabase(
        atPath: source, key: nil, to: database, destinationKey: .randomRaw())
    }
    #expect(error == .keyWouldBeReplaced(path: database.canonicalPath, name: nil))
    #expect(throws: KeyringError.keyWouldBeReplaced(path: database.canonicalPath, name: nil)) {
      try keyring.createDatabase(database)
    }
    #expect(try keyring.key(for: database).hasSameBytes(as: moved))
    #expect(try itemNames(keyring, database) == [""])
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("an export cancelled while it waits for another operation on its output changes nothing")
  func cancelledExport() throws {
    let source = uniqueDatabasePath()
    let sourceKey = DatabaseKey.randomRaw()
    try makeDatabase(source, key: sourceKey)
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    // Another operation on the output is in progress.
    let lock = try DatabaseFileLock.acquire(forDatabaseAtPath: path)
    defer { lock.release() }
    let cancellation = OperationCancellation()
    let outcome = Box<Result<Void, any Error>>()
    let ended = DispatchSemaphore(value: 0)
    let keyring = keyring
    DispatchQueue.global().async {
      outcome.value = Result {
        try keyring.exportDatabase(
          atPath: source, key: sourceKey, to: database, destinationKey: .randomRaw(),
          cancellation: cancellation)
      }
      ended.signal()
    }
    #expect(ended.wait(timeout: .now() + .milliseconds(300)) == .timedOut, "the export did not wait")
    cancellation.cancel()
    #expect(ended.wait(timeout: .now() + 10) == .success, "the cancelled export went on waiting")
    let error = try #require(throws: DatabaseError.self) { try outcome.value?.get() }
    #expect(error.resultCode == .SQLITE_INTERRUPT, "\(error)")
    #expect(try itemNames(keyring, database) == [])
    #expect(!FileManager.default.fileExists(atPath: path))
    // Cancelled before it starts: the same.
    let early = OperationCancellation()
    early.cancel()
    lock.release()
    #expect(throws: DatabaseError.self) {
      try keyring.exportDatabase(
        atPath: source, key: sourceKey, to: database, destinationKey: .randomRaw(), cancellation: early)
    }
    #expect(try itemNames(keyring, database) == [])
    #expect(siblings(path) == [])
  }
}
