import Foundation
import Sealite

/// Where a command takes a key from: file descriptors, the terminal (echo
/// off), or — elsewhere — the keyring; never the command line or the
/// environment. Key bytes are read into buffers of a fixed capacity (no
/// reallocation leaves a copy behind) and wiped once the `DatabaseKey` holds
/// its own copy.
enum KeySource {
  /// The longest secret line read.
  static let maximumLength = 4096

  /// The key given by `keyOption` (a raw key in hex), `passphraseOption`
  /// (`--…-fd N`) or `promptFlag` (typed after `prompt`, twice with
  /// `confirm`); nil when none of them is given.
  static func key(
    _ arguments: Arguments, keyOption: String?, passphraseOption: String, promptFlag: String,
    prompt: String, confirm: Bool = false
  ) throws -> DatabaseKey? {
    try arguments.requireAtMostOne(of: [keyOption, passphraseOption, promptFlag].compactMap { $0 })
    if let keyOption, let descriptor = try arguments.fileDescriptor(keyOption) {
      var line = try readLine(from: descriptor, option: keyOption)
      defer { wipe(&line) }
      return try rawKey(hex: line[...])
    }
    var line: [UInt8]
    if let descriptor = try arguments.fileDescriptor(passphraseOption) {
      line = try readLine(from: descriptor, option: passphraseOption)
    } else if arguments.has(promptFlag) {
      line = try TerminalPrompt.passphrase(prompt, confirm: confirm, fdOption: passphraseOption)
    } else {
      return nil
    }
    defer { wipe(&line) }
    guard !line.isEmpty else { throw CommandError(code: .usage, message: "the passphrase is empty") }
    return passphrase(line[...])
  }

  /// A passphrase key made from bytes, without an unwiped copy on the way.
  static func passphrase(_ bytes: ArraySlice<UInt8>) -> DatabaseKey {
    bytes.withUnsafeBytes { buffer in
      DatabaseKey.passphrase(
        Data(
          bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), count: buffer.count,
          deallocator: .none))
    }
  }

  /// Reads bytes up to the first newline (or the end) from a descriptor, then
  /// closes it: a secret is read once, and no later child process inherits it.
  static func readLine(from descriptor: Int32, option: String) throws -> [UInt8] {
    defer { close(descriptor) }
    return try readLine(from: descriptor) {
      CommandError(code: .usage, message: "could not read \(option) \(descriptor): \($0)")
    }
  }

  /// Reads bytes up to the first newline (or the end) from a descriptor.
  static func readLine(from descriptor: Int32, error: (String) -> CommandError) throws -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(maximumLength + 1)
    var byte: UInt8 = 0
    while true {
      let count = read(descriptor, &byte, 1)
      if count < 0 {
        if errno == EINTR { continue }
        wipe(&bytes)
        throw error(String(cString: strerror(errno)))
      }
      if count == 0 || byte == UInt8(ascii: "\n") { break }
      guard bytes.count < maximumLength else {
        wipe(&bytes)
        byte = 0
        throw error("the line is longer than \(maximumLength) bytes")
      }
      bytes.append(byte)
    }
    byte = 0
    if bytes.last == UInt8(ascii: "\r") {
      bytes[bytes.count - 1] = 0
      bytes.removeLast()
    }
    return bytes
  }

  /// A raw key from 64 hexadecimal digits (96 with a salt).
  static func rawKey(hex: ArraySlice<UInt8>) throws -> DatabaseKey {
    let message = "a raw key is 64 hexadecimal digits (96 with a salt)"
    guard hex.count == 64 || hex.count == 96 else { throw CommandError(code: .usage, message: message) }
    var bytes = try decodeHex(hex) ?? { throw CommandError(code: .usage, message: message) }()
    defer { wipe(&bytes) }
    return try rawKey(bytes: bytes)
  }

  /// A raw key from 32 bytes, or 48 with a salt.
  static func rawKey(bytes: [UInt8]) throws -> DatabaseKey {
    try bytes.withUnsafeBytes { buffer in
      let key = Data(
        bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), count: 32, deallocator: .none)
      let salt =
        buffer.count == 48
        ? Data(
          bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + 32), count: 16,
          deallocator: .none) : nil
      return try DatabaseKey.raw(key, salt: salt)
    }
  }

  /// The bytes of hexadecimal digits, or nil if they are not.
  static func decodeHex(_ hex: ArraySlice<UInt8>) throws -> [UInt8]? {
    guard hex.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(hex.count / 2)
    var index = hex.startIndex
    while index < hex.endIndex {
      guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else {
        wipe(&bytes)
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress, buffer.count > 0 else { return }
      explicit_bzero(base, buffer.count)
    }
  }
}
