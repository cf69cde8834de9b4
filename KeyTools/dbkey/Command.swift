/// One dbkey command: its name (`keyring store` for a keyring action), what it
/// does, how it is called, its options, and its body.
struct Command: Sendable {
  let name: String
  let summary: String
  /// `dbkey NAME …`, the positional arguments and the options in short.
  let synopsis: String
  /// What it does, in a few lines: what it reads, writes and leaves behind.
  let details: String
  let options: [OptionSpec]
  let run: @Sendable (Arguments) throws -> Void

  /// The whole help of the command.
  var help: String {
    var lines = ["usage: dbkey \(synopsis)", "", summary, ""]
    lines += details.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines += ["", "options:"]
    let all = options + [.flag("--help", "show this help")]
    let width = all.map { Self.spelling($0).count }.max() ?? 0
    for option in all {
      lines.append(
        "  " + Self.spelling(option).padding(toLength: width + 2, withPad: " ", startingAt: 0) + option.help)
    }
    return lines.joined(separator: "\n")
  }

  private static func spelling(_ option: OptionSpec) -> String {
    option.value.map { "\(option.name) \($0)" } ?? option.name
  }
}

/// The options that are the same in every command that has them.
enum CommonOptions {
  static let json = OptionSpec.flag("--json", "print the result (and errors, on standard error) as JSON")
  static let collection = OptionSpec.option(
    "--collection", "LABEL", "the keyring collection, by its label (default: the default collection)")
  static let name = OptionSpec.option(
    "--name", "NAME", "the name of DB's keyring item (to keep several keys for one file apart)")

  /// How DB's key is given, when not from the keyring.
  static let databaseKey: [OptionSpec] = [
    .option("--key-fd", "N", "read DB's raw key from descriptor N: 64 hexadecimal digits (96 with a salt)"),
    .option("--passphrase-fd", "N", "read DB's passphrase from descriptor N (its first line)"),
    .flag("--passphrase", "type DB's passphrase on the terminal (echo off)"),
    name, collection,
  ]

  /// How a new key is given (the output's, or DB's new one).
  static func newPassphrase(of what: String) -> [OptionSpec] {
    [
      .option("--new-passphrase-fd", "N", "read \(what)'s new passphrase from descriptor N (its first line)"),
      .flag("--new-passphrase", "type \(what)'s new passphrase on the terminal, twice (echo off)"),
    ]
  }

  /// The lines every help ends its details with about keys.
  static let keyNote =
    "Keys come from the keyring, from file descriptors or from the terminal (echo off), never from\n"
    + "arguments or the environment; a descriptor is closed once read."
}
