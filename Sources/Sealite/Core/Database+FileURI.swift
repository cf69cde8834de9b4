import Foundation

extension Database {
  /// The `file:` URI that opens the database at `path` with the URI
  /// `parameters` ("nolock=1", "immutable=1"); a path that is a URI already
  /// gets them appended. Relative paths are made absolute, so that the URI
  /// names the same file whatever SQLite makes of a relative URI.
  static func fileURI(_ path: String, parameters: String) -> String {
    if path.hasPrefix("file:") {
      return path + (path.contains("?") ? "&" : "?") + parameters
    }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
    return "file:\(encoded)?\(parameters)"
  }
}
