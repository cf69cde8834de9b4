extension Statement: CustomReflectable {
  /// Shows the statement's ``description`` only, so that `dump` and debuggers
  /// never print the SQL of a keying statement, nor arguments (which may hold
  /// personal or secret data).
  public var customMirror: Mirror { Mirror(self, children: ["sql": description]) }
}
