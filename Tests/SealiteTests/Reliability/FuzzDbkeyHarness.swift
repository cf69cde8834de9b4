import Foundation
import Sealite
import Testing

// Fuzzing dbkey's command line: a sandbox, a spawner and a random vocabulary.

// MARK: - dbkey's command line

/// How one dbkey run ended.
struct DbkeyRun {
  var status: Int32?
  var signal: Int32?
  var timedOut = false
  var stdout = ""
  var stderr = ""
  var duration = Duration.zero
}

/// The exit codes `dbkey --help` lists.
let documentedExitCodes: Set<Int32> = [0, 64, 65, 66, 69, 70, 73, 74, 75, 76, 77]

/// Where random command lines run: dbkey's working directory with the fixtures, its
/// HOME and TMPDIR, and the files that hold its standard streams, all inside one
/// temporary directory.
final class DbkeySandbox {
  let directory = TemporaryDirectory("dbkeyFuzz")
  let work: String
  let io: String
  let environment: [String]
  /// The passphrase of `secret.sqlite`: given on standard input only, never in
  /// argv; the generator never makes it, so it must never show in any output.
  let passphrase = "fuzz fixture passphrase 7c1e"

  init() throws {
    work = directory.path("work")
    io = directory.path("io")
    let home = directory.path("home")
    for path in [work, io, home, directory.path("tmp"), directory.path("runtime"), work + "/dir"] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    var environment = ProcessInfo.processInfo.environment
    for name in ["GNOME_KEYRING_CONTROL", "SSH_AUTH_SOCK", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"] {
      environment[name] = nil
    }
    // No session bus: no random command can reach the test keyring.
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/sealite-fuzz"
    environment["HOME"] = home
    environment["TMPDIR"] = directory.path("tmp")
    environment["XDG_RUNTIME_DIR"] = directory.path("runtime")
    environment["XDG_DATA_HOME"] = home + "/data"
    environment["XDG_CONFIG_HOME"] = home + "/config"
    environment["XDG_CACHE_HOME"] = home + "/cache"
    self.environment = environment.map { "\($0.key)=\($0.value)" }

    let plain = try DatabaseQueue(path: work + "/plain.sqlite")
    try plain.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES ('plain row')") }
    try plain.close()
    let secret = try DatabaseQueue(
      path: work + "/secret.sqlite", configuration: passphraseConfiguration(passphrase))
    try secret.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES ('secret row')") }
    try secret.close()
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
      to: URL(fileURLWithPath: work + "/garbage.bin"))
    try Data().write(to: URL(fileURLWithPath: work + "/empty.sqlite"))
  }
}

typealias AddCloseFrom =
  @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt
typealias AddChdir =
  @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
  -> CInt

/// glibc's `posix_spawn_file_actions_addclosefrom_np` and `…_addchdir_np`, which
/// Swift's Glibc module does not import (they are GNU extensions).
let spawnExtensions: (closeFrom: AddCloseFrom, chdir: AddChdir)? = {
  let process = dlopen(nil, RTLD_NOW)
  guard let closeFrom = dlsym(process, "posix_spawn_file_actions_addclosefrom_np"),
    let chdir = dlsym(process, "posix_spawn_file_actions_addchdir_np")
  else { return nil }
  return (unsafeBitCast(closeFrom, to: AddCloseFrom.self), unsafeBitCast(chdir, to: AddChdir.self))
}()

/// glibc's POSIX_SPAWN_SETSID (a GNU extension too).
let spawnSetSID: Int16 = 0x80

