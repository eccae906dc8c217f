package dev.lomicontrol.android;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * A stream that gives its source's bytes but holds the last chunk back until the source has ended
 * and the SHA-256 of everything matches: on a mismatch the read throws and the last chunk is never
 * given out.
 */
final class HeldBackStream extends InputStream {

    static final int CHUNK = 64 * 1024;

    private final InputStream source;
    private final MessageDigest digest;
    private final String expected;
    private byte[] giving = new byte[0];
    private int position;
    private byte[] held = new byte[0];
    private boolean started;
    private boolean ended;

    HeldBackStream(InputStream source, MessageDigest digest, String expected) {
        this.source = source;
        this.digest = digest;
        this.expected = expected;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (position == giving.length) {
            if (!advance()) {
                return -1;
            }
        }
        int n = Math.min(length, giving.length - position);
        System.arraycopy(giving, position, into, offset, n);
        position += n;
        return n;
    }

    /** Gives out the held chunk and holds the next; verifies the digest before the last one. False at the end. */
    private boolean advance() throws IOException {
        if (!started) {
            started = true;
            held = readChunk();
        }
        if (ended) {
            return false;
        }
        byte[] next = readChunk();
        if (next.length == 0) {
            ended = true;
            String actual = HexFormat.of().formatHex(digest.digest());
            if (!actual.equals(expected)) {
                throw new IOException("the APK changed while it was sent: its SHA-256 is now " + actual);
            }
        }
        giving = held;
        position = 0;
        held = next;
        return true;
    }

    private byte[] readChunk() throws IOException {
        byte[] chunk = source.readNBytes(CHUNK);
        digest.update(chunk);
        return chunk;
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
