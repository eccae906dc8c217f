package dev.lomicontrol.android;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The {@code sync:} service's file transfer (AOSP {@code file_sync_protocol.h}): requests are
 * {@code [id:4][length:4 little-endian][data]}; a push is {@code SEND "<path>,<mode>"}, then
 * {@code DATA} chunks of at most 64 KiB, then {@code DONE <mtime>}, answered {@code OKAY} or
 * {@code FAIL <reason>}; {@code STAT <path>} is answered {@code STAT <mode><size><mtime>}.
 */
public final class SyncProtocol {

    /** The largest DATA chunk the protocol allows. */
    static final int MAX_CHUNK = 64 * 1024;

    private SyncProtocol() {}

    /** A remote file's mode bits, size and modification time (seconds); all zero when it does not exist. */
    public record Stat(int mode, long size, long mtimeSeconds) {
        public boolean exists() {
            return mode != 0 || size != 0 || mtimeSeconds != 0;
        }
    }

    static byte[] request(String id, byte[] data) {
        return ByteBuffer.allocate(8 + data.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(id.getBytes(StandardCharsets.US_ASCII))
                .putInt(data.length)
                .put(data)
                .array();
    }

    static void send(SmartSocket socket, byte[] content, String remotePath, int mode) throws IOException {
        ShellQuote.quote(remotePath); // refuses a NUL before anything is sent
        socket.write(request("SEND", (remotePath + "," + mode).getBytes(StandardCharsets.UTF_8)));
        for (int at = 0; at < content.length; at += MAX_CHUNK) {
            int n = Math.min(MAX_CHUNK, content.length - at);
            byte[] chunk = new byte[n];
            System.arraycopy(content, at, chunk, 0, n);
            socket.write(request("DATA", chunk));
        }
        ByteBuffer done = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        done.put("DONE".getBytes(StandardCharsets.US_ASCII)).putInt((int) (System.currentTimeMillis() / 1000));
        socket.write(done.array());
        socket.flush();
        ByteBuffer answer = ByteBuffer.wrap(socket.readExactly(8)).order(ByteOrder.LITTLE_ENDIAN);
        String id = new String(answer.array(), 0, 4, StandardCharsets.US_ASCII);
        int length = answer.getInt(4);
        if (id.equals("FAIL")) {
            throw AdbFailures.refused(
                    "push to " + remotePath, new String(socket.readExactly(length), StandardCharsets.UTF_8));
        }
        if (!id.equals("OKAY")) {
            throw new IOException("the device answered a push with " + id);
        }
        quit(socket);
    }

    static Stat stat(SmartSocket socket, String remotePath) throws IOException {
        ShellQuote.quote(remotePath);
        socket.write(request("STAT", remotePath.getBytes(StandardCharsets.UTF_8)));
        socket.flush();
        ByteBuffer answer = ByteBuffer.wrap(socket.readExactly(16)).order(ByteOrder.LITTLE_ENDIAN);
        String id = new String(answer.array(), 0, 4, StandardCharsets.US_ASCII);
        if (!id.equals("STAT")) {
            throw new IOException("the device answered STAT with " + id);
        }
        Stat stat = new Stat(
                answer.getInt(4), Integer.toUnsignedLong(answer.getInt(8)), Integer.toUnsignedLong(answer.getInt(12)));
        quit(socket);
        return stat;
    }

    private static void quit(SmartSocket socket) throws IOException {
        socket.write(request("QUIT", new byte[0]));
        socket.flush();
    }
}
