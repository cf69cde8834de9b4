extension Database {
  /// A built-in collation.
  public struct CollationName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Byte-wise comparison.
    public static let binary = CollationName(rawValue: "BINARY")
    /// Case-insensitive for ASCII letters.
    public static let nocase = CollationName(rawValue: "NOCASE")
    /// Ignores trailing spaces.
    public static let rtrim = CollationName(rawValue: "RTRIM")
  }
}
