import Foundation
import Sealite
import Testing

@Suite("DatabaseKey: passphrases and raw keys")
struct DatabaseKeyTests {
  @Test("a passphrase given as a String or as Data is the same key")
  func passphraseStringAndData() throws {
    let text = DatabaseKey.passphrase("pässwörd 🔑")
    let data = DatabaseKey.passphrase(Data("pässwörd 🔑".utf8))
    #expect(text.kind == .passphrase)
    #expect(data.kind == .passphrase)
    #expect(text.hasSameBytes(as: data))
    #expect(!text.hasSameBytes(as: .passphrase("pässwörd")))
    text.withUnsafeKeyBytes { #expect(Array($0) == Array("pässwörd 🔑".utf8)) }

    // A database made with the String opens with the Data.
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.key = text
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('ok')") }
    try queue.close()
    config.key = data
    let reopened = try DatabaseQueue(path: directory.path(), configuration: config)
    #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "ok")
  }

  @Test("a raw key takes exactly 32 bytes, with or without a 16-byte salt")
  func rawKeySizes() throws {
    let key = try DatabaseKey.raw(Data(repeating: 7, count: 32))
    #expect(key.kind == .raw(hasSalt: false))
    key.withUnsafeKeyBytes { #expect($0.count == 32) }

    let salted = try DatabaseKey.raw(Data(repeating: 7, count: 32), salt: Data(repeating: 9, count: 16))
    #expect(salted.kind == .raw(hasSalt: true))
    salted.withUnsafeKeyBytes {
      #expect(Array($0) == Array(repeating: 7, count: 32) + Array(repeating: 9, count: 16))
    }
    #expect(!salted.hasSameBytes(as: key))
  }

  @Test("a raw key of the wrong size is a clear error", arguments: [0, 16, 31, 33, 64])
  func rawKeyWrongSize(size: Int) throws {
    let error = try #require(throws: DatabaseError.self) {
      _ = try DatabaseKey.raw(Data(repeating: 1, count: size))
    }
    #expect(error.resultCode == .SQLITE_MISUSE)
    #expect(error.message?.contains("32 bytes") == true, "\(error)")
    #expect(error.message?.contains("\(size)") == true, "\(error)")
  }

  @Test("a salt of the wrong size is a clear error", arguments: [0, 8, 15, 17, 32])
  func saltWrongSize(size: Int) throws {
    let error = try #require(throws: DatabaseError.self) {
      _ = try DatabaseKey.raw(Data(repeating: 1, count: 32), salt: Data(repeating: 2, count: size))
    }
    #expect(error.resultCode == .SQLITE_MISUSE)
    #expect(error.message?.contains("16 bytes") == true, "\(error)")
  }

  @Test("a key's description, debug description and dump hide the key")
  func descriptionHidesKey() throws {
    let secret = "hunter2-very-secret"
    let rawBytes = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    let hex = rawBytes.map { String(format: "%02x", $0) }.joined()
    let keys: [DatabaseKey] = [
      .passphrase(secret), .passphrase(Data(secret.utf8)), try .raw(rawBytes),
      try .raw(rawBytes, salt: Data(repeating: 0xAB, count: 16)),
    ]
    for key in keys {
      var dumped = ""
      dump(key, to: &dumped)
      for text in [key.description, key.debugDescription, String(reflecting: key), "\(key)", dumped] {
        #expect(!text.contains(secret))
        #expect(!text.lowercased().contains(hex.prefix(16)))
        #expect(!text.lowercased().contains("abababab"))
        #expect(text.contains("redacted") || text.contains("DatabaseKey"))
      }
    }
    #expect(keys[0].description.contains("passphrase"))
    #expect(keys[2].description.contains("raw"))
  }

  @Test("randomRaw() gives distinct 32-byte keys, and a database keyed with one does not open with another")
  func randomRawKeys() throws {
    let keys = (0..<8).map { _ in DatabaseKey.randomRaw() }
    for (index, key) in keys.enumerated() {
      #expect(key.kind == .raw(hasSalt: false))
      key.withUnsafeKeyBytes { bytes in
        #expect(bytes.count == 32)
        #expect(bytes.contains { $0 != 0 })
      }
      for other in keys[(index + 1)...] { #expect(!key.hasSameBytes(as: other)) }
    }

    let directory = TemporaryDirectory()
    var config = Configuration()
    config.key = keys[0]
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    try queue.close()
    config.key = keys[1]
    let error = try #require(throws: DatabaseError.self) {
      _ = try DatabaseQueue(path: directory.path(), configuration: config)
    }
    #expect(error.resultCode == .SQLITE_NOTADB)
  }

  @Test("a raw key's salt is the salt SQLCipher stores at the start of the file")
  func rawKeySaltIsStored() throws {
    let directory = TemporaryDirectory()
    let salt = Data((0..<16).map { UInt8(0xC0 + $0) })
    var config = Configuration()
    config.key = try .raw(Data(repeating: 0x5A, count: 32), salt: salt)
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
    try queue.close()
    let bytes = try #require(fileBytes(directory.path()))
    #expect(bytes.prefix(16) == salt)

    let reopened = try DatabaseQueue(path: directory.path(), configuration: config)
    #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 1)
  }
}

