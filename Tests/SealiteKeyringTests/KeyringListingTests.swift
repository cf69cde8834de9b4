import Foundation
import Sealite
import SealiteKeyring
import Testing

@Suite("Listing the keyring while other programs change it")
struct KeyringListingTests {
  @Test("items() succeeds while another program keeps storing and deleting Sealite items")
  func listingToleratesVanishedItems() async throws {
    let keyring = Keyring()
    // Many items make a long listing: each is loaded on its own.
    let path = uniqueDatabasePath()
    let databases = try (0..<40).map { try KeyringDatabase(path: path, name: "listed-\($0)") }
    for database in databases { try await keyring.store(.randomRaw(), for: database) }
    // Other programs: each stores an item of Sealite's schema and deletes it
    // again, as fast as it can, until the stop file is gone.
    let stopFile = FileManager.default.temporaryDirectory.appendingPathComponent("churn-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: stopFile.path, contents: nil)
    let churnPaths = (0..<4).map { _ in "/sealite-churn/\(UUID().uuidString)" }
    let script = """
      while [ -e "$1" ]; do
        printf k | secret-tool store --label=churn xdg:schema org.sealite.DatabaseKey path "$2" name "" kind raw
        secret-tool clear xdg:schema org.sealite.DatabaseKey path "$2"
      done
      """
    let churners = try churnPaths.map { churnPath in
      let churn = Process()
      churn.executableURL = URL(fileURLWithPath: "/bin/sh")
      churn.arguments = ["-c", script, "sh", stopFile.path, churnPath]
      try churn.run()
      return churn
    }
    defer {
      try? FileManager.default.removeItem(at: stopFile)
      for churn in churners { churn.waitUntilExit() }
    }
    var failures: [String] = []
    var listings = 0
    var sawChurnItem = false
    let deadline = ContinuousClock.now + .seconds(4)
    while ContinuousClock.now < deadline {
      do {
        let items = try await keyring.items()
        listings += 1
        #expect(items.filter { $0.path == databases[0].canonicalPath }.count == databases.count)
        if items.contains(where: { $0.path.map(churnPaths.contains) == true }) { sawChurnItem = true }
      } catch {
        failures.append("\(error)")
      }
    }
    #expect(
      failures.isEmpty,
      "\(failures.count) of \(listings + failures.count) listings failed: \(failures.first ?? "")")
    // The listings did run while the other program's item came and went.
    #expect(sawChurnItem)
    for database in databases { try await keyring.deleteKey(for: database) }
  }
}
