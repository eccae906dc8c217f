package dev.lomicontrol.files;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 hex helpers for disk and directory revisions. */
final class Revisions {

    /** Copied for each use: a provider lookup per revision was a visible part of a file read's CPU. */
    private static final MessageDigest SHA_256 = lookUp();

    private Revisions() {}

    /** The disk revision of {@code bytes}: SHA-256, lower-case hex. */
    static String disk(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return lookUp();
        }
    }

    private static MessageDigest lookUp() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }
}
