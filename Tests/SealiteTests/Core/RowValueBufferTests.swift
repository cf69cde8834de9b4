import Foundation
import Sealite
import Synchronization
import Testing

// Rows keep their values in shared buffers (one per 1,024 values of a
// fetchAll, one per row otherwise), and a buffer destroys its values when its
// last row goes. A buffer that freed its memory without destroying them would
// leak every text and blob it held, silently: a blob whose bytes tell when
// they are freed shows it.

/// Counts the frees of the blobs made by ``blob(_:)``.
private final class FreeCount: Sendable {
  let value = Mutex(0)
}

/// A blob of `byteCount` bytes (more than `Data` stores inline) whose
/// deallocator counts in `frees`.
private func blob(_ frees: FreeCount, byteCount: Int = 4_096) -> Data {
  let bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
  bytes.initializeMemory(as: UInt8.self, repeating: 7, count: byteCount)
  return Data(
    bytesNoCopy: bytes, count: byteCount,
    deallocator: .custom { pointer, _ in
      pointer.deallocate()
      frees.value.withLock { $0 += 1 }
    })
}

@Suite("Row value buffers")
struct RowValueBufferTests {
  @Test("a row's blob is freed with the last row that holds it, and not before")
  func blobFreedWithRow() {
    let frees = FreeCount()
    var row: Row? = Row(["id": 1, "payload": blob(frees)])
    var copy: Row? = row?.copy()
    #expect(frees.value.withLock { $0 } == 0, "the row holds its blob")
    // Read in the expression, not kept: a kept `Data` would hold the blob.
    #expect(copy?["payload"] as Data? == Data(repeating: 7, count: 4_096))
    row = nil
    #expect(frees.value.withLock { $0 } == 0, "the copy holds the blob")
    copy = nil
    #expect(frees.value.withLock { $0 } == 1, "the blob is freed with the last row")
  }
}