@Suite("Keys apply to every connection")
struct KeyedConnectionsTests {
  @Test("Configuration.key keys every reader of a pool, with several readers reading at once")
  func poolReadersAllKeyed() throws {
    let directory = TemporaryDirectory()
    var config = passphraseConfiguration("every reader")
    config.maximumReaderCount = 4
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE t(x)")
      for value in 0..<100 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value]) }
    }
    let counts = try concurrentReads(pool, count: 4) { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1
    }
    #expect(counts.values == [100, 100, 100, 100])
    #expect(counts.connections == 4)
  }

  @Test("db.usePassphrase(_:) in prepareDatabase keys a queue (GRDB's way)")
  func usePassphraseQueue() throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.prepareDatabase { db in try db.usePassphrase("prepared secret") }
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('prepared')") }
    try queue.close()
    #expect(fileBytes(directory.path())?.starts(with: Data("SQLite format 3".utf8)) == false)

    // The same passphrase through Configuration.key opens it; no key does not.
    let viaKey = try DatabaseQueue(
      path: directory.path(), configuration: passphraseConfiguration("prepared secret"))
    #expect(try viaKey.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "prepared")
    try viaKey.close()
    #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: directory.path()) }
  }

  @Test("db.usePassphrase(_:) in prepareDatabase keys the writer and every reader of a pool")
  func usePassphrasePool() throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.maximumReaderCount = 3
    config.prepareDatabase { db in try db.usePassphrase(Data("prepared pool".utf8)) }
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try pool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('pooled')") }
    let values = try concurrentReads(pool, count: 3) { db in try String.fetchOne(db, sql: "SELECT x FROM t") }
    #expect(values.values == ["pooled", "pooled", "pooled"])
    #expect(values.connections == 3)
    try pool.close()

    let viaKey = try DatabaseQueue(
      path: directory.path(), configuration: passphraseConfiguration("prepared pool"))
    #expect(try viaKey.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "pooled")
  }

  @Test("keying never reaches a trace, even with expanded SQL")
  func keysNeverTraced() throws {
    let directory = TemporaryDirectory()
    let first = "first-trace-secret"
    let second = "second-trace-secret"
    let third = "third-trace-secret"
    let traced = Locked<[String]>([])
    var config = Configuration()
    config.publicStatementArguments = true
    config.cipher.kdfIterations = 2
    config.prepareDatabase { db in
      db.trace(options: [.statement, .profile]) { event in
        var texts = ["\(event)"]
        switch event {
        case .statement(let statement): texts += [statement.sql, statement.expandedSQL]
        case .profile(let statement, _): texts += [statement.sql, statement.expandedSQL]
        }
        traced.withLock { $0 += texts }
      }
      try db.usePassphrase(first)
    }
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('visible')") }
    try queue.changePassphrase(second)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA rekey = '\(third)'")
    }
    try queue.close()

    let texts = traced.value
    #expect(texts.contains { $0.contains("visible") }, "the trace works")
    for secret in [first, second, third] {
      #expect(!texts.contains { $0.contains(secret) })
    }
    // The SQL rekey did happen, with the key that never reached the trace.
    var reopen = Configuration()
    reopen.cipher.kdfIterations = 2
    reopen.key = .passphrase(third)
    let reopened = try DatabaseQueue(path: directory.path(), configuration: reopen)
    #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "visible")
  }
}

extension KeyedConnectionsTests {
  @Test("a failing keyed ATTACH or rekey statement never shows its key in the error, arguments public or not")
  func keysNeverInErrors() throws {
    let directory = TemporaryDirectory()
    let secret = "attach-secret-0c4"
    for publicArguments in [false, true] {
      var config = rawKeyConfiguration()
      config.publicStatementArguments = publicArguments
      let queue = try DatabaseQueue(
        path: directory.path("db\(publicArguments).sqlite"), configuration: config)
      let missing = directory.path("no-such-directory/other.sqlite")
      let literal = try #require(throws: DatabaseError.self) {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: "ATTACH DATABASE '\(missing)' AS other KEY '\(secret)'")
        }
      }
      let bound = try #require(throws: DatabaseError.self) {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: "ATTACH DATABASE ? AS other KEY ?", arguments: [missing, secret])
        }
      }
      for error in [literal, bound] {
        #expect(error.resultCode == .SQLITE_CANTOPEN, "\(error)")
        #expect(!error.description.contains(secret))
        #expect(!(error.sql ?? "").contains(secret))
        #expect(!"\(error.arguments as Any)".contains(secret))
      }
    }
  }
}

/// Runs `count` reads on `reader` that are all in progress at the same time
/// (each waits for the others before returning), and returns their results and
/// how many distinct connections served them.
private func concurrentReads<T: Sendable>(
  _ reader: any DatabaseReader, count: Int, _ body: @escaping @Sendable (Database) throws -> T
) throws -> (values: [T], connections: Int) {
  let rendezvous = KeyedReadRendezvous(count: count)
  let done = DispatchGroup()
  let results = Locked<[(Result<T, any Error>, ObjectIdentifier?)]>([])
  for _ in 0..<count {
    done.enter()
    Thread {
      var identifier: ObjectIdentifier?
      var arrived = false
      let result = Result {
        try reader.read { db in
          identifier = ObjectIdentifier(db)
          let value = try body(db)
          arrived = true
          rendezvous.arriveAndWait()
          return value
        }
      }
      // A read that failed before arriving must not leave the others waiting.
      if !arrived { rendezvous.arriveAndWait() }
      results.withLock { $0.append((result, identifier)) }
      done.leave()
    }.start()
  }
  done.wait()
  let collected = results.value
  let values = try collected.map { try $0.0.get() }
  return (values, Set(collected.compactMap { $0.1 }).count)
}

/// Lets `count` threads wait for each other.
private final class KeyedReadRendezvous: Sendable {
  private let count: Int
  private let arrived = Locked(0)
  private let allArrived = DispatchSemaphore(value: 0)

  init(count: Int) { self.count = count }

  func arriveAndWait() {
    let isLast = arrived.withLock { arrived in
      arrived += 1
      return arrived == count
    }
    if isLast { for _ in 0..<count { allArrived.signal() } }
    allArrived.wait()
  }
}
