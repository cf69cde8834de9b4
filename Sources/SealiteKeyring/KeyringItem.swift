/// A keyring item as listed by ``Keyring/items()-65j1u``: what a keyring manager shows, never
/// the secret.
public struct KeyringItem: Sendable, Hashable {
  /// The item's human-readable label.
  public let label: String
  /// The item's attributes (not secret): `path`, `name` (empty when none), `kind`
  /// (`passphrase`, `raw` or `raw-salted`) and the Secret Service's `xdg:schema`.
  public let attributes: [String: String]

  /// The canonical database path the item belongs to.
  public var path: String? { attributes[KeyringAttribute.path] }
  /// The application-chosen database name, or nil.
  public var name: String? { attributes[KeyringAttribute.name].flatMap { $0.isEmpty ? nil : $0 } }
}
