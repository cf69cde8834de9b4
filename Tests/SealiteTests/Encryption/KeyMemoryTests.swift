import Foundation
import Testing

// @testable: KeyMemory (locked, wiped key storage) is internal; the test reads its addresses.
@testable import Sealite

/// The flags the kernel shows for the mapping of this process that holds
/// `address` (the `VmFlags` line of /proc/self/smaps; `dd` is "do not dump"),
/// or nil if no mapping holds it.
private func vmFlags(at address: UnsafeRawPointer?) throws -> Set<String>? {
  let address = try #require(address.map { UInt(bitPattern: $0) })
  // /proc files report a size of 0: read them to their end.
  let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
  defer { try? handle.close() }
  let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
  var holdsAddress = false
  for line in smaps.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard let first = fields.first else { continue }
    // A mapping starts with its range, "start-end" in hexadecimal.
    let bounds = first.split(separator: "-")
    if bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) {
      holdsAddress = (start..<end).contains(address)
    } else if holdsAddress, first == "VmFlags:" {
      return Set(fields.dropFirst().map(String.init))
    }
  }
  return nil
}

/// Every way to make a key, with the bytes it holds.
private func sampleKeys() throws -> [(name: String, key: DatabaseKey, bytes: [UInt8])] {
  let raw = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
  let salt = (0..<16).map { UInt8(0xA0 + $0) }
  let random = DatabaseKey.randomRaw()
  // What a pool derives once from a passphrase, for all its connections.
  let derived = try #require(
    KeyDerivation.rawKey(
      for: .passphrase("derived for a pool"), salt: Data(salt), iterations: 1000, algorithm: .sha512))
  return [
    ("passphrase String", .passphrase("pässwörd 🔑 in key memory"), Array("pässwörd 🔑 in key memory".utf8)),
    ("short passphrase String", .passphrase("short"), Array("short".utf8)),
    ("empty passphrase", .passphrase(""), []),
    ("passphrase Data", .passphrase(Data("data passphrase".utf8)), Array("data passphrase".utf8)),
    ("raw", try .raw(Data(raw)), raw),
    ("raw with salt", try .raw(Data(raw), salt: Data(salt)), raw + salt),
    ("random raw", random, random.withUnsafeKeyBytes { Array($0) }),
    ("derived raw with salt", derived, derived.withUnsafeKeyBytes { Array($0) }),
  ]
}

@Suite("Key memory: key bytes stay out of core dumps")
struct KeyMemoryTests {
  @Test("a key's bytes lie in pages core dumps leave out (VmFlags dd), whichever way it is made")
  func keyStorageIsNotDumped() throws {
    for (name, key, bytes) in try sampleKeys() {
      let address = try #require(key.storageBaseAddress, "\(name)")
      let flags = try #require(try vmFlags(at: address), "\(name): no mapping holds the key")
      #expect(flags.contains("dd"), "\(name): \(flags.sorted())")
      key.withUnsafeKeyBytes { lent in
        #expect(Array(lent) == bytes, "\(name)")
        if !bytes.isEmpty {
          #expect(lent.baseAddress == address, "\(name): the bytes lent are the stored ones")
        }
      }
    }
  }

  @Test("the key handed to SQLCipher lies in pages core dumps leave out: the x'…' hex form of a raw key too")
  func sqlcipherBytesAreNotDumped() throws {
    for (name, key, bytes) in try sampleKeys() {
      try key.withSQLCipherKeyBytes { handed in
        let flags = try #require(try vmFlags(at: handed.baseAddress), "\(name)")
        #expect(flags.contains("dd"), "\(name): \(flags.sorted())")
        if key.kind == .passphrase {
          #expect(Array(handed) == bytes, "\(name)")
        } else {
          let hex = bytes.map { String(format: "%02x", $0) }.joined()
          #expect(String(decoding: handed, as: UTF8.self) == "x'\(hex)'", "\(name)")
          #expect(UnsafeRawPointer(handed.baseAddress) != key.storageBaseAddress, "a buffer of its own")
        }
      }
    }
  }

  @Test("the check can fail: an ordinary heap allocation, and key memory's heap fallback, have no dd")
  func heapMemoryIsDumped() throws {
    let heap = UnsafeMutableRawBufferPointer.allocate(byteCount: 48, alignment: 16)
    defer { heap.deallocate() }
    let heapFlags = try #require(try vmFlags(at: heap.baseAddress))
    #expect(!heapFlags.contains("dd"), "\(heapFlags.sorted())")
    #expect(heapFlags.contains("rd"), "the flags were read")

    let fallback = KeyMemory(byteCount: 48, mapped: false)
    let fallbackExcluded = fallback.isExcludedFromCoreDumps
    #expect(!fallbackExcluded)
    #expect(try vmFlags(at: fallback.bytes.baseAddress)?.contains("dd") == false)
    #expect(fallback.bytes.allSatisfy { $0 == 0 }, "fallback memory starts zeroed")

    let mapped = KeyMemory(byteCount: 48)
    let mappedExcluded = mapped.isExcludedFromCoreDumps
    #expect(mappedExcluded)
    #expect(mapped.bytes.count == 48)
    #expect(mapped.bytes.allSatisfy { $0 == 0 }, "mapped memory starts zeroed")
  }

  @Test("keys kept in key memory open databases: raw, raw with salt, passphrase, in a queue and a pool")
  func keysStillOpenDatabases() throws {
    let directory = TemporaryDirectory()
    let raw = Data((0..<32).map { UInt8(0x10 + $0) })
    let salt = Data((0..<16).map { UInt8(0x60 + $0) })
    let makers: [(String, () throws -> DatabaseKey)] = [
      ("raw", { try .raw(raw) }),
      ("raw-salt", { try .raw(raw, salt: salt) }),
      ("passphrase", { .passphrase("key memory passphrase") }),
    ]
    for (name, makeKey) in makers {
      let path = directory.path("\(name).sqlite")
      var config = Configuration()
      config.key = try makeKey()
      let pool = try DatabasePool(path: path, configuration: config)
      try pool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('\(name)')") }
      #expect(try pool.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == name)
      try pool.close()

      // A key made again, in new key memory, opens the file; another key does not.
      config.key = try makeKey()
      let queue = try DatabaseQueue(path: path, configuration: config)
      #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == name)
      try queue.close()
      config.key = .passphrase("another key")
      #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(path: path, configuration: config) }
      if name == "raw-salt" { #expect(fileBytes(path)?.prefix(16) == salt) }
    }
  }

  @Test("a thousand keys alive at once each get key memory of their own")
  func manyKeys() throws {
    let keys = (0..<1000).map { _ in DatabaseKey.randomRaw() }
    let addresses = Set(keys.compactMap { $0.storageBaseAddress })
    #expect(addresses.count == keys.count)
    let last = try #require(keys.last?.storageBaseAddress)
    #expect(try vmFlags(at: last)?.contains("dd") == true)
  }
}
