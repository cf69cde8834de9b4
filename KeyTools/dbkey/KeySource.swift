import Foundation
import Sealite

/// Where a command takes a key from. Keys come from file descriptors, the
/// terminal (echo off) or the keyring, never from the command line or the
/// environment.
enum KeySource {
  /// The key given on the command line's descriptors or asked for on the
  /// terminal; nil when none of their options is there.
  ///
  /// - `--key-fd N` (`keyOption`): a raw key, 64 hex digits (96 with a salt),
  ///   read from descriptor N.
  /// - `--passphrase-fd N` (`passphraseOption`): a passphrase, the first line
  ///   read from descriptor N.
  /// - `--passphrase` (`passphraseOption` without `-fd`): a passphrase typed on
  ///   the terminal after `prompt`, twice with `confirm`.
  static func key(
    _ arguments: Arguments, keyOption: String? = "--key-fd", passphraseOption: String = "--passphrase-fd",
    prompt: String, confirm: Bool = false
  ) throws -> DatabaseKey? {
    let promptFlag = String(passphraseOption.dropLast("-fd".count))
    let given = [keyOption, passphraseOption, promptFlag].compactMap { $0 }.filter {
      arguments.value($0) != nil || arguments.has($0)
    }
    guard given.count <= 1 else {
      throw CommandError(code: .usage, message: "choose one of \(given.joined(separator: ", "))")
    }
    if let keyOption, let descriptor = try arguments.fileDescriptor(keyOption) {
      var line = try readLine(from: descriptor)
      defer { wipe(&line) }
      return try rawKey(hex: line)
    }
    var line: [UInt8]
    if let descriptor = try arguments.fileDescriptor(passphraseOption) {
      line = try readLine(from: descriptor)
    } else if arguments.has(promptFlag) {
      line = try TerminalPrompt.passphrase(prompt, confirm: confirm, fdOption: passphraseOption)
    } else {
      return nil
    }
    defer { wipe(&line) }
    guard !line.isEmpty else { throw CommandError(code: .usage, message: "the passphrase is empty") }
    return .passphrase(Data(line))
  }

  /// Reads bytes up to the first newline (or the end) from a descriptor.
  static func readLine(from descriptor: Int32) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(descriptor, &byte, 1)
      if count < 0 {
        throw CommandError(code: .usage, message: "could not read file descriptor \(descriptor)")
      }
      if count == 0 || byte == UInt8(ascii: "\n") { break }
      bytes.append(byte)
    }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    return bytes
  }

  static func rawKey(hex: [UInt8]) throws -> DatabaseKey {
    guard hex.count == 64 || hex.count == 96 else {
      throw CommandError(code: .usage, message: "a raw key is 64 hexadecimal digits (96 with a salt)")
    }
    var bytes: [UInt8] = []
    defer { wipe(&bytes) }
    var index = 0
    while index < hex.count {
      guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else {
        throw CommandError(code: .usage, message: "a raw key is 64 hexadecimal digits (96 with a salt)")
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    var key = Data(bytes[0..<32])
    var salt = bytes.count == 48 ? Data(bytes[32..<48]) : nil
    defer {
      key.resetBytes(in: 0..<key.count)
      if salt != nil { salt!.resetBytes(in: 0..<salt!.count) }
    }
    return try DatabaseKey.raw(key, salt: salt)
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
    for index in bytes.indices { bytes[index] = 0 }
  }
}
