// The writers that watch other processes for their observations (the seam
// Observation declares: ``OtherProcessesChangeSource``).

extension DatabaseQueue: OtherProcessesChangeSource {}
extension DatabasePool: OtherProcessesChangeSource {}

extension OtherProcessesChangeSource where Self: SerializedWriterHolder {
  func startWatchingOtherProcesses(_ db: Database) throws -> (any OtherProcessesWatching)? {
    try OtherProcessesWatch.start(for: db, writer: writer)
    return OtherProcessesWatch.current(in: db)
  }
}

extension OtherProcessesWatch: OtherProcessesWatching {
  var availableLockFreeReader: (any LockFreeReading)? {
    lockFreeReader.isAvailable ? lockFreeReader : nil
  }
}

extension LockFreeReader: LockFreeReading {}
