// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Sealite",
  products: [
    .library(name: "Sealite", targets: ["Sealite"]),
    .library(name: "SealiteKeyring", targets: ["SealiteKeyring"]),
    .executable(name: "sealite-demo", targets: ["sealite-demo"]),
    .executable(name: "sealite-watch", targets: ["sealite-watch"]),
    .executable(name: "sealite-bench", targets: ["sealite-bench"]),
    .executable(name: "dbkey", targets: ["dbkey"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLCipher",
      path: "Sources/CSQLCipher",
      pkgConfig: "sqlcipher",
      providers: [.apt(["libsqlcipher-dev"])]
    ),
    // libcrypto's PBKDF2: a pool derives a passphrase's key once for all its connections.
    .systemLibrary(
      name: "CCrypto",
      path: "Sources/CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    // Linux calls Swift can not make itself (variadic prctl, renameat2).
    .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
    .target(name: "Sealite", dependencies: ["CSQLCipher", "CCrypto", "CLinux"], path: "Sources/Sealite"),
    .systemLibrary(
      name: "CLibSecret",
      path: "Sources/CLibSecret",
      pkgConfig: "libsecret-1",
      providers: [.apt(["libsecret-1-dev"])]
    ),
    // Database keys kept in the freedesktop Secret Service; knows Sealite's DatabaseKey only.
    .target(
      name: "SealiteKeyring", dependencies: ["Sealite", "CLibSecret"], path: "Sources/SealiteKeyring"),
    // Runs one keyring call in a fresh process, for the tests that need another D-Bus
    // environment (no bus, no Secret Service, a keyring of its own to lock).
    .executableTarget(
      name: "sealite-keyring-probe", dependencies: ["SealiteKeyring"],
      path: "Tools/sealite-keyring-probe"),
    .executableTarget(name: "sealite-demo", dependencies: ["Sealite"], path: "Examples/Demo"),
    // The README's quick start: README.md quotes its sources, the tests run it.
    .executableTarget(
      name: "sealite-quickstart", dependencies: ["Sealite", "SealiteKeyring"], path: "Examples/QuickStart"),
    // A writer or observer process for the multi-process observation tests.
    .executableTarget(name: "sealite-watch", dependencies: ["Sealite"], path: "Tools/sealite-watch"),
    .executableTarget(
      name: "dbkey", dependencies: ["Sealite", "SealiteKeyring", "CLinux"], path: "KeyTools/dbkey"),
    // The processes of the reliability tests (load, crashes), keyed from the keyring.
    .executableTarget(
      name: "sealite-stress", dependencies: ["Sealite", "SealiteKeyring"], path: "Tools/sealite-stress"),
    .executableTarget(
      name: "sealite-bench", dependencies: ["Sealite", "CSQLCipher"], path: "Benchmarks/sealite-bench"),
    // Counts every heap allocation of the process that links it (it defines malloc):
    // only sealite-allocations does.
    .target(name: "CAllocationCounter", path: "Tools/CAllocationCounter"),
    // Allocations per operation of fixed workloads, for the allocation tests.
    .executableTarget(
      name: "sealite-allocations", dependencies: ["Sealite", "CAllocationCounter"],
      path: "Tools/sealite-allocations"),
    .testTarget(
      name: "SealiteTests",
      dependencies: ["Sealite", "sealite-watch", "dbkey", "sealite-stress", "sealite-allocations"],
      path: "Tests/SealiteTests"),
    .testTarget(
      name: "SealiteKeyringTests",
      dependencies: ["SealiteKeyring", "Sealite", "sealite-keyring-probe", "dbkey", "sealite-quickstart"],
      path: "Tests/SealiteKeyringTests"),
  ],
  swiftLanguageModes: [.v6]
)
