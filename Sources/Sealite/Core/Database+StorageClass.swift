extension Database {
  /// One of SQLite's storage classes, as `CAST(… AS …)` names them (see
  /// <https://www.sqlite.org/datatype3.html#storage_classes_and_datatypes>).
  ///
  ///     let request = Player.select(cast(Column("score"), as: .text))
  public struct StorageClass: RawRepresentable, Hashable, Sendable {
    /// The name SQLite reads (`INTEGER`, `REAL`, `TEXT`, `BLOB`).
    public let rawValue: String

    /// A storage class named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `INTEGER`.
    public static let integer = StorageClass(rawValue: "INTEGER")
    /// `REAL`.
    public static let real = StorageClass(rawValue: "REAL")
    /// `TEXT`.
    public static let text = StorageClass(rawValue: "TEXT")
    /// `BLOB`.
    public static let blob = StorageClass(rawValue: "BLOB")
  }
}
