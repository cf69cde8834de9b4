import Foundation
import Testing

@testable import Sealite

/// A directory removed when the value is released; every test that touches the
/// file system works inside one.
final class TemporaryDirectory: Sendable {
  let url: URL

  init(_ name: String = #function) {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sealite-tests-\(safe.prefix(40))-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// A path inside the directory.
  func path(_ name: String = "db.sqlite") -> String {
    url.appendingPathComponent(name).path
  }

  /// The names of the files in the directory.
  func fileNames() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted()) ?? []
  }
}

/// What the Makefile tells the tests about the leg they run on.
enum TestEnvironment {
  /// "primary" or "legacy" (nil when run outside make).
  static var leg: String? { ProcessInfo.processInfo.environment["SEALITE_LEG"] }
  static var isLegacy: Bool { leg == "legacy" }
  /// The SQLCipher version the package manager installed (e.g. "4.6.1").
  static var expectedSQLCipherVersion: String? { nonEmpty("SEALITE_EXPECT_SQLCIPHER") }
  /// The SQLite version in the header the build used (e.g. "3.46.1").
  static var expectedSQLiteVersion: String? { nonEmpty("SEALITE_EXPECT_SQLITE") }
  /// The `sqlcipher` shell matching the linked library, or nil on the legacy leg.
  static var sqlcipherShell: String? {
    if let path = nonEmpty("SEALITE_SQLCIPHER_SHELL") { return path }
    if leg == nil, FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlcipher") {
      return "/usr/bin/sqlcipher"
    }
    return nil
  }

  private static func nonEmpty(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
  }
}

/// A configuration keyed with a passphrase.
func passphraseConfiguration(_ passphrase: String = "test passphrase") -> Configuration {
  var config = Configuration()
  config.key = .passphrase(passphrase)
  return config
}

/// A configuration keyed with a fixed raw key (fast: no key derivation).
func rawKeyConfiguration(byte: UInt8 = 0x42) -> Configuration {
  var config = Configuration()
  config.key = try! .raw(Data(repeating: byte, count: 32))
  return config
}

/// The bytes of a file, or nil if it does not exist.
func fileBytes(_ path: String) -> Data? {
  FileManager.default.contents(atPath: path)
}

/// Runs a program and returns its exit status, standard output and error.
/// Input, if any, is written to its standard input (never on the command line).
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], input: String? = nil) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  let inPipe = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = inPipe
  try process.run()
  if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
  try inPipe.fileHandleForWriting.close()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}
