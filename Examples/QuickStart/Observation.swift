import Sealite

/// The README's observation with callbacks: a value and a region, on a pool.
/// On the main actor, as an app's view model would be: `start(in:)` then
/// delivers values to callbacks isolated to it, on the main actor, as in GRDB.
@MainActor
func observeWithCallbacks(_ dbPool: DatabasePool) async throws {
  // README:begin observation-callbacks
  // A value, fetched again after each transaction that changes what it read
  let observation = ValueObservation.tracking { db in
    try Artist.order(Column("name")).fetchAll(db).map(\.name)
  }
  let cancellable = observation.start(in: dbPool) { error in
    print(error)
  } onChange: { names in
    print("artists: \(names.joined(separator: ", "))")
  }

  // A region: told after each commit that changed it, on the writer's queue
  let regionCancellable = DatabaseRegionObservation(tracking: Table("artist"))
    .start(in: dbPool, onError: { print($0) }, onChange: { db in print("artists changed") })

  try await dbPool.write { db in
    var artist = Artist(id: nil, name: "Bill Evans")
    try artist.insert(db)
  }
  // README:end observation-callbacks

  // The first value is fetched asynchronously, as in GRDB: it may already
  // hold the new artist, and then no value without it follows.
  try await waitForPrinted("artists changed")
  try await waitForPrinted("artists: Bill Evans, Miles Davis, Nina Simone")
  let values = printedLines(withPrefix: "artists: ")
  check(
    values == ["artists: Miles Davis, Nina Simone", "artists: Bill Evans, Miles Davis, Nina Simone"]
      || values == ["artists: Bill Evans, Miles Davis, Nina Simone"],
    "unexpected observed values: \(values)")
  cancellable.cancel()
  regionCancellable.cancel()
}
