// swift-tools-version: 6.2

// An app package (Xcode ▸ File ▸ Open… this `.swiftpm` folder): the `.iOSApplication` product comes from Apple's
// AppleProductTypes, which Xcode and Swift Playgrounds provide; `swift build` on its own does not read it.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "PurserShop",
    platforms: [.iOS("17.0")],
    products: [
        .iOSApplication(
            name: "PurserShop",
            targets: ["AppModule"],
            bundleIdentifier: "com.example.purser.demo",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .bag),
            accentColor: .presetColor(.orange),
            supportedDeviceFamilies: [.pad, .phone],
            supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft]
        )
    ],
    dependencies: [
        // This repository; with a copy of the example elsewhere, use .package(url:) with the repository's URL.
        // `traits: []`: the client SDK alone, without the server's packages (Hummingbird, NIO, postgres-nio, …).
        .package(name: "purser", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "AppModule",
            dependencies: [
                .product(name: "Purser", package: "purser"),
                .product(name: "PurserStoreKit", package: "purser"),
            ],
            path: "Sources"
        )
    ],
    swiftLanguageModes: [.v6]
)
