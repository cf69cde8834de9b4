import Foundation
import Sealite
import Testing

@Suite("Reliability: two writer and four reader processes on one encrypted WAL database")
struct MultiProcessLoadTests {
  @Test(
    "money transfers: every snapshot adds up, no SQLITE_BUSY, no transaction lost, every reader converges")
  func bank() async throws {
    // SEALITE_LOAD_TRANSFERS=5000 runs the long version (10,000 transactions).
    let perWriter = stressCount("SEALITE_LOAD_TRANSFERS", short: 250)
    let directory = TemporaryDirectory()
    let path = directory.path()
    // The key is made and kept by the keyring; no process ever sees it elsewhere.
    let created = try await dbkey(["init", path])
    #expect(created.status == 0, "\(created.stderr)")
    let setup = try await runProcess(
      sealiteStressPath, ["bank-setup", path, "--accounts", "20", "--balance", "1000"], input: "")
    #expect(setup.status == 0, "\(setup.stderr)")
    #expect(setup.stdout.contains("total 20000"))

    let total = 2 * perWriter
    let readers = try (0..<4).map { _ in
      try SpawnedProcess(sealiteStressPath, ["bank-read", path, "--until", "\(total)"], input: "")
    }
    let writers = try (1...2).map { writer in
      try SpawnedProcess(
        sealiteStressPath, ["bank-write", path, "--transfers", "\(perWriter)", "--writer", "\(writer)"],
        input: "")
    }
    for writer in writers {
      // Any error, SQLITE_BUSY included, would end the writer with status 1.
      #expect(await writer.waitForExit(timeout: 600) == 0, "\(writer.errorOutput)")
      #expect(writer.value("done") == perWriter)
    }
    for reader in readers {
      #expect(await reader.waitForExit(timeout: 600) == 0, "\(reader.errorOutput)")
      #expect(reader.value("violations") == 0, "\(reader.output)")
      #expect(reader.value("backwards") == 0, "\(reader.output)")
      #expect((reader.value("snapshots") ?? 0) > 0)
      // The observation converged on the final state, which holds every transfer.
      #expect(reader.value("observed-final") == total)
      #expect(reader.value("final-transfers") == total)
      #expect(reader.value("total") == 20000)
    }
    let check = try await stressCheck(path)
    #expect(check["integrity"] == "ok")
  }
}
