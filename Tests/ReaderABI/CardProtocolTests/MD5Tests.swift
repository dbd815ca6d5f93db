import CardProtocol
import XCTest

/// MD5 against RFC 1321's own test suite (appendix A.5), and the salted key digest against
/// Python's hashlib (an implementation independent of ours).
final class MD5Tests: XCTestCase {
    func testRFC1321TestSuite() {
        let suite: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (message, digest) in suite { XCTAssertEqual(MD5.hex(Array(message.utf8)), digest, message) }
    }

    func testSaltedKeyDigestIsMetrodroidsSaltKeySalt() {
        // python3 -c "import hashlib; print(hashlib.md5(b'troika' + bytes.fromhex('a1b2c3d4e5f6') + b'troika').hexdigest())"
        XCTAssertEqual(ClassicKeyDigest.hex(key: [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], salt: "troika"), "2d2d15e22129a559ffd3c07bb7db8df7")
        XCTAssertEqual(ClassicKeyDigest.hex(key: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB], salt: "charlie"), "7aac4d9c713d9a6df622c969c6cc3506")
    }
}
