/// The keyed container a reused encoder or decoder handed out last, and its
/// key type: handed out again for the next record of that type, without
/// allocating a container and looking up its generic metadata each time.
/// The container refers to its encoder or decoder, which keeps it: whoever
/// drops such an encoder or decoder calls `removeAll()` to break the cycle.
struct KeptKeyedContainer {
  private final class Box<Container> {
    let container: Container
    init(_ container: Container) { self.container = container }

    /// The container, copied with the metadata this box's own type holds.
    /// Not inlined: a generic caller would copy it itself, with the metadata
    /// of `KeyedDecodingContainer<Key>`, which the runtime looks up in its
    /// cache of generic types on every call (about 300 instructions, as much
    /// as decoding a column).
    @inline(never)
    func get() -> Container { container }
  }

  private var box: AnyObject?
  private var keyType: ObjectIdentifier?

  var isEmpty: Bool { box == nil }

  /// The kept container of the key type `Key`, or the one `make` makes,
  /// kept if `keeping`.
  @inline(__always)
  mutating func container<Key: CodingKey, Container>(
    for key: Key.Type, keeping: Bool, make: () -> Container
  ) -> Container {
    if let box, keyType == ObjectIdentifier(Key.self) {
      // The key type matches, so this is the box that stored this very type.
      return unsafeDowncast(box, to: Box<Container>.self).get()
    }
    return makeContainer(for: key, keeping: keeping, make: make)
  }

  /// Apart, so that only a miss needs the container's metadata: the
  /// compiler fetches a function's metadata on entry, whatever the branch.
  @inline(never)
  private mutating func makeContainer<Key: CodingKey, Container>(
    for key: Key.Type, keeping: Bool, make: () -> Container
  ) -> Container {
    let container = make()
    if keeping {
      box = Box(container)
      keyType = ObjectIdentifier(Key.self)
    }
    return container
  }

  mutating func removeAll() {
    box = nil
    keyType = nil
  }
}
