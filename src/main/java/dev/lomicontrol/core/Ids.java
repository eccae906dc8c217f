package dev.lomicontrol.core;

import java.util.HexFormat;
import java.util.random.RandomGenerator;

/** Generation and validation helpers shared by the id records. */
public final class Ids {

    private Ids() {}

    /** {@code bytes} random bytes as lower-case hex. */
    public static String randomHex(RandomGenerator random, int bytes) {
        byte[] buffer = new byte[bytes];
        random.nextBytes(buffer);
        return HexFormat.of().formatHex(buffer);
    }

    public static String requireHex(String value, int hexChars, String what) {
        if (value == null || value.length() != hexChars || !value.chars().allMatch(Ids::isLowerHex)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, what + " must be " + hexChars + " lower-case hex characters");
        }
        return value;
    }

    /** A short opaque token: 1..128 characters of {@code [A-Za-z0-9._:-]}. */
    static String requireToken(String value, String what) {
        if (value == null
                || value.isEmpty()
                || value.length() > 128
                || !value.chars().allMatch(Ids::isTokenChar)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, what + " must be 1-128 characters of [A-Za-z0-9._:-]");
        }
        return value;
    }

    private static boolean isLowerHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    private static boolean isTokenChar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '.'
                || c == '_'
                || c == ':'
                || c == '-';
    }
}
