/// A request that knows the type it fetches: ``QueryInterfaceRequest``,
/// associations, and the request protocols that need it
/// (``JoinableRequest``, ``DerivableRequest``).
public protocol TypedRequest<RowDecoder> {
  /// The type of fetched values.
  associatedtype RowDecoder
}
