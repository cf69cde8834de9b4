import Foundation
import Sealite
import Synchronization

/// A child process whose output is read while it runs, on pipes or on a
/// pseudo-terminal.
///
/// Waits are driven by the child's output, not by polling: a reading thread
/// resumes each waiter the moment its text arrives or the process exits, and
/// a timer resumes it with nothing only if neither happened in time. Polling
/// from the test's task could miss a line that did arrive, when the
/// cooperative pool was too busy with other tests to wake the poll before
/// its deadline.
final class SpawnedProcess: Sendable {
  private struct Waiter {
    let match: @Sendable (State) -> String?
    let continuation: CheckedContinuation<String?, Never>
  }

  private struct State {
    var text = ""
    var lines: [String] = []
    var errorText = ""
    var exitStatus: Int32?
    var waiters: [UUID: Waiter] = [:]
    var exitWaiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]
    var lineActions: [UUID: (line: String, action: @Sendable () -> Void)] = [:]
    var textActions: [UUID: (fragment: String, action: @Sendable () -> Void)] = [:]
  }

  private let process: Process
  private let state = Locked(State())
  /// Where `send(_:)` writes: the terminal's master side, or nothing.
  private let terminal: FileHandle?

  /// Starts `executable` on pipes; `input` goes to its standard input, which is then closed.
  convenience init(_ executable: String, _ arguments: [String], input: String) throws {
    try self.init(executable, arguments, input: input, onTerminal: false)
  }

  /// Starts `executable` with a new pseudo-terminal as its standard input,
  /// output and error, as a user's shell would; ``send(_:)`` types on it.
  static func onTerminal(_ executable: String, _ arguments: [String]) throws -> SpawnedProcess {
    try SpawnedProcess(executable, arguments, input: nil, onTerminal: true)
  }

  private init(_ executable: String, _ arguments: [String], input: String?, onTerminal: Bool) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let outputHandle: FileHandle
    let errorHandle: FileHandle?
    if onTerminal {
      // posix_openpt, unlockpt and ptsname, by hand (Glibc's module lacks them):
      // unlock the new terminal, then ask for its number.
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      var unlock: CInt = 0
      var number: CUnsignedInt = 0
      let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK
      let numberRequest: UInt = 0x8004_5430  // TIOCGPTN
      guard master >= 0, ioctl(master, unlockRequest, &unlock) == 0,
        ioctl(master, numberRequest, &number) == 0
      else {
        throw POSIXError(.EIO)
      }
      let name = "/dev/pts/\(number)"
      // Close-on-exec, so that no other child spawned meanwhile keeps the terminal
      // open (the child's own copies, made by dup2, stay open).
      let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard slave >= 0 else { throw POSIXError(.EIO) }
      let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
      process.standardInput = handle
      process.standardOutput = handle
      process.standardError = handle
      self.process = process
      try runUnmasked(process)
      // Only the child holds the terminal now: the master reads EIO once it exits.
      close(slave)
      outputHandle = FileHandle(fileDescriptor: master, closeOnDealloc: true)
      terminal = outputHandle
      errorHandle = nil
    } else {
      let out = Pipe()
      let err = Pipe()
      let inPipe = Pipe()
      process.standardOutput = out
      process.standardError = err
      process.standardInput = inPipe
      self.process = process
      try runUnmasked(process)
      inPipe.fileHandleForWriting.write(Data((input ?? "").utf8))
      try inPipe.fileHandleForWriting.close()
      outputHandle = out.fileHandleForReading
      errorHandle = err.fileHandleForReading
      terminal = nil
    }
    let state = state
    Thread.detachNewThread {
      let outputDescriptor = outputHandle.fileDescriptor
      var buffer = [UInt8](repeating: 0, count: 4096)
      var pending = Data()
      while true {
        let count = read(outputDescriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        pending.append(contentsOf: buffer[0..<count])
        let resumed = state.withLock { state -> [(CheckedContinuation<String?, Never>, String)] in
          state.text += String(decoding: buffer[0..<count], as: UTF8.self)
          var resumed: [(CheckedContinuation<String?, Never>, String)] = []
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            pending.removeSubrange(pending.startIndex...newline)
            state.lines.append(line)
            for (id, entry) in state.lineActions where entry.line == line {
              state.lineActions[id] = nil
              entry.action()
            }
          }
          for (id, entry) in state.textActions where state.text.contains(entry.fragment) {
            state.textActions[id] = nil
            entry.action()
          }
          for (id, waiter) in state.waiters {
            if let found = waiter.match(state) {
              resumed.append((waiter.continuation, found))
              state.waiters[id] = nil
            }
          }
          return resumed
        }
        for (continuation, found) in resumed { continuation.resume(returning: found) }
      }
      let errorText = errorHandle.map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
      process.waitUntilExit()
      let status = process.terminationStatus
      let (waiters, exitWaiters) = state.withLock { state in
        state.errorText = errorText
        state.exitStatus = status
        defer {
          state.waiters = [:]
          state.exitWaiters = [:]
        }
        return (state.waiters.values.map(\.continuation), Array(state.exitWaiters.values))
      }
      for continuation in waiters { continuation.resume(returning: nil) }
      for continuation in exitWaiters { continuation.resume(returning: status) }
    }
  }

  /// The lines printed so far (on a terminal, without the terminal's carriage returns).
  var output: [String] { state.value.lines }

  /// Everything printed so far, as it came.
  var text: String { state.value.text }

  /// What the process printed on standard error (complete once it exited; on
  /// a terminal, standard error is part of ``text``).
  var errorOutput: String { state.value.errorText }

  /// The process's identifier.
  var processIdentifier: Int32 { process.processIdentifier }

  /// The master side of the process's terminal (its settings are the
  /// terminal's), for a process started ``onTerminal(_:_:)``.
  var terminalDescriptor: Int32? { terminal?.fileDescriptor }

  /// Types `text` on the terminal (only for a process started ``onTerminal(_:_:)``).
  func send(_ text: String) {
    guard let terminal else { preconditionFailure("send(_:) needs a process on a terminal") }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(terminal.fileDescriptor, $0.baseAddress, $0.count) }
  }

  /// Waits until a line starting with `prefix` was printed and returns it;
  /// nil if the process exits without printing one, or after `timeout` seconds.
  func waitForLine(startingWith prefix: String, timeout: TimeInterval = 60) async -> String? {
    await wait(timeout: timeout) { state in state.lines.first { $0.hasPrefix(prefix) } }
  }

  /// Waits until the output holds `fragment` (a prompt, say, which ends no
  /// line) after its first `offset` characters; returns the output from
  /// `offset` up to it, or nil as ``waitForLine(startingWith:timeout:)``.
  func waitForText(_ fragment: String, after offset: Int = 0, timeout: TimeInterval = 60) async -> String? {
    await wait(timeout: timeout) { state in
      let text = state.text.dropFirst(offset)
      return text.range(of: fragment).map { String(text[..<$0.upperBound]) }
    }
  }

  private func wait(timeout: TimeInterval, _ match: @escaping @Sendable (State) -> String?) async -> String? {
    let id = UUID()
    return await withCheckedContinuation { continuation in
      let immediate: String?? = state.withLock { state in
        if let found = match(state) { return .some(found) }
        if state.exitStatus != nil { return .some(nil) }
        state.waiters[id] = Waiter(match: match, continuation: continuation)
        return nil
      }
      if let immediate {
        continuation.resume(returning: immediate)
        return
      }
      let state = state
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: nil)
      }
    }
  }

  /// Waits for the process to exit and returns its status; after `timeout`
  /// seconds, returns nil, and first terminates it if `terminating` (else the
  /// caller can still look at it, and kills it).
  func waitForExit(timeout: TimeInterval = 120, terminating: Bool = true) async -> Int32? {
    let id = UUID()
    return await withCheckedContinuation { continuation in
      let status: Int32? = state.withLock { state in
        if let status = state.exitStatus { return status }
        state.exitWaiters[id] = continuation
        return nil
      }
      if let status {
        continuation.resume(returning: status)
        return
      }
      let state = state
      let process = process
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        guard let waiter = state.withLock({ $0.exitWaiters.removeValue(forKey: id) }) else { return }
        if terminating { process.terminate() }
        waiter.resume(returning: nil)
      }
    }
  }

  /// What each thread of the running process is doing, as the kernel tells
  /// (`/proc/PID/task/TID`: its name, the kernel function it waits in, and
  /// its system call with arguments): where a process that should have exited
  /// is stuck, for the message of a test that timed out waiting for it.
  func threadStates() -> String {
    let task = "/proc/\(process.processIdentifier)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: task) else {
      return "(no threads: the process is gone)"
    }
    func read(_ path: String) -> String {
      ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "?").trimmingCharacters(
        in: .whitespacesAndNewlines)
    }
    return threads.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { thread in
      let path = "\(task)/\(thread)"
      return
        "\(thread) \(read(path + "/comm")): wchan \(read(path + "/wchan")), syscall \(read(path + "/syscall"))"
    }.joined(separator: "; ")
  }

  /// Sends `signal` to the process (SIGKILL: it dies at once, wherever it is).
  func kill(_ signal: Int32 = SIGKILL) {
    _ = Glibc.kill(process.processIdentifier, signal)
  }

  /// Sends SIGKILL `delay` after the process printed the line `line`, from the
  /// thread that reads its output: the moment depends on the child alone, never
  /// on when the test's task gets a thread.
  func kill(afterLine line: String, delay: DispatchTimeInterval) {
    let id = UUID()
    let state = state
    let process = process
    let fire: @Sendable () -> Void = {
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
      }
    }
    let matched = state.withLock { state -> Bool in
      if state.lines.contains(line) { return true }
      state.lineActions[id] = (line, fire)
      return false
    }
    if matched { fire() }
  }

  /// Sends `signal` as soon as the output holds `fragment` (a status line, a
  /// prompt: text that ends no line), from the thread that reads the output.
  func kill(_ signal: Int32, afterText fragment: String) {
    let id = UUID()
    let process = process
    let fire: @Sendable () -> Void = {
      if process.isRunning { _ = Glibc.kill(process.processIdentifier, signal) }
    }
    let matched = state.withLock { state -> Bool in
      if state.text.contains(fragment) { return true }
      state.textActions[id] = (fragment, fire)
      return false
    }
    if matched { fire() }
  }

  /// The integer after `name ` in the output, if printed.
  func value(_ name: String) -> Int? {
    output.first { $0.hasPrefix(name + " ") }.flatMap { Int($0.dropFirst(name.count + 1)) }
  }

  deinit {
    if process.isRunning { process.terminate() }
  }
}

/// The `sealite-watch` helper, built next to the test bundle.
var sealiteWatchPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("sealite-watch").path
}
