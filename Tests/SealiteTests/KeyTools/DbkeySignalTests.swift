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
