// swift-tools-version:6.1
// A package as a user writes one: it depends on this checkout's `Security` (by path, through
// a link named swift-keychain beside this folder, made by CoexistenceTests) and on packages
// that have `#if canImport(Security)` code or depend on such code. CoexistenceTests copies it
// to a scratch folder and builds it from a clean build folder; it is no target of the checkout.
import PackageDescription

let package = Package(
    name: "CoexistencePackage",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../swift-keychain"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        // Certificates and tokens, with code written for Apple platforms.
        .executableTarget(name: "App", dependencies: [
            .product(name: "Security", package: "swift-keychain"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        // A library that does not depend on `Security` but has `#if canImport(Security)` code:
        // built once `Security` is in the build folder, it compiles against this module.
        .target(name: "AppleOnlyCode"),
        // A program as the README tells a new user to write one: CoexistenceTests puts the
        // product lines of the README's manifest in place of the marker below, then pastes each
        // of its Swift samples in turn as main.swift.
        .executableTarget(name: "ReadmeSample", dependencies: [
            // README products
        ]),
    ]
)
