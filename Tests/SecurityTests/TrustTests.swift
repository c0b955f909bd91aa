import Crypto
import Dispatch
import Foundation
import Security
import SwiftASN1
import Testing
import TestSupport
import X509

/// SecTrust and SecPolicy: chains made by `openssl` (root → intermediate → leaf) and by
/// swift-certificates' builder are evaluated, and every verdict is checked against what
/// `openssl verify` says of the same files, at the same time, for the same host name and
/// purpose. Errors carry Apple's codes and words (Security's SecPolicyChecks.list and
/// SecFrameworkStrings.h).
@Suite("SecTrust")
struct TrustTests {
    // MARK: Chains

    /// A root, an intermediate, a TLS server leaf and a TLS client leaf made by `openssl`, as PEM
    /// files (for `openssl verify`) and certificates (for SecTrust).
    struct OpensslChain: Sendable {
        let folder: URL
        let root: SecCertificate, intermediate: SecCertificate, leaf: SecCertificate, clientLeaf: SecCertificate
        /// A leaf issued by `clientLeaf`.
        let misissued: SecCertificate
        /// The leaf's validity, as openssl wrote it.
        let leafNotBefore: Date, leafNotAfter: Date

        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    /// Made once for the suite: openssl's key generation is the slow part.
    private static let opensslChain: Result<OpensslChain, any Error> = Result { try makeOpensslChain() }

    private static func chain() throws -> OpensslChain { try opensslChain.get() }

