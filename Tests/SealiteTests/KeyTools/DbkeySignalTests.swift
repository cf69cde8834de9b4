import Foundation
import Sealite
import Testing

/// True where a crashing process writes `core` files into its working
/// directory (the kernel's core_pattern is a plain name).
private var coresGoToFiles: Bool {
  let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? "|"
  return !pattern.hasPrefix("|")
}

/// The files of a directory whose name starts with "core".
private func cores(in directory: TemporaryDirectory) -> [String] {
  directory.fileNames().filter { $0.hasPrefix("core") }
}

/// The local modes of the terminal whose master side is `descriptor`.
private func localModes(_ descriptor: Int32) -> tcflag_t? {
  var settings = termios()
  return tcgetattr(descriptor, &settings) == 0 ? settings.c_lflag : nil
}

/// An encrypted database of about `megabytes` MB whose raw key 0x42… the keyring holds.
private func makeLargeDatabase(_ path: String, megabytes: Int) async throws {
  let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
  try await dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (x)")
    for _ in 0..<(megabytes * 10) { try db.execute(sql: "INSERT INTO t VALUES (randomblob(100000))") }
  }
  try dbQueue.close()
  let keyLine = String(repeating: "42", count: 32) + "\n"
  #expect(try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: keyLine).status == 0)
}

/// True when process `pid` has a handler of `signal` (its `SigCgt` mask).
private func catches(_ signal: Int32, _ pid: Int32) -> Bool {
  let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
  let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
  let mask = caught.flatMap {
    UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
  }
  return (mask ?? 0) & (1 << (UInt64(signal) - 1)) != 0
}

/// True when a thread of process `pid` waits to write into a full pipe (as
/// the kernel names where it sleeps).
private func isWritingToPipe(_ pid: Int32) -> Bool {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
  return tasks.contains { task in
    let place = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? ""
    return place.hasSuffix("pipe_write")
  }
}

