import Foundation
import Sealite
import Testing

// Every dbkey operation that changes a key or writes a database, killed
// (SIGKILL) or interrupted (SIGINT) at random moments of its run, and raced
// by other operations on the same file: no key is lost, no database left
// unreadable, and nothing is left behind once `dbkey recover` ran.
// SEALITE_KEY_TORTURE=50 runs the long version (50 of each per operation).

private let rawKeyLine = String(repeating: "42", count: 32) + "\n"

/// A database keyed with the raw key 0x42…, `rows` rows of 2 KB, in `format`
/// (nil: the linked SQLCipher's), its key stored in the keyring.
private func makeKeyedDatabase(_ path: String, rows: Int, seed: String, format: Int? = nil) async throws {
  var config = rawKeyConfiguration()
  config.cipher.compatibility = format
  let dbQueue = try DatabaseQueue(path: path, configuration: config)
  try await dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (x)")
    for index in 0..<rows {
      try db.execute(
        sql: "INSERT INTO t VALUES (?)", arguments: ["\(seed) \(index)" + String(repeating: "x", count: 2000)]
      )
    }
  }
  try dbQueue.close()
  let stored = try await dbkey(["keyring", "store", path, "--key-fd", "0", "--force"], input: rawKeyLine)
  #expect(stored.status == 0, "\(stored.stderr)")
}

/// A plaintext database of `rows` rows.
private func makePlainDatabase(_ path: String, rows: Int, seed: String) throws {
  let dbQueue = try DatabaseQueue(path: path)
  try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (x)")
    for index in 0..<rows {
      try db.execute(
        sql: "INSERT INTO t VALUES (?)", arguments: ["\(seed) \(index)" + String(repeating: "x", count: 2000)]
      )
    }
  }
  try dbQueue.close()
}

/// What is left in the directory besides the expected files: anything of an
/// operation (temporary copies, lock files, journals), or an unexpected file.
private func leftovers(_ directory: TemporaryDirectory, expected: Set<String>) -> [String] {
  directory.fileNames().filter { !expected.contains($0) }
}

/// How an operation ended: killed, interrupted and exited, or completed.
private enum Ending: String, CaseIterable {
  case sigkill, sigint
}

/// One operation under test: what it runs, the files it keeps, and the
/// contents its target may hold afterwards (before or after it).
private struct TorturedOperation {
  let name: String
  let directory: TemporaryDirectory
  /// The file whose key and contents are checked.
  let target: String
  /// The files the directory holds between runs (the target may come and go).
  let files: Set<String>
  /// Sets up what a run needs (called before each run).
  let reset: () async throws -> Void
  let arguments: [String]
  /// The checksums the target may hold: its contents before, and after.
  let contents: () throws -> Set<String>
  /// True if the target may be absent (init, interrupted before its rename).
  var targetMayBeAbsent = false
  /// What must then work at the first try (a migration after an interrupted one).
  var followUp: ((String) async throws -> Void)?
}

