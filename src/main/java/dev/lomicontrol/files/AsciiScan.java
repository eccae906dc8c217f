package dev.lomicontrol.files;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Tells, eight bytes at a time, whether bytes are "plain" text: ASCII without NUL and without CR, so that
 * each byte is one UTF-16 unit, the text is not binary and its line endings are LF or none. Any other
 * text takes the full decoding path. (The JDK's own vectorised ASCII check is internal to {@code String}.)
 */
final class AsciiScan {

    static final int NOT_PLAIN = -1;
    static final int WITHOUT_LF = 0;
    static final int WITH_LF = 1;

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long CRS = ONES * '\r';
    private static final long LFS = ONES * '\n';

    private AsciiScan() {}

    /** {@link #NOT_PLAIN}, or whether plain {@code bytes[from..]} hold a LF ({@link #WITH_LF}) or not. */
    static int plain(byte[] bytes, int from) {
        boolean lf = false;
        int i = from;
        for (; i <= bytes.length - Long.BYTES; i += Long.BYTES) {
            long word = (long) WORDS.get(bytes, i);
            // with no high bit set, hasZero is exact: a byte is 0 (NUL), or equal to CR after the xor
            if ((word & HIGH_BITS) != 0 || hasZero(word) || hasZero(word ^ CRS)) {
                return NOT_PLAIN;
            }
            lf |= hasZero(word ^ LFS);
        }
        for (; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b <= 0 || b == '\r') {
                return NOT_PLAIN;
            }
            lf |= b == '\n';
        }
        return lf ? WITH_LF : WITHOUT_LF;
    }

    private static boolean hasZero(long word) {
        return ((word - ONES) & ~word & HIGH_BITS) != 0;
    }
}