@Suite("dbkey under signals: the terminal, the files and the keyring come back as they were")
struct DbkeySignalTests {
  @Test("SIGINT at a passphrase prompt gives the terminal its echo back, exits 130 and changes nothing")
  func interruptAtPrompt() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let bytes = fileBytes(path)
    let itemsBefore = try await items(in: directory)
    let session = try SpawnedProcess.onTerminal(dbkeyPath, ["rekey", path, "--new-passphrase"])
    #expect(await session.waitForText("New passphrase for") != nil, "\(session.text)")
    let master = try #require(session.terminalDescriptor)
    // The control: echo is off while dbkey asks.
    #expect(localModes(master).map { $0 & tcflag_t(ECHO) == 0 } == true)
    session.kill(SIGINT)
    #expect(await session.waitForExit() == 130, "\(session.text)")
    #expect(localModes(master).map { $0 & tcflag_t(ECHO) != 0 } == true, "echo stayed off")
    #expect(session.text.contains("interrupted by SIGINT"), "\(session.text)")
    #expect(fileBytes(path) == bytes)
    #expect(try await items(in: directory) == itemsBefore)
    #expect(directory.fileNames() == ["db.sqlite"])
  }

  @Test(
    "SIGTERM, SIGINT or SIGHUP in the middle of an export ends its status line, exits 128 + the signal, and leaves no partial copy"
  )
  func interruptExport() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeLargeDatabase(path, megabytes: 12)
    let itemsBefore = try await items(in: directory)
    for (signal, arguments) in [(SIGTERM, ["--new-key"]), (SIGINT, ["--plaintext"]), (SIGHUP, ["--new-key"])]
    {
      let out = directory.path("copy.sqlite")
      let session = try SpawnedProcess.onTerminal(dbkeyPath, ["export", path, out] + arguments)
      // The status line shows as the copy starts; the copy takes far longer.
      session.kill(signal, afterText: "exporting")
      let status = await session.waitForExit()
      #expect(status == 128 + signal, "\(arguments): \(session.text)")
      let afterLine = session.text.components(separatedBy: "exporting").last ?? ""
      #expect(
        afterLine.contains("\r\u{1B}[K"), "the status line was not erased: \(String(reflecting: afterLine))")
      #expect(session.text.contains("nothing was changed"), "\(session.text)")
      #expect(directory.fileNames() == ["db.sqlite"], "\(arguments): \(directory.fileNames())")
      try? FileManager.default.removeItem(atPath: out)
      #expect(try await items(in: directory) == itemsBefore)
    }
  }

  @Test(
    "SIGINT before a change begins exits 130 and changes nothing, even while its message waits on a full standard error"
  )
  func interruptBeforeChange() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeLargeDatabase(path, megabytes: 1)
    let itemsBefore = try await items(in: directory)
    let out = directory.path("copy.sqlite")
    // Standard error is a full pipe: the message of the interruption waits
    // until the test reads it, and the main thread goes on meanwhile. It must
    // not begin the export that the signal came before.
    var errorPipe: [Int32] = [0, 0]
    try #require(pipe(&errorPipe) == 0)
    defer { close(errorPipe[0]) }
    _ = fcntl(errorPipe[1], F_SETFL, O_NONBLOCK)
    var filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
    var filled = 0
    for size in [4096, 1] {
      while write(errorPipe[1], &filler, size) == size { filled += size }
    }
    _ = fcntl(errorPipe[1], F_SETFL, 0)
    let input = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dbkeyPath)
    process.arguments = ["export", path, out, "--new-key", "--key-fd", "0"]
    process.standardInput = input
    process.standardOutput = Pipe()
    process.standardError = FileHandle(fileDescriptor: errorPipe[1], closeOnDealloc: false)
    try process.run()
    close(errorPipe[1])
    // dbkey waits for DB's key on descriptor 0; its handlers are in place
    // once SIGINT is among the signals it catches.
    let catchesInterrupt = await eventually(timeout: 30) { catches(SIGINT, process.processIdentifier) }
    try #require(catchesInterrupt)
    kill(process.processIdentifier, SIGINT)
    // The signal's thread then waits to write its message: it has decided.
    _ = await eventually(timeout: 10) { isWritingToPipe(process.processIdentifier) }
    input.fileHandleForWriting.write(Data((String(repeating: "42", count: 32) + "\n").utf8))
    try input.fileHandleForWriting.close()
    // Time enough for an export of 1 MB to run, were it to begin.
    _ = await eventually(timeout: 3) { !process.isRunning }
    let errorBytes = FileHandle(fileDescriptor: errorPipe[0], closeOnDealloc: false).readDataToEndOfFile()
    process.waitUntilExit()
    let message = String(decoding: errorBytes.dropFirst(filled), as: UTF8.self)
    #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(message)")
    #expect(message.contains("interrupted by SIGINT"), "\(message)")
    #expect(directory.fileNames() == ["db.sqlite"], "\(directory.fileNames())")
    #expect(try await items(in: directory) == itemsBefore)
  }

  @Test(
    "dbkey leaves no core file, even killed by SIGABRT at a prompt, where a program that does not opt out does",
    .enabled(if: coresGoToFiles))
  func noCoreDump() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    // The control: a program that keeps the default leaves a core in the same place.
    let control = try SpawnedProcess.onTerminal(
      "/bin/sh",
      [
        "-c", "ulimit -c unlimited && exec \"$1\" wait-for-signal \"$2\"", "sh", sealiteStressPath,
        directory.url.path,
      ])
    control.kill(SIGABRT, afterText: "ready")
    _ = await control.waitForExit()
    let controlCores = cores(in: directory)
    try #require(!controlCores.isEmpty, "no core file from the control: the check could not fail")
    for core in controlCores { try FileManager.default.removeItem(atPath: directory.path(core)) }

    let session = try SpawnedProcess.onTerminal(
      "/bin/sh",
      [
        "-c", "ulimit -c unlimited && cd \"$1\" && exec \"$2\" rekey \"$3\" --new-passphrase", "sh",
        directory.url.path, dbkeyPath, path,
      ])
    #expect(await session.waitForText("New passphrase for") != nil, "\(session.text)")
    // It limits itself: no core, whatever the shell allowed.
    let limits =
      (try? String(contentsOfFile: "/proc/\(session.processIdentifier)/limits", encoding: .utf8)) ?? ""
    let coreLimit = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
    #expect(
      coreLimit?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0", "\(limits)"
    )
    session.kill(SIGABRT)
    _ = await session.waitForExit()
    #expect(cores(in: directory).isEmpty, "\(directory.fileNames())")
  }
}
