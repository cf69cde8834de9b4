import Foundation
import Sealite
import Synchronization

/// What dbkey does on SIGINT, SIGTERM, SIGHUP and SIGQUIT: never leave a
/// database, a keyring item or the terminal half-changed.
///
/// - While nothing is being changed, dbkey exits at once (128 + the signal).
///   It decides and exits holding the phase's lock: the main thread can not
///   begin a change (``working(_:)`` takes that lock first) after the decision
///   and before the exit, which would leave its first files behind.
/// - While it asks for a passphrase (echo off), it gives the terminal its
///   settings back first.
/// - While it changes something (``working(_:)``), it cancels the operation:
///   the library stops it at its next safe point and undoes what it did, and
///   dbkey exits 128 + the signal, with nothing changed. An operation already
///   past its commit point (the rename of a new file, the transaction that
///   re-encrypts) completes instead, and dbkey says so.
///
/// The handler only writes the signal's number to a pipe; a thread of its own
/// reads it, so that everything above runs outside signal context.
enum Interruption {
  private enum Phase: Sendable {
    case idle
    case prompting(terminal: Int32)
    case working(OperationCancellation)
    /// The change is made: a signal now can not undo it, and must not exit
    /// with an "interrupted" status while dbkey prints what it did.
    case completed
  }

  private struct State: Sendable {
    var phase = Phase.idle
    /// The first signal received while working.
    var signal: Int32?
    var isProgressLineShown = false
  }

  private static let state = Mutex(State())

  /// Installs the handlers and starts the thread that acts on them.
  static func install() {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    signalPipeWriter = descriptors[1]
    let reader = descriptors[0]
    Thread.detachNewThread {
      var byte: UInt8 = 0
      while true {
        let count = read(reader, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return }
        handle(Int32(byte))
      }
    }
    // A mask inherited from the parent (a thread that blocked signals, as test
    // runners and some service managers have) would keep every signal pending.
    var nothing = sigset_t()
    sigemptyset(&nothing)
    pthread_sigmask(SIG_SETMASK, &nothing, nil)
    // signal() installs with SA_RESTART: no other call of dbkey sees EINTR.
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      let previous = Glibc.signal(signal) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = Glibc.write(signalPipeWriter, &byte, 1)
      }
      // A signal ignored when dbkey started (nohup, a shell's background job)
      // stays ignored. (SIG_IGN is the handler 1.)
      if let previous, unsafeBitCast(previous, to: Int.self) == 1 {
        _ = Glibc.signal(signal, SIG_IGN)
      }
    }
  }

  /// Runs `body`, which changes files or keyring items; a signal cancels the
  /// cancellation it is given. Throws the interruption's error (exit 128 + the
  /// signal) when the operation stopped because of a signal.
  static func working<T>(_ body: (OperationCancellation) throws -> T) throws -> T {
    let cancellation = OperationCancellation()
    state.withLock { $0.phase = .working(cancellation) }
    do {
      let result = try body(cancellation)
      let signal = state.withLock { state -> Int32? in
        state.phase = .completed
        return state.signal
      }
      if let signal {
        Output.error(
          "\(signalName(signal)) came once the change was made: it is complete",
          code: ExitCode.success.rawValue)
      }
      return result
    } catch {
      state.withLock { $0.phase = .idle }
      // Only a cancellation is an interruption that changed nothing; any other
      // error says what it says (it may come after the commit point).
      guard let signal = state.withLock({ $0.signal }), isCancellation(error) else { throw error }
      throw CommandError(
        code: .interruption(by: signal), message: "interrupted by \(signalName(signal)): nothing was changed")
    }
  }

  private static func isCancellation(_ error: any Error) -> Bool {
    switch error {
    case let error as DatabaseError: error.resultCode == .SQLITE_INTERRUPT
    case let error as CommandError: error.code == .interrupted
    default: false
    }
  }

  /// Runs `body` with the terminal's echo off (`saved` are the settings to give
  /// back): a signal restores them before dbkey exits.
  static func prompting<T>(terminal: Int32, saved: termios, _ body: () throws -> T) rethrows -> T {
    echoSettings.pointee = saved
    let previous = state.withLock { state -> Phase in
      defer { state.phase = .prompting(terminal: terminal) }
      return state.phase
    }
    defer { state.withLock { $0.phase = previous } }
    return try body()
  }

  /// Tells whether a progress line is on the terminal (erased on exit).
  static func setProgressLineShown(_ shown: Bool) {
    state.withLock { $0.isProgressLineShown = shown }
  }

  private static func handle(_ signal: Int32) {
    let cancellation = state.withLock { state -> OperationCancellation? in
      switch state.phase {
      case .idle:
        // Exits holding the lock: see the type's comment.
        exitInterrupted(by: signal, erasingProgressLine: state.isProgressLineShown)
      case .prompting(let terminal):
        tcsetattr(terminal, TCSANOW, echoSettings)
        // The typed line was not ended: the message starts on a line of its own.
        Output.write("\n", to: terminal)
        exitInterrupted(by: signal, erasingProgressLine: false)
      case .working(let cancellation):
        guard state.signal == nil else { return nil }
        state.signal = signal
        return cancellation
      case .completed:
        // dbkey finishes printing what it did, and exits with its success.
        return nil
      }
    }
    cancellation?.cancel()
  }

  /// Says that `signal` interrupted dbkey, and exits 128 + the signal.
  private static func exitInterrupted(by signal: Int32, erasingProgressLine: Bool) -> Never {
    if erasingProgressLine { Output.write("\r\u{1B}[K", to: 2) }
    let code = ExitCode.interruption(by: signal)
    Output.error("interrupted by \(signalName(signal))", code: code.rawValue)
    _exit(code.rawValue)
  }

  static func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    case SIGQUIT: "SIGQUIT"
    default: "signal \(signal)"
    }
  }
}

/// Where the signal handler writes: a C handler can capture nothing. Set once,
/// before any handler is installed.
nonisolated(unsafe) private var signalPipeWriter: Int32 = -1

/// The terminal settings to restore, in memory allocated for a `termios`:
/// Swift 6.3 emits a statically initialized global of an imported C struct
/// without the struct's inner padding (57 bytes for `termios`'s 60), so storing
/// a `termios` into a global wrote 3 bytes past its end (AddressSanitizer:
/// global-buffer-overflow). Written only before the phase says "prompting".
nonisolated(unsafe) private let echoSettings: UnsafeMutablePointer<termios> = {
  let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  settings.initialize(to: termios())
  return settings
}()