@Suite("Reliability: key operations killed, interrupted and raced")
struct KeyOperationTortureTests {
  /// The operations: each gets a directory of its own.
  private func operations() async throws -> [TorturedOperation] {
    var result: [TorturedOperation] = []

    let rekeyDirectory = TemporaryDirectory("tortureRekey")
    let rekeyed = rekeyDirectory.path("db.sqlite")
    try await makeKeyedDatabase(rekeyed, rows: 1500, seed: "rekey")
    let rekeyChecksum = try #require(await stressCheck(rekeyed)["checksum"])
    result.append(
      TorturedOperation(
        name: "rekey", directory: rekeyDirectory, target: rekeyed, files: ["db.sqlite"], reset: {},
        arguments: ["rekey", rekeyed], contents: { [rekeyChecksum] }))

    let importDirectory = TemporaryDirectory("tortureImport")
    let plain = importDirectory.path("plain.sqlite")
    try makePlainDatabase(plain, rows: 1500, seed: "new")
    let oldPlain = importDirectory.path("old-plain.sqlite")
    try makePlainDatabase(oldPlain, rows: 30, seed: "old")
    let imported = importDirectory.path("out.sqlite")
    #expect(try await dbkey(["import", oldPlain, imported]).status == 0)
    let oldImport = try #require(await stressCheck(imported)["checksum"])
    let reference = importDirectory.path("reference.sqlite")
    #expect(try await dbkey(["import", plain, reference]).status == 0)
    let newImport = try #require(await stressCheck(reference)["checksum"])
    result.append(
      TorturedOperation(
        name: "import --force", directory: importDirectory, target: imported,
        files: ["plain.sqlite", "old-plain.sqlite", "out.sqlite", "reference.sqlite"], reset: {},
        arguments: ["import", plain, imported, "--force"], contents: { [oldImport, newImport] }))

    let exportDirectory = TemporaryDirectory("tortureExport")
    let source = exportDirectory.path("src.sqlite")
    try await makeKeyedDatabase(source, rows: 1500, seed: "source")
    let sourceChecksum = try #require(await stressCheck(source)["checksum"])
    let other = exportDirectory.path("other.sqlite")
    try await makeKeyedDatabase(other, rows: 30, seed: "other")
    let exported = exportDirectory.path("out.sqlite")
    #expect(try await dbkey(["export", other, exported, "--new-key"]).status == 0)
    let oldExport = try #require(await stressCheck(exported)["checksum"])
    result.append(
      TorturedOperation(
        name: "export --force --new-key", directory: exportDirectory, target: exported,
        files: ["src.sqlite", "other.sqlite", "out.sqlite"], reset: {},
        arguments: ["export", source, exported, "--force", "--new-key"],
        contents: { [oldExport, sourceChecksum] }))

    let initDirectory = TemporaryDirectory("tortureInit")
    let created = initDirectory.path("new.sqlite")
    var initOperation = TorturedOperation(
      name: "init", directory: initDirectory, target: created, files: ["new.sqlite"],
      reset: {
        guard FileManager.default.fileExists(atPath: created) else { return }
        #expect(try await dbkey(["keyring", "forget", created, "--force"]).status == 0)
        try FileManager.default.removeItem(atPath: created)
      },
      arguments: ["init", created], contents: { [] })
    initOperation.targetMayBeAbsent = true
    result.append(initOperation)

    if !TestEnvironment.isLegacy {
      let migrateDirectory = TemporaryDirectory("tortureMigrate")
      let migrated = migrateDirectory.path("db.sqlite")
      var migrate = TorturedOperation(
        name: "migrate", directory: migrateDirectory, target: migrated,
        files: ["db.sqlite", "db.sqlite.before-migrate"],
        reset: {
          for name in migrateDirectory.fileNames() {
            try? FileManager.default.removeItem(atPath: migrateDirectory.path(name))
          }
          try await makeKeyedDatabase(migrated, rows: 1500, seed: "migrate", format: 3)
        },
        arguments: ["migrate", migrated], contents: { [] })
      // Whatever the interrupted one did, the next migration works at once.
      migrate.followUp = { context in
        let again = try await dbkey(["migrate", migrated])
        #expect(again.status == 0, "\(context): \(again.stderr)")
        let info = try await dbkey(["info", migrated, "--json"])
        #expect(info.stdout.contains("\"cipherFormat\":4"), "\(context): \(info.stdout)\(info.stderr)")
      }
      result.append(migrate)
    }
    return result
  }

