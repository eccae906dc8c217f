package dev.lomicontrol.android;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Cipher;

/**
 * The test device's side of adb's RSA authentication: the host keys it has accepted, the check of
 * an AUTH SIGNATURE over a token (PKCS#1 v1.5 with a SHA-1 DigestInfo over the 20-byte token, as
 * adb's {@code RSA_sign(NID_sha1, …)} makes it), and the parsing of an AUTH RSAPUBLICKEY payload
 * (base64 of Android's {@code RSAPublicKey} struct — word count, n0inv, modulus and R² as
 * little-endian 32-bit words, exponent — then " user@host").
 */
final class DeviceKeys {

    private final List<PublicKey> accepted = new CopyOnWriteArrayList<>();

    /** Accepts {@code key} (once: a key accepted twice is kept once). */
    synchronized void accept(PublicKey key) {
        if (!accepted.contains(key)) {
            accepted.add(key);
        }
    }

    int size() {
        return accepted.size();
    }

    /** Whether {@code signature} signs {@code token} with one of the accepted keys. */
    boolean verifies(byte[] token, byte[] signature) {
        for (PublicKey key : accepted) {
            try {
                Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
                rsa.init(Cipher.DECRYPT_MODE, key);
                byte[] digestInfo = rsa.doFinal(signature);
                if (digestInfo.length >= token.length
                        && Arrays.equals(
                                Arrays.copyOfRange(digestInfo, digestInfo.length - token.length, digestInfo.length),
                                token)) {
                    return true;
                }
            } catch (GeneralSecurityException wrongKey) {
                // not signed by this key: try the next one
            }
        }
        return false;
    }

    /** The public key of an AUTH RSAPUBLICKEY payload. */
    static PublicKey parse(byte[] payload) throws GeneralSecurityException {
        String text =
                new String(payload, StandardCharsets.US_ASCII).replace("\0", "").strip();
        int space = text.indexOf(' ');
        byte[] struct = Base64.getDecoder().decode(space < 0 ? text : text.substring(0, space));
        ByteBuffer in = ByteBuffer.wrap(struct).order(ByteOrder.LITTLE_ENDIAN);
        int words = in.getInt();
        in.getInt(); // n0inv
        byte[] modulus = new byte[words * 4];
        in.get(modulus);
        in.position(in.position() + words * 4); // rr
        int exponent = in.getInt();
        byte[] bigEndian = new byte[modulus.length];
        for (int i = 0; i < modulus.length; i++) {
            bigEndian[i] = modulus[modulus.length - 1 - i];
        }
        return KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(new BigInteger(1, bigEndian), BigInteger.valueOf(exponent)));
    }
}
