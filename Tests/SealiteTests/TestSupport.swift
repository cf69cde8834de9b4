import Foundation
import Sealite
import Testing

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

/// Sets or clears the immutable attribute of a file or directory, as
/// `chattr +i` and `chattr -i` do, through the same ioctl: true if it took.
/// In the process itself, so that a `defer` can undo it without waiting for a
/// child process.
func setImmutable(_ path: String, _ immutable: Bool) -> Bool {
  let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  let getFlags: UInt = 0x8008_6601  // FS_IOC_GETFLAGS
  let setFlags: UInt = 0x4008_6602  // FS_IOC_SETFLAGS
  let immutableFlag: CInt = 0x10  // FS_IMMUTABLE_FL
  var flags: CInt = 0
  guard ioctl(descriptor, getFlags, &flags) == 0 else { return false }
  flags = immutable ? flags | immutableFlag : flags & ~immutableFlag
  return ioctl(descriptor, setFlags, &flags) == 0
}

/// Runs a program and returns its exit status, standard output and error.
/// Input, if any, is written to its standard input (never on the command line).
///
/// The task awaits; no cooperative thread does. Writing the input, reading each
/// pipe to its end and waiting for the exit happen on threads of their own
/// (``onThreadOfItsOwn(_:)``):
/// Swift Testing runs the tests on the cooperative pool (two threads on a
/// two-core machine), and a test blocked there for a child's whole life starves
/// every other test. The pipes are read at the same time, so a child that fills
/// one while the other is being read cannot stop.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], input: String? = nil) async throws -> (
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
  try runUnmasked(process)
  let inputData = Data((input ?? "").utf8)
  let writer = inPipe.fileHandleForWriting
  let output = out.fileHandleForReading
  let errors = err.fileHandleForReading
  return await onThreadOfItsOwn {
    let written = DispatchSemaphore(value: 0)
    let errorsRead = DispatchSemaphore(value: 0)
    let errorData = Locked(Data())
    Thread.detachNewThread {
      // A child that exits without reading leaves a closed pipe: what it did not
      // read is lost, as on a shell's pipe. SIGPIPE, blocked on this thread only,
      // then stays pending here instead of ending the test process; write fails.
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
      if !inputData.isEmpty { try? writer.write(contentsOf: inputData) }
      try? writer.close()
      written.signal()
    }
    Thread.detachNewThread {
      let data = errors.readDataToEndOfFile()
      errorData.withLock { $0 = data }
      errorsRead.signal()
    }
    let outputData = output.readDataToEndOfFile()
    errorsRead.wait()
    written.wait()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData.value, as: UTF8.self)
    )
  }
}

/// Starts `process` with no signal blocked in it, as a shell would. A child
/// inherits the signal mask of the thread that starts it, and the tests run on
/// the cooperative pool, whose threads on Linux are Dispatch's, which block
/// most signals: SIGTERM (what `Process.terminate()` sends) would never stop
/// the child.
func runUnmasked(_ process: Process) throws {
  var all = sigset_t()
  var previous = sigset_t()
  sigfillset(&all)
  pthread_sigmask(SIG_UNBLOCK, &all, &previous)
  defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
  try process.run()
}

/// The result of `body`, run on a thread of its own while the task awaits: for
/// a wait as long as a child process or another thread takes, which must not
/// hold one of the cooperative pool's threads (two on a two-core machine, shared
/// by every test running at the time).
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}

/// Takes the write lock of the database at `path` on a connection of its own,
/// on a thread of its own, and commits once `release` returns; `held` is
/// signaled once the lock is taken (or the connection failed, which is
/// recorded as an issue). Wait on the returned group for the commit.
func holdWriteLock(
  path: String, configuration: Configuration = Configuration(), held: DispatchSemaphore,
  until release: @escaping @Sendable () -> Void
) -> DispatchGroup {
  let group = DispatchGroup()
  DispatchQueue.global().async(group: group) {
    do {
      let holder = try DatabaseQueue(path: path, configuration: configuration)
      try holder.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
        held.signal()
        release()
        try db.execute(sql: "COMMIT")
      }
    } catch {
      Issue.record(error)
      held.signal()
    }
  }
  return group
}
