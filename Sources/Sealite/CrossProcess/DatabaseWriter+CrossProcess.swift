extension DatabaseWriter {
  /// Called when an observation starts: begins watching other processes.
  func observationDidStart() {}
}
