import Crypto
import Foundation

/// The Ed25519 keys that sign content packages, as text files: the base64 of the key's 32 bytes and
/// a newline. The private key signs a package when it is made; the public key, which the user gives,
/// is the only trust anchor when it is opened.
public enum ContentSigningKey {
    /// A new key pair: the private key's text and the public key's.
    public static func generate() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (key.rawRepresentation.base64EncodedString() + "\n", key.publicKey.rawRepresentation.base64EncodedString() + "\n")
    }

    /// Reads a private key's text.
    public static func privateKey(_ text: String) throws(ContentError) -> Curve25519.Signing.PrivateKey {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32,
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data) else {
            throw ContentError(.invalidKey, "not an Ed25519 private key (the base64 of 32 bytes, as `mapsim content keygen` writes it)")
        }
        return key
    }

    /// Reads a public key's text.
    public static func publicKey(_ text: String) throws(ContentError) -> Curve25519.Signing.PublicKey {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data) else {
            throw ContentError(.invalidKey, "not an Ed25519 public key (the base64 of 32 bytes, as `mapsim content keygen` writes it to NAME.pub)")
        }
        return key
    }
}
