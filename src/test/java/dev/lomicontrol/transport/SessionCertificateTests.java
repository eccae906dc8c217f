package dev.lomicontrol.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Ephemeral ECDSA P-256 session certificates and their pins. */
class SessionCertificateTests {

    final SessionCertificate certificate = SessionCertificate.generate("helper.lomi.invalid");

    @Test
    void aSessionCertificateIsASelfSignedP256CertificateForItsName() throws Exception {
        assertThat(certificate.certificate().getSubjectX500Principal().getName())
                .isEqualTo("CN=helper.lomi.invalid");
        assertThat(certificate.certificate().getIssuerX500Principal())
                .isEqualTo(certificate.certificate().getSubjectX500Principal());
        assertThat(((ECPublicKey) certificate.certificate().getPublicKey())
                        .getParams()
                        .getCurve()
                        .getField()
                        .getFieldSize())
                .isEqualTo(256);
        certificate.certificate().verify(certificate.certificate().getPublicKey());
        assertThat(certificate.certificate().getNotAfter().toInstant())
                .isBetween(Instant.now().plus(Duration.ofDays(6)), Instant.now().plus(Duration.ofDays(8)));
    }

    @Test
    void theSha256IsLowerCaseHexOverTheDer() throws Exception {
        String expected =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.der()));
        assertThat(certificate.sha256()).isEqualTo(expected).matches("[0-9a-f]{64}");
        assertThat(SessionCertificate.sha256(certificate.certificate())).isEqualTo(expected);
    }

    @Test
    void eachCertificateIsFresh() {
        SessionCertificate other = SessionCertificate.generate("helper.lomi.invalid");
        assertThat(other.sha256()).isNotEqualTo(certificate.sha256());
        assertThat(other.certificate().getPublicKey())
                .isNotEqualTo(certificate.certificate().getPublicKey());
    }

    @Test
    void parseRoundTripsTheDer() {
        assertThat(SessionCertificate.parse(certificate.der())).isEqualTo(certificate.certificate());
    }

    @Test
    void parseRefusesGarbageTrailingBytesAndPem() {
        byte[] der = certificate.der();
        String pem = "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END CERTIFICATE-----\n";
        assertThatThrownBy(() -> SessionCertificate.parse(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionCertificate.parse("not a certificate".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionCertificate.parse(Arrays.copyOf(der, der.length + 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionCertificate.parse(Arrays.copyOf(der, der.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionCertificate.parse(pem.getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTextFormNeverShowsThePrivateKey() {
        assertThat(certificate.toString()).contains(certificate.sha256()).doesNotContainIgnoringCase("private");
    }

    @Test
    void aCommonNameOutsideTheAllowedCharactersIsRefused() {
        assertThatThrownBy(() -> SessionCertificate.generate("evil,CN=x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionCertificate.generate("")).isInstanceOf(IllegalArgumentException.class);
    }
}
