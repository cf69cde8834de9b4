import Dispatch
import Foundation
import Synchronization

/// A status line for a long operation, redrawn on standard error four times a
/// second when standard error is a terminal, and nothing at all otherwise
/// (scripts parse dbkey's output; a progress line would only get in the way).
///
/// Unchecked: the timer, the one member that is not `Sendable`, is set in
/// `init` and only cancelled afterwards; the fraction is behind a mutex.
final class TerminalProgress: @unchecked Sendable {
  private struct State {
    var fraction: Double?
    var finished = false
  }

  private let label: String
  private let started = Date()
  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "dbkey.progress")
  private let timer: (any DispatchSourceTimer)?

  /// Starts showing `label` (with the elapsed time, and the fraction once
  /// ``update(_:)`` gives one) if standard error is a terminal.
  init(_ label: String) {
    self.label = Output.escaped(label)
    guard isatty(2) == 1 else {
      timer = nil
      return
    }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    self.timer = timer
    timer.schedule(deadline: .now(), repeating: .milliseconds(250))
    timer.setEventHandler { [weak self] in self?.draw() }
    Interruption.setProgressLineShown(true)
    timer.resume()
  }

  /// The fraction done, from 0 to 1.
  func update(_ fraction: Double) {
    state.withLock { $0.fraction = min(max(fraction, 0), 1) }
  }

  /// Ends the line: with "done" after a success, erased after a failure.
  func finish(succeeded: Bool) {
    guard let timer else { return }
    timer.cancel()
    queue.sync {
      state.withLock { $0.finished = true }
      let seconds = Date().timeIntervalSince(started)
      write(succeeded ? "\r\u{1B}[K\(label): done in \(String(format: "%.1f", seconds)) s\n" : "\r\u{1B}[K")
      Interruption.setProgressLineShown(false)
    }
  }

  private func draw() {
    let (fraction, finished) = state.withLock { ($0.fraction, $0.finished) }
    guard !finished else { return }
    let seconds = Int(Date().timeIntervalSince(started))
    let percent = fraction.map { " \(Int($0 * 100))%" } ?? ""
    write("\r\u{1B}[K\(label)…\(percent) (\(seconds) s)")
  }

  private func write(_ text: String) {
    Output.write(text, to: 2)
  }

  /// Runs `body` with a status line for `label`, ended as `body` ends.
  static func run<T>(_ label: String, _ body: (TerminalProgress) throws -> T) rethrows -> T {
    let progress = TerminalProgress(label)
    do {
      let result = try body(progress)
      progress.finish(succeeded: true)
      return result
    } catch {
      progress.finish(succeeded: false)
      throw error
    }
  }
}
