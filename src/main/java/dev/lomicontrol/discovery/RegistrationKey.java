package dev.lomicontrol.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * The broker's persistent Ed25519 registration key: PKCS#8, file 0600 (one link, ours, at most
 * 1 KiB) in a 0700 directory of ours. Clients pin its raw public key; a restart re-signs discovery
 * with the same key. A present but unusable key file is refused and never overwritten.
 */
public final class RegistrationKey {

    static final int MAX_BYTES = 1024;
    private static final String ALGORITHM = "Ed25519";
    /** DER SubjectPublicKeyInfo header for Ed25519 (RFC 8410); the raw 32-byte key follows it. */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    private static final byte[] SELF_TEST =
            "lomi-control registration key self-test".getBytes(StandardCharsets.US_ASCII);

    private final PrivateKey privateKey;
    private final String publicKeyHex;

    private RegistrationKey(PrivateKey privateKey, String publicKeyHex) {
        this.privateKey = privateKey;
        this.publicKeyHex = publicKeyHex;
    }

    /**
     * Loads the key, or creates it (create-new, fsync file, fsync directory) when the file is missing.
     * An existing file that is unsafe (mode, link, owner, size) or not an Ed25519 PKCS#8 key is refused
     * with STORAGE_UNAVAILABLE naming the file and the problem, and left byte-for-byte untouched.
     */
    public static RegistrationKey loadOrCreate(Path file) {
        Path absolute = file.toAbsolutePath();
        PrivatePaths.ensurePrivateDirectory(absolute, "registration key " + absolute);
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            Optional<RegistrationKey> created = create(absolute);
            if (created.isPresent()) {
                return created.get();
            }
        }
        return load(absolute);
    }

    /** Raw 32-byte Ed25519 public key as 64 lower-case hex characters: what clients pin with --discovery-key. */
    public String publicKeyHex() {
        return publicKeyHex;
    }

    public byte[] sign(byte[] message) {
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initSign(privateKey);
            signature.update(message);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    /** Whether {@code signature} is valid for {@code message} under the pinned raw public key (64 hex); false for any malformed input. */
    public static boolean verify(String publicKeyHex, byte[] message, byte[] signature) {
        if (!isHex(publicKeyHex, 64) || message == null || signature == null || signature.length != 64) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance(ALGORITHM);
            verifier.initVerify(publicKey(HexFormat.of().parseHex(publicKeyHex)));
            verifier.update(message);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** Whether {@code value} is exactly {@code length} hex digits (either case). */
    static boolean isHex(String value, int length) {
        return value != null
                && value.length() == length
                && value.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128);
    }

    /** A new key written no-clobber; empty when another process created the file first. */
    private static Optional<RegistrationKey> create(Path file) {
        byte[] pkcs8 = generate();
        try {
            PrivatePaths.writeNewFile(file, pkcs8);
            PrivatePaths.fsyncDirectory(PrivatePaths.parentOf(file));
        } catch (FileAlreadyExistsException raced) {
            return Optional.empty();
        } catch (IOException e) {
            throw PrivatePaths.storage("cannot create registration key " + file + ": " + e.getMessage(), e);
        }
        return Optional.of(fromPkcs8(file, pkcs8));
    }

    private static RegistrationKey load(Path file) {
        try {
            return fromPkcs8(file, PrivatePaths.readPrivateFile(file, MAX_BYTES));
        } catch (DiscoveryException e) {
            throw PrivatePaths.storage("refusing registration key (left untouched): " + e.getMessage(), e);
        }
    }

    private static byte[] generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(ALGORITHM);
            return generator.generateKeyPair().getPrivate().getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is unavailable in this JDK", e);
        }
    }

    /** Parses and self-tests a PKCS#8 Ed25519 key; the public key is derived from the private seed. */
    private static RegistrationKey fromPkcs8(Path file, byte[] pkcs8) {
        try {
            requireSingleDerValue(pkcs8);
            PrivateKey key = KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            if (!(key instanceof EdECPrivateKey)
                    || !NamedParameterSpec.ED25519
                            .getName()
                            .equals(((EdECPrivateKey) key).getParams().getName())) {
                throw new GeneralSecurityException("not an Ed25519 key");
            }
            byte[] seed = ((EdECPrivateKey) key)
                    .getBytes()
                    .orElseThrow(() -> new GeneralSecurityException("the private key bytes are not available"));
            String publicHex = HexFormat.of()
                    .formatHex(new Ed25519PrivateKeyParameters(seed, 0)
                            .generatePublicKey()
                            .getEncoded());
            RegistrationKey loaded = new RegistrationKey(key, publicHex);
            if (!verify(publicHex, SELF_TEST, loaded.sign(SELF_TEST))) {
                throw new GeneralSecurityException("the key fails its signing self-test");
            }
            return loaded;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw PrivatePaths.storage(
                    "refusing registration key " + file + " (left untouched): not a valid Ed25519 PKCS#8 key: "
                            + e.getMessage(),
                    e);
        }
    }

    /** The bytes must be exactly one DER SEQUENCE (the JDK parser tolerates trailing bytes; we do not). */
    private static void requireSingleDerValue(byte[] der) throws GeneralSecurityException {
        if (der.length < 2 || der[0] != 0x30) {
            throw new GeneralSecurityException("not a DER SEQUENCE");
        }
        int first = der[1] & 0xff;
        int lengthBytes = first < 0x80 ? 0 : first - 0x80;
        if (lengthBytes > 2 || der.length < 2 + lengthBytes) {
            throw new GeneralSecurityException("unsupported DER length");
        }
        int length = lengthBytes == 0 ? first : 0;
        for (int i = 0; i < lengthBytes; i++) {
            length = (length << 8) | (der[2 + i] & 0xff);
        }
        if (2 + lengthBytes + length != der.length) {
            throw new GeneralSecurityException(
                    "the DER value is " + (2 + lengthBytes + length) + " bytes but the file has " + der.length);
        }
    }

    private static PublicKey publicKey(byte[] raw) throws GeneralSecurityException {
        byte[] encoded = new byte[X509_PREFIX.length + raw.length];
        System.arraycopy(X509_PREFIX, 0, encoded, 0, X509_PREFIX.length);
        System.arraycopy(raw, 0, encoded, X509_PREFIX.length, raw.length);
        return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(encoded));
    }
}
