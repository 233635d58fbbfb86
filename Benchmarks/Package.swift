// swift-tools-version: 6.2
import PackageDescription

// A package of its own, so that `swift build` and `swift test` of Layered (and of an app that
// depends on it) never build the benchmarks. Run from the repository root (the flag makes SwiftPM
// see source files added to Layered since the last build, which its cached plan would miss):
//   swift run -c release --package-path Benchmarks --disable-build-manifest-caching layered-bench
//   swift run -c release --package-path Benchmarks --disable-build-manifest-caching layered-bench client stack
// `loopback` needs nginx: scripts/nginx-bench swift run … layered-bench loopback
let package = Package(
  name: "LayeredBenchmarks",
  platforms: [.iOS(.v18), .macOS(.v15)],
  dependencies: [.package(name: "Layered", path: "..")],
  targets: [
    .executableTarget(
      name: "layered-bench",
      dependencies: [
        .product(name: "DomainLayer", package: "Layered"),
        .product(name: "NetworkLayer", package: "Layered"),
        .product(name: "DataLayer", package: "Layered"),
        .product(name: "PresentationLayer", package: "Layered"),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    )
  ],
  swiftLanguageModes: [.v6]
)