    private static func makeOpensslChain() throws -> OpensslChain {
        let folder = TestScratch.folder("trust")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try run(["req", "-x509"] + ec + [
            "-keyout", path("root.key"), "-out", path("root.pem"), "-subj", "/CN=Trust Test Root", "-days", "3650",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try write("server.ext", """
            basicConstraints=CA:FALSE
            subjectAltName=DNS:www.example.test,DNS:*.api.example.test,IP:192.0.2.7
            extendedKeyUsage=serverAuth

            """)
        try write("client.ext", "basicConstraints=CA:FALSE\nsubjectAltName=DNS:client.example.test\nextendedKeyUsage=clientAuth\n")
        // Issued certificates: a request, then `openssl x509 -req` signing it.
        func issue(_ name: String, subject: String, by issuer: String, days: String, extensions: String, serial: String) throws {
            try run(["req", "-new"] + ec + ["-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", subject])
            try run([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"), "-CAkey", path("\(issuer).key"),
                "-set_serial", serial, "-days", days, "-extfile", path(extensions), "-out", path("\(name).pem"),
            ])
        }
        try issue("intermediate", subject: "/CN=Trust Test Intermediate", by: "root", days: "3000", extensions: "ca.ext", serial: "2")
        try issue("leaf", subject: "/CN=www.example.test", by: "intermediate", days: "365", extensions: "server.ext", serial: "3")
        try issue("client", subject: "/CN=client.example.test", by: "intermediate", days: "365", extensions: "client.ext", serial: "4")
        // Issued by the client leaf, which is no certificate authority.
        try issue("misissued", subject: "/CN=misissued.example.test", by: "client", days: "365", extensions: "server.ext", serial: "5")
        let leaf = try certificate(pemFile: path("leaf.pem"))
        return OpensslChain(
            folder: folder, root: try certificate(pemFile: path("root.pem")),
            intermediate: try certificate(pemFile: path("intermediate.pem")), leaf: leaf,
            clientLeaf: try certificate(pemFile: path("client.pem")), misissued: try certificate(pemFile: path("misissued.pem")),
            leafNotBefore: try opensslDate(path("leaf.pem"), "-startdate"), leafNotAfter: try opensslDate(path("leaf.pem"), "-enddate"))
    }

    /// Runs `openssl` to its end; throws unless it succeeds.
    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        let result = try openssl(arguments)
        try #require(result.status == 0, "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.errors)")
        return result.output
    }

    private static func openssl(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let folder = TestScratch.folder("openssl-output")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try SpawnedProcess.runToEnd("/usr/bin/openssl", arguments, environment: [:], outputIn: folder)
    }

    /// A PEM file's certificate, read by SecCertificateCreateWithData from its DER.
    private static func certificate(pemFile: String) throws -> SecCertificate {
        let document = try PEMDocument(pemString: String(contentsOfFile: pemFile, encoding: .utf8))
        return try #require(SecCertificateCreateWithData(nil, Data(document.derBytes) as CFData))
    }

    /// A date openssl prints for a certificate (`-startdate`, `-enddate`), in its own words.
    private static func opensslDate(_ file: String, _ option: String) throws -> Date {
        let line = try run(["x509", "-in", file, "-noout", option, "-dateopt", "iso_8601"])
        let text = try #require(line.split(separator: "=", maxSplits: 1).last).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(ISO8601DateFormatter().date(from: text.replacingOccurrences(of: " ", with: "T")))
    }

    /// What `openssl verify` says of `leaf` with `root` as the only trusted certificate: nil
    /// when it verifies, else openssl's error number (X509_V_ERR_...).
    private static func opensslVerify(
        root: String, untrusted: [String] = [], leaf: String, hostname: String? = nil, purpose: String? = nil, at date: Date? = nil
    ) throws -> Int? {
        var arguments = ["verify", "-CAfile", root]
        for file in untrusted { arguments += ["-untrusted", file] }
        if let hostname { arguments += ["-verify_hostname", hostname] }
        if let purpose { arguments += ["-purpose", purpose] }
        if let date { arguments += ["-attime", String(Int(date.timeIntervalSince1970))] }
        let result = try openssl(arguments + [leaf])
        if result.status == 0 { return nil }
        let text = result.errors + result.output
        guard let range = text.range(of: #"error (\d+) at"#, options: .regularExpression) else {
            Issue.record("openssl verify failed without an error number: \(text)")
            return -1
        }
        return Int(text[range].split(separator: " ")[1])
    }

    // openssl's error numbers (x509_vfy.h).
    private static let opensslNotYetValid = 9, opensslExpired = 10, opensslNoLocalIssuer = 20,
        opensslInvalidPurpose = 26, opensslHostnameMismatch = 62, opensslSelfSignedInChain = 19, opensslInvalidCA = 79

    /// A trust of `certificates` under `policies`, anchored at `anchors` when given.
    private static func trust(_ certificates: [SecCertificate], _ policies: [SecPolicy]? = nil,
                              anchors: [SecCertificate]? = nil) throws -> SecTrust {
        var trust: SecTrust?
        let status = SecTrustCreateWithCertificates(certificates as CFArray, policies.map { $0 as CFArray }, &trust)
        try #require(status == errSecSuccess)
        let made = try #require(trust)
        if let anchors { #expect(SecTrustSetAnchorCertificates(made, anchors as CFArray) == errSecSuccess) }
        return made
    }

    /// SecTrustEvaluateWithError's verdict and error.
    private static func evaluate(_ trust: SecTrust) -> (trusted: Bool, error: CFError?) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        return (trusted, error)
    }

    private static func der(_ certificates: CFArray?) -> [Data] {
        ((certificates as? [SecCertificate]) ?? []).map { SecCertificateCopyData($0) as Data }
    }

    private static func der(_ certificates: [SecCertificate]) -> [Data] {
        certificates.map { SecCertificateCopyData($0) as Data }
    }

    // MARK: Anchors

    @Test("Anchored at its root, the chain is trusted and openssl verify agrees; the chain is leaf → intermediate → root")
    func trustedWithTheAnchor() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        let verdict = Self.evaluate(trust)
        #expect(verdict.trusted)
        #expect(verdict.error == nil)
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                       leaf: chain.file("leaf.pem")) == nil)
        // SecTrustCopyCertificateChain: leaf first, anchor last.
        #expect(Self.der(SecTrustCopyCertificateChain(trust)) == Self.der([chain.leaf, chain.intermediate, chain.root]))
        #expect(SecTrustGetCertificateCount(trust) == 3)
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .unspecified)
        var anchors: CFArray?
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect(Self.der(anchors) == Self.der([chain.root]))
    }

    @Test("The order of the certificates after the leaf does not matter: a shuffled chain is trusted, and built in order")
    func shuffledChainIsTrusted() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.root, chain.intermediate], anchors: [chain.root])
        #expect(Self.evaluate(trust).trusted)
        #expect(Self.der(SecTrustCopyCertificateChain(trust)) == Self.der([chain.leaf, chain.intermediate, chain.root]))
    }

    @Test("Without its root as an anchor, a complete chain fails with errSecNotTrusted naming the root, as openssl refuses it")
    func untrustedWithoutTheAnchor() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate, chain.root])
        let verdict = Self.evaluate(trust)
        #expect(!verdict.trusted)
        let error = try #require(verdict.error)
        #expect(error.domain == NSOSStatusErrorDomain)
        #expect(error.code == Int(errSecNotTrusted))
        #expect(error.localizedDescription == "\u{201C}Trust Test Root\u{201D} certificate is not trusted")
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.code == Int(errSecNotTrusted))
        #expect(underlying.localizedDescription.contains("Certificate 2 \u{201C}Trust Test Root\u{201D} has errors: Root is not trusted;"))
        // The chain as far as it goes, to the root nothing trusts.
        #expect(Self.der(SecTrustCopyCertificateChain(trust)) == Self.der([chain.leaf, chain.intermediate, chain.root]))
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .recoverableTrustFailure)
        // openssl, trusting the distribution's roots as this trust does, refuses the chain too.
        #expect(try Self.opensslVerify(root: "/etc/ssl/certs/ca-certificates.crt",
                                       untrusted: [chain.file("intermediate.pem"), chain.file("root.pem")],
                                       leaf: chain.file("leaf.pem")) == Self.opensslSelfSignedInChain)
    }

    @Test("A missing intermediate fails with errSecCreateChainFailed naming the last certificate found, as Apple's MissingIntermediate check; openssl cannot find the issuer either")
    func missingIntermediate() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf], anchors: [chain.root])
        let verdict = Self.evaluate(trust)
        #expect(!verdict.trusted)
        let error = try #require(verdict.error)
        #expect(error.code == Int(errSecCreateChainFailed))
        #expect(error.localizedDescription == "\u{201C}www.example.test\u{201D} certificate is not trusted")
        #expect(Self.der(SecTrustCopyCertificateChain(trust)) == Self.der([chain.leaf]))
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), leaf: chain.file("leaf.pem")) == Self.opensslNoLocalIssuer)
    }

    @Test("A certificate issued by one that is no CA fails with errSecNoBasicConstraintsCA naming the issuer; openssl says invalid CA")
    func issuerThatIsNoCertificateAuthority() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.misissued, chain.clientLeaf, chain.intermediate], anchors: [chain.root])
        let error = try #require(Self.evaluate(trust).error)
        #expect(error.code == Int(errSecNoBasicConstraintsCA))
        #expect(error.localizedDescription == "\u{201C}client.example.test\u{201D} certificate is not standards compliant")
        #expect(Self.der(SecTrustCopyCertificateChain(trust)) == Self.der([chain.misissued, chain.clientLeaf, chain.intermediate, chain.root]))
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("client.pem"), chain.file("intermediate.pem")],
                                       leaf: chain.file("misissued.pem")) == Self.opensslInvalidCA)
    }

    @Test("A self-signed certificate set as its own anchor is trusted, as openssl verify with it as the CA file")
    func selfSignedCertificateAsItsOwnAnchor() throws {
        let chain = try Self.chain()
        #expect(Self.evaluate(try Self.trust([chain.root], anchors: [chain.root])).trusted)
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), leaf: chain.file("root.pem")) == nil)
    }

    @Test("Custom anchors replace the system's roots until SecTrustSetAnchorCertificatesOnly(false); nil anchors go back to the system's")
    func anchorsReplaceSystemRootsUnlessNotOnly() throws {
        let chain = try Self.chain()
        // A real distribution root, evaluated as its own leaf: trusted by the system's store alone.
        let systemRoot = try Self.validSystemRoot()
        let trust = try Self.trust([systemRoot])
        #expect(Self.evaluate(trust).trusted)

        #expect(SecTrustSetAnchorCertificates(trust, [chain.root] as CFArray) == errSecSuccess)
        #expect(Self.evaluate(trust).error?.code == Int(errSecNotTrusted))

        #expect(SecTrustSetAnchorCertificatesOnly(trust, false) == errSecSuccess)
        #expect(Self.evaluate(trust).trusted)

        #expect(SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess)
        #expect(!Self.evaluate(trust).trusted)

        #expect(SecTrustSetAnchorCertificates(trust, nil) == errSecSuccess)
        var anchors: CFArray?
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect(anchors == nil)
        #expect(Self.evaluate(trust).trusted)
    }

    // MARK: Dates

    @Test("After the leaf's notAfter (SecTrustSetVerifyDate), errSecCertificateExpired names the leaf; openssl -attime says expired")
    func expiredAtTheVerifyDate() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        let later = chain.leafNotAfter + 86400
        #expect(SecTrustSetVerifyDate(trust, later as CFDate) == errSecSuccess)
        #expect(SecTrustGetVerifyTime(trust) == later.timeIntervalSinceReferenceDate)
        let verdict = Self.evaluate(trust)
        #expect(!verdict.trusted)
        #expect(verdict.error?.code == Int(errSecCertificateExpired))
        #expect(verdict.error?.localizedDescription == "\u{201C}www.example.test\u{201D} certificate is expired")
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                       leaf: chain.file("leaf.pem"), at: later) == Self.opensslExpired)
        // Inside the validity period again, trusted again.
        #expect(SecTrustSetVerifyDate(trust, (chain.leafNotBefore + 86400) as CFDate) == errSecSuccess)
        #expect(Self.evaluate(trust).trusted)
    }

    @Test("Before notBefore, Apple reports errSecCertificateExpired too (TemporalValidity), naming the leaf; openssl says not yet valid")
    func notYetValidAtTheVerifyDate() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        let earlier = chain.leafNotBefore - 2 * 86400
        #expect(SecTrustSetVerifyDate(trust, earlier as CFDate) == errSecSuccess)
        let error = try #require(Self.evaluate(trust).error)
        #expect(error.code == Int(errSecCertificateExpired))
        #expect(error.localizedDescription == "\u{201C}www.example.test\u{201D} certificate is expired")
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                       leaf: chain.file("leaf.pem"), at: earlier) == Self.opensslNotYetValid)
    }

    @Test("A leaf built expired by swift-certificates' builder fails with errSecCertificateExpired; openssl verify agrees")
    func builderMadeExpiredLeaf() throws {
        let rootKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Builder Root") }
        let leafName = try DistinguishedName { CommonName("expired.example.test") }
        let now = Date()
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now - 30 * 86400, notValidAfter: now + 365 * 86400, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 10 * 86400, notValidAfter: now - 86400, issuer: rootName, subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([.dnsName("expired.example.test")])
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: .init(rootKey))
        let folder = TestScratch.folder("trust-builder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [String] = []
        var made: [SecCertificate] = []
        for (name, certificate) in [("root.pem", root), ("leaf.pem", leaf)] {
            let file = folder.appendingPathComponent(name).path
            try certificate.serializeAsPEM().pemString.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
            made.append(try Self.certificate(pemFile: file))
        }
        let trust = try Self.trust([made[1]], [SecPolicyCreateSSL(true, "expired.example.test" as CFString)], anchors: [made[0]])
        let error = try #require(Self.evaluate(trust).error)
        #expect(error.code == Int(errSecCertificateExpired))
        #expect(error.localizedDescription == "\u{201C}expired.example.test\u{201D} certificate is expired")
        #expect(try Self.opensslVerify(root: files[0], leaf: files[1], hostname: "expired.example.test") == Self.opensslExpired)
    }

    // MARK: SSL policy

    @Test("SecPolicyCreateSSL matches the leaf's DNS names and wildcards; another host gives errSecHostNameMismatch, as openssl -verify_hostname")
    func hostNames() throws {
        let chain = try Self.chain()
        for (host, matches) in [("www.example.test", true), ("WWW.Example.Test", true), ("v1.api.example.test", true),
                                ("other.example.test", false), ("a.b.api.example.test", false), ("example.test", false)] {
            let trust = try Self.trust([chain.leaf, chain.intermediate], [SecPolicyCreateSSL(true, host as CFString)],
                                       anchors: [chain.root])
            let verdict = Self.evaluate(trust)
            #expect(verdict.trusted == matches, "\(host)")
            let openssl = try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                                 leaf: chain.file("leaf.pem"), hostname: host, purpose: "sslserver")
            #expect(openssl == (matches ? nil : Self.opensslHostnameMismatch), "\(host)")
            if !matches {
                let error = try #require(verdict.error)
                #expect(error.code == Int(errSecHostNameMismatch))
                #expect(error.localizedDescription == "\u{201C}www.example.test\u{201D} certificate name does not match input")
                let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
                #expect(underlying.localizedDescription
                    == "Certificate 0 \u{201C}www.example.test\u{201D} has errors: SSL hostname does not match name(s) in certificate;")
            }
        }
    }

    @Test("SecPolicyCreateSSL with an IP address matches the leaf's IP address names, as openssl -verify_ip")
    func ipAddresses() throws {
        let chain = try Self.chain()
        for (address, matches) in [("192.0.2.7", true), ("192.0.2.8", false)] {
            let trust = try Self.trust([chain.leaf, chain.intermediate], [SecPolicyCreateSSL(true, address as CFString)],
                                       anchors: [chain.root])
            let verdict = Self.evaluate(trust)
            #expect(verdict.trusted == matches, "\(address)")
            #expect(verdict.error?.code == (matches ? nil : Int(errSecHostNameMismatch)), "\(address)")
            let result = try Self.openssl(["verify", "-CAfile", chain.file("root.pem"), "-untrusted", chain.file("intermediate.pem"),
                                           "-verify_ip", address, chain.file("leaf.pem")])
            #expect((result.status == 0) == matches, "\(address)")
        }
    }

    @Test("A leaf whose extended key usage is clientAuth alone fails a server SSL policy with errSecInvalidExtendedKeyUsage and passes a client one, as openssl -purpose")
    func extendedKeyUsage() throws {
        let chain = try Self.chain()
        let server = try Self.trust([chain.clientLeaf, chain.intermediate], [SecPolicyCreateSSL(true, nil)], anchors: [chain.root])
        let error = try #require(Self.evaluate(server).error)
        #expect(error.code == Int(errSecInvalidExtendedKeyUsage))
        #expect(error.localizedDescription == "\u{201C}client.example.test\u{201D} certificate is not permitted for this usage")
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                       leaf: chain.file("client.pem"), purpose: "sslserver") == Self.opensslInvalidPurpose)

        let client = try Self.trust([chain.clientLeaf, chain.intermediate], [SecPolicyCreateSSL(false, nil)], anchors: [chain.root])
        #expect(Self.evaluate(client).trusted)
        #expect(try Self.opensslVerify(root: chain.file("root.pem"), untrusted: [chain.file("intermediate.pem")],
                                       leaf: chain.file("client.pem"), purpose: "sslclient") == nil)
        // The basic X.509 policy asks nothing of the usage.
        let basic = try Self.trust([chain.clientLeaf, chain.intermediate], [SecPolicyCreateBasicX509()], anchors: [chain.root])
        #expect(Self.evaluate(basic).trusted)
    }

    @Test("Of several failures the most serious names the error, as Apple ranks them: an untrusted root before a host name, a host name before expiry")
    func mostSeriousFailureNamesTheError() throws {
        let chain = try Self.chain()
        let policy = SecPolicyCreateSSL(true, "other.example.test" as CFString)
        let later = chain.leafNotAfter + 86400
        let anchored = try Self.trust([chain.leaf, chain.intermediate], [policy], anchors: [chain.root])
        #expect(SecTrustSetVerifyDate(anchored, later as CFDate) == errSecSuccess)
        #expect(Self.evaluate(anchored).error?.code == Int(errSecHostNameMismatch))
        let unanchored = try Self.trust([chain.leaf, chain.intermediate, chain.root], [policy])
        #expect(SecTrustSetVerifyDate(unanchored, later as CFDate) == errSecSuccess)
        #expect(Self.evaluate(unanchored).error?.code == Int(errSecNotTrusted))
    }

    @Test("SecPolicyCopyProperties gives Apple's OIDs, the host name and the client flag; CFGetTypeID tells policies and trusts apart")
    func policyProperties() throws {
        let basic = try #require(SecPolicyCopyProperties(SecPolicyCreateBasicX509()) as? [String: Any])
        #expect(basic[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.2")
        #expect(basic.count == 1)
        let server = try #require(SecPolicyCopyProperties(SecPolicyCreateSSL(true, "host.test" as CFString)) as? [String: Any])
        #expect(server[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.3")
        #expect(server[kSecPolicyName as String] as? String == "host.test")
        #expect(server[kSecPolicyClient as String] == nil)
        let client = try #require(SecPolicyCopyProperties(SecPolicyCreateSSL(false, nil)) as? [String: Any])
        #expect(client[kSecPolicyClient as String] as? Bool == true)
        #expect(CFGetTypeID(SecPolicyCreateBasicX509()) == SecPolicyGetTypeID())
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf])
        #expect(CFGetTypeID(trust) == SecTrustGetTypeID())
        #expect(SecTrustGetTypeID() != SecPolicyGetTypeID())
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(trust, &policies) == errSecSuccess)
        // nil policies at creation: the basic X.509 policy, as Apple does.
        let only = try #require((policies as? [SecPolicy])?.first)
        #expect((SecPolicyCopyProperties(only) as? [String: Any])?[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.2")
        var fetch: DarwinBoolean = true
        #expect(SecTrustGetNetworkFetchAllowed(trust, &fetch) == errSecSuccess)
        #expect(fetch == false)
    }

    @Test("SecTrustSetPolicies replaces the policies and the last result: the trust is evaluated again")
    func setPoliciesInvalidatesTheResult() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        #expect(Self.evaluate(trust).trusted)
        #expect(SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, "nope.test" as CFString)) == errSecSuccess)
        var result = SecTrustResultType.unspecified
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .invalid)
        #expect(Self.evaluate(trust).error?.code == Int(errSecHostNameMismatch))
        #expect(SecTrustSetPolicies(trust, "not a policy" as NSString) == errSecParam)
    }

    @Test("The deprecated SecTrustEvaluate and SecTrustGetCertificateAtIndex, still widely used, give the same verdict and chain")
    @available(*, deprecated, message: "uses the deprecated functions on purpose")
    func deprecatedFunctions() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        var result = SecTrustResultType.invalid
        #expect(SecTrustCopyResult(trust) == nil)
        #expect(SecTrustEvaluate(trust, &result) == errSecSuccess)
        #expect(result == .unspecified)
        let found = (0..<3).compactMap { SecTrustGetCertificateAtIndex(trust, $0) }
        #expect(Self.der(found) == Self.der([chain.leaf, chain.intermediate, chain.root]))
        #expect(SecTrustGetCertificateAtIndex(trust, 3) == nil)
        #expect(SecTrustGetCertificateAtIndex(trust, -1) == nil)
        let copied = try #require(SecTrustCopyResult(trust) as? [String: Any])
        #expect(copied[kSecTrustResultValue as String] as? UInt32 == SecTrustResultType.unspecified.rawValue)

        let untrusted = try Self.trust([chain.leaf, chain.intermediate, chain.root])
        #expect(SecTrustEvaluate(untrusted, &result) == errSecSuccess)
        #expect(result == .recoverableTrustFailure)
    }

    @Test("Network fetching is Apple's default (off with a basic X.509 policy, on for SSL) and settable, and never changes a verdict: a missing intermediate stays missing")
    func networkFetchIsRecordedOnly() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf], [SecPolicyCreateSSL(true, nil)], anchors: [chain.root])
        var allowed: DarwinBoolean = false
        #expect(SecTrustGetNetworkFetchAllowed(trust, &allowed) == errSecSuccess)
        #expect(allowed == true)
        #expect(Self.evaluate(trust).error?.code == Int(errSecCreateChainFailed))
        #expect(SecTrustSetNetworkFetchAllowed(trust, false) == errSecSuccess)
        #expect(SecTrustGetNetworkFetchAllowed(trust, &allowed) == errSecSuccess)
        #expect(allowed == false)
    }

    @Test("SecTrustCopyKey gives the leaf's public key, the one openssl x509 -pubkey exports")
    func copyKeyIsTheLeafsPublicKey() throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], anchors: [chain.root])
        let exported = try Self.run(["x509", "-in", chain.file("leaf.pem"), "-noout", "-pubkey"])
        let opensslKey = try P256.Signing.PublicKey(pemRepresentation: exported)
        let key = try #require(SecTrustCopyKey(trust))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) as Data? == opensslKey.x963Representation)
        // Before and after evaluation alike.
        #expect(SecTrustEvaluateWithError(trust, nil))
        #expect(SecKeyCopyExternalRepresentation(try #require(SecTrustCopyKey(trust)), &error) as Data? == opensslKey.x963Representation)
    }

    // MARK: Bad input

    @Test("SecTrustCreateWithCertificates refuses what is not a certificate or a non-empty array of them, and policies likewise, with errSecParam")
    func badInputIsErrSecParam() throws {
        let chain = try Self.chain()
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates("leaf" as NSString, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates([] as NSArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates([chain.leaf, "x"] as NSArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(chain.leaf, [] as NSArray, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(chain.leaf, [SecPolicyCreateBasicX509(), 1] as NSArray, &trust) == errSecParam)
        #expect(trust == nil)
        #expect(SecTrustCreateWithCertificates(chain.leaf, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        let made = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(made, ["root"] as CFArray) == errSecParam)
    }

    // MARK: Threads

    @Test("SecTrustEvaluateAsyncWithError calls back once, on the queue given, with the verdict and error")
    func asyncCallsBackOnTheQueue() async throws {
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate], [SecPolicyCreateSSL(true, "other.example.test" as CFString)],
                                   anchors: [chain.root])
        let queue = DispatchQueue(label: "trust-tests.callback")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "callback queue")
        let (onQueue, trusted, code) = await withCheckedContinuation { continuation in
            queue.async {
                let status = SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
                    continuation.resume(returning: (DispatchQueue.getSpecific(key: key), trusted, error?.code))
                }
                #expect(status == errSecSuccess)
            }
        }
        #expect(onQueue == "callback queue")
        #expect(!trusted)
        #expect(code == Int(errSecHostNameMismatch))
    }

    @Test("Swift tasks evaluating synchronously, more than the cooperative pool has threads, do not deadlock it")
    func concurrentTasksDoNotDeadlock() throws {
        let chain = try Self.chain()
        let folder = TestScratch.folder("trust-concurrently")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let leaf = folder.appendingPathComponent("leaf.der"), anchor = folder.appendingPathComponent("root.der")
        try (SecCertificateCopyData(chain.clientLeaf) as Data).write(to: leaf)
        try (SecCertificateCopyData(chain.intermediate) as Data).write(to: anchor)
        // At least eight, and more than the pool's threads (one per core), each blocking one:
        // had the verifier needed a pool thread, none would be left and the helper would hang.
        // It runs in a process of its own so that a deadlock cannot stop this one.
        let tasks = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let process = try HelperProcess.start(["trust-concurrently", leaf.path, anchor.path, String(tasks)],
                                              dataHome: nil, accessGroups: nil)
        // Far longer than the few milliseconds each evaluation takes, even on a loaded machine.
        let deadline = Date() + 120
        while process.poll() == nil, Date() < deadline { usleep(20_000) }
        guard process.poll() != nil else {
            process.kill()
            process.wait()
            Issue.record("\(tasks) tasks evaluating at once did not finish in 120 seconds: deadlocked")
            return
        }
        #expect(HelperProcess.finish(process) == String(tasks))
    }

    // MARK: System roots

    /// A root of the distribution's CA bundle valid now, as openssl verify says.
    private static func validSystemRoot() throws -> SecCertificate {
        var found: SecCertificate?
        for certificate in SystemTrustRoots.certificates.prefix(20) where found == nil {
            let file = TestScratch.folder("system-root").path + ".pem"
            try certificate.serializeAsPEM().pemString.write(toFile: file, atomically: true, encoding: .utf8)
            if try opensslVerify(root: "/etc/ssl/certs/ca-certificates.crt", leaf: file) == nil {
                found = try Self.certificate(pemFile: file)
            }
        }
        return try #require(found, "no root of the CA bundle verifies with openssl")
    }

    @Test("The distribution's CA bundle loads more than 10 roots; a self-made chain fails against them with errSecNotTrusted, as openssl verify with the bundle")
    func systemRoots() throws {
        #expect(SystemTrustRoots.certificates.count > 10)
        let chain = try Self.chain()
        let trust = try Self.trust([chain.leaf, chain.intermediate, chain.root], [SecPolicyCreateBasicX509()])
        #expect(Self.evaluate(trust).error?.code == Int(errSecNotTrusted))
        #expect(try Self.opensslVerify(root: "/etc/ssl/certs/ca-certificates.crt",
                                       untrusted: [chain.file("intermediate.pem"), chain.file("root.pem")],
                                       leaf: chain.file("leaf.pem")) == Self.opensslSelfSignedInChain)
    }
}
