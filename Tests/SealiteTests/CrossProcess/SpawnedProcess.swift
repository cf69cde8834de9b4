import Foundation
import Synchronization

@testable import Sealite

/// A child process whose standard output is read line by line while it runs.
///
/// Waits are driven by the child's output, not by polling: a reading thread
/// resumes each waiter the moment its line arrives or the process exits, and
/// a timer resumes it with nothing only if neither happened in time. Polling
/// from the test's task could miss a line that did arrive, when the
/// cooperative pool was too busy with other tests to wake the poll before
/// its deadline.
final class SpawnedProcess: Sendable {
  private struct State {
    var lines: [String] = []
    var errorText = ""
    var exitStatus: Int32?
    var lineWaiters: [UUID: (prefix: String, continuation: CheckedContinuation<String?, Never>)] = [:]
    var exitWaiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]
  }

  private let process: Process
  private let state = Locked(State())

  /// Starts `executable`; `input` goes to its standard input, which is then closed.
  init(_ executable: String, _ arguments: [String], input: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    self.process = process
    try process.run()
    inPipe.fileHandleForWriting.write(Data(input.utf8))
    try inPipe.fileHandleForWriting.close()
    let state = state
    let outHandle = out.fileHandleForReading
    let errHandle = err.fileHandleForReading
    Thread.detachNewThread {
      var buffer = Data()
      while true {
        let chunk = outHandle.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
          buffer.removeSubrange(buffer.startIndex...newline)
          let matched = state.withLock { state in
            state.lines.append(line)
            let ids = state.lineWaiters.filter { line.hasPrefix($0.value.prefix) }.map(\.key)
            return ids.compactMap { state.lineWaiters.removeValue(forKey: $0)?.continuation }
          }
          for continuation in matched { continuation.resume(returning: line) }
        }
      }
      let errorText = String(decoding: errHandle.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let status = process.terminationStatus
      let (lineWaiters, exitWaiters) = state.withLock { state in
        state.errorText = errorText
        state.exitStatus = status
        defer {
          state.lineWaiters = [:]
          state.exitWaiters = [:]
        }
        return (state.lineWaiters.values.map(\.continuation), Array(state.exitWaiters.values))
      }
      for continuation in lineWaiters { continuation.resume(returning: nil) }
      for continuation in exitWaiters { continuation.resume(returning: status) }
    }
  }

  /// The lines printed so far.
  var output: [String] { state.value.lines }

  /// What the process printed on standard error (complete once it exited).
  var errorOutput: String { state.value.errorText }

  /// Waits until a line starting with `prefix` was printed and returns it;
  /// nil if the process exits without printing one, or after `timeout` seconds.
  func waitForLine(startingWith prefix: String, timeout: TimeInterval = 60) async -> String? {
    let id = UUID()
    return await withCheckedContinuation { continuation in
      let immediate: String?? = state.withLock { state in
        if let line = state.lines.first(where: { $0.hasPrefix(prefix) }) { return .some(line) }
        if state.exitStatus != nil { return .some(nil) }
        state.lineWaiters[id] = (prefix, continuation)
        return nil
      }
      if let immediate {
        continuation.resume(returning: immediate)
        return
      }
      let state = state
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        state.withLock { $0.lineWaiters.removeValue(forKey: id) }?.continuation.resume(returning: nil)
      }
    }
  }

  /// Waits for the process to exit and returns its status; after `timeout`
  /// seconds, kills it and returns nil.
  func waitForExit(timeout: TimeInterval = 120) async -> Int32? {
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
        process.terminate()
        waiter.resume(returning: nil)
      }
    }
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
