/// One option of a command, as `dbkey COMMAND --help` explains it.
struct OptionSpec: Sendable {
  /// `--name`.
  let name: String
  /// The value's placeholder (`N`, `NAME`), or nil for a flag.
  let value: String?
  /// What it does.
  let help: String

  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, value: nil, help: help)
  }

  static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, value: value, help: help)
  }
}

/// A parsed command line: positional arguments, flags and `--option value`
/// (or `--option=value`) pairs; everything after `--` is positional. Values
/// never carry secrets: secrets come from file descriptors or the terminal.
struct Arguments {
  private(set) var positionals: [String] = []
  private var flags: Set<String> = []
  private var options: [String: String] = [:]

  /// Parses `arguments` against the options a command knows.
  init(_ arguments: [String], options known: [OptionSpec]) throws {
    let byName = Dictionary(known.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        positionals.append(contentsOf: remaining)
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let spec = byName[name] else {
        throw CommandError(code: .usage, message: "unknown option \(name) (see --help)")
      }
      if spec.value == nil {
        guard inlineValue == nil else {
          throw CommandError(code: .usage, message: "\(name) takes no value")
        }
        flags.insert(name)
        continue
      }
      guard let value = inlineValue ?? remaining.popFirst() else {
        throw CommandError(code: .usage, message: "\(name) needs a value (\(name) \(spec.value!))")
      }
      guard options[name] == nil else {
        throw CommandError(code: .usage, message: "\(name) is given twice")
      }
      options[name] = value
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  func value(_ option: String) -> String? { options[option] }

  /// True if the flag or the option is given.
  func gives(_ name: String) -> Bool { has(name) || options[name] != nil }

  /// An option whose value is a file descriptor number.
  func fileDescriptor(_ option: String) throws -> Int32? {
    guard let text = options[option] else { return nil }
    guard let descriptor = Int32(text), descriptor >= 0 else {
      throw CommandError(code: .usage, message: "\(option) needs a file descriptor number, not \(text)")
    }
    return descriptor
  }

  /// Exactly as many positional arguments as `names`, named for the error message.
  func positionals(_ names: String...) throws -> [String] {
    guard positionals.count == names.count else {
      throw CommandError(
        code: .usage,
        message: "expected \(names.joined(separator: " ")), got \(positionals.count) argument(s)")
    }
    for (name, value) in zip(names, positionals) where value.isEmpty {
      throw CommandError(code: .usage, message: "\(name) is empty")
    }
    return positionals
  }

  /// At most one of `names` (flags or options) may be given.
  func requireAtMostOne(of names: [String]) throws {
    let given = names.filter(gives)
    guard given.count <= 1 else {
      throw CommandError(code: .usage, message: "choose one of \(given.joined(separator: ", "))")
    }
  }
}
