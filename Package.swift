// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Sealite",
  products: [
    .library(name: "Sealite", targets: ["Sealite"]),
    .executable(name: "sealite-demo", targets: ["sealite-demo"]),
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
    .testTarget(name: "SealiteTests", dependencies: ["Sealite"], path: "Tests/SealiteTests"),
  ],
  swiftLanguageModes: [.v6]
)
