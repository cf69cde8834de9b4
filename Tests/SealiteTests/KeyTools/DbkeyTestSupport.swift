import Foundation
import Sealite
import Testing

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
  let result = try await dbkey(["keyring", "list", "--json"])
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
