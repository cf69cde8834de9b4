import Foundation

/// An SQLCipher key: a passphrase (stretched by PBKDF2, ~95 ms per connection
/// with SQLCipher 4 defaults) or a raw 256-bit key (no key derivation), with an
/// optional 16-byte salt.
///
///     config.key = .passphrase("correct horse battery staple")
///     config.key = try .raw(keyBytes)            // 32 bytes
///     config.key = try .raw(keyBytes, salt: salt) // 32 + 16 bytes
///
/// The key bytes live in memory this type owns, in pages that core dumps
/// leave out, and are overwritten with zeros when the key is released. A key
/// never prints: its description hides it. (A passphrase given as a Swift
/// `String` also lives in that string, which Sealite can not wipe; pass `Data`
/// or bytes to avoid that copy.)
// Sendable: the bytes are written once in init and only read afterwards, until
// deinit wipes them, when no other reference can exist.
public final class DatabaseKey: @unchecked Sendable {
  /// What kind of key this is.
  public enum Kind: Sendable, Equatable {
    /// A passphrase, stretched by SQLCipher's key derivation.
    case passphrase
    /// A raw 256-bit key, used as is; `hasSalt` tells if a salt was given.
    case raw(hasSalt: Bool)
  }

  /// What kind of key this is.
  public let kind: Kind
  /// The key bytes, in pages core dumps leave out (see ``KeyMemory``).
  private let storage: KeyMemory
  private let count: Int

  /// Allocates key memory for `count` bytes and lets `fill` write them there,
  /// so that the bytes are never first assembled somewhere else (an array or
  /// `Data` that grows reallocates, and leaves its old buffer unwiped).
  private init(kind: Kind, count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
    self.kind = kind
    self.count = count
    storage = KeyMemory(byteCount: count)
    fill(UnsafeMutableRawBufferPointer(rebasing: storage.bytes[0..<count]))
  }

  /// The address of the key bytes, for tests that check where they lie.
  var storageBaseAddress: UnsafeRawPointer? { UnsafeRawPointer(storage.bytes.baseAddress) }

  /// A passphrase key.
  public static func passphrase(_ passphrase: String) -> DatabaseKey {
    // Copied from the string's own bytes into key memory, with no array in
    // between (the string itself can not be wiped).
    let utf8 = passphrase.utf8
    return DatabaseKey(kind: .passphrase, count: utf8.count) { $0.copyBytes(from: utf8) }
  }

  /// A passphrase key given as bytes.
  public static func passphrase(_ passphrase: Data) -> DatabaseKey {
    DatabaseKey(kind: .passphrase, count: passphrase.count) { $0.copyBytes(from: passphrase) }
  }

  /// A raw 256-bit key (32 bytes), with an optional 16-byte salt. Throws if the
  /// sizes are wrong.
  public static func raw(_ key: Data, salt: Data? = nil) throws -> DatabaseKey {
    guard key.count == 32 else {
      throw DatabaseError.misuse("a raw key must be 32 bytes, not \(key.count)")
    }
    if let salt, salt.count != 16 {
      throw DatabaseError.misuse("a raw key salt must be 16 bytes, not \(salt.count)")
    }
    // Key and salt go straight into key memory: no concatenated copy.
    return DatabaseKey(kind: .raw(hasSalt: salt != nil), count: 32 + (salt?.count ?? 0)) { bytes in
      bytes.copyBytes(from: key)
      if let salt { UnsafeMutableRawBufferPointer(rebasing: bytes[32...]).copyBytes(from: salt) }
    }
  }

  /// A raw key with a 16-byte `salt`, whose 32 key bytes `derive` writes
  /// straight into key memory (a key derivation's output); nil when `derive`
  /// fails.
  static func raw(salt: Data, derivingWith derive: (UnsafeMutableRawBufferPointer) -> Bool) -> DatabaseKey? {
    guard salt.count == 16 else { return nil }
    var derived = false
    let key = DatabaseKey(kind: .raw(hasSalt: true), count: 48) { bytes in
      derived = derive(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<32]))
      UnsafeMutableRawBufferPointer(rebasing: bytes[32...]).copyBytes(from: salt)
    }
    return derived ? key : nil
  }

  /// A new random raw 256-bit key from the system's secure random source.
  public static func randomRaw() -> DatabaseKey {
    DatabaseKey(kind: .raw(hasSalt: false), count: 32) { bytes in
      var generator = SystemRandomNumberGenerator()
      for index in 0..<bytes.count { bytes[index] = generator.next() }
    }
  }

  /// Lends the key bytes (passphrase bytes, or raw key followed by its salt).
  public func withUnsafeKeyBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try body(UnsafeRawBufferPointer(rebasing: storage.bytes[0..<count]))
  }

  /// Lends the bytes SQLCipher's `sqlite3_key` expects: the passphrase, or
  /// `x'<hex key><hex salt>'` for a raw key. The hex form is built in key
  /// memory of its own, wiped and released after `body`.
  func withSQLCipherKeyBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    if kind == .passphrase { return try withUnsafeKeyBytes(body) }
    let hexLength = count * 2 + 3
    return try KeyMemory.withTemporaryBytes(byteCount: hexLength) { buffer in
      let digits: StaticString = "0123456789abcdef"
      digits.withUTF8Buffer { digits in
        buffer[0] = UInt8(ascii: "x")
        buffer[1] = UInt8(ascii: "'")
        for index in 0..<count {
          let byte = storage.bytes[index]
          buffer[2 + index * 2] = digits[Int(byte >> 4)]
          buffer[3 + index * 2] = digits[Int(byte & 0x0F)]
        }
        buffer[hexLength - 1] = UInt8(ascii: "'")
      }
      return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<hexLength]))
    }
  }

  /// True if both keys have the same kind and bytes (compared in constant time).
  public func hasSameBytes(as other: DatabaseKey) -> Bool {
    guard kind == other.kind, count == other.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<count { difference |= storage.bytes[index] ^ other.storage.bytes[index] }
    return difference == 0
  }
}

extension DatabaseKey: CustomStringConvertible, CustomDebugStringConvertible {
  /// Says what kind of key this is, never its bytes.
  public var description: String {
    switch kind {
    case .passphrase: return "DatabaseKey(passphrase, redacted)"
    case .raw(let hasSalt):
      return hasSalt ? "DatabaseKey(raw with salt, redacted)" : "DatabaseKey(raw, redacted)"
    }
  }
  public var debugDescription: String { description }
}

extension DatabaseKey: CustomReflectable {
  /// Mirrors (and so `dump`) show no bytes either.
  public var customMirror: Mirror { Mirror(self, children: ["kind": kind]) }
}
