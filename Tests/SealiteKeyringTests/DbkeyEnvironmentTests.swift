import Foundation
import Testing

/// The `dbkey` tool, built next to the test bundle.
private var dbkeyPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dbkey")
    .path
}

/// Runs every dbkey command that needs the keyring on `$DB` (after `setup`),
/// printing for each a line `COMMAND => STATUS FIRST-LINE-OF-STDERR`, and the
/// file's hash and the keyring listing before and after all of them.
private func commandsScript(setup: String) -> String {
  """
  DBKEY="$1"; PROBE="$2"; DB="$3"
  \(setup)
  echo "hash-before $(sha256sum < "$DB" 2>/dev/null)"
  echo "items-before $("$DBKEY" keyring list --json 2>&1 | tr '\\n' ' ')"
  for command in "info" "verify" "rekey" "recover" "migrate" "export $DB.copy --new-key" \\
    "keyring forget" "watch --count 1"; do
    set -- $command
    name=$1; shift
    if [ "$name" = keyring ]; then "$DBKEY" keyring "$1" "$DB" >/dev/null 2>"$DB.err"
    else "$DBKEY" "$name" "$DB" "$@" >/dev/null 2>"$DB.err"; fi
    echo "$command => $? $(head -n 1 "$DB.err")"
  done
  "$DBKEY" init "$DB.new" >/dev/null 2>"$DB.err"
  echo "init => $? $(head -n 1 "$DB.err")"
  echo "hash-after $(sha256sum < "$DB" 2>/dev/null)"
  echo "items-after $("$DBKEY" keyring list --json 2>&1 | tr '\\n' ' ')"
  ls "$DB.copy" "$DB.new" 2>/dev/null | sed 's/^/left: /'
  """
}

/// The lines of `output` that report a command: command name to the rest.
private func commandResults(_ output: String) -> [String: String] {
  var results: [String: String] = [:]
  for line in output.split(separator: "\n") {
    let parts = line.components(separatedBy: " => ")
    if parts.count == 2 { results[parts[0]] = parts[1] }
  }
  return results
}

private func value(_ output: String, _ name: String) -> String? {
  output.split(separator: "\n").first { $0.hasPrefix(name + " ") }.map {
    String($0.dropFirst(name.count + 1))
  }
}

@Suite("dbkey where the keyring is locked or missing (child D-Bus sessions)")
struct DbkeyEnvironmentTests {
  @Test("with the collection locked, every keyring command exits 69, says locked, and changes nothing")
  func lockedKeyring() async throws {
    let path = uniqueDatabasePath()
    // A throwaway keyring of its own: the shared one must stay unlocked for the
    // tests running in parallel, and a headless keyring can not be unlocked again.
    let script = commandsScript(
      setup: """
        "$DBKEY" init "$DB" >/dev/null || exit 1
        "$PROBE" "$DB" lock
        """)
    let result = try await runToEnd(
      withKeyringPath, ["/bin/sh", "-c", script, "sh", dbkeyPath, probePath, path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("lock: ok"), "\(result.stdout)")
    let results = commandResults(result.stdout)
    #expect(results.count == 9, "\(result.stdout)")
    for (command, outcome) in results {
      #expect(outcome.hasPrefix("69 dbkey: "), "\(command): \(outcome)")
      #expect(outcome.contains("locked"), "\(command): \(outcome)")
    }
    #expect(value(result.stdout, "hash-before") == value(result.stdout, "hash-after"))
    #expect(value(result.stdout, "hash-before")?.isEmpty == false)
    let items = value(result.stdout, "items-before")
    #expect(items?.contains("org.sealite.DatabaseKey") == true, "\(result.stdout)")
    #expect(items == value(result.stdout, "items-after"))
    #expect(!result.stdout.contains("left: "), "\(result.stdout)")
  }

  @Test("on a bus without a Secret Service, every keyring command exits 69 and names the missing service")
  func noProvider() async throws {
    let path = uniqueDatabasePath()
    // An encrypted file whose key would have to come from the keyring (random
    // bytes: a plaintext header would need no key, and no keyring).
    let script = commandsScript(
      setup: """
        head -c 4096 /dev/urandom > "$DB"
        """)
    let result = try await runToEnd(
      "/usr/bin/dbus-run-session",
      [
        "--config-file=\(busWithoutSecretServicePath)", "--", "/bin/sh", "-c", script, "sh", dbkeyPath,
        probePath, path,
      ])
    let results = commandResults(result.stdout)
    #expect(results.count == 9, "\(result.stdout)\(result.stderr)")
    for (command, outcome) in results {
      #expect(outcome.hasPrefix("69 dbkey: "), "\(command): \(outcome)")
      #expect(outcome.contains("Secret Service"), "\(command): \(outcome)")
    }
    #expect(value(result.stdout, "hash-before") == value(result.stdout, "hash-after"))
    #expect(value(result.stdout, "items-after")?.contains("Secret Service") == true)
    #expect(!result.stdout.contains("left: "), "\(result.stdout)")
  }
}