  @Test(
    "SIGKILL and SIGINT at random moments of rekey, import, export, init and migrate: no key lost, nothing left"
  )
  func killsAndInterrupts() async throws {
    let count = stressCount("SEALITE_KEY_TORTURE", short: 2)
    var generator = StressGenerator()
    var report: [String] = []
    for operation in try await operations() {
      // How long a run takes here, to spread the signals over it.
      try await operation.reset()
      let started = ContinuousClock.now
      let first = try await dbkey(operation.arguments)
      #expect(first.status == 0, "\(operation.name): \(first.stderr)")
      let elapsed = ContinuousClock.now - started
      let microseconds = max(
        Int(elapsed.components.seconds) * 1_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000_000),
        1000)
      var endings: [String: Int] = [:]
      for ending in Ending.allCases {
        for run in 0..<count {
          let context = "\(operation.name), \(ending.rawValue) \(run), seed \(generator.seed)"
          try await operation.reset()
          let before = try await state(of: operation)
          let process = try SpawnedProcess(dbkeyPath, operation.arguments, input: "")
          let signal = ending == .sigkill ? SIGKILL : SIGINT
          let delay = generator.next(below: microseconds)
          DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { process.kill(signal) }
          let status = await process.waitForExit()
          let finished = status == 0
          endings["\(ending.rawValue) → \(status.map(String.init) ?? "hang")", default: 0] += 1
          switch ending {
          case .sigint:
            // Completed, interrupted (130), or killed before its handler was in place.
            #expect(status == 0 || status == 130 || status == SIGINT, "\(context): \(process.errorOutput)")
            if status == 130 {
              #expect(process.errorOutput.contains("interrupted"), "\(context): \(process.errorOutput)")
              let after = try await state(of: operation)
              #expect(
                after == before,
                "\(context): an interrupted run changed something: \(before) → \(after); \(process.errorOutput)"
              )
            }
          case .sigkill:
            #expect(status == 0 || status == SIGKILL, "\(context): \(process.errorOutput)")
          }
          if !finished {
            let recovered = try await dbkey(["recover", operation.target])
            let absentAllowed = operation.targetMayBeAbsent && recovered.status == 66
            #expect(recovered.status == 0 || absentAllowed, "\(context): \(recovered.stderr)")
          }
          try await checkInvariants(operation, context: context)
          try await operation.followUp?(context)
        }
      }
      report.append(
        "\(operation.name): \(endings.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })")
    }
    if ProcessInfo.processInfo.environment["SEALITE_KEY_TORTURE"] != nil {
      print("key torture, \(count) of each, seed \(generator.seed):\n" + report.joined(separator: "\n"))
    }
  }

  /// The target's bytes, the keyring items and the files of the directory.
  private func state(of operation: TorturedOperation) async throws -> [String] {
    let bytes = fileBytes(operation.target).map { String($0.hashValue) } ?? "absent"
    return [bytes] + (try await items(in: operation.directory)) + operation.directory.fileNames()
  }

  /// No key lost (the target opens through the keyring, with contents from
  /// before or after), no leftover (only the expected files, one stored key
  /// per keyed file, no pending key).
  private func checkInvariants(_ operation: TorturedOperation, context: String) async throws {
    let names = operation.directory.fileNames()
    #expect(leftovers(operation.directory, expected: operation.files).isEmpty, "\(context): \(names)")
    let targetName = URL(fileURLWithPath: operation.target).lastPathComponent
    let keyed = names.filter { $0.hasSuffix(".sqlite") && !$0.contains("plain") }
    #expect(try await items(in: operation.directory) == keyed.map { $0 + "|" }.sorted(), "\(context)")
    guard names.contains(targetName) else {
      #expect(operation.targetMayBeAbsent, "\(context): \(targetName) is gone")
      return
    }
    // The keyring's key opens it (verify reads every page, in any format).
    let verify = try await dbkey(["verify", operation.target])
    #expect(verify.status == 0, "\(context): \(verify.stdout)\(verify.stderr)")
    let expected = try operation.contents()
    if !expected.isEmpty {
      let check = try await stressCheck(operation.target)
      #expect(check["checksum"].map(expected.contains) == true, "\(context): \(check)")
    }
  }

  @Test("rekey racing rekey, info, verify and init on one file: both end, no key is lost, nothing is left")
  func races() async throws {
    let count = stressCount("SEALITE_KEY_RACES", short: 2)
    var generator = StressGenerator()
    let directory = TemporaryDirectory("keyRaces")
    let path = directory.path("db.sqlite")
    try await makeKeyedDatabase(path, rows: 500, seed: "race")
    let checksum = try #require(await stressCheck(path)["checksum"])
    // What the other command may end with, next to a rekey that changes the key under it.
    let others: [(arguments: [String], allowed: Set<Int32>)] = [
      (["rekey", path], [0]), (["info", path], [0]), (["verify", path], [0]), (["init", path], [73]),
    ]
    var outcomes: [String: Int] = [:]
    for run in 0..<count {
      for other in others {
        let context = "\(other.arguments[0]) race \(run), seed \(generator.seed)"
        let rekey = try SpawnedProcess(dbkeyPath, ["rekey", path], input: "")
        // The other one starts at a random moment of the rekey's first 100 ms.
        try await Task.sleep(for: .microseconds(generator.next(below: 100_000)))
        let racer = try SpawnedProcess(dbkeyPath, other.arguments, input: "")
        let rekeyStatus = await rekey.waitForExit()
        let racerStatus = await racer.waitForExit()
        outcomes[
          "\(other.arguments[0]): rekey \(rekeyStatus ?? -1), other \(racerStatus ?? -1)", default: 0] += 1
        #expect(rekeyStatus == 0, "\(context): rekey: \(rekey.errorOutput)")
        #expect(racerStatus.map(other.allowed.contains) == true, "\(context): \(racer.errorOutput)")
        let recovered = try await dbkey(["recover", path])
        #expect(
          recovered.status == 0 && recovered.stdout.contains("nothing to recover"),
          "\(context): \(recovered.stdout)\(recovered.stderr)")
        #expect(try await stressCheck(path)["checksum"] == checksum, "\(context)")
        #expect(try await items(in: directory) == ["db.sqlite|"], "\(context)")
        #expect(directory.fileNames() == ["db.sqlite"], "\(context)")
      }
    }
    if ProcessInfo.processInfo.environment["SEALITE_KEY_RACES"] != nil {
      print("key races, \(count) of each, seed \(generator.seed): \(outcomes.sorted { $0.key < $1.key })")
    }
  }

  @Test("two dbkey init of one path at once: one creates, the other refuses, and the database keeps its key")
  func concurrentInits() async throws {
    let count = stressCount("SEALITE_KEY_RACES", short: 3)
    let directory = TemporaryDirectory("initRaces")
    for run in 0..<count {
      let path = directory.path("db\(run).sqlite")
      let first = try SpawnedProcess(dbkeyPath, ["init", path], input: "")
      let second = try SpawnedProcess(dbkeyPath, ["init", path], input: "")
      let statuses = [await first.waitForExit(), await second.waitForExit()]
      #expect(
        statuses.sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 73],
        "run \(run): \(first.errorOutput)\(second.errorOutput)")
      #expect(try await dbkey(["verify", path]).status == 0, "run \(run)")
    }
    #expect(try await items(in: directory) == (0..<count).map { "db\($0).sqlite|" }.sorted())
    #expect(directory.fileNames() == (0..<count).map { "db\($0).sqlite" }.sorted())
  }
}
