// swift-tools-version:6.1
import PackageDescription

// The programs' own dependencies (the PostgreSQL client with the NIO stack under it, and the
// argument parser) are needed only with the trait `Tools`, which is on by default. A package
// that uses only the libraries depends on this one with `traits: []` and resolves and builds
// none of them.
let tools = TargetDependencyCondition.when(traits: ["Tools"])

let package = Package(
    name: "swift-keychain",
    // The Apple platforms the Keychain product builds for, against the system's Security
    // framework: macOS 13, which the package already required, and the releases of its
    // year. The Linux-only products ignore these.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // Apple's Keychain Services API on Linux. On Apple platforms, depend on it only
        // `.when(platforms: [.linux])` and use the system's Security framework.
        .library(name: "Security", targets: ["Security"]),
        // The Swift-first API over Keychain Services, for Linux and Apple platforms alike.
        // `import Keychain` re-exports `SwiftKeychain`, where the API lives.
        .library(name: "Keychain", targets: ["Keychain", "SwiftKeychain"]),
        .executable(name: "keychain-demo", targets: ["KeychainDemo"]),
        // The book chapter's sample app: a PIN, then credit cards kept in the keychain.
        .executable(name: "keychain-cards", targets: ["KeychainCards"]),
        // Two programs sharing items through an access group, and one that cannot see them.
        .executable(name: "keychain-share-writer", targets: ["ShareWriter"]),
        .executable(name: "keychain-share-reader", targets: ["ShareReader"]),
        .executable(name: "keychain-share-outsider", targets: ["ShareOutsider"]),
        .executable(name: "keychain-benchmark", targets: ["SecItemBenchmark"]),
        .executable(name: "keychain-lock-benchmark", targets: ["LockingBenchmark"]),
        .executable(name: "keychain-seckey-benchmark", targets: ["SecKeyBenchmark"]),
        .executable(name: "keychain-sync-benchmark", targets: ["SyncBenchmark"]),
        .executable(name: "keychain-fuzz", targets: ["KeychainFuzz"]),
        .executable(name: "keychain-proof", targets: ["KeychainProofRun"]),
        // The libFuzzer targets: a fuzzer when built as Scripts/libfuzz builds it, a replayer
        // of inputs otherwise.
        .executable(name: "keychain-libfuzz", targets: ["KeychainLibFuzz"]),
        // The keychain from the command line, with the subcommands and output of macOS `security`.
        .executable(name: "keychainctl", targets: ["KeychainCtl"]),
        // keychainctl's sync commands, which `keychainctl sync ...` runs from the same folder:
        // a program of their own, so that keychainctl links neither the sync engine nor its
        // network stack (NIO, TLS, the PostgreSQL client).
        .executable(name: "keychain-sync", targets: ["KeychainSyncProgram"]),
        // git's and Docker's credential helpers, keeping their credentials in the keychain.
        .executable(name: "git-credential-keychain", targets: ["GitCredentialKeychain"]),
        .executable(name: "docker-credential-keychain", targets: ["DockerCredentialKeychain"]),
        // Apple's LocalAuthentication on Linux: LAContext, whose device-owner policy is the
        // user's login password, checked by PAM (loaded at run time).
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        // Apple's CommonCrypto on Linux (digests, HMAC, AES, PBKDF2, AES key wrap, random bytes)
        // over swift-crypto. On Apple platforms, depend on it only `.when(platforms: [.linux])`
        // and use the system's.
        .library(name: "CommonCrypto", targets: ["CommonCrypto", "CommonCryptoImplementation"]),
        // `import CryptoKit` on Linux: re-exports swift-crypto's `Crypto`, CryptoKit's API.
        .library(name: "CryptoKit", targets: ["CryptoKit"]),
        // A Secret Service (org.freedesktop.secrets) provider over the keychain, for libsecret,
        // secret-tool and the programs built on them.
        .executable(name: "keychain-secret-service", targets: ["KeychainSecretService"]),
        // What the PAM module pam_keychain.so (target PAMKeychain) runs as the user to unlock,
        // change the password of and lock the login keychain.
        .executable(name: "keychain-pam-helper", targets: ["PAMKeychainHelper"]),
    ],
    traits: [
        .trait(
            name: "Tools",
            description: "The programs (keychainctl, sync, the Secret Service provider, benchmarks, fuzzers): "
                + "the argument parser and the PostgreSQL client with NIO"
        ),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // X.509 and DER parsing for SecCertificate.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Keychain sync's server: PostgreSQL's wire protocol (queries with bound parameters,
        // LISTEN/NOTIFY, TLS through NIOSSL, Unix sockets) in Swift, without libpq.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The kernel keyring's system calls, which Swift cannot call directly (variadic).
        .target(name: "CKernelKeyring"),
        .target(
            name: "KeychainCore",
            dependencies: [
                "CKernelKeyring",
                // Linux-PAM, loaded at run time, to prove the user's presence.
                "CPAM",
                // TPM 2.0 through tpm2-tss, loaded at run time (no -dev package to build): the
                // device keys sealed to it, and Security's TPM-held keys.
                "CTPM",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the WAL hook that GRDB does not wrap.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt, for keychain and archive passwords.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Atomic operations on memory shared between processes (SessionGeneration),
                // which the standard library's Atomic, a value of its own, cannot address.
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // DES, Triple DES and RC4 over the BoringSSL that swift-crypto builds: legacy PKCS #12
        // files (Security) and CommonCrypto's legacy algorithms share one wrapper each.
        .target(
            name: "LegacyCiphers",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // Security imports KeychainCore `@_implementationOnly`: in a module built without library
        // evolution (as SwiftPM builds packages), `internal` and `package` imports are still
        // loaded by every client, and KeychainCore brings C modules (`_AtomicsShims`, SQLite,
        // the keyring) whose module maps only this package's targets are given. Code of other
        // packages that sees `Security` (`#if canImport(Security)`) must load it without them.
        // The price: no public struct or enum of Security may store a KeychainCore type (its
        // layout would need the core), and this package's targets that use package declarations
        // naming core types import KeychainCore themselves.
        .target(
            name: "Security",
            dependencies: [
                "KeychainCore",
                "LegacyCiphers",
                .product(name: "Logging", package: "swift-log"),
                // SecCertificate parses certificates with swift-certificates rather than a
                // DER parser of its own, and reads names and serials through SwiftASN1.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // SecKey's elliptic-curve keys and algorithms, and PKCS #12's PBKDF2, AES-CBC,
                // hashes and HMACs. RSA keys and PKCS #12's Triple DES are the BoringSSL these
                // products build, through its C module (RSAKey.swift says why).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The Swift-first API. Its module is not called `Keychain` like its main type, so
        // that `SwiftKeychain.KeychainError` can name a type of the module.
        .target(
            name: "SwiftKeychain",
            dependencies: [
                // Apple platforms have the system's Security framework.
                .target(name: "Security", condition: .when(platforms: [.linux])),
                // CryptoKit's key types, which the module stores; swift-crypto re-exports
                // CryptoKit on Apple platforms, so they are the system's types there.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The module apps import: `SwiftKeychain`, re-exported under the product's name.
        .target(
            name: "Keychain",
            dependencies: ["SwiftKeychain"],
            path: "Sources/KeychainExports"
        ),
        // The top layer: only the program and the fuzz targets import it. keychainctl's
        // commands are a library so that a fuzz target can parse and run argument vectors in
        // its own process (an executable module cannot be imported by a library); the
        // program is Program/main.swift alone.
        .target(
            name: "KeychainCtlCommands",
            dependencies: [
                "Security",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                // To choose what the library's log lines show on standard error.
                .product(name: "Logging", package: "swift-log"),
                // PEM files (certificates and keys) and certificate fingerprints.
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Not KeychainSync: the sync commands are declared here and run in keychain-sync.
            ],
            path: "Sources/KeychainCtl",
            exclude: ["Program"]
        ),
        .executableTarget(
            name: "KeychainCtl",
            dependencies: ["KeychainCtlCommands"],
            path: "Sources/KeychainCtl/Program"
        ),
        // keychain-sync: the sync commands as keychainctl declares them, run with the sync engine.
        .executableTarget(
            name: "KeychainSyncProgram",
            dependencies: [
                "KeychainCtlCommands",
                "KeychainSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                .product(name: "Logging", package: "swift-log"),
                // The keychain's path, for the sync engine, through the public API.
                "Security",
            ]
        ),
        .executableTarget(
            name: "KeychainDemo",
            dependencies: ["Security"],
            path: "Examples/KeychainDemo"
        ),
        // The examples use the Keychain module alone, as an app would.
        .executableTarget(
            name: "KeychainCards",
            dependencies: ["Keychain"],
            path: "Examples/KeychainCards"
        ),
        .executableTarget(
            name: "ShareWriter",
            dependencies: ["Keychain"],
            path: "Examples/ShareWriter",
            exclude: ["keychain-share-writer.entitlements"]
        ),
        .executableTarget(
            name: "ShareReader",
            dependencies: ["Keychain"],
            path: "Examples/ShareReader",
            exclude: ["keychain-share-reader.entitlements"]
        ),
        .executableTarget(
            name: "ShareOutsider",
            dependencies: ["Keychain"],
            path: "Examples/ShareOutsider"
        ),
        .executableTarget(
            name: "SecItemBenchmark",
            dependencies: [
                "Security",
                // SQLite's C API, for the bare-insert figures that durable adds are compared to.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/SecItemBenchmark"
        ),
        .executableTarget(
            name: "LockingBenchmark",
            dependencies: ["Security"],
            path: "Benchmarks/LockingBenchmark"
        ),
        // SecKey's signatures against swift-crypto's, called directly with the same keys.
        .executableTarget(
            name: "SecKeyBenchmark",
            dependencies: [
                "Security",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/SecKeyBenchmark"
        ),
        // Keychain sync between two members on loopback (Scripts/benchmark-sync): propagation,
        // initial sync, server bytes and the agents' memory.
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                // Writes and reads the members' keychains as their programs would.
                "KeychainCore",
                // A PostgreSQL of its own (PostgresTestServer), and keychainctl as a process.
                "TestSupport",
                // To count a member's keychain rows cheaply while an initial sync arrives.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The agent's batch size, which the same-table anchors use too.
                "KeychainSync",
                // To follow a push on the server as it happens, and read back what it stored.
                .product(name: "PostgresNIO", package: "postgres-nio", condition: tools),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/SyncBenchmark"
        ),
        // Sets a test process's XDG_DATA_HOME and XDG_STATE_HOME to scratch folders before main.
        .target(name: "CScratchHomes", path: "Tests/CScratchHomes"),
        // What several test targets share: scratch folders removed at exit, private keychains,
        // the processes they start, and renderings.
        .target(
            name: "TestSupport",
            dependencies: [
                "CScratchHomes",
                // To forget the test keychains' unlocks at exit.
                .target(name: "KeychainCore", condition: .when(platforms: [.linux])),
                // KeychainEnvironment, to point the Security and Keychain suites at private keychains.
                .target(name: "Security", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/TestSupport"
        ),
        // The tags of the tests (`slow`), apart from TestSupport so that the programs built on
        // TestSupport do not link the testing library.
        .target(name: "TestTags", path: "Tests/TestTags"),
        // The API fuzzer: a library for the fixed-seed sample in the tests, and the long run.
        .target(
            name: "SecItemFuzzing",
            dependencies: ["Security", "TestSupport"],
            path: "Tests/SecItemFuzzing"
        ),
        .executableTarget(
            name: "KeychainFuzz",
            dependencies: ["SecItemFuzzing", "Security"],
            path: "Tests/KeychainFuzz"
        ),
        // The stress, crash, corruption and secrets-at-rest suites: the workers that
        // run in other processes and the checks of what they leave, for the fast samples in
        // the tests and the long runs alike.
        // The coverage-guided fuzz targets (Scripts/libfuzz): the query parser and the SecItem
        // calls, the record decoder, the archive reader and keychainctl's arguments, each a
        // function of bytes, run in a sandbox of scratch folders.
        .target(
            name: "KeychainFuzzTargets",
            dependencies: [
                "Security",
                "KeychainCore",
                "KeychainCtlCommands",
                // The table of every kSec constant.
                "SecItemFuzzing",
                // The scratch folder, removed at exit with the keychains' unlocks.
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                // To seal archive payloads under a fixed key, derived independently of the reader.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // To wrap fuzzed bytes in a PKCS#12 PFX without the reader's own types.
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/KeychainFuzzTargets"
        ),
        // libFuzzer's driver, declared for the fuzz program's main.
        .target(name: "CLibFuzzer", path: "Tests/CLibFuzzer"),
        .executableTarget(
            name: "KeychainLibFuzz",
            dependencies: ["KeychainFuzzTargets", "CLibFuzzer"],
            path: "Tests/KeychainLibFuzz"
        ),
        .target(
            name: "KeychainProof",
            dependencies: [
                "Security",
                // Password changes with test-cost scrypt, settings and archives, for the power-loss
                // and I/O-fault suites.
                "KeychainCore",
                // Child processes through posix_spawn (see SpawnedProcess), and SeededGenerator.
                "TestSupport",
                // SQLite's integrity check, and damage done the way someone with the files would.
                .product(name: "GRDB", package: "GRDB.swift"),
                // To capture the library's log output at trace level in a worker process.
                .product(name: "Logging", package: "swift-log"),
                // The remanence suite unwraps keybag rows as an attacker would, with AES-GCM
                // and HKDF of its own rather than the library's code under test.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/KeychainProof"
        ),
        .executableTarget(
            name: "KeychainProofRun",
            dependencies: ["KeychainProof"],
            path: "Tests/KeychainProofRun"
        ),
        // Spawned by the tests to prove that several processes share one keychain, and as the
        // worker processes of the proof suites.
        .executableTarget(
            name: "KeychainTestHelper",
            dependencies: ["Security", "KeychainProof"],
            path: "Tests/KeychainTestHelper"
        ),
        .testTarget(
            name: "KeychainCoreTests",
            dependencies: [
                "TestSupport",
                "TestTags",
                "KeychainCore",
                // To read SQLite's query plans.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SecurityTests",
            dependencies: [
                "TestSupport",
                "TestTags",
                "Security",
                // Triple DES's known answers, checked on the wrapper PKCS #12 decrypts with.
                "LegacyCiphers",
                "SecItemFuzzing",
                "KeychainProof",
                "KeychainTestHelper",
                // The crash suite kills its archive exports and imports, a real client's.
                "KeychainCtl",
                // Only to tamper with stored records the way an attacker with the files would.
                .product(name: "GRDB", package: "GRDB.swift"),
                // To build certificates with swift-certificates' own builder, signed by swift-crypto
                // keys, and encode the names expected of them.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                // To check SecKey's RSA signatures and encryption against CryptoExtras directly.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // To name the core's PresenceFailure in a test AuthenticationContext.
                "KeychainCore",
                // To read an unsealed device key from the kernel keyring, as another process of
                // the user could, and look for it on the bus to the TPM.
                "CKernelKeyring",
            ]
        ),
        // Runs the examples as processes, through their prompts and output.
        .testTarget(
            name: "ExampleTests",
            dependencies: ["TestSupport", "KeychainCards", "ShareWriter", "ShareReader", "ShareOutsider"]
        ),
        // Runs the built keychainctl as a process: its output, exit statuses and prompts.
        .testTarget(
            name: "KeychainCtlTests",
            dependencies: [
                "TestSupport",
                "TestTags",
                "KeychainCtl",
                // keychainctl's command tree, read where a test checks how it is declared.
                "KeychainCtlCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                // What keychainctl sync hands over to; its code is what keychainctl must not carry.
                "KeychainSyncProgram",
                // To fill keychains as other programs would, in their own access groups.
                "Security",
            ]
        ),
        // Replays the fuzz corpus kept in Tests/LibFuzzCorpus through every fuzz target.
        .testTarget(
            name: "LibFuzzCorpusTests",
            dependencies: ["TestSupport", "TestTags", "KeychainFuzzTargets", "KeychainLibFuzz", "KeychainCore"]
        ),
        // The Swift samples of the README and the Security documentation, each a whole program
        // shown verbatim; DocumentationTests checks the text against them and runs them.
        .executableTarget(name: "SecItemSample", dependencies: ["Security"], path: "Tests/DocumentationSamples/SecItemSample"),
        .executableTarget(name: "KeychainSample", dependencies: ["Keychain"], path: "Tests/DocumentationSamples/KeychainSample"),
        .executableTarget(name: "LockingSample", dependencies: ["Security"], path: "Tests/DocumentationSamples/LockingSample"),
        .executableTarget(
            name: "AccessGroupsSample", dependencies: ["Security"], path: "Tests/DocumentationSamples/AccessGroupsSample"),
        .executableTarget(
            name: "AccessControlSample", dependencies: ["Security"], path: "Tests/DocumentationSamples/AccessControlSample"),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["TestSupport", "TestTags", "SecItemSample", "KeychainSample", "LockingSample", "AccessGroupsSample",
                           "AccessControlSample"]
        ),
        .testTarget(
            name: "KeychainTests",
            dependencies: [
                "TestSupport",
                "Keychain",
                // KeychainEnvironment, to point the tests at private keychains.
                .target(name: "Security", condition: .when(platforms: [.linux])),
                // CryptoKit's key types, whose storage the tests check.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What both credential helpers do: bounded standard input, and the SecItem calls on
        // internet passwords through the public API.
        .target(
            name: "CredentialHelperSupport",
            dependencies: ["Security"],
            path: "Sources/CredentialHelpers/Support"
        ),
        .executableTarget(
            name: "GitCredentialKeychain",
            dependencies: ["CredentialHelperSupport", "Security"],
            path: "Sources/CredentialHelpers/GitCredential"
        ),
        .executableTarget(
            name: "DockerCredentialKeychain",
            dependencies: ["CredentialHelperSupport", "Security"],
            path: "Sources/CredentialHelpers/DockerCredential"
        ),
        // Runs the credential helpers as git and Docker run them, and reads what they stored
        // through Security and keychainctl.
        .testTarget(
            name: "CredentialHelperTests",
            dependencies: ["TestSupport", "Security", "KeychainCtl", "GitCredentialKeychain", "DockerCredentialKeychain"]
        ),
        // Linux-PAM's calls, loaded with dlopen: no libpam0g-dev to build, no link to libpam.
        .target(name: "CPAM"),
        .target(
            name: "LocalAuthentication",
            dependencies: ["Security", "KeychainCore"]
        ),
        // Evaluates LAContext policies as the test user, on the terminal the tests give it.
        .executableTarget(
            name: "PresenceWorker",
            dependencies: ["LocalAuthentication"],
            path: "Tests/PresenceWorker"
        ),
        // Presence proven through the system's PAM, as a user with a known password.
        .testTarget(
            name: "LocalAuthenticationTests",
            dependencies: ["TestSupport", "TestTags", "LocalAuthentication", "PresenceWorker", "KeychainCore"]
        ),
        // Apple's CommonCrypto on Linux, needing no system package: a C module with Apple's
        // declarations, so that Swift imports them as it imports Apple's headers, and so that no
        // Swift module named CommonCrypto sits on the build's shared module path, where swift-crypto's
        // CryptoExtras (`#if canImport(CommonCrypto)`) would find it and depend on it in a cycle.
        .target(name: "CommonCrypto"),
        // The functions the CommonCrypto module declares, exported under their C names.
        .target(
            name: "CommonCryptoImplementation",
            dependencies: [
                "CommonCrypto",
                // DES, Triple DES and RC4.
                "LegacyCiphers",
                // Digests, HMAC and AES key wrap.
                .product(name: "Crypto", package: "swift-crypto"),
                // AES-CBC, AES-CTR, the AES block function (ECB) and PBKDF2.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "CryptoKit",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // Checks CommonCrypto against published test vectors and the openssl command, and
        // compiles code written as the libraries that call CommonCrypto and CryptoKit write it.
        .testTarget(
            name: "CommonCryptoTests",
            dependencies: ["CommonCrypto", "CommonCryptoImplementation", "CryptoKit"]
        ),
        // TPM 2.0 keys through tpm2-tss, loaded with dlopen: compiled against its headers when
        // libtss2-dev is there, a stub that reports no TPM support otherwise; never linked.
        .target(name: "CTPM"),
        // sd-bus from libsystemd (libsystemd-dev to build), and the Secret Service interface
        // tables, which sd-bus builds with C macros. Only the Secret Service provider links it.
        .target(name: "CSDBus", linkerSettings: [.linkedLibrary("systemd")]),
        // The Secret Service provider: D-Bus objects over Security's public SecItem API.
        .target(
            name: "SecretService",
            dependencies: [
                "CSDBus",
                "Security",
                // ChildProgram, which starts pinentry as the core starts askpass agents.
                "KeychainCore",
                // The dh-ietf1024-sha256-aes128-cbc-pkcs7 sessions: HKDF and AES-CBC, and the
                // Diffie-Hellman exchange's modular exponentiation from the BoringSSL they build.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Program"]
        ),
        .executableTarget(
            name: "KeychainSecretService",
            dependencies: ["SecretService"],
            path: "Sources/SecretService/Program"
        ),
        // Keychain sync between machines: membership, keys and sealed records over swift-crypto,
        // the PostgreSQL server layer and the agent. Uses the core's package declarations (the
        // item model, the change log, the byte codecs); never imports Security.
        .target(
            name: "KeychainSync",
            dependencies: [
                "KeychainCore",
                // Signatures, HPKE key wraps, AES-GCM records and item ids (HMAC).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // The sync server's client (see the package's dependency line).
                .product(name: "PostgresNIO", package: "postgres-nio", condition: tools),
                // The agent's own state file beside the keychain.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "KeychainSyncTests",
            dependencies: [
                "TestSupport",
                "TestTags",
                "KeychainSync",
                "KeychainCore",
                // To check records' signatures and AEAD with the primitives directly.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // The end-to-end tests run keychainctl sync as users do, which runs keychain-sync.
                "KeychainCtl",
                "KeychainSyncProgram",
            ]
        ),
        // The PAM module pam_keychain.so: C only, Linux-PAM's few calls looked up in the libpam
        // that loads it (no libpam0g-dev to build, no link to libpam). No product: SwiftPM links
        // every library product with the Swift runtime (libswiftCore and its image constructor),
        // which must not be loaded into login or sshd, so Scripts/build-pam-module builds the
        // module with the C compiler alone. SwiftPM compiles the target, with its warnings.
        .target(name: "PAMKeychain"),
        // What the module runs as the user: the login keychain through the public Keychain
        // Services calls; and its installer, which writes files as the core's PrivateFile does.
        .executableTarget(name: "PAMKeychainHelper", dependencies: ["Security", "KeychainCore"]),
        // Logins through the system's real PAM stack (pamtester, a service file of the test's
        // own): the module unlocks, changes the password of and locks a test user's keychain.
        .testTarget(
            name: "PAMKeychainTests",
            dependencies: ["TestSupport", "TestTags", "PAMKeychainHelper", "KeychainCtl"]
        ),
        // Runs the provider on a private session bus with real clients: secret-tool, Python's
        // secretstorage, busctl, dbus-send, and keychainctl on the same keychain; and the
        // SecretService module itself where a computation is checked against another D-Bus
        // implementation (the size of replies, against jeepney).
        .testTarget(
            name: "SecretServiceTests",
            dependencies: ["TestSupport", "TestTags", "KeychainSecretService", "KeychainCtl", "SecretService"]
        ),
    ]
)

// The test command (Scripts/test sets KEYCHAIN_WARNINGS_AS_ERRORS=1) builds the package's own
// Swift targets with every warning an error but one, so that no warning of ours goes unseen:
// Swift warns at each `@_implementationOnly import KeychainCore` of a module built without
// library evolution (see the Security target above for why the import is so), and has no
// option that turns that one warning off. Unset, as for every package that depends on this
// one, nothing changes.
if Context.environment["KEYCHAIN_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system && target.type != .binary && target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? [])
            + [.unsafeFlags(["-warnings-as-errors", "-Wwarning", "ImplementationOnlyDeprecated"])]
    }
}
