// swift-tools-version: 6.2
import PackageDescription

// An app's own package for a backend that is not the sample API: JWT login with rotation and
// logout, URLs that end with `/`, paginated lists, field errors, 403s. It depends on Layered by
// path, uses only its products, and repeats none of its wiring. Built and tested by
// `scripts/check`.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "JWTTodos",
  platforms: [.iOS(.v18), .macOS(.v15)],
  products: [
    .library(name: "JWTTodos", targets: ["JWTTodos"])
  ],
  dependencies: [
    .package(name: "Layered", path: "../..")
  ],
  targets: [
    .target(
      name: "JWTTodos",
      dependencies: [
        .product(name: "DomainLayer", package: "Layered"),
        .product(name: "NetworkLayer", package: "Layered"),
        .product(name: "DataLayer", package: "Layered"),
        .product(name: "PresentationLayer", package: "Layered"),
        .product(name: "AppComposition", package: "Layered"),
        .product(name: "SampleBackend", package: "Layered"),
      ],
      swiftSettings: settings
    ),
    .testTarget(
      name: "JWTTodosTests",
      dependencies: [
        "JWTTodos",
        .product(name: "DomainLayer", package: "Layered"),
        .product(name: "NetworkLayer", package: "Layered"),
        .product(name: "PresentationLayer", package: "Layered"),
        .product(name: "AppComposition", package: "Layered"),
        .product(name: "SampleBackend", package: "Layered"),
        .product(name: "LayeredTestSupport", package: "Layered"),
      ],
      swiftSettings: settings
    ),
  ],
  swiftLanguageModes: [.v6]
)
