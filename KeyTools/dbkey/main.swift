// dbkey: key management for Sealite databases. Every command is a thin shell
// over library calls a program could make too. Secrets come from file
// descriptors, the terminal or the keyring, never from the command line or the
// environment.

import CLinux
import Foundation
import Sealite

// Before any key is handled: no core file, no ptrace or /proc/PID/mem reader
// of the same user, whatever signal or crash ends dbkey.
_ = sealite_set_not_dumpable()
var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
_ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
// A crash takes the default action (death, and no core: see above), not the
// Swift runtime's backtracer, which prints registers and memory near them —
// where key bytes may be — on standard error.
for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { _ = signal(crash, SIG_DFL) }
// A closed standard output is a failed write (EPIPE), handled by Output.
_ = signal(SIGPIPE, SIG_IGN)
Interruption.install()

/// Every command, in the order `dbkey --help` lists them.
let commands: [Command] = [
  probeCommand, infoCommand, verifyCommand, dumpCommand, exportCommand, importCommand, initCommand,
  rekeyCommand,
  recoverCommand, migrateCommand, watchCommand, keyringStoreCommand, keyringForgetCommand, keyringListCommand,
  keyringMoveCommand, keyringExportKeyCommand, keyringImportKeyCommand,
]

func help() -> String {
  var lines = ["usage: dbkey COMMAND [ARGUMENTS]", "", "commands:"]
  let width = commands.map(\.name.count).max() ?? 0
  for command in commands {
    lines.append(
      "  " + command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary)
  }
  lines += [
    "",
    "dbkey help COMMAND (or dbkey COMMAND --help) explains a command and each of its options;",
    "dbkey --version prints the versions. Options take their value as --option VALUE or --option=VALUE;",
    "after --, every argument is a file name.",
    "",
    "Keys: --key-fd N reads a raw key (64 hexadecimal digits, 96 with a salt) from descriptor N;",
    "--passphrase-fd N reads a passphrase (its first line); --passphrase asks for it on the terminal,",
    "with echo off. These name DB's key; an output's or a new key is given with --new-passphrase-fd N,",
    "--new-passphrase or --new-key. Keys are never taken from arguments or the environment.",
    "",
    "exit codes:",
  ]
  for code in ExitCode.allCases {
    lines.append(
      "  " + String(code.rawValue).padding(toLength: 5, withPad: " ", startingAt: 0) + code.meaning)
  }
  return lines.joined(separator: "\n")
}

/// `dbkey keyring --help`: the keyring actions, each with its synopsis.
func keyringHelp() -> String {
  var lines = [
    "usage: dbkey keyring ACTION [ARGUMENTS]", "",
    "Manages the keys the keyring holds for databases (never showing a secret). Actions:", "",
  ]
  for command in commands where command.name.hasPrefix("keyring ") {
    lines.append("  dbkey " + command.synopsis.replacingOccurrences(of: "\n", with: "\n  "))
    lines.append("      " + command.summary)
  }
  lines += ["", "dbkey help keyring ACTION explains an action and each of its options."]
  return lines.joined(separator: "\n")
}

func version() -> String {
  let features = SQLiteFeatures.linked
  return "dbkey (Sealite), SQLCipher \(features.sqlcipherVersion ?? "none"), SQLite \(features.sqliteVersion)"
}

func fail(_ error: CommandError) -> Never {
  Output.error(error.message, code: error.code.rawValue)
  exit(error.code.rawValue)
}

/// The command a command line names (`keyring store` takes two words), and the rest.
func command(named words: [String]) -> (Command, [String])? {
  if words.count >= 2, let match = commands.first(where: { $0.name == words[0] + " " + words[1] }) {
    return (match, Array(words.dropFirst(2)))
  }
  return commands.first(where: { $0.name == words.first }).map { ($0, Array(words.dropFirst())) }
}

var words = Array(CommandLine.arguments.dropFirst())
// Options up to `--` only: after it, `--help` is a file name.
let optionWords = words.prefix { $0 != "--" }
Output.json = optionWords.contains("--json")
switch words.first {
case nil:
  Output.write(help() + "\n", to: 2)
  exit(ExitCode.usage.rawValue)
case "--help", "-h":
  Output.text(help())
  exit(ExitCode.success.rawValue)
case "--version", "version":
  Output.line(version())
  exit(ExitCode.success.rawValue)
case "help":
  guard words.count > 1 else {
    Output.text(help())
    exit(ExitCode.success.rawValue)
  }
  if words.count == 2 && words[1] == "keyring" {
    Output.text(keyringHelp())
    exit(ExitCode.success.rawValue)
  }
  guard let (named, rest) = command(named: Array(words.dropFirst())), rest.isEmpty else {
    fail(
      CommandError(
        code: .usage,
        message: "no command \(words.dropFirst().joined(separator: " ")) (dbkey --help lists them)"))
  }
  Output.text(named.help)
  exit(ExitCode.success.rawValue)
case "keyring" where words.count == 1:
  let actions = commands.filter { $0.name.hasPrefix("keyring ") }.map { $0.name.dropFirst("keyring ".count) }
  fail(
    CommandError(
      code: .usage,
      message: "dbkey keyring needs an action: \(actions.joined(separator: ", ")) (dbkey keyring --help)"))
case "keyring" where ["--help", "-h"].contains(words[1]):
  Output.text(keyringHelp())
  exit(ExitCode.success.rawValue)
default:
  break
}
guard let (chosen, rest) = command(named: words) else {
  let name = words[0] == "keyring" && words.count > 1 ? "keyring \(words[1])" : words[0]
  fail(CommandError(code: .usage, message: "unknown command \(name) (dbkey --help lists them)"))
}
if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
  Output.text(chosen.help)
  exit(ExitCode.success.rawValue)
}
do {
  try chosen.run(try Arguments(rest, options: chosen.options))
} catch let error as CommandError {
  fail(error)
} catch {
  fail(ErrorMapping.commandError(error, path: nil))
}
