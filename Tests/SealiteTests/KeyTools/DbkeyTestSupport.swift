import Foundation
import Testing

@testable import Sealite

/// The `dbkey` tool, built next to the test bundle.
var dbkeyPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dbkey")
    .path
}

/// Runs dbkey to its end with `input` on its standard input (descriptor 0).
func dbkey(_ arguments: [String], input: String = "") async throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try await runProcess(dbkeyPath, arguments, input: input)
}

/// The keyring items whose path is inside `directory`, as dbkey lists them:
/// `FILE|NAME` for a stored key, `FILE|NAME|pending` for a pending one.
func items(in directory: TemporaryDirectory) async throws -> [String] {
  let result = try await listKeyring()
  #expect(result.status == 0, "\(result.stderr)")
  let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
  let prefix = URL(fileURLWithPath: directory.url.path).resolvingSymlinksInPath().path
  return list.compactMap { item -> String? in
    guard let path = item["path"] as? String, path.hasPrefix(prefix) else { return nil }
    let name = item["name"] as? String ?? ""
    let pending = item["pending"] as? Bool == true ? "|pending" : ""
    return URL(fileURLWithPath: path).lastPathComponent + "|" + name + pending
  }.sorted()
}

/// `dbkey keyring list --json`, asked again (at most four more times) while it
/// fails only because an item vanished under it.
///
/// Workaround for a race outside the code under test here: libsecret's search
/// lists the items' paths, then loads each item, and fails the whole search
/// ("No such secret item at path") when another process deleted one in between.
/// The tests run in parallel, and their dbkey processes forget and replace
/// items all the time, each in a directory of its own: the vanished item is
/// never one of the directory listed. Any other failure is reported at once.
private func listKeyring() async throws -> (status: Int32, stdout: String, stderr: String) {
  var result = try await dbkey(["keyring", "list", "--json"])
  for _ in 0..<4 where result.status == 70 && result.stderr.contains("No such secret item at path") {
    result = try await dbkey(["keyring", "list", "--json"])
  }
  return result
}
