// swift-tools-version: 6.2
import PackageDescription

// A package outside Layered that adds a feature to it, as an app's own package would: it depends
// on Layered by path and uses only its products. Built and tested by `scripts/check`.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Comments",
  platforms: [.iOS(.v18), .macOS(.v15)],
  products: [
    .library(name: "Comments", targets: ["Comments"])
  ],
  dependencies: [
    .package(name: "Layered", path: "../..")
  ],
  targets: [
    .target(
      name: "Comments",
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
      name: "CommentsTests",
      dependencies: [
        "Comments",
        .product(name: "DomainLayer", package: "Layered"),
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
