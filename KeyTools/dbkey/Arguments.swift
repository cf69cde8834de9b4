/// A tiny command line parser: positional arguments, `--flag`, and
/// `--option value` (values never carry secrets: secrets come from file
/// descriptors).
struct Arguments {
  private(set) var positionals: [String] = []
  private var flags: Set<String> = []
  private var options: [String: String] = [:]

  /// Parses `arguments`, knowing which options take a value.
  init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>) throws {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        positionals.append(contentsOf: remaining)
        break
      }
      if argument.hasPrefix("--") {
        if knownFlags.contains(argument) {
          flags.insert(argument)
        } else if knownOptions.contains(argument) {
          guard let value = remaining.popFirst() else {
            throw CommandError(code: .usage, message: "\(argument) needs a value")
          }
          options[argument] = value
        } else {
          throw CommandError(code: .usage, message: "unknown option \(argument)")
        }
      } else {
        positionals.append(argument)
      }
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  func value(_ option: String) -> String? { options[option] }

  /// An option whose value is a file descriptor number.
  func fileDescriptor(_ option: String) throws -> Int32? {
    guard let text = options[option] else { return nil }
    guard let descriptor = Int32(text), descriptor >= 0 else {
      throw CommandError(code: .usage, message: "\(option) needs a file descriptor number, not \(text)")
    }
    return descriptor
  }

  /// Exactly `count` positional arguments, named for the error message.
  func positionals(_ names: String...) throws -> [String] {
    guard positionals.count == names.count else {
      throw CommandError(
        code: .usage,
        message: "expected \(names.joined(separator: " ")), got \(positionals.count) argument(s)")
    }
    return positionals
  }
}
