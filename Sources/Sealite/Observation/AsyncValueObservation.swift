/// The values of a ``ValueObservation`` or a ``SharedValueObservation``, as
/// an asynchronous sequence. Each iteration starts its own observation (or
/// subscription to the shared one), stopped when the iteration ends or its
/// task is cancelled.
///
///     let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
///     for try await players in observation.values(in: dbQueue) {
///       print("fresh players: \(players)")
///     }
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
  /// How values wait for a slow consumer.
  public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

  /// The iterator of the sequence: ``Iterator``.
  public typealias AsyncIterator = Iterator

  let bufferingPolicy: BufferingPolicy
  let start:
    @Sendable (
      _ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable

  /// Starts an observation, whose values the returned iterator gives.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(
      bufferingPolicy: bufferingPolicy)
    let cancellable = start(
      { error in continuation.finish(throwing: error) },
      { value in continuation.yield(value) })
    // Weak: the iterator owns the cancellable, so that dropping the iterator
    // stops the observation (a strong reference here would be a cycle).
    continuation.onTermination = { [weak cancellable] _ in cancellable?.cancel() }
    return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
  }

  /// The iterator of an ``AsyncValueObservation``.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
    let cancellable: AnyDatabaseCancellable

    /// The next value, waited for; throws the error that ended the observation.
    public mutating func next() async throws -> Element? {
      try await base.next()
    }
  }
}
