package dev.lomicontrol.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The header of a SQLite {@code -shm} wal-index as a crashed process left it: it tells how many WAL
 * frames SQLite had acknowledged as committed ({@code mxFrame}).
 *
 * <p>Layout: two identical 48-byte {@code WalIndexHdr} copies in NATIVE byte order: u32 iVersion,
 * u32 unused, u32 iChange, u8 isInit, u8 bigEndCksum, u16 szPage, u32 mxFrame, u32 nPage,
 * u32 aFrameCksum[2], u32 aSalt[2], u32 aCksum[2]; then the 40-byte checkpoint info (136 bytes total).
 * {@code aSalt} is a raw {@code memcpy} of WAL header bytes 16..23 (so it is big-endian bytes, not a
 * native-order number), and {@code aCksum} is SQLite's checksum over the first 40 header bytes in
 * native word order.
 *
 * <p>Contract: reads only; a missing, short or inconsistent file yields an unusable index with the
 * reason, never an exception (except genuine I/O errors).
 *
 * @param unusableReason why the index cannot be trusted, or {@code null} when it can
 * @param mxFrame        frames SQLite had committed (valid only when usable)
 * @param frameChecksum  aFrameCksum: the cumulative checksum of frame {@code mxFrame}
 * @param salt           the 8 raw aSalt bytes, to compare bytewise with the WAL header's salts
 */
record WalIndex(@Nullable String unusableReason, long mxFrame, int[] frameChecksum, byte[] salt) {

    static final int MIN_SIZE = 136;
    private static final int HDR_SIZE = 48;
    private static final int VERSION = 3007000;

    boolean usable() {
        return unusableReason == null;
    }

    /** Same index marked unusable for {@code reason}. */
    WalIndex unusable(String reason) {
        return new WalIndex(reason, mxFrame, frameChecksum, salt);
    }

    /** Reads the wal-index header of {@code shm}; see the class contract. */
    static WalIndex read(Path shm) throws IOException {
        if (!Files.exists(shm)) {
            return invalid("no wal-index file");
        }
        if (!Files.isRegularFile(shm)) {
            return invalid("wal-index is not a regular file");
        }
        long size = Files.size(shm);
        if (size < MIN_SIZE) {
            return invalid("wal-index is only " + size + " bytes");
        }
        ByteBuffer both;
        try (FileChannel ch = FileChannel.open(shm, StandardOpenOption.READ)) {
            both = WalScan.readAt(ch, 0, 2 * HDR_SIZE).order(ByteOrder.nativeOrder());
        }
        return parse(both);
    }

    private static WalIndex parse(ByteBuffer both) {
        byte[] first = bytes(both, 0, HDR_SIZE);
        if (!Arrays.equals(first, bytes(both, HDR_SIZE, HDR_SIZE))) {
            return invalid("the two wal-index header copies differ (update in flight)");
        }
        if (Byte.toUnsignedInt(both.get(12)) != 1) {
            return invalid("wal-index isInit is not 1");
        }
        if (both.getInt(0) != VERSION) {
            return invalid("wal-index version " + Integer.toUnsignedString(both.getInt(0)));
        }
        WalScan.Checksum sum = new WalScan.Checksum(both.order() == ByteOrder.BIG_ENDIAN, 0, 0);
        sum.add(both, 0, 40);
        if (sum.s0 != both.getInt(40) || sum.s1 != both.getInt(44)) {
            return invalid("wal-index header checksum mismatch");
        }
        long mxFrame = Integer.toUnsignedLong(both.getInt(16));
        int[] frameChecksum = {both.getInt(24), both.getInt(28)};
        return new WalIndex(null, mxFrame, frameChecksum, bytes(both, 32, 8));
    }

    private static WalIndex invalid(String reason) {
        return new WalIndex(reason, 0, new int[2], new byte[8]);
    }

    private static byte[] bytes(ByteBuffer buf, int from, int len) {
        byte[] out = new byte[len];
        buf.get(from, out);
        return out;
    }
}
