// The least the standard library's Codable machinery costs, whatever the
// decoder: the tight C loop reads each row, then builds the Item through
// `Item(from:)` with a decoder that only hands out the values already read,
// in the order `init(from:)` asks for them. No column lookup, no conversion,
// no error to build: what remains is the existential containers, the
// dispatch of each `decode(_:forKey:)` and the coding keys.
//
// Its ratio to the tight loop is the floor of any Codable fetch: a Codable
// row can not beat it, and an `init(row:)` record (see
// `RowInitializedItem`) does not pay it.

import CSQLCipher

/// A Decoder that hands out the four values of one item, in order.
final class ItemValuesDecoder: Decoder {
  var id = 0
  var name = ""
  var score = 0.0
  var flag = 0
  /// The next value `decode(_:forKey:)` hands out (0: id … 3: flag).
  var position = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The Item of the statement's current row, built by `Item(from:)`.
  @inline(__always)
  func item(_ statement: RawStatement) throws -> Item {
    load(statement)
    return try Item(from: self)
  }

  func load(_ statement: RawStatement) {
    id = Int(sqlite3_column_int64(statement.handle, 0))
    name = statement.text(1)
    score = sqlite3_column_double(statement.handle, 2)
    flag = Int(sqlite3_column_int64(statement.handle, 3))
    position = 0
  }

  /// The keyed container of the first row, handed out again for every row,
  /// as Sealite's decoder does: no allocation per row.
  private var keptContainer = KeptContainer()

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    keptContainer.container(for: Key.self) { KeyedDecodingContainer(Container<Key>(decoder: self)) }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw unsupported }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw unsupported }

  fileprivate var unsupported: DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "an Item has four values"))
  }

  /// The keyed container: each call takes the next value. It holds its
  /// decoder unowned: the decoder keeps it.
  struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    unowned(unsafe) let decoder: ItemValuesDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      defer { decoder.position += 1 }
      return decoder.position == 0 ? decoder.id : decoder.flag
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      decoder.position += 1
      return decoder.name
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      decoder.position += 1
      return decoder.score
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw decoder.unsupported }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw decoder.unsupported }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw decoder.unsupported }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw decoder.unsupported }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw decoder.unsupported }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw decoder.unsupported }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw decoder.unsupported }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw decoder.unsupported }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw decoder.unsupported }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw decoder.unsupported }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw decoder.unsupported }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw decoder.unsupported }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    { throw decoder.unsupported }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw decoder.unsupported
    }
    func superDecoder() throws -> any Decoder { throw decoder.unsupported }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.unsupported }
  }
}

enum CodableFloor {
  /// The tight loop's `rawFetchAll`, each Item built through `Item(from:)`.
  static func fetchAll(_ connection: RawConnection) throws -> Int {
    let decoder = ItemValuesDecoder()
    return try FetchWorkloads.collectAll(connection) { try decoder.item($0) }
  }

  /// The tight loop's `rawCursor`, each Item built through `Item(from:)`.
  static func cursor(_ connection: RawConnection) throws -> Int {
    let decoder = ItemValuesDecoder()
    return try FetchWorkloads.stepAll(connection) { try decoder.item($0) }
  }
}

/// An Encoder that binds the values `encode(to:)` hands it to the parameters
/// of `INSERT INTO item (id, name, score, flag) VALUES (?, ?, ?, ?)`, in order:
/// the least any Codable insert costs on top of the C loop.
final class ItemBindingEncoder: Encoder {
  var statement: RawStatement?
  /// The next parameter (1 … 4).
  var parameter: CInt = 1
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// The keyed container of the first record, handed out again for every
  /// record, as Sealite's encoder does.
  private var keptContainer = KeptContainer()

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    keptContainer.container(for: Key.self) { KeyedEncodingContainer(Container<Key>(encoder: self)) }
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("an Item is a keyed record") }
  func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("an Item is a keyed record") }

  /// Binds each value to the next parameter; an Item has no other type.
  struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
    unowned(unsafe) let encoder: ItemBindingEncoder
    var codingPath: [any CodingKey] { [] }

    private func next() -> (OpaquePointer, CInt) {
      defer { encoder.parameter += 1 }
      return (encoder.statement!.handle, encoder.parameter)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
      let (handle, index) = next()
      sqlite3_bind_int64(handle, index, Int64(value))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      let (_, index) = next()
      encoder.statement!.bindText(value, at: index)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      let (handle, index) = next()
      sqlite3_bind_double(handle, index, value)
    }
    mutating func encodeNil(forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Bool, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Int8, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Int16, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Int32, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: Int64, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: UInt, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { throw unsupported }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { throw unsupported }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw unsupported }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    { fatalError("an Item is flat") }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      fatalError("an Item is flat")
    }
    mutating func superEncoder() -> any Encoder { fatalError("an Item is flat") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("an Item is flat") }

    private var unsupported: EncodingError {
      EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "an Item has four values"))
    }
  }
}

extension CodableFloor {
  /// The UPDATE of the update floor: its parameters numbered in the order
  /// `encode(to:)` hands out an Item's values.
  static let updateSQL = "UPDATE item SET name = ?2, score = ?3, flag = ?4 WHERE id = ?1"

  /// Binds each item to the parameters of `statement` through
  /// `Item.encode(to:)` and runs it: the tight loop's insert, or, given the
  /// `connection` of an update, its update, each of which must change a row.
  static func write(_ items: [Item], with statement: RawStatement, updating connection: RawConnection? = nil)
    throws
  {
    let encoder = ItemBindingEncoder()
    encoder.statement = statement
    for item in items {
      encoder.parameter = 1
      try item.encode(to: encoder)
      let code = sqlite3_step(statement.handle)
      sqlite3_reset(statement.handle)
      guard code == SQLITE_DONE else { throw BenchError("a write failed with code \(code)") }
      if let connection, sqlite3_changes(connection.handle) != 1 { throw BenchError("no row \(item.id)") }
    }
  }
}

extension CodableFloor {
  /// Binds each item to the parameters of an upsert RETURNING the four
  /// columns through `Item.encode(to:)`, runs it to its row, and builds the
  /// returned Item through `Item(from:)`: the tight loop's upsertAndFetch.
  static func upsertAndFetch(_ items: [Item], with statement: RawStatement) throws -> Int {
    let encoder = ItemBindingEncoder()
    encoder.statement = statement
    let decoder = ItemValuesDecoder()
    var checksum = Checksum()
    for item in items {
      encoder.parameter = 1
      try item.encode(to: encoder)
      let code = sqlite3_step(statement.handle)
      guard code == SQLITE_ROW else { throw BenchError("an upsert returned no row (code \(code))") }
      try decoder.item(statement).addTo(&checksum)
      sqlite3_reset(statement.handle)
    }
    return checksum.value
  }
}

/// The keyed container a floor's coder handed out last, by key type: the
/// bench's copy of Sealite's internal `KeptKeyedContainer`, which it can not
/// import. The container refers to its coder: a cycle, for the bench's life.
private struct KeptContainer {
  private final class Box<Container> {
    let container: Container
    init(_ container: Container) { self.container = container }
  }

  private var box: AnyObject?
  private var keyType: ObjectIdentifier?

  /// The kept container of the key type `Key`, or the one `make` makes, kept.
  @inline(__always)
  mutating func container<Key: CodingKey, Container>(for key: Key.Type, make: () -> Container) -> Container {
    if let box, keyType == ObjectIdentifier(Key.self) {
      return unsafeDowncast(box, to: Box<Container>.self).container
    }
    let container = make()
    box = Box(container)
    keyType = ObjectIdentifier(Key.self)
    return container
  }
}
