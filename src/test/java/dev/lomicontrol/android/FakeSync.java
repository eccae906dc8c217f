package dev.lomicontrol.android;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The test device's {@code sync:} service: reassembles requests from WRTE payloads of any size and
 * answers SEND/DATA/DONE (the file is kept in {@link FakeAdbd#files} with its mode), STAT and QUIT.
 */
final class FakeSync {

    /** The sync state of a stream that is not {@code sync:}: it ignores what it receives. */
    static final FakeSync NONE = new FakeSync();

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final ByteArrayOutputStream file = new ByteArrayOutputStream();
    private String sending = "";
    private boolean quit;

    /** Takes one WRTE payload; answers the complete requests it holds. */
    List<byte[]> receive(byte[] data, FakeAdbd device) {
        List<byte[]> answers = new ArrayList<>();
        if (this == NONE) {
            return answers;
        }
        buffer.writeBytes(data);
        byte[] all = buffer.toByteArray();
        int at = 0;
        while (all.length - at >= 8) {
            ByteBuffer header = ByteBuffer.wrap(all, at, 8).order(ByteOrder.LITTLE_ENDIAN);
            String id = new String(all, at, 4, StandardCharsets.US_ASCII);
            header.getInt();
            int length = header.getInt();
            boolean hasPayload = !id.equals("DONE");
            if (hasPayload && all.length - at - 8 < length) {
                break;
            }
            byte[] payload = hasPayload ? java.util.Arrays.copyOfRange(all, at + 8, at + 8 + length) : new byte[0];
            at += 8 + (hasPayload ? length : 0);
            answers.addAll(request(id, length, payload, device));
        }
        buffer.reset();
        buffer.write(all, at, all.length - at);
        return answers;
    }

    boolean quit() {
        return quit;
    }

    private List<byte[]> request(String id, int length, byte[] payload, FakeAdbd device) {
        switch (id) {
            case "SEND":
                sending = new String(payload, StandardCharsets.UTF_8);
                file.reset();
                return List.of();
            case "DATA":
                file.writeBytes(payload);
                return List.of();
            case "DONE":
                String path = sending.substring(0, sending.lastIndexOf(','));
                device.files.put(path, file.toByteArray());
                device.recordService("sync SEND " + sending);
                return List.of(SyncProtocol.request("OKAY", new byte[0]));
            case "STAT":
                byte[] stored = device.files.get(new String(payload, StandardCharsets.UTF_8));
                ByteBuffer stat = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                stat.put("STAT".getBytes(StandardCharsets.US_ASCII));
                stat.putInt(stored == null ? 0 : 0100644).putInt(stored == null ? 0 : stored.length);
                stat.putInt(stored == null ? 0 : 1);
                return List.of(stat.array());
            case "QUIT":
                quit = true;
                return List.of();
            default:
                quit = true;
                byte[] reason = ("unknown sync request " + id).getBytes(StandardCharsets.UTF_8);
                return List.of(SyncProtocol.request("FAIL", reason));
        }
    }
}
