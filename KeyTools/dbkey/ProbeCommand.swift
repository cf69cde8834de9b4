import Foundation
import Sealite

let probeCommand = Command(
  name: "probe", summary: "the SQLCipher and SQLite versions and capabilities linked in",
  synopsis: "probe [--json]",
  details: "Prints the versions of SQLCipher, of the SQLite it bundles and of its crypto provider, and\n"
    + "which SQL capabilities that SQLite has. Reads no database and no keyring.",
  options: [CommonOptions.json]
) { arguments in
  _ = try arguments.positionals()
  let features = SQLiteFeatures.linked
  if Output.json {
    Output.json([
      "sqlcipherVersion": features.sqlcipherVersion ?? NSNull(),
      "sqliteVersion": features.sqliteVersion,
      "cryptoProvider": features.cryptoProvider ?? NSNull(),
      "cryptoProviderVersion": features.cryptoProviderVersion ?? NSNull(),
      "capabilities": Dictionary(
        uniqueKeysWithValues: SQLiteFeatures.Capability.allCases.map { ($0.rawValue, features.supports($0)) }),
      "compileOptions": features.compileOptions,
    ])
    return
  }
  Output.line("SQLCipher: \(features.sqlcipherVersion ?? "none")")
  Output.line("SQLite: \(features.sqliteVersion)")
  Output.line(
    "crypto provider: \(features.cryptoProvider ?? "unknown") \(features.cryptoProviderVersion ?? "")")
  for capability in SQLiteFeatures.Capability.allCases {
    Output.line(
      "  \(features.supports(capability) ? "yes" : "no ")  \(capability.name) "
        + "(SQLite \(capability.minimumSQLiteVersion)+)")
  }
}
