/// The exit codes of dbkey, listed in `dbkey --help` and in SECURITY.md. Each
/// says what to do next; none invites a retry that could not help.
enum ExitCode: Int32, CaseIterable {
  case success = 0
  /// Bad command line.
  case usage = 64
  /// The key does not open the database, or the file is not what the command expects.
  case cannotOpen = 65
  /// The database file or the keyring item does not exist.
  case notFound = 66
  /// The keyring can not be reached, or is locked.
  case keyringUnavailable = 69
  /// A bug.
  case failure = 70
  /// The output can not be created or written.
  case cannotCreateOutput = 73
  /// An input/output error of the file system.
  case ioError = 74
  /// Busy: try again later.
  case busy = 75
  /// The database is damaged or was tampered with.
  case damaged = 76
  /// Refused: the command would lose a key that may still be needed.
  case refused = 77
  /// Interrupted by SIGHUP, SIGINT, SIGQUIT or SIGTERM (128 + the signal).
  case hangup = 129
  case interrupted = 130
  case quit = 131
  case terminated = 143

  /// The conditions that end dbkey with this code, for `dbkey --help`.
  var meaning: String {
    switch self {
    case .success: "success (also when standard output was closed early, as by `| head`)"
    case .usage:
      "bad command line: unknown command or option, missing or extra argument, a malformed key, "
        + "two passphrases that differ, --passphrase without a terminal"
    case .cannotOpen:
      "the key does not open the database (wrong key or cipher settings), a key was given for a "
        + "plaintext file or none for an encrypted one, the file is empty or not a database, or a "
        + "crash left a transaction that only `dbkey recover` can roll back"
    case .notFound: "the database file, or its key in the keyring, does not exist"
    case .keyringUnavailable:
      "the keyring can not be used: no D-Bus session bus, no Secret Service, a locked collection"
    case .failure: "an unexpected failure (a bug: please report it)"
    case .cannotCreateOutput:
      "the output exists (use --force), is a symbolic link or a directory, or can not be written: "
        + "a missing or read-only directory, a read-only file, a full disk"
    case .ioError: "the file system reported an input/output error"
    case .busy:
      "another connection holds the database locked, or another key operation on it is in "
        + "progress: try again once it ends"
    case .damaged:
      "the database is truncated, damaged or was tampered with (verify names the pages)"
    case .refused:
      "refused: it would drop a key that may still be needed (the only copy of a database's key, "
        + "the key of a database that was moved); --force overrides where the command has it"
    case .hangup: "interrupted by SIGHUP before anything was changed"
    case .interrupted: "interrupted by SIGINT (Ctrl-C) before anything was changed"
    case .quit: "interrupted by SIGQUIT before anything was changed"
    case .terminated: "interrupted by SIGTERM before anything was changed"
    }
  }

  /// The code of an interruption by `signal`.
  static func interruption(by signal: Int32) -> ExitCode {
    ExitCode(rawValue: 128 + signal) ?? .interrupted
  }
}

/// An error that ends dbkey with a message and an exit code.
struct CommandError: Error {
  let code: ExitCode
  let message: String
}
