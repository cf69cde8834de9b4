import Foundation
import Testing

/// The root of this checkout.
private var checkoutPath: String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
}

/// A program built next to the test bundle.
private func builtProgram(_ name: String) -> String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
}

/// The lines of README.md's first ```sh block that runs `dbkey` commands.
private func readmeDbkeyLines() throws -> [String] {
  let readme = try String(contentsOfFile: checkoutPath + "/README.md", encoding: .utf8)
  var blocks: [[String]] = []
  var current: [String]?
  for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
    if current == nil, line.hasPrefix("```sh") {
      current = []
    } else if current != nil, line.hasPrefix("```") {
      blocks.append(current!)
      current = nil
    } else {
      current?.append(line)
    }
  }
  return blocks.first { $0.contains { $0.hasPrefix("dbkey ") } } ?? []
}

@Suite("README examples")
struct ReadmeExamplesTests {
  @Test("every swift block of the README and the DocC articles is a region of Examples/")
  func readmeQuotesTheExamples() async throws {
    let result = try await runToEnd("/usr/bin/env", ["python3", checkoutPath + "/scripts/check-readme"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("every swift block matches its region"), "\(result.stdout)")
  }

  @Test("the quick start runs in the private keyring and checks every step")
  func quickStartRuns() async throws {
    let result = try await runToEnd(builtProgram("sealite-quickstart"), [])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    for expected in [
      #"["Concierto de Aranjuez", "Sinnerman"]"#,
      "Miles Davis: 6 plays of 3 tracks",
      "Nina Simone: 4 plays of 2 tracks",
      "562 5",
      #"["Sinnerman", "So What"]"#,
      #"["SELECT COUNT(*) FROM \"play\" WHERE \"trackId\" = ?"]"#,
      "artists changed",
      "quick start: every step checked",
    ] {
      #expect(lines.contains(expected), "missing \(expected) in:\n\(result.stdout)")
    }
    #expect(lines.last == "quick start: every step checked", "\(result.stdout)")
  }

  @Test("every dbkey command of the README exists, with the options its help lists")
  func readmeDbkeyCommands() async throws {
    let dbkey = builtProgram("dbkey")
    let help = try await runToEnd(dbkey, ["--help"])
    #expect(help.status == 0)
    // The commands: the lines after "commands:", up to the blank line.
    let helpLines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let commandsSection = helpLines.drop { $0 != "commands:" }.dropFirst().prefix { !$0.isEmpty }
    let listed = Set(commandsSection.compactMap { $0.split(separator: " ").first.map(String.init) })
    #expect(listed.count >= 10, "\(help.stdout)")
    let commandLines = try readmeDbkeyLines()
    #expect(commandLines.count == 11, "the README shows dbkey in eleven lines: \(commandLines)")
    var shown: Set<String> = []
    for line in commandLines {
      let words = line.split(separator: "#")[0].split(separator: " ").map(String.init)
      #expect(words.count >= 2 && words[0] == "dbkey", "\(line)")
      guard words.count >= 2 else { continue }
      let command = words[1]
      shown.insert(command)
      #expect(listed.contains(command), "dbkey --help does not list \(command)")
      let usage = try await runToEnd(dbkey, [command, "--help"])
      #expect(usage.status == 0, "dbkey \(command) --help: \(usage.stderr)")
      for option in words.dropFirst(2) where option.hasPrefix("--") {
        #expect(usage.stdout.contains(option), "dbkey \(command) --help does not mention \(option)")
      }
      if command == "keyring", words.count > 2 {
        #expect(usage.stdout.contains(words[2]), "dbkey keyring --help does not mention \(words[2])")
      }
    }
    // The ten lines leave out only the probe, which the README shows through make demo.
    #expect(listed.subtracting(shown) == ["probe"], "commands the README does not show: \(listed)")
  }
}
