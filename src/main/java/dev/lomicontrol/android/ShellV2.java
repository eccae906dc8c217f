package dev.lomicontrol.android;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code shell,v2} framing (AOSP {@code shell_protocol.h}): packets of {@code [id:1][length:4
 * little-endian][data]} with ids 0 stdin, 1 stdout, 2 stderr, 3 exit (one byte: the status), 4 close
 * stdin, 5 window size.
 */
final class ShellV2 {

    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;
    static final int EXIT = 3;
    static final int CLOSE_STDIN = 4;

    private ShellV2() {}

    /** One packet's bytes. */
    static byte[] packet(int id, byte[] data) {
        return ByteBuffer.allocate(5 + data.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) id)
                .putInt(data.length)
                .put(data)
                .array();
    }

    /** Closes the command's stdin, then reads its output until the exit packet; each stream kept up to {@code maxBytes}. */
    static ShellResult run(SmartSocket socket, int maxBytes) throws IOException {
        socket.write(packet(CLOSE_STDIN, new byte[0]));
        socket.flush();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        boolean truncated = false;
        while (true) {
            ByteBuffer header = ByteBuffer.wrap(socket.readExactly(5)).order(ByteOrder.LITTLE_ENDIAN);
            int id = header.get() & 0xff;
            int length = header.getInt();
            if (length < 0 || length > 16 * 1024 * 1024) {
                throw new IOException("a shell packet of " + Integer.toUnsignedString(length) + " bytes");
            }
            byte[] data = socket.readExactly(length);
            if (id == EXIT) {
                if (length != 1) {
                    throw new IOException("an exit packet of " + length + " bytes");
                }
                return new ShellResult(data[0] & 0xff, out.toByteArray(), err.toByteArray(), truncated);
            }
            ByteArrayOutputStream target = id == STDOUT ? out : id == STDERR ? err : null;
            if (target != null) {
                int keep = Math.max(0, Math.min(length, maxBytes - target.size()));
                target.write(data, 0, keep);
                truncated |= keep < length;
            }
        }
    }
}
