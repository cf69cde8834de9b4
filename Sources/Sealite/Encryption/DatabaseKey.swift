import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An SQLCipher key: a passphrase (stretched by PBKDF2, ~95 ms per connection
/// with SQLCipher 4 defaults) or a raw 256-bit key (no key derivation), with an
/// optional 16-byte salt.
///
///     config.key = .passphrase("correct horse battery staple")
///     config.key = try .raw(keyBytes)            // 32 bytes
///     config.key = try .raw(keyBytes, salt: salt) // 32 + 16 bytes
///
/// The key bytes live in memory this type owns and are overwritten with zeros
/// when the key is released. A key never prints: its description hides it.
/// (A passphrase given as a Swift `String` also lives in that string, which
/// Sealite can not wipe; pass `Data` or bytes to avoid that copy.)
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
  private let storage: UnsafeMutableRawBufferPointer

  private init(kind: Kind, bytes: UnsafeRawBufferPointer) {
    self.kind = kind
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
    if bytes.count > 0 { storage.copyMemory(from: bytes) }
    self.count = bytes.count
  }

  private let count: Int

  deinit {
    DatabaseKey.wipe(storage)
    storage.deallocate()
  }

  static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    #if canImport(Glibc)
      explicit_bzero(base, buffer.count)
    #else
      memset(base, 0, buffer.count)
    #endif
  }

  /// A passphrase key.
  public static func passphrase(_ passphrase: String) -> DatabaseKey {
    var utf8 = Array(passphrase.utf8)
    defer { utf8.withUnsafeMutableBytes { wipe($0) } }
    return utf8.withUnsafeBytes { DatabaseKey(kind: .passphrase, bytes: $0) }
  }

  /// A passphrase key given as bytes.
  public static func passphrase(_ passphrase: Data) -> DatabaseKey {
    passphrase.withUnsafeBytes { DatabaseKey(kind: .passphrase, bytes: $0) }
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
    var bytes = key + (salt ?? Data())
    defer { bytes.withUnsafeMutableBytes { wipe($0) } }
    return bytes.withUnsafeBytes { DatabaseKey(kind: .raw(hasSalt: salt != nil), bytes: $0) }
  }

  /// A new random raw 256-bit key from the system's secure random source.
  public static func randomRaw() -> DatabaseKey {
    var bytes = [UInt8](repeating: 0, count: 32)
    var generator = SystemRandomNumberGenerator()
    for index in bytes.indices { bytes[index] = generator.next() }
    defer { bytes.withUnsafeMutableBytes { wipe($0) } }
    return bytes.withUnsafeBytes { DatabaseKey(kind: .raw(hasSalt: false), bytes: $0) }
  }

  /// Lends the key bytes (passphrase bytes, or raw key followed by its salt).
  public func withUnsafeKeyBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
  }

  /// Lends the bytes SQLCipher's `sqlite3_key` expects: the passphrase, or
  /// `x'<hex key><hex salt>'` for a raw key. The formatted copy is wiped after.
  func withSQLCipherKeyBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    if kind == .passphrase { return try withUnsafeKeyBytes(body) }
    let hexLength = count * 2 + 3
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: hexLength, alignment: 1)
    defer {
      DatabaseKey.wipe(buffer)
      buffer.deallocate()
    }
    let digits = Array("0123456789abcdef".utf8)
    buffer[0] = UInt8(ascii: "x")
    buffer[1] = UInt8(ascii: "'")
    for index in 0..<count {
      let byte = storage[index]
      buffer[2 + index * 2] = digits[Int(byte >> 4)]
      buffer[3 + index * 2] = digits[Int(byte & 0x0F)]
    }
    buffer[hexLength - 1] = UInt8(ascii: "'")
    return try body(UnsafeRawBufferPointer(buffer))
  }

  /// True if both keys have the same kind and bytes (compared in constant time).
  public func hasSameBytes(as other: DatabaseKey) -> Bool {
    guard kind == other.kind, count == other.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<count { difference |= storage[index] ^ other.storage[index] }
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
