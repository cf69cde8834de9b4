import Foundation
import Sealite
import SealiteKeyring

/// The escrow form of a key, one line: `sealite-key:KIND:HEX`, where KIND is
/// `raw`, `raw-salted` or `passphrase` and HEX the key's bytes (a passphrase's
/// too, so that any byte survives). `keyring export-key` writes it and
/// `keyring import-key` reads it (and a bare raw key in hexadecimal).
enum KeyEscrow {
  static let prefix = "sealite-key:"

  /// Writes the escrow line of `key` to `descriptor`, then closes it.
  static func write(_ key: DatabaseKey, to descriptor: Int32) throws {
    defer { close(descriptor) }
    let digits = Array("0123456789abcdef".utf8)
    var line: [UInt8] = []
    key.withUnsafeKeyBytes { bytes in
      line.reserveCapacity(prefix.utf8.count + 16 + bytes.count * 2 + 1)
      line.append(contentsOf: (prefix + keyKindName(key.kind) + ":").utf8)
      for byte in bytes {
        line.append(digits[Int(byte >> 4)])
        line.append(digits[Int(byte & 0x0F)])
      }
      line.append(UInt8(ascii: "\n"))
    }
    defer { KeySource.wipe(&line) }
    var offset = 0
    while offset < line.count {
      let written = line.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        throw CommandError(
          code: .cannotCreateOutput,
          message: "could not write to descriptor \(descriptor): \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  /// Reads an escrow line (or a bare raw key in hexadecimal) from `descriptor`, then closes it.
  static func read(from descriptor: Int32, option: String) throws -> DatabaseKey {
    var line = try KeySource.readLine(from: descriptor, option: option)
    defer { KeySource.wipe(&line) }
    let prefixBytes = Array(prefix.utf8)
    guard line.starts(with: prefixBytes) else { return try KeySource.rawKey(hex: line[...]) }
    let rest = line[prefixBytes.count...]
    guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { throw malformed }
    let kind = String(decoding: rest[..<colon], as: UTF8.self)
    guard var bytes = try KeySource.decodeHex(rest[(colon + 1)...]) else { throw malformed }
    defer { KeySource.wipe(&bytes) }
    switch (kind, bytes.count) {
    case ("raw", 32), ("raw-salted", 48): return try KeySource.rawKey(bytes: bytes)
    case ("passphrase", 1...): return KeySource.passphrase(bytes[...])
    default: throw malformed
    }
  }

  private static var malformed: CommandError {
    CommandError(
      code: .usage,
      message: "not a key: expected a line written by `dbkey keyring export-key`, or 64 hexadecimal digits")
  }
}

let keyringExportKeyCommand = Command(
  name: "keyring export-key", summary: "write the key of a database to a file descriptor (escrow)",
  synopsis: "keyring export-key DB --to-fd N [--name NAME] [--collection LABEL] [--json]",
  details: "Writes one line, `sealite-key:KIND:HEX`, to descriptor N, then closes it; never to a\n"
    + "terminal, never on the command line. `dbkey keyring import-key` reads it back, and\n"
    + "`--key-fd N` takes a raw key's hexadecimal digits. Keep the copy as safe as the database.",
  options: [
    .option("--to-fd", "N", "the descriptor to write the key to (a file or a pipe, never a terminal)"),
    CommonOptions.name, CommonOptions.collection, CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  guard let descriptor = try arguments.fileDescriptor("--to-fd") else {
    throw CommandError(code: .usage, message: "export-key needs --to-fd N")
  }
  guard isatty(descriptor) == 0 else {
    throw CommandError(
      code: .usage, message: "descriptor \(descriptor) is a terminal: a key is never shown on one")
  }
  let entry = try KeyringEntry(arguments, path: path)
  try entry.settle()
  guard let key = try entry.storedKey() else {
    throw ErrorMapping.keyring(.itemNotFound(path: entry.database.canonicalPath, name: entry.database.name))
  }
  try KeyEscrow.write(key, to: descriptor)
  Output.result(
    "wrote the key of \(path) to descriptor \(descriptor)",
    ["exported": path, "descriptor": Int(descriptor), "keyKind": keyKindName(key.kind)])
}

let keyringImportKeyCommand = Command(
  name: "keyring import-key", summary: "store a key written by export-key (escrow) for a database",
  synopsis: "keyring import-key DB --from-fd N [--name NAME] [--collection LABEL] [--force] [--json]",
  details: "Reads one line from descriptor N (as `keyring export-key` writes it, or a raw key's 64 or 96\n"
    + "hexadecimal digits), then closes it. When DB's file exists, the key must open it. A different\n"
    + "key the keyring holds for DB is replaced only if it opens DB too, or with --force.",
  options: [
    .option("--from-fd", "N", "the descriptor to read the key from"),
    CommonOptions.name, CommonOptions.collection,
    .flag("--force", "replace a stored key even if it does not open DB"), CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  guard let descriptor = try arguments.fileDescriptor("--from-fd") else {
    throw CommandError(code: .usage, message: "import-key needs --from-fd N")
  }
  let key = try KeyEscrow.read(from: descriptor, option: "--from-fd")
  try storeCheckedKey(key, path: path, arguments)
}