/// Runs dbkey to its end in a new session (no controlling terminal, so
/// `--passphrase` has none to open), in the sandbox's working directory, with its
/// environment, `input` on standard input, and every descriptor above 2 closed (a
/// random `--key-fd` finds nothing of the test process). Killed after `timeout`.
/// The task awaits the exit; a thread of its own waits for it, never a
/// cooperative one (the tests share two of those).
func spawnDbkey(_ arguments: [String], input: String, sandbox: DbkeySandbox, timeout: Duration)
  async throws -> DbkeyRun
{
  guard let extensions = spawnExtensions else { throw POSIXError(.ENOSYS) }
  let name = UUID().uuidString
  let inPath = sandbox.io + "/\(name).in"
  let outPath = sandbox.io + "/\(name).out"
  let errPath = sandbox.io + "/\(name).err"
  try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
  defer { for path in [inPath, outPath, errPath] { unlink(path) } }

  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  _ = extensions.closeFrom(&actions, 3)
  _ = extensions.chdir(&actions, sandbox.work)
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var noSignals = sigset_t()
  sigemptyset(&noSignals)
  posix_spawnattr_setsigmask(&attributes, &noSignals)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
    sigaddset(&defaults, signal)
  }
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | spawnSetSID)

  let argv = ([dbkeyPath] + arguments).map { strdup($0) } + [nil]
  let envp = sandbox.environment.map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid: pid_t = 0
  let clock = ContinuousClock()
  let start = clock.now
  let code = posix_spawn(&pid, dbkeyPath, &actions, &attributes, argv, envp)
  guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }

  var result = DbkeyRun()
  // Waits for dbkey's exit itself; a timer kills it (and, a new session being a
  // new process group, whatever it started) if it is still running at `timeout`.
  // The exit is first observed without reaping (WNOWAIT), so the timer never
  // signals a pid that was reaped and could be reused.
  let outcome = Locked((exited: false, killed: false))
  let (seconds, attoseconds) = timeout.components
  let killer = DispatchWorkItem {
    outcome.withLock { outcome in
      guard !outcome.exited else { return }
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      outcome.killed = true
    }
  }
  DispatchQueue.global().asyncAfter(
    deadline: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)),
    execute: killer)
  let child = pid
  let waited = await onThreadOfItsOwn {
    () -> Result<(timedOut: Bool, status: Int32, duration: Duration), POSIXError> in
    var info = siginfo_t()
    while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) < 0 {
      guard errno == EINTR else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
    }
    let timedOut = outcome.withLock { outcome in
      outcome.exited = true
      return outcome.killed
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return .success((timedOut, status, clock.now - start))
  }
  // Once `exited` is set the killer does nothing; cancelling it only frees the timer.
  killer.cancel()
  let (timedOut, status, duration) = try waited.get()
  result.timedOut = timedOut
  result.duration = duration
  let signal = status & 0x7F
  if signal == 0 {
    result.status = (status >> 8) & 0xFF
  } else if signal != 0x7F {
    result.signal = signal
  }
  result.stdout = fileText(outPath)
  result.stderr = fileText(errPath)
  return result
}

