// dbkey: key management for Sealite databases. Every command is a thin shell
// over library calls a program could make too. Secrets come from file
// descriptors (--key-fd, --passphrase-fd, …) or the keyring, never from the
// command line or the environment.

import Foundation

func help() -> String {
  var lines = ["usage: dbkey COMMAND [ARGUMENTS]", "", "commands:"]
  for command in commands {
    lines.append("  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary)
  }
  lines += [
    "",
    "dbkey COMMAND --help shows the usage of one command.",
    "",
    "Keys: --key-fd N reads a raw key (64 hex digits, or 96 with a salt) from file descriptor N;",
    "--passphrase-fd N reads a passphrase (its first line); --passphrase asks for it on the terminal,",
    "with echo off (twice for a new one). Keys are never taken from arguments or the environment.",
    "",
    "exit codes:",
  ]
  for code in ExitCode.allCases {
    lines.append(
      "  " + String(code.rawValue).padding(toLength: 5, withPad: " ", startingAt: 0) + code.meaning)
  }
  return lines.joined(separator: "\n")
}

func fail(_ error: CommandError) -> Never {
  FileHandle.standardError.write(Data("dbkey: \(oneLine(error.message))\n".utf8))
  exit(error.code.rawValue)
}

/// The message on one line, safe to show on a terminal: control characters and
/// line separators (from a mistyped argument or an odd file name the message
/// quotes) are written as escapes, such as `\n` or `\u{1B}`.
func oneLine(_ message: String) -> String {
  var result = ""
  for scalar in message.unicodeScalars {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: result += scalar.escaped(asASCII: true)
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
  FileHandle.standardError.write(Data((help() + "\n").utf8))
  exit(ExitCode.usage.rawValue)
}
arguments.removeFirst()
if name == "--help" || name == "-h" || name == "help" {
  output(help())
  exit(ExitCode.success.rawValue)
}
guard let command = commands.first(where: { $0.name == name }) else {
  fail(CommandError(code: .usage, message: "unknown command \(name) (dbkey --help lists them)"))
}
if arguments.contains("--help") || arguments.contains("-h") {
  output("usage: \(command.usage)\n\n\(command.summary)")
  exit(ExitCode.success.rawValue)
}
do {
  let parsed = try Arguments(arguments, flags: command.flags, options: command.options)
  try command.run(parsed)
} catch let error as CommandError {
  fail(error)
} catch {
  fail(commandError(error, path: nil))
}
