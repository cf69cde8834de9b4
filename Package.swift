// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Sealite",
  products: [
    .library(name: "Sealite", targets: ["Sealite"]),
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
    .target(name: "Sealite", dependencies: ["CSQLCipher"], path: "Sources/Sealite"),
    .executableTarget(name: "sealite-demo", dependencies: ["Sealite"], path: "Examples/Demo"),
    // A writer or observer process for the multi-process observation tests.
    .executableTarget(name: "sealite-watch", dependencies: ["Sealite"], path: "Tools/sealite-watch"),
    .executableTarget(name: "dbkey", dependencies: ["Sealite"], path: "KeyTools/dbkey"),
    .executableTarget(
      name: "sealite-bench", dependencies: ["Sealite"], path: "Benchmarks/sealite-bench"),
    .testTarget(
      name: "SealiteTests", dependencies: ["Sealite", "sealite-watch", "dbkey"], path: "Tests/SealiteTests"),
  ],
  swiftLanguageModes: [.v6]
)
