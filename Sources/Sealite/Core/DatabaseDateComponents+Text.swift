import Foundation

/// The text of ``DatabaseDateComponents``: formatting and parsing by hand,
/// without a locale-bound and slow `DateFormatter`. The grammar is GRDB's, so
/// that both libraries read each other's files the same way.
enum DateComponentsText {
  static func format(_ components: DateComponents, as format: DatabaseDateComponents.Format) -> String {
    var parts: [String] = []
    switch format {
    case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS:
      parts.append(
        "\(pad(components.year ?? 0, 4))-\(pad(components.month ?? 1, 2))-\(pad(components.day ?? 1, 2))")
    case .HM, .HMS, .HMSS:
      break
    }
    let hourMinute = "\(pad(components.hour ?? 0, 2)):\(pad(components.minute ?? 0, 2))"
    let second = pad(components.second ?? 0, 2)
    switch format {
    case .YMD:
      break
    case .YMD_HM, .HM:
      parts.append(hourMinute)
    case .YMD_HMS, .HMS:
      parts.append("\(hourMinute):\(second)")
    case .YMD_HMSS, .HMSS:
      // Nanoseconds round to the nearest millisecond (999.5 ms and above
      // print as 1000, as in GRDB, rather than carrying into the seconds).
      let milliseconds = Int((Double(components.nanosecond ?? 0) / 1_000_000).rounded())
      parts.append("\(hourMinute):\(second).\(pad(milliseconds, 3))")
    }
    return parts.joined(separator: " ")
  }

  /// `value` zero-padded to `width` characters, sign included, as `%0*d` prints it.
  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    let zeros = max(0, width - sign.count - digits.count)
    return sign + String(repeating: "0", count: zeros) + digits
  }

  /// Components and format of `text`, or nil if it is in no format. Ranges are
  /// not checked (`25:61` reads), as in GRDB: the text is taken as stored.
  static func parse(_ text: String) -> DatabaseDateComponents? {
    let bytes = Array(text.utf8)
    // "HH:MM" is the shortest text; the fifth byte tells a day ("YYYY-")
    // from a time ("HH:MM").
    guard bytes.count >= 5 else { return nil }
    var scanner = ByteScanner(bytes)
    var components = DateComponents()
    let format: DatabaseDateComponents.Format?
    if bytes[4] == UInt8(ascii: "-") {
      format = parseDayAndTime(&scanner, into: &components)
    } else if bytes[2] == UInt8(ascii: ":") {
      format = parseTime(&scanner, into: &components)
    } else {
      return nil
    }
    guard let format, scanner.atEnd else { return nil }
    return DatabaseDateComponents(components, format: format)
  }

  /// `YYYY-MM-DD`, optionally followed by a space or `T` and a time.
  private static func parseDayAndTime(
    _ scanner: inout ByteScanner, into components: inout DateComponents
  ) -> DatabaseDateComponents.Format? {
    guard let year = scanner.digits(4), scanner.skip(UInt8(ascii: "-")),
      let month = scanner.digits(2), scanner.skip(UInt8(ascii: "-")),
      let day = scanner.digits(2)
    else { return nil }
    components.year = year
    components.month = month
    components.day = day
    if scanner.atEnd { return .YMD }
    guard scanner.skip(UInt8(ascii: " ")) || scanner.skip(UInt8(ascii: "T")) else { return nil }
    switch parseTime(&scanner, into: &components) {
    case .HM: return .YMD_HM
    case .HMS: return .YMD_HMS
    case .HMSS: return .YMD_HMSS
    default: return nil
    }
  }

  /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.S…`, each optionally followed by a zone.
  /// The caller checks that nothing follows.
  private static func parseTime(
    _ scanner: inout ByteScanner, into components: inout DateComponents
  ) -> DatabaseDateComponents.Format? {
    guard let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")), let minute = scanner.digits(2)
    else { return nil }
    components.hour = hour
    components.minute = minute
    if scanner.atEnd || parseZone(&scanner, into: &components) { return .HM }

    guard scanner.skip(UInt8(ascii: ":")), let second = scanner.digits(2) else { return nil }
    components.second = second
    if scanner.atEnd || parseZone(&scanner, into: &components) { return .HMS }

    // One to three digits give the milliseconds ("12.5" is 500 ms); further
    // digits are skipped, as SQLite's date functions skip them.
    guard scanner.skip(UInt8(ascii: ".")), let first = scanner.digit() else { return nil }
    var fraction = first
    var scale = 100_000_000
    while scale > 1_000_000 {
      if scanner.atEnd || parseZone(&scanner, into: &components) {
        components.nanosecond = fraction * scale
        return .HMSS
      }
      guard let digit = scanner.digit() else { return nil }
      fraction = fraction * 10 + digit
      scale /= 10
    }
    components.nanosecond = fraction * scale
    while scanner.digit() != nil {}
    _ = parseZone(&scanner, into: &components)
    return .HMSS
  }

  /// `Z`, `+HH:MM` or `-HH:MM`, which set the components' time zone.
  private static func parseZone(_ scanner: inout ByteScanner, into components: inout DateComponents) -> Bool {
    if scanner.skip(UInt8(ascii: "Z")) {
      components.timeZone = TimeZone(secondsFromGMT: 0)
      return true
    }
    for (sign, factor) in [(UInt8(ascii: "+"), 1), (UInt8(ascii: "-"), -1)] {
      if scanner.skip(sign), let hours = scanner.digits(2), scanner.skip(UInt8(ascii: ":")),
        let minutes = scanner.digits(2)
      {
        components.timeZone = TimeZone(secondsFromGMT: factor * (hours * 3600 + minutes * 60))
        return true
      }
    }
    return false
  }
}
