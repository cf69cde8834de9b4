/// The values of a ``ValueObservation``, as an asynchronous sequence. Each
/// iteration starts its own observation, stopped when the iteration ends or
/// its task is cancelled.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
  /// How values wait for a slow consumer.
  public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

  let bufferingPolicy: BufferingPolicy
  let start:
    @Sendable (
      _ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable

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

    public mutating func next() async throws -> Element? {
      try await base.next()
    }
  }
}
