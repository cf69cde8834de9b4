import Foundation

/// Asks for a passphrase on the terminal, with echo off.
///
/// The terminal is standard input when that is one, else the controlling
/// terminal (`/dev/tty`), so `dbkey … --passphrase < file` still asks on the
/// terminal. Echo is turned off before the prompt is shown, so nothing typed
/// after the prompt appears, and restored afterwards — also when a signal ends
/// dbkey while it waits (see ``Interruption``).
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

  /// Asks a yes-or-no question on the terminal (echo on); nil when there is no
  /// terminal to ask on.
  static func confirm(_ question: String) -> Bool? {
    guard let terminal = try? Terminal.open(fdOption: "") else { return nil }
    defer { terminal.close() }
    guard var answer = try? terminal.ask(question) else { return false }
    defer { KeySource.wipe(&answer) }
    return String(decoding: answer, as: UTF8.self).lowercased() == "yes"
  }
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
    return try Interruption.prompting(terminal: input, saved: saved) {
      defer { tcsetattr(input, TCSANOW, &saved) }
      // TCSAFLUSH also drops whatever was typed before echo went off: it was shown.
      guard tcsetattr(input, TCSAFLUSH, &quiet) == 0 else {
        throw CommandError(code: .failure, message: "could not turn the terminal's echo off")
      }
      return try body()
    }
  }

  /// Shows `prompt` (escaped: a file name in it can not rewrite the screen)
  /// and reads one line.
  func ask(_ prompt: String) throws -> [UInt8] {
    Output.write(Output.escaped(prompt), to: output)
    return try KeySource.readLine(from: input) {
      CommandError(code: .usage, message: "could not read the terminal: \($0)")
    }
  }
}
