extension Database {
  /// Adds `region` to what the value observation that runs this fetch
  /// tracks, as if its tables had been read: for what the observation can not
  /// see by itself (values read through the C API, or a region a fetch should
  /// depend on though it does not read it).
  ///
  ///     let observation = ValueObservation.tracking { db in
  ///       // Any change to the player or team tables triggers the observation.
  ///       try db.registerAccess(to: Player.all())
  ///       try db.registerAccess(to: Team.all())
  ///     }
  ///
  /// Outside of a tracked fetch, and in the fetch of an observation whose
  /// region is given (``ValueObservation/tracking(region:_:fetch:)``), it does
  /// nothing, and `region` is not evaluated.
  public func registerAccess(to region: @autoclosure () -> some DatabaseRegionConvertible) throws {
    guard let broker = existingState(for: DatabaseObservationBroker.self), broker.recordedRegion != nil
    else { return }
    let added = try region().databaseRegion(self)
    broker.recordedRegion?.formUnion(added)
  }
}
