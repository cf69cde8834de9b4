import Foundation
import Testing

@testable import Sealite

/// The `dbkey` tool, built next to the test bundle.
var dbkeyPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dbkey")
    .path
}

/// Runs dbkey to its end with `input` on its standard input (descriptor 0).
func dbkey(_ arguments: [String], input: String = "") throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try runProcess(dbkeyPath, arguments, input: input)
}

/// The keyring items whose path is inside `directory`, as dbkey lists them.
func items(in directory: TemporaryDirectory) throws -> [String] {
  let result = try dbkey(["keyring", "list", "--json"])
  #expect(result.status == 0, "\(result.stderr)")
  let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
  let prefix = URL(fileURLWithPath: directory.url.path).resolvingSymlinksInPath().path
  return list.compactMap { item -> String? in
    guard let attributes = item["attributes"] as? [String: String], let path = attributes["path"],
      path.hasPrefix(prefix)
    else { return nil }
    return URL(fileURLWithPath: path).lastPathComponent + "|" + (attributes["name"] ?? "")
  }.sorted()
}
