import Foundation
import Synchronization

@testable import Sealite

/// A child process whose standard output is read line by line while it runs.
final class SpawnedProcess: Sendable {
  private let process: Process
  private let lines = Locked<[String]>([])
  private let errors = Locked<String>("")
  private let ended = Locked(false)

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
    let lines = lines
    let errors = errors
    let ended = ended
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
          lines.withLock { $0.append(line) }
        }
      }
      let errorText = String(decoding: errHandle.readDataToEndOfFile(), as: UTF8.self)
      errors.withLock { $0 = errorText }
      ended.withLock { $0 = true }
    }
  }

  /// The lines printed so far.
  var output: [String] { lines.value }

  /// What the process printed on standard error (complete once it exited).
  var errorOutput: String { errors.value }

  /// Waits until a line starting with `prefix` was printed; returns it.
  func waitForLine(startingWith prefix: String, timeout: TimeInterval = 30) async -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let line = lines.value.first(where: { $0.hasPrefix(prefix) }) { return line }
      if hasEnded { return lines.value.first(where: { $0.hasPrefix(prefix) }) }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return nil
  }

  /// Waits for the process to exit; returns its status, or nil (and kills it)
  /// after `timeout` seconds.
  func waitForExit(timeout: TimeInterval = 60) async -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while !hasEnded {
      guard Date() < deadline else {
        process.terminate()
        return nil
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// True once the process closed its output and exited.
  private var hasEnded: Bool { ended.value && !process.isRunning }

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