/// The text of a file, read with read(2): FileManager.contents(atPath:) leaks a
/// 4 KiB buffer for every empty file it reads (swift-foundation, Swift 6.3), which
/// LeakSanitizer reports under make sanitize.
func fileText(_ path: String) -> String {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = read(descriptor, &buffer, buffer.count)
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    bytes += buffer[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// dbkey's commands, the options each one's usage names (and which take a value),
/// and how many positional arguments it takes, read from `--help`.
struct DbkeyVocabulary {
  var commands: [String] = []
  var options: [String: [String]] = [:]
  var valueOptions: Set<String> = []
  var positionalCount: [String: Int] = [:]
  var allOptions: [String] { Array(Set(options.values.joined())).sorted() }

  init(sandbox: DbkeySandbox) async throws {
    let help = try await spawnDbkey(["--help"], input: "", sandbox: sandbox, timeout: .seconds(30))
    var inCommands = false
    for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "commands:" {
        inCommands = true
      } else if inCommands {
        guard line.hasPrefix("  "), let word = line.split(separator: " ").first else { break }
        commands.append(String(word))
      }
    }
    for command in commands {
      let usage = try await spawnDbkey(
        [command, "--help"], input: "", sandbox: sandbox, timeout: .seconds(30)
      )
      .stdout
      let matches = usage.matches(of: /(--[a-z][a-z-]*)( [A-Z]+\b)?/)
      options[command] = Array(Set(matches.map { String($0.output.1) })).sorted()
      valueOptions.formUnion(matches.filter { $0.output.2 != nil }.map { String($0.output.1) })
      // `usage: dbkey export DB OUT [...]`: the upper-case words before the options.
      let words = usage.split(separator: "\n").first?.split(separator: " ").dropFirst(3) ?? []
      positionalCount[command] = words.prefix { $0.wholeMatch(of: /[A-Z]+/) != nil }.count
    }
  }
}

/// A random word for argv: no NUL (argv can not hold one), never absolute and
/// never `..`, so that as a path it stays inside dbkey's working directory.
func randomWord(_ random: inout SplitMix64) -> String {
  var word = randomString(&random, maxPieces: 4).replacingOccurrences(of: "\0", with: "")
  while word.contains("..") { word = word.replacingOccurrences(of: "..", with: "._") }
  if word.hasPrefix("/") { word = "x" + word }
  return word
}

struct DbkeyCommandLine {
  var arguments: [String]
  var input: String
  /// The paths it names, to look for outside the sandbox afterwards.
  var pathNames: Set<String>
}

func randomCommandLine(_ random: inout SplitMix64, vocabulary: DbkeyVocabulary, sandbox: DbkeySandbox)
  -> DbkeyCommandLine
{
  let fixtures = ["plain.sqlite", "secret.sqlite", "garbage.bin", "empty.sqlite", "dir", "missing.sqlite"]
  let outputs = [
    "out.sqlite", "dir/out.sqlite", "missing-dir/out.sqlite", "plain.sqlite-copy", "dir/", "secret.sqlite",
  ]
  let descriptors = [
    "0", "1", "2", "3", "7", "255", "-1", "-0", "+0", "00", "2147483647", "2147483648", "-2147483649",
    "99999999999999999999", "0x0", "1e3", " 0", "0 ", "٣", "", "NaN", "½",
  ]
  var pathNames: Set<String> = []
  func path() -> String {
    let name: String
    switch Int.random(in: 0..<4, using: &random) {
    case 0: name = random.pick(outputs)
    case 1: name = randomWord(&random)
    default: name = random.pick(fixtures)
    }
    pathNames.insert(URL(fileURLWithPath: name).lastPathComponent)
    return random.chance(1, in: 3) ? sandbox.work + "/" + name : name
  }
  func value(for option: String) -> String {
    if option.hasSuffix("-fd") {
      return random.chance(4, in: 5) ? random.pick(descriptors) : randomWord(&random)
    }
    if option == "--count" {
      return random.pick(["1", "0", "-1", "2147483647", "9223372036854775808", "x", ""])
    }
    if option == "--name" || option == "--collection" {
      return random.chance(1, in: 2)
        ? random.pick(["", "login", "default", "session", "x"]) : randomWord(&random)
    }
    return random.chance(1, in: 2) ? path() : randomWord(&random)
  }

  // Half the command lines are well formed: a known command, its own options with
  // their values, as many paths as it takes. They reach past the parser.
  if random.chance(1, in: 2) {
    let command = random.pick(vocabulary.commands)
    var arguments = [command]
    if command == "keyring" {
      let action = random.pick(["store", "forget", "list"])
      arguments += action == "list" ? [action] : [action, path()]
    } else {
      for _ in 0..<(vocabulary.positionalCount[command] ?? 0) { arguments.append(path()) }
    }
    for option in (vocabulary.options[command] ?? []).shuffled(using: &random).prefix(
      Int.random(in: 0...2, using: &random))
    {
      arguments.append(option)
      if vocabulary.valueOptions.contains(option) {
        arguments.append(option.hasSuffix("-fd") && random.chance(3, in: 4) ? "0" : value(for: option))
      }
    }
    if command == "watch" && !arguments.contains("--count") { arguments += ["--count", "1"] }
    let input =
      random.chance(2, in: 5) && command != "watch"
      ? sandbox.passphrase + "\n" : randomString(&random, maxPieces: 2)
    return DbkeyCommandLine(arguments: arguments, input: input, pathNames: pathNames)
  }

  let command: String
  switch Int.random(in: 0..<20, using: &random) {
  case 0: command = randomWord(&random)
  case 1: command = random.pick(["", "help", "-h", "--help", "--", "-", "PROBE", "info ", "--json"])
  default: command = random.pick(vocabulary.commands)
  }
  var groups: [[String]] = []
  if command == "keyring" && random.chance(4, in: 5) {
    groups.append([random.pick(["store", "forget", "list", "list", randomWord(&random)])])
  }
  for _ in 0..<Int.random(in: 0...3, using: &random) { groups.append([path()]) }
  let own = vocabulary.options[command] ?? []
  for _ in 0..<Int.random(in: 0...4, using: &random) {
    let option: String
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      option = random.pick([
        "-x", "-", "---", "--passphrase=x", "--KEY-FD", "--key-fd=0", "--" + randomWord(&random),
      ])
    case 1, 2: option = random.pick(vocabulary.allOptions)
    default: option = own.isEmpty ? random.pick(vocabulary.allOptions) : random.pick(own)
    }
    groups.append(random.chance(5, in: 6) ? [option, value(for: option)] : [option])
  }
  if !groups.isEmpty && random.chance(1, in: 6) { groups.append(random.pick(groups)) }  // a repeated option
  groups.shuffle(using: &random)
  var arguments = [command] + groups.joined()
  if random.chance(1, in: 10) {
    arguments.insert("--", at: Int.random(in: 1...arguments.count, using: &random))
  }
  if random.chance(1, in: 25) { arguments.append(random.pick(["--help", "-h"])) }
  if command == "watch" && !arguments.contains("--count") { arguments += ["--count", "1"] }

  // Standard input: nothing, a random line, or now and then the fixture's
  // passphrase, which opens secret.sqlite (never for watch, which would wait for
  // a commit that never comes).
  var input = ""
  switch Int.random(in: 0..<5, using: &random) {
  case 0: break
  case 1: input = command == "watch" ? "not it\n" : sandbox.passphrase + "\n"
  default: input = randomString(&random, maxPieces: 3) + (random.chance(1, in: 2) ? "\n" : "")
  }
  return DbkeyCommandLine(arguments: arguments, input: input, pathNames: pathNames)
}

/// The names in a directory (none if it can not be read).
func entries(_ directory: String) -> Set<String> {
  Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
}
