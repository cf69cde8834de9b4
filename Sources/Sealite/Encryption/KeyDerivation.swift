import CCrypto
import CSQLCipher
import Foundation

/// SQLCipher's key derivation, done by Sealite: PBKDF2 over a passphrase and
/// the file's salt, with the iterations and hash of the file's format.
///
/// SQLCipher derives the key again on every connection keyed with a
/// passphrase (about 95 ms with SQLCipher 4's 256,000 iterations). A pool
/// derives it once, here, and keys each connection with the resulting raw key
/// and the salt, which SQLCipher uses as they are (raw keys skip the
/// derivation; SQLCipher still derives the HMAC key from them, as it does from
/// a derived key).
enum KeyDerivation {
  /// The hash of PBKDF2-HMAC.
  enum Algorithm: String {
    case sha1 = "PBKDF2_HMAC_SHA1"
    case sha256 = "PBKDF2_HMAC_SHA256"
    case sha512 = "PBKDF2_HMAC_SHA512"
  }

  /// The settings SQLCipher uses for a format (1 to 4): SQLCipher 4 uses
  /// PBKDF2-HMAC-SHA512 with 256,000 iterations; 3 uses SHA1 with 64,000;
  /// 1 and 2 use SHA1 with 4,000.
  static func defaults(format: Int) -> (iterations: Int, algorithm: Algorithm) {
    switch format {
    case 4...: (256_000, .sha512)
    case 3: (64_000, .sha1)
    default: (4_000, .sha1)
    }
  }

  /// How many derivations Sealite ran for each salt (each file has its
  /// own): what the tests count.
  static let derivationsBySalt = Locked<[Data: Int]>([:])

  /// The 32-byte key PBKDF2 derives from `passphrase` and `salt`.
  static func derive(
    passphrase: DatabaseKey, salt: Data, iterations: Int, algorithm: Algorithm,
    into output: UnsafeMutableRawBufferPointer
  ) -> Bool {
    guard passphrase.kind == .passphrase, salt.count == 16, iterations > 0 else { return false }
    derivationsBySalt.withLock { $0[salt, default: 0] += 1 }
    let digest: OpaquePointer? =
      switch algorithm {
      case .sha1: EVP_sha1()
      case .sha256: EVP_sha256()
      case .sha512: EVP_sha512()
      }
    let result = passphrase.withUnsafeKeyBytes { password in
      salt.withUnsafeBytes { saltBytes in
        PKCS5_PBKDF2_HMAC(
          password.baseAddress?.assumingMemoryBound(to: CChar.self), CInt(password.count),
          saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), CInt(salt.count), CInt(iterations),
          digest, CInt(output.count), output.baseAddress?.assumingMemoryBound(to: UInt8.self))
      }
    }
    return result == 1
  }

  /// The raw key and salt equivalent to `passphrase` for the encrypted file at
  /// `path`, derived with the settings `cipher` gives (or the linked
  /// SQLCipher's defaults); nil when the file has no salt yet (missing, empty,
  /// or plaintext) or the key is not a passphrase. The caller must check that
  /// the result opens the file: settings given in other ways (pragmas in
  /// `prepareDatabase`) are not known here.
  static func rawKey(for passphrase: DatabaseKey, path: String, cipher: CipherConfiguration) -> DatabaseKey? {
    guard passphrase.kind == .passphrase, let salt = fileSalt(path) else { return nil }
    let linked =
      SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 4
    var (iterations, algorithm) = defaults(format: cipher.compatibility ?? linked)
    if let kdfIterations = cipher.kdfIterations { iterations = kdfIterations }
    return rawKey(for: passphrase, salt: salt, iterations: iterations, algorithm: algorithm)
  }

  /// The raw key and salt equivalent to `passphrase` with explicit settings.
  static func rawKey(for passphrase: DatabaseKey, salt: Data, iterations: Int, algorithm: Algorithm)
    -> DatabaseKey?
  {
    // Derived straight into the new key's memory: no copy to wipe.
    DatabaseKey.raw(salt: salt) { output in
      derive(passphrase: passphrase, salt: salt, iterations: iterations, algorithm: algorithm, into: output)
    }
  }

  /// The first 16 bytes of an encrypted database file: SQLCipher's salt. Nil
  /// for a missing, short or plaintext file.
  static func fileSalt(_ path: String) -> Data? {
    // Read while connections of this process may have the file locked.
    guard Database.isFile(path) else { return nil }
    let header = LockPreservingFileRead.prefix(of: path, count: 16) ?? []
    guard header.count == 16, header != OpeningFailure.sqliteHeader else { return nil }
    return Data(header)
  }
}

extension KeyDerivation {
  /// The raw key a pool keys all its connections with, derived before any
  /// opens, when the configuration gives a passphrase and the file has its
  /// salt. Nil otherwise: the writer then keys itself, and
  /// ``pooledKey(from:)`` derives the readers' key from it.
  static func pooledKey(for configuration: Configuration, path: String) -> DatabaseKey? {
    guard configuration.rekeyedKey == nil, let key = configuration.key, key.kind == .passphrase else {
      return nil
    }
    return rawKey(for: key, path: path, cipher: configuration.cipher)
  }

