import Foundation

/// Asks for a passphrase on the terminal, with echo off.
///
/// The terminal is standard input when that is one, else the controlling
/// terminal (`/dev/tty`), so `dbkey … --passphrase < file` still asks on the
/// terminal. Echo is turned off before the prompt is shown, so nothing typed
/// after the prompt appears, and restored afterwards, also when an interrupt
/// ends dbkey while it waits.
enum TerminalPrompt {
  /// Shows `prompt`, reads one line with echo off, and returns its bytes. With
  /// `confirm`, asks again and fails unless both lines are the same.
  static func passphrase(_ prompt: String, confirm: Bool, fdOption: String) throws -> [UInt8] {
    let terminal = try Terminal.open(fdOption: fdOption)
    defer { terminal.close() }
    return try terminal.withEchoOff {
      var first = try terminal.ask(prompt)
      guard !first.isEmpty else {
        KeySource.wipe(&first)
        throw CommandError(code: .usage, message: "the passphrase is empty")
      }
      guard confirm else { return first }
      var second = try terminal.ask("Repeat it: ")
      defer { KeySource.wipe(&second) }
      guard first == second else {
        KeySource.wipe(&first)
        throw CommandError(code: .usage, message: "the two passphrases differ: nothing was changed")
      }
      return first
    }
  }
}

/// The state a signal handler needs to give the terminal its echo back: a C
/// handler can capture nothing, so it lives in globals, set only while echo is off.
nonisolated(unsafe) private var echoTerminal: Int32 = -1
/// The settings to restore, in memory allocated for a `termios`: Swift 6.3 emits a
/// statically initialized global of an imported C struct without the struct's
/// inner padding (57 bytes for `termios`'s 60), so storing a `termios` into a
/// global wrote 3 bytes past its end (AddressSanitizer: global-buffer-overflow).
/// Allocated at the first prompt, before any signal handler can read it.
nonisolated(unsafe) private let echoSettings: UnsafeMutablePointer<termios> = {
  let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  settings.initialize(to: termios())
  return settings
}()

/// Restores the terminal settings, then dies of the signal as it would have.
private func restoreEchoAndReraise(_ signal: Int32) {
  if echoTerminal >= 0 { tcsetattr(echoTerminal, TCSANOW, echoSettings) }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}

/// A terminal to prompt on: where to read, and where to show the prompt.
private struct Terminal {
  let input: Int32
  let output: Int32
  let ownsDescriptor: Bool

  static func open(fdOption: String) throws -> Terminal {
    if isatty(0) == 1 {
      return Terminal(input: 0, output: isatty(2) == 1 ? 2 : 0, ownsDescriptor: false)
    }
    let descriptor = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw CommandError(
        code: .usage,
        message: "there is no terminal to type the passphrase on: give it on a descriptor with \(fdOption) N")
    }
    return Terminal(input: descriptor, output: descriptor, ownsDescriptor: true)
  }

  func close() {
    if ownsDescriptor { _ = Glibc.close(input) }
  }

  /// Runs `body` with echo off (the newline that ends a line is still echoed,
  /// so the next output starts on a line of its own).
  func withEchoOff<T>(_ body: () throws -> T) throws -> T {
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else {
      throw CommandError(code: .failure, message: "could not read the terminal settings")
    }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL | ICANON)
    echoSettings.pointee = saved
    echoTerminal = input
    let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    for signal in signals { Glibc.signal(signal, restoreEchoAndReraise) }
    defer {
      tcsetattr(input, TCSANOW, &saved)
      echoTerminal = -1
      for signal in signals { Glibc.signal(signal, SIG_DFL) }
    }
    // TCSAFLUSH also drops whatever was typed before echo went off: it was shown.
    guard tcsetattr(input, TCSAFLUSH, &quiet) == 0 else {
      throw CommandError(code: .failure, message: "could not turn the terminal's echo off")
    }
    return try body()
  }

  /// Shows `prompt` and reads one line.
  func ask(_ prompt: String) throws -> [UInt8] {
    let bytes = Array(prompt.utf8)
    _ = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
    return try KeySource.readLine(from: input)
  }
}
