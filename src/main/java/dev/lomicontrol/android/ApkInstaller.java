package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Installs an APK file on a device as adb's streamed install does: {@code exec:cmd package install -S
 * SIZE} with the file's bytes on the stream, answered {@code Success} or {@code Failure [REASON]}. The
 * file's SHA-256 is checked against the one asked for before anything is sent (ARTIFACT_INVALID), and
 * again while it streams: its last chunk is held back until the whole digest matches, so a file that
 * changed meanwhile never reaches the installer complete.
 */
public final class ApkInstaller {

    static final int MAX_ANSWER = 16 * 1024;
    private static final Pattern FAILURE = Pattern.compile("Failure \\[([^\\]]*)\\]");

    /**
     * The installer's answer.
     *
     * @param installed true for {@code Success}
     * @param failure the reason in {@code Failure [REASON]} when not installed
     */
    public record Outcome(boolean installed, Optional<String> failure) {}

    private final AdbBridge bridge;

    public ApkInstaller(AdbBridge bridge) {
        this.bridge = bridge;
    }

    /** Streams {@code apk} to the device's package installer within {@code deadline}. */
    public Outcome install(String serial, Path apk, String sha256, Duration deadline) {
        String expected = sha256.toLowerCase(Locale.ROOT);
        if (!expected.matches("[0-9a-f]{64}")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "sha256 must be 64 hex digits");
        }
        try {
            long size = Files.size(apk);
            String actual = sha256Of(apk);
            if (!actual.equals(expected)) {
                throw mismatch(actual, expected);
            }
            byte[] answer;
            try (Counted verified = new Counted(new HeldBackStream(Files.newInputStream(apk), sha256(), expected))) {
                try {
                    answer = bridge.exec(
                            serial,
                            List.of("cmd", "package", "install", "-S", Long.toString(size)),
                            verified,
                            size,
                            deadline,
                            MAX_ANSWER);
                } catch (LomiException e) {
                    throw interrupted(e, verified, size);
                }
            }
            return outcome(new String(answer, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("the APK could not be read: " + apk, e);
        }
    }

    /** {@code Success} → installed; {@code Failure [REASON]} → not, with REASON; anything else OUTCOME_UNKNOWN. */
    static Outcome outcome(String answer) {
        List<String> lines =
                answer.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.contains("Success")) {
            return new Outcome(true, Optional.empty());
        }
        for (String line : lines) {
            Matcher failure = FAILURE.matcher(line);
            if (failure.find()) {
                return new Outcome(false, Optional.of(failure.group(1)));
            }
        }
        throw new LomiException(
                ErrorCode.OUTCOME_UNKNOWN,
                "the package installer answered neither Success nor Failure ("
                        + (lines.isEmpty() ? "nothing" : lines.get(lines.size() - 1))
                        + "); check whether the package is installed");
    }

    /**
     * A failure of the streamed install: before any byte was handed to the stream nothing can have been
     * installed (the failure as it is: failed, no effect); a digest that changed while streaming held
     * the last chunk back (ARTIFACT_INVALID, the installer never had the whole APK); any other failure
     * once bytes were on their way may have installed the APK (OUTCOME_UNKNOWN), as input does.
     */
    private static LomiException interrupted(LomiException e, Counted sent, long size) {
        if (sent.changed != null) {
            return new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    sent.changed + "; its last chunk was held back, so the installer never had the whole APK",
                    e);
        }
        if (sent.count == 0 || e.code() == ErrorCode.OUTCOME_UNKNOWN) {
            return e;
        }
        return new LomiException(
                ErrorCode.OUTCOME_UNKNOWN,
                "the install stream was open and " + sent.count + " of " + size + " bytes were on their way when it"
                        + " failed (" + e.getMessage() + "), so the package may be installed; check on the device"
                        + " before installing again",
                e);
    }

    /** The bytes handed to the stream so far, and the digest failure of the held-back stream, if any. */
    private static final class Counted extends java.io.FilterInputStream {
        long count;

        @Nullable
        String changed;

        Counted(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            try {
                int n = in.read(into, offset, length);
                count += Math.max(n, 0);
                return n;
            } catch (IOException e) {
                changed = e.getMessage() == null ? "the APK could not be read while it was sent" : e.getMessage();
                throw e;
            }
        }
    }

    static String sha256Of(Path file) throws IOException {
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStreamNull.INSTANCE);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static LomiException mismatch(String actual, String expected) {
        return new LomiException(
                ErrorCode.ARTIFACT_INVALID,
                "the APK's SHA-256 is " + actual + ", not " + expected + "; nothing was installed");
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    /** A null sink for {@link InputStream#transferTo}. */
    private static final class OutputStreamNull extends java.io.OutputStream {
        static final OutputStreamNull INSTANCE = new OutputStreamNull();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }
}
