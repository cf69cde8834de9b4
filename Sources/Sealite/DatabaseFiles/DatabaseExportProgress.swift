import Dispatch
import Foundation

/// How far ``DatabaseQueue/exportDatabase(atPath:key:cipher:to:destinationKey:overwrite:progress:cancellation:willPublish:)``
/// has come, in pages of the source database (the shape of GRDB's
/// `DatabaseBackupProgress`).
public struct DatabaseExportProgress: Sendable, Equatable {
  /// Pages written to the copy so far (an estimate from its size, at most
  /// ``totalPageCount`` until the copy is complete).
  public var completedPageCount: Int
  /// Pages of the source database.
  public var totalPageCount: Int
  /// Pages left to write.
  public var remainingPageCount: Int { max(0, totalPageCount - completedPageCount) }
  /// True once the copy is checked, synced and in place: the last report.
  public var isCompleted: Bool

  /// The fraction written, from 0 to 1.
  public var fractionCompleted: Double {
    totalPageCount == 0 ? (isCompleted ? 1 : 0) : Double(completedPageCount) / Double(totalPageCount)
  }
}

/// Reports the growth of the file an export writes, every 100 ms: the export
/// itself is one SQLCipher statement (`sqlcipher_export`) that tells nothing
/// while it runs.
final class ExportProgressSampler {
  private let timer: any DispatchSourceTimer
  private let queue: DispatchQueue

  init(
    path: String, pageSize: Int, totalPageCount: Int,
    report: @escaping @Sendable (DatabaseExportProgress) -> Void
  ) {
    let queue = DispatchQueue(label: "Sealite.exportProgress")
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now(), repeating: .milliseconds(100))
    timer.setEventHandler {
      var status = stat()
      let size = stat(path, &status) == 0 ? Int(status.st_size) : 0
      // The copy's last pages (and the final size) come at commit: stay below
      // the total until the export reports completion.
      let pages = min(size / max(pageSize, 1), max(totalPageCount - 1, 0))
      report(
        DatabaseExportProgress(completedPageCount: pages, totalPageCount: totalPageCount, isCompleted: false))
    }
    timer.resume()
    self.timer = timer
    self.queue = queue
  }

  /// Stops the reports; none arrives once this returns.
  func stop() {
    timer.cancel()
    // Wait for a report in flight: cancel does not.
    queue.sync {}
  }
}
