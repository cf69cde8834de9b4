/// SQLCipher settings: needed to open databases made with non-default settings,
/// such as SQLCipher 3 databases (`compatibility = 3`).
///
/// They are applied right after the key, before the first page is read.
public struct CipherConfiguration: Sendable, Equatable {
  /// `PRAGMA cipher_compatibility`: 1, 2, 3 or 4 — the SQLCipher major version
  /// whose defaults (KDF, HMAC, page size) apply. Nil leaves the library's own.
  public var compatibility: Int?
  /// `PRAGMA kdf_iter`: PBKDF2 iterations for passphrase keys.
  public var kdfIterations: Int?
  /// `PRAGMA cipher_page_size`: the page size of the encrypted file.
  public var pageSize: Int?

  /// Settings that have no field of their own, for the formats an SQLCipher 3
  /// library can only open setting by setting (format 1 has no HMAC).
  var otherPragmas: [String] = []

  /// Creates settings; nil leaves SQLCipher's default.
  public init(compatibility: Int? = nil, kdfIterations: Int? = nil, pageSize: Int? = nil) {
    self.compatibility = compatibility
    self.kdfIterations = kdfIterations
    self.pageSize = pageSize
  }

  /// The pragmas, in the order SQLCipher needs them.
  var pragmas: [String] {
    var result: [String] = []
    if let compatibility { result.append("PRAGMA cipher_compatibility = \(compatibility)") }
    if let kdfIterations { result.append("PRAGMA kdf_iter = \(kdfIterations)") }
    if let pageSize { result.append("PRAGMA cipher_page_size = \(pageSize)") }
    return result + otherPragmas
  }

  func validate() throws {
    if let compatibility, !(1...4).contains(compatibility) {
      throw DatabaseError.misuse("cipher compatibility must be 1, 2, 3 or 4, not \(compatibility)")
    }
    if let kdfIterations, kdfIterations < 1 {
      throw DatabaseError.misuse("kdf iterations must be positive, not \(kdfIterations)")
    }
    if let pageSize, !(512...65536).contains(pageSize) || pageSize & (pageSize - 1) != 0 {
      throw DatabaseError.misuse("cipher page size must be a power of two from 512 to 65536, not \(pageSize)")
    }
  }
}
