import Foundation

/// Finds WAL frames that SQLite ignores although committed frames follow them.
///
/// SQLite reads a WAL up to the first frame whose checksum fails, and takes
/// that frame for the torn end of an interrupted write: it and every frame
/// after it are dropped, so readers see the database as it was before that
/// frame's transaction, without an error. A crash can only tear the frames of
/// the last transaction. A failing frame that is followed by intact frames of
/// the same log up to a commit (their checksums chain on from the failing
/// frame's) was changed after it was written: tampering or damage, which
/// loses committed transactions. Page contents are not read: their
/// authentication is SQLCipher's (a WAL frame's page is checked when read).
enum WALFrameCheck {
  /// Messages for such frames of the WAL of the database at `path`; empty
  /// when there is no WAL, or when SQLite reads all of it that was committed.
  static func problems(databasePath path: String) -> [String] {
    guard let wal = FileManager.default.contents(atPath: path + "-wal"), wal.count >= 32 else { return [] }
    let bytes = [UInt8](wal)
    let magic = word(bytes, 0, bigEndian: true)
    guard magic & ~1 == 0x377f_0682, word(bytes, 4, bigEndian: true) == 3_007_000 else {
      return ["the WAL header is damaged: SQLite ignores the whole WAL (\(bytes.count) bytes)"]
    }
    let bigEndian = magic & 1 == 1
    let headerPageSize = Int(word(bytes, 8, bigEndian: true))
    let pageSize = headerPageSize == 1 ? 65536 : headerPageSize
    let frameSize = 24 + pageSize
    let frameCount = (bytes.count - 32) / frameSize
    let salts = (word(bytes, 16, bigEndian: true), word(bytes, 20, bigEndian: true))
    let headerSums = checksum(bytes, 0..<24, from: (0, 0), bigEndian: bigEndian)
    guard headerSums == (word(bytes, 24, bigEndian: true), word(bytes, 28, bigEndian: true)) else {
      return frameCount == 0
        ? [] : ["the WAL header fails its checksum: SQLite ignores the whole WAL (\(frameCount) frames)"]
    }

    /// The checksums of frame `index` if it belongs to this log and its
    /// checksum, chained on from `previous`, matches; nil otherwise.
    func validSums(_ index: Int, after previous: (UInt32, UInt32)) -> (UInt32, UInt32)? {
      let offset = 32 + index * frameSize
      guard word(bytes, offset, bigEndian: true) != 0,
        (word(bytes, offset + 8, bigEndian: true), word(bytes, offset + 12, bigEndian: true)) == salts
      else { return nil }
      var sums = checksum(bytes, offset..<offset + 8, from: previous, bigEndian: bigEndian)
      sums = checksum(bytes, offset + 24..<offset + frameSize, from: sums, bigEndian: bigEndian)
      return sums == stored(index) ? sums : nil
    }
    func stored(_ index: Int) -> (UInt32, UInt32) {
      let offset = 32 + index * frameSize
      return (word(bytes, offset + 16, bigEndian: true), word(bytes, offset + 20, bigEndian: true))
    }

    var sums = headerSums
    var index = 0
    var committedCount = 0
    while index < frameCount, let next = validSums(index, after: sums) {
      sums = next
      index += 1
      if word(bytes, 32 + (index - 1) * frameSize + 4, bigEndian: true) != 0 { committedCount = index }
    }
    let failing = index
    // The first 16 bytes of page 1 (an encrypted database's salt) are neither
    // encrypted nor authenticated, and a checkpoint copies frames into the
    // file as they are: a frame of page 1 with other bytes there would leave
    // a file that no longer opens.
    // Read while connections of this process may have the file locked.
    let fileHeader = LockPreservingFileRead.prefix(of: path, count: 16) ?? []
    if !fileHeader.isEmpty {
      for frame in 0..<committedCount where word(bytes, 32 + frame * frameSize, bigEndian: true) == 1 {
        let start = 32 + frame * frameSize + 24
        if fileHeader.count == 16, Array(bytes[start..<start + 16]) != fileHeader {
          return [
            "WAL frame \(frame + 1) (page 1) does not begin like the database file (its salt, when "
              + "encrypted): it was changed after it was written, and checkpointed it would leave a file "
              + "that does not open"
          ]
        }
      }
    }
    // The rest of the file is an older log (other salts), or nothing.
    let offset = 32 + failing * frameSize
    guard failing < frameCount,
      (word(bytes, offset + 8, bigEndian: true), word(bytes, offset + 12, bigEndian: true)) == salts
    else { return [] }
    // Do the frames after it chain on from the failing frame's stored
    // checksums (its page was changed), or from what its content gives (its
    // checksum was changed), up to a commit?
    let contentSums = checksum(
      bytes, offset + 24..<offset + frameSize,
      from: checksum(bytes, offset..<offset + 8, from: sums, bigEndian: bigEndian), bigEndian: bigEndian)
    for start in [stored(failing), contentSums] {
      var chained = start
      var next = failing + 1
      while next < frameCount, let nextSums = validSums(next, after: chained) {
        chained = nextSums
        if word(bytes, 32 + next * frameSize + 4, bigEndian: true) != 0 {
          let page = word(bytes, offset, bigEndian: true)
          return [
            "WAL frame \(failing + 1) (page \(page)) fails its checksum, and committed frames follow it: "
              + "SQLite ignores it and the \(frameCount - failing - 1) frames after it, losing the last commits"
          ]
        }
        next += 1
      }
    }
    return []
  }

  private static func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
    let value =
      UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
    return bigEndian ? value : value.byteSwapped
  }

  /// SQLite's WAL checksum over `range` (a multiple of 8 bytes), going on from `sums`.
  private static func checksum(
    _ bytes: [UInt8], _ range: Range<Int>, from sums: (UInt32, UInt32), bigEndian: Bool
  ) -> (UInt32, UInt32) {
    var (s1, s2) = sums
    var offset = range.lowerBound
    while offset < range.upperBound {
      s1 = s1 &+ word(bytes, offset, bigEndian: bigEndian) &+ s2
      s2 = s2 &+ word(bytes, offset + 4, bigEndian: bigEndian) &+ s1
      offset += 8
    }
    return (s1, s2)
  }
}
