import Foundation
import Testing

/// The probe helper, built next to the test bundle.
var probePath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("sealite-keyring-probe").path
}

/// scripts/with-keyring of this checkout.
var withKeyringPath: String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scripts/with-keyring").path
}

/// scripts/bus-without-secret-service.conf of this checkout: a session bus on
/// which no Secret Service can be activated.
var busWithoutSecretServicePath: String {
  URL(fileURLWithPath: withKeyringPath).deletingLastPathComponent()
    .appendingPathComponent("bus-without-secret-service.conf").path
}

/// Runs a program to its end, with `environment` changes, and returns its standard output.
func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) async throws
  -> String
{
  try await runToEnd(executable, arguments, environment: environment).stdout
}

/// Runs a program to its end, with `environment` changes; returns its exit
/// status and what it printed. The wait happens on a Dispatch thread, never on
/// a cooperative one.
func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String?] = [:])
  async throws -> (status: Int32, stdout: String, stderr: String)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  for (name, value) in environment { env[name] = value }
  process.environment = env
  // Files, not pipes: a D-Bus daemon started by the child inherits its standard output,
  // and the child's end, not the daemon's, is what the test waits for.
  let base = FileManager.default.temporaryDirectory.appendingPathComponent("sealite-run-\(UUID().uuidString)")
  let outputURL = base.appendingPathExtension("out")
  let errorURL = base.appendingPathExtension("err")
  for url in [outputURL, errorURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
  defer {
    for url in [outputURL, errorURL] { try? FileManager.default.removeItem(at: url) }
  }
  let output = try FileHandle(forWritingTo: outputURL)
  let errors = try FileHandle(forWritingTo: errorURL)
  defer {
    try? output.close()
    try? errors.close()
  }
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = FileHandle.nullDevice
  let status = try await withCheckedThrowingContinuation {
    (continuation: CheckedContinuation<Int32, any Error>) in
    DispatchQueue.global().async {
      do {
        // Dispatch threads block most signals, and a spawned process inherits the mask:
        // dbus-run-session could then never stop its bus daemon with SIGTERM.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_UNBLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        process.waitUntilExit()
        continuation.resume(returning: process.terminationStatus)
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }
  return (
    status, String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
    String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
  )
}

private func lines(_ output: String) -> [String] {
  output.split(separator: "\n").map(String.init)
}

@Suite("Keyring errors in other D-Bus environments (child processes)")
struct KeyringEnvironmentTests {
  @Test("without a session bus, the error is noSessionBus")
  func noSessionBus() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
    let output = try await run(
      probePath, [uniqueDatabasePath(), "lookup", "store-random"],
      environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/no-bus-here"])
    #expect(lines(output) == ["lookup: error noSessionBus", "store-random: error noSessionBus"])
  }

  @Test("on a bus without a Secret Service, the error is noSecretService")
  func noSecretService() async throws {
    let output = try await run(
      "/usr/bin/dbus-run-session",
      [
        "--config-file=\(busWithoutSecretServicePath)", "--", probePath, uniqueDatabasePath(), "lookup",
        "items",
      ])
    #expect(lines(output) == ["lookup: error noSecretService", "items: error noSecretService"])
  }

  @Test(
    "a locked collection is collectionLocked, not itemNotFound, and unlocking without a prompter is promptDismissed"
  )
  func lockedCollection() async throws {
    // A throwaway keyring of its own (scripts/with-keyring inside this one's session):
    // locking the shared test keyring would disturb the tests running in parallel, and a
    // headless gnome-keyring can not be unlocked again without a prompter.
    let output = try await run(
      withKeyringPath,
      [
        probePath, uniqueDatabasePath(), "store-random", "items", "lock", "lookup", "items", "store-random",
        "delete", "unlock", "lookup", "items",
      ])
    let result = lines(output)
    try #require(result.count == 10)
    // The listing, taken while unlocked, must be the same after every failed step.
    let items = result[1]
    #expect(items.hasPrefix("items: ok [\"Sealite database key for "))
    #expect(
      result == [
        "store-random: ok", items, "lock: ok", "lookup: error collectionLocked", items,
        "store-random: error collectionLocked", "delete: error collectionLocked",
        "unlock: error promptDismissed", "lookup: error collectionLocked", items,
      ])
  }

  @Test("a keyring daemon that dies during start-up is started again, and one that keeps dying is reported")
  func daemonDiesDuringStartUp() async throws {
    // A gnome-keyring-daemon first in PATH that dies at its first starts (as
    // the real one aborts when it loses a start-up race on a loaded machine),
    // then runs the real daemon.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let real = try await run("/bin/sh", ["-c", "command -v gnome-keyring-daemon"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let fake = directory.appendingPathComponent("gnome-keyring-daemon")
    let counter = directory.appendingPathComponent("starts").path
    try """
    #!/bin/sh
    echo x >> '\(counter)'
    [ "$(wc -l < '\(counter)')" -gt "$SEALITE_TEST_DEATHS" ] || { echo 'fake: died' >&2; exit 134; }
    exec '\(real)' "$@"
    """.write(to: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: fake.path)
    let path = directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let readAlias = [
      "dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.secrets",
      "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", "string:default",
    ]
    // Two deaths: the third start serves the command.
    let recovered = try await runToEnd(
      withKeyringPath, readAlias, environment: ["PATH": path, "SEALITE_TEST_DEATHS": "2"])
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(recovered.stdout.contains("/org/freedesktop/secrets/collection/login"), "\(recovered.stdout)")
    #expect(
      recovered.stderr.components(separatedBy: "exited during start-up; starting it again").count == 3,
      "\(recovered.stderr)")
    // Three deaths: the command never runs, and the error says why.
    try FileManager.default.removeItem(atPath: counter)
    let failed = try await runToEnd(
      withKeyringPath, ["/bin/sh", "-c", "echo ran"], environment: ["PATH": path, "SEALITE_TEST_DEATHS": "3"])
    #expect(failed.status == 1)
    #expect(!failed.stdout.contains("ran"))
    #expect(
      failed.stderr.contains("gnome-keyring-daemon exited during start-up, 3 times"), "\(failed.stderr)")
    #expect(failed.stderr.contains("fake: died"), "\(failed.stderr)")
  }
}
