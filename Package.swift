// swift-tools-version: 6.2
import PackageDescription

// The arrows below are the architecture: Domain and Network know nothing of each other,
// Data joins them, Presentation sees only Domain, and AppComposition is the one place that
// sees everything. `--explicit-target-dependency-import-check error` turns any import that
// is not declared here into a build failure, so these arrows are enforced, not hoped for.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Layered",
  platforms: [.iOS(.v18), .macOS(.v15)],
  products: [
    .library(name: "DomainLayer", targets: ["DomainLayer"]),
    .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
    .library(name: "DataLayer", targets: ["DataLayer"]),
    .library(name: "PresentationLayer", targets: ["PresentationLayer"]),
    .library(name: "AppComposition", targets: ["AppComposition"]),
    .library(name: "SampleBackend", targets: ["SampleBackend"]),
    .executable(name: "showcase", targets: ["Showcase"]),
    // What an app's own tests use: the view-model test store, stream recorder and test clock.
    .library(name: "LayeredTestSupport", targets: ["LayeredTestSupport"]),
  ],
  targets: [
    // Package-internal: one copy of what several layers need (a lock, a broadcaster). No product
    // exposes it, so it adds no arrow an app can see (`Locked` is public only so that its code can
    // be inlined into the other modules; no app can import the module it lives in).
    .target(name: "LayeredSupport", exclude: ["README.md"], swiftSettings: strictSettings),
    .target(name: "DomainLayer", swiftSettings: strictSettings),
    .target(
      name: "NetworkLayer", dependencies: ["LayeredSupport"], exclude: ["Internal/README.md"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "DataLayer",
      dependencies: ["DomainLayer", "NetworkLayer", "LayeredSupport"],
      exclude: ["Internal/README.md"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "PresentationLayer",
      dependencies: ["DomainLayer", "LayeredSupport"],
      exclude: ["Runtime/Internal/README.md"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "AppComposition",
      dependencies: ["DomainLayer", "NetworkLayer", "DataLayer", "PresentationLayer"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "SampleBackend", dependencies: ["NetworkLayer", "LayeredSupport"], swiftSettings: strictSettings),
    .executableTarget(
      name: "Showcase",
      dependencies: [
        "AppComposition", "SampleBackend", "DomainLayer", "PresentationLayer", "NetworkLayer",
        "LayeredSupport",
      ],
      swiftSettings: strictSettings
    ),

    .target(
      name: "LayeredTestSupport",
      dependencies: ["SampleBackend", "NetworkLayer", "LayeredSupport", "PresentationLayer"],
      path: "Tests/LayeredTestSupport",
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "LayeredSupportTests",
      dependencies: ["LayeredSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "DomainLayerTests",
      dependencies: ["DomainLayer", "LayeredSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NetworkLayerTests",
      dependencies: ["NetworkLayer", "LayeredTestSupport", "SampleBackend", "LayeredSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "DataLayerTests",
      dependencies: ["DataLayer", "DomainLayer", "NetworkLayer", "LayeredTestSupport", "SampleBackend"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "PresentationLayerTests",
      dependencies: ["PresentationLayer", "DomainLayer", "LayeredTestSupport", "LayeredSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AppCompositionTests",
      dependencies: [
        "AppComposition", "DomainLayer", "PresentationLayer", "LayeredTestSupport",
        // A feature built outside the package, as a dependent package would: its own
        // repository (DataLayer, NetworkLayer) and its own routes (SampleBackend).
        "DataLayer", "NetworkLayer", "SampleBackend", "LayeredSupport",
      ],
      swiftSettings: strictSettings
    ),
    // An app target as Xcode 26 makes it (default main-actor isolation, approachable
    // concurrency): a feature, and an app's own slice through every layer.
    .testTarget(
      name: "DefaultIsolationTests",
      dependencies: [
        "PresentationLayer", "DomainLayer", "DataLayer", "NetworkLayer", "SampleBackend",
        "LayeredTestSupport",
      ],
      swiftSettings: strictSettings + [
        .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]
    ),
    .testTarget(
      name: "SampleBackendTests",
      dependencies: ["SampleBackend", "NetworkLayer", "LayeredSupport", "LayeredTestSupport"],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