  /// The raw key equivalent to the passphrase `db` was keyed with, derived
  /// with the connection's own settings (`kdf_iter`, `cipher_kdf_algorithm`)
  /// and the file's salt, if it opens the file. The connection forgets its
  /// passphrase.
  static func pooledKey(from db: Database) throws -> DatabaseKey? {
    guard let keying = db.existingState(for: KeyingState.self), let passphrase = keying.passphraseInUse
    else { return nil }
    keying.passphraseInUse = nil
    if let derived = keying.derivedKey {
      // Derived once already, before the writer's first read.
      keying.derivedKey = nil
      return derived
    }
    guard let salt = fileSalt(db.path),
      let iterations = try db.integerPragma("kdf_iter")
    else { return nil }
    // SQLCipher 3 has no cipher_kdf_algorithm: it always uses SHA1.
    let algorithmName = (try? String.fetchOne(db, sql: "PRAGMA cipher_kdf_algorithm")) ?? nil
    let algorithm = algorithmName.flatMap(Algorithm.init(rawValue:)) ?? .sha1
    guard let key = rawKey(for: passphrase, salt: salt, iterations: iterations, algorithm: algorithm),
      (try? Database.keyOpensFile(atPath: db.path, key: key, cipherPragmas: db.configuration.cipher.pragmas))
        == true
    else { return nil }
    return key
  }
}

extension Database {
  /// On a pool's writer keyed with a passphrase in `prepareDatabase` (GRDB's
  /// way, `db.usePassphrase`), before its first read: derives the key here,
  /// with the file's salt and the settings the connection has now (`PRAGMA
  /// cipher_settings`, which lists what `prepareDatabase` chose), and keys the
  /// connection again with that raw key and salt. SQLCipher then derives
  /// nothing, and the readers get the same key: one derivation for the pool,
  /// not one for the writer and one more for its readers.
  ///
  /// Keying again starts SQLCipher's codec from its defaults, so the settings
  /// are applied again. Nothing changes when the file has no salt yet (a new
  /// file), when SQLCipher can not list its settings (SQLCipher 3), or when
  /// the derived key does not open the file (settings this can not see): the
  /// passphrase stays, and the pool derives its readers' key afterwards.
  func keyWithDerivedPassphrase() {
    // Keying again once pages were read (a prepareDatabase that reads) would
    // leave SQLCipher's codec out of step with the pages it holds.
    guard let keying = existingState(for: KeyingState.self), let passphrase = keying.passphraseInUse,
      !hasReadPages, let salt = KeyDerivation.fileSalt(path), let connection = sqliteConnection
    else { return }
    let settings = Self.cipherSettings(connection)
    guard !settings.isEmpty else { return }
    var iterations: Int?
    var algorithm: KeyDerivation.Algorithm?
    for line in settings {
      // "PRAGMA kdf_iter = 256000;"
      let parts = line.dropFirst("PRAGMA ".count).split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " ;"))
      }
      guard parts.count == 2 else { continue }
      if parts[0] == "kdf_iter" { iterations = Int(parts[1]) }
      if parts[0] == "cipher_kdf_algorithm" { algorithm = KeyDerivation.Algorithm(rawValue: parts[1]) }
    }
    guard let iterations, let algorithm,
      let key = KeyDerivation.rawKey(
        for: passphrase, salt: salt, iterations: iterations, algorithm: algorithm),
      (try? Database.keyOpensFile(atPath: path, key: key, cipherPragmas: settings)) == true
    else { return }
    let code = key.withSQLCipherKeyBytes { bytes in
      sqlite3_key_v2(connection, "main", bytes.baseAddress, CInt(bytes.count))
    }
    guard code == SQLITE_OK else { return }
    sqlite3_exec(connection, "PRAGMA cipher_log_level = NONE", nil, nil, nil)
    for line in settings {
      sqlite3_exec(connection, line, nil, nil, nil)
    }
    keying.derivedKey = key
    keying.isKeyedWithRawKey = true
  }

  /// `PRAGMA cipher_settings` (SQLCipher 4: the settings of the connection's
  /// codec, as pragmas), read with the C API: no page is read, nothing is
  /// cached or traced. Empty where SQLCipher has no such pragma.
  static func cipherSettings(_ connection: SQLiteConnection) -> [String] {
    var statement: SQLiteStatement?
    guard sqlite3_prepare_v2(connection, "PRAGMA cipher_settings", -1, &statement, nil) == SQLITE_OK,
      let statement
    else { return [] }
    defer { sqlite3_finalize(statement) }
    var settings: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      guard let text = sqlite3_column_text(statement, 0) else { continue }
      settings.append(String(cString: text))
    }
    return settings
  }
}
