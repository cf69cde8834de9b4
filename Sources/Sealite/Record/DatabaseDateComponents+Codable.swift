import Foundation

// Codable is how records hold date components: a Codable record stores the
// property as its text, and JSON carries the same text.
extension DatabaseDateComponents: Codable {
  /// Decodes the components from their text in one of the SQLite formats.
  ///
  ///     let value = try JSONDecoder().decode(DatabaseDateComponents.self, from: Data(#""10:11""#.utf8))
  ///
  /// Throws `DecodingError.dataCorrupted` when the text is in no such format.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = DateComponentsText.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Not date components in an SQLite format: \(text)")
    }
    self = value
  }

  /// Encodes the components as their text in their ``format``.
  ///
  ///     try JSONEncoder().encode(DatabaseDateComponents(components, format: .HM))  // "10:11"
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(DateComponentsText.format(dateComponents, as: format))
  }
}
