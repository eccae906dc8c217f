package dev.lomicontrol.transport;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * An ephemeral self-signed ECDSA P-256 certificate and its key, which lives only in memory (BouncyCastle
 * builds the certificate; the JDK providers do all cryptography, no provider is registered). Validity is
 * now-1h .. now+7d, but pinning ignores validity: the pin names the exact certificate.
 */
public record SessionCertificate(PrivateKey privateKey, X509Certificate certificate) {

    private static final Duration BACKDATE = Duration.ofHours(1);
    private static final Duration LIFETIME = Duration.ofDays(7);
    private static final SecureRandom RANDOM = new SecureRandom();

    public SessionCertificate {
        java.util.Objects.requireNonNull(privateKey, "privateKey");
        java.util.Objects.requireNonNull(certificate, "certificate");
    }

    /** @param commonName 1-64 characters of {@code [A-Za-z0-9.-]}, e.g. {@code helper.lomi.invalid} */
    public static SessionCertificate generate(String commonName) {
        if (commonName == null || !commonName.matches("[A-Za-z0-9.-]{1,64}")) {
            throw new IllegalArgumentException("a common name must be 1-64 characters of [A-Za-z0-9.-]");
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            KeyPair keys = generator.generateKeyPair();
            return new SessionCertificate(keys.getPrivate(), selfSign(keys, commonName));
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("cannot create a session certificate", e);
        }
    }

    private static X509Certificate selfSign(KeyPair keys, String commonName)
            throws OperatorCreationException, CertIOException, CertificateException {
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.CN, commonName)
                .build();
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                name,
                new BigInteger(127, RANDOM).add(BigInteger.ONE),
                Date.from(now.minus(BACKDATE)),
                Date.from(now.plus(LIFETIME)),
                name,
                keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
            KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
        }));
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    /** Lower-case hex SHA-256 over the certificate's DER. */
    public String sha256() {
        return sha256(certificate);
    }

    /** The certificate's DER encoding (a fresh copy). */
    public byte[] der() {
        return encoded(certificate);
    }

    /** Parses exactly one DER certificate; refuses PEM, trailing bytes and garbage with IllegalArgumentException. */
    public static X509Certificate parse(byte[] der) {
        if (der == null || der.length == 0) {
            throw new IllegalArgumentException("no certificate bytes");
        }
        try {
            X509Certificate certificate = (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
            if (!Arrays.equals(encoded(certificate), der)) {
                throw new IllegalArgumentException("not exactly one DER certificate");
            }
            return certificate;
        } catch (CertificateException | ClassCastException e) {
            throw new IllegalArgumentException("not a DER X.509 certificate", e);
        }
    }

    /** Lower-case hex SHA-256 over {@code certificate}'s DER. */
    public static String sha256(X509Certificate certificate) {
        return HexFormat.of().formatHex(sha256Bytes(certificate));
    }

    static byte[] sha256Bytes(X509Certificate certificate) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(encoded(certificate));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("certificate cannot be encoded", e);
        }
    }

    /** Never shows the private key. */
    @Override
    public String toString() {
        return "SessionCertificate[" + certificate.getSubjectX500Principal().getName() + ", sha256=" + sha256() + "]";
    }
}
