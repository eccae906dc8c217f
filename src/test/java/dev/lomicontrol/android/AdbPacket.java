package dev.lomicontrol.android;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * One message of the adbd wire protocol (AOSP {@code adb/protocol.txt}): a 24-byte little-endian
 * header {@code command, arg0, arg1, data_length, data_crc32 (byte sum), magic = command ^ 0xffffffff}
 * and its payload. For the test device only.
 */
record AdbPacket(int command, int arg0, int arg1, byte[] data) {

    static final int CNXN = word("CNXN");
    static final int AUTH = word("AUTH");
    static final int OPEN = word("OPEN");
    static final int OKAY = word("OKAY");
    static final int WRTE = word("WRTE");
    static final int CLSE = word("CLSE");
    static final int STLS = word("STLS");

    static final int AUTH_TOKEN = 1;
    static final int AUTH_SIGNATURE = 2;
    static final int AUTH_RSAPUBLICKEY = 3;

    /** The largest payload this device reads (adb's own limit is 1 MiB). */
    static final int MAX_PAYLOAD = 1024 * 1024;

    static int word(String name) {
        return ByteBuffer.wrap(name.getBytes(StandardCharsets.US_ASCII))
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
    }

    static String name(int command) {
        byte[] b = ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(command)
                .array();
        return new String(b, StandardCharsets.US_ASCII);
    }

    static AdbPacket read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        byte[] header = new byte[24];
        in.readFully(header);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int command = h.getInt();
        int arg0 = h.getInt();
        int arg1 = h.getInt();
        int length = h.getInt();
        h.getInt(); // the checksum: version 0x01000001 and later do not check it
        int magic = h.getInt();
        if (magic != ~command || length < 0 || length > MAX_PAYLOAD) {
            throw new IOException("bad adb header for " + name(command) + " (length " + length + ")");
        }
        byte[] data = new byte[length];
        in.readFully(data);
        return new AdbPacket(command, arg0, arg1, data);
    }

    void write(OutputStream out) throws IOException {
        int sum = 0;
        for (byte b : data) {
            sum += b & 0xff;
        }
        ByteBuffer packet = ByteBuffer.allocate(24 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        packet.putInt(command)
                .putInt(arg0)
                .putInt(arg1)
                .putInt(data.length)
                .putInt(sum)
                .putInt(~command);
        packet.put(data);
        out.write(packet.array());
        out.flush();
    }

    /** The payload as text without its trailing NUL (OPEN's service, CNXN's banner). */
    String text() {
        int end = data.length;
        while (end > 0 && data[end - 1] == 0) {
            end--;
        }
        return new String(data, 0, end, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return name(command) + "(" + arg0 + ", " + arg1 + ", " + data.length + " bytes)";
    }
}
