package dev.lomicontrol.mcp;

import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.ipc.CallAnswer;
import dev.lomicontrol.ipc.CallRequest;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the helper's per-call code on synthetic data, once, on a daemon thread started after the
 * {@code initialize} answer: the request line parsed, planned and framed, the ChaCha20-Poly1305 record
 * cipher both ways, a broker answer the size of a file page read, wrapped and written as a line
 * (nothing leaves the process). The helper compiles with C1 only, and without this a session's
 * first ~100 forwarded calls ran while that code was still being compiled (about 200 ms of compiler
 * work): 1–8 ms each instead of under 1 ms. The client is busy with {@code tools/list} or its model
 * then, and the broker connection is being set up. Any failure is reported on stderr and changes
 * nothing else; a process that never initializes never runs it.
 */
final class HotPathWarmup {

    /** Enough runs for C1 (at a tenth of the default thresholds) to compile what they run. */
    static final int RUNS = 40;

    private final ToolCalls calls;
    private final AtomicBoolean started = new AtomicBoolean();

    HotPathWarmup(ToolCalls calls) {
        this.calls = calls;
    }

    /** Starts the warm-up on its own daemon thread, the first time only. */
    void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(this::runQuietly, "hot-path-warmup");
        thread.setDaemon(true);
        thread.start();
    }

    private void runQuietly() {
        try {
            run(RUNS);
        } catch (RuntimeException | GeneralSecurityException e) {
            Diagnostics.info("the hot-path warm-up stopped early: " + e);
        }
    }

    /** Runs the per-call code {@code runs} times on synthetic data; writes nothing anywhere. */
    void run(int runs) throws GeneralSecurityException {
        byte[] request = requestLine().getBytes(StandardCharsets.UTF_8);
        byte[] answer = answerFrame();
        Cipher sealing = Cipher.getInstance("ChaCha20-Poly1305"); // one per direction, as TLS keeps them
        Cipher opening = Cipher.getInstance("ChaCha20-Poly1305");
        SecretKeySpec key = new SecretKeySpec(new byte[32], "ChaCha20");
        for (int run = 0; run < runs; run++) {
            Inbound parsed = Inbound.parse(request);
            if (parsed instanceof Inbound.Request
                    && calls.plan(((Inbound.Request) parsed).params(), ProtocolVersion.LATEST_LEGACY)
                            instanceof ToolCalls.Plan.Forward forward) {
                new CallRequest(IpcJson.IPC_VERSION, "r" + run, forward.tool().name(), forward.arguments()).toFrame();
            }
            byte[] opened = open(opening, key, run, seal(sealing, key, run, answer));
            CallAnswer read = CallAnswer.read(opened);
            ObjectNode response = McpJson.object().put("jsonrpc", "2.0").put("id", run);
            response.set(
                    "result",
                    Protocol.decorate(
                            CallResults.of(read, ProtocolVersion.LATEST_LEGACY), ProtocolVersion.LATEST_LEGACY));
            McpJson.terminatedLine(response);
        }
    }

    /** A {@code tools/call} of {@code lomi_files_read} as clients send it (planned, never sent). */
    private static String requestLine() {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\""
                + FileSpecs.READ.name()
                + "\",\"arguments\":{\"workspaceId\":\"ws-0123456789abcdef\",\"relativePath\":\"src/warm.txt\",\"maxChars\":8192}}}";
    }

    /** A broker's answer to a page read: an ok envelope around 8 KiB of text lines. */
    private static byte[] answerFrame() {
        StringBuilder text = new StringBuilder();
        for (int line = 0; text.length() < 8192; line++) {
            text.append("line ").append(line).append(" of a page \"read\" ahead of the first call\t…\n");
        }
        ObjectNode data = McpJson.object()
                .put("kind", "file_text")
                .put("relativePath", "src/warm.txt")
                .put("text", text.toString())
                .put("startUtf16", 0)
                .put("nextUtf16", text.length())
                .put("truncated", true)
                .put("diskRevision", "0".repeat(64));
        ObjectNode frame = McpJson.object().put("requestId", "r1");
        frame.set("result", Envelope.ok(data));
        return McpJson.line(frame);
    }

    private static byte[] seal(Cipher cipher, SecretKeySpec key, int run, byte[] plain)
            throws GeneralSecurityException {
        cipher.init(Cipher.ENCRYPT_MODE, key, nonce(run));
        cipher.updateAAD(new byte[] {23, 3, 3, 0, 0});
        ByteBuffer out = ByteBuffer.allocate(plain.length + 16);
        cipher.doFinal(ByteBuffer.wrap(plain), out);
        return out.array();
    }

    private static byte[] open(Cipher cipher, SecretKeySpec key, int run, byte[] sealed)
            throws GeneralSecurityException {
        cipher.init(Cipher.DECRYPT_MODE, key, nonce(run));
        cipher.updateAAD(new byte[] {23, 3, 3, 0, 0});
        ByteBuffer out = ByteBuffer.allocate(sealed.length);
        cipher.doFinal(ByteBuffer.wrap(sealed), out);
        byte[] plain = new byte[out.position()];
        out.flip().get(plain);
        return plain;
    }

    /** A fresh nonce per run: the cipher refuses to encrypt twice under one key and nonce. */
    private static IvParameterSpec nonce(int run) {
        byte[] nonce = new byte[12];
        ByteBuffer.wrap(nonce).putInt(8, run);
        return new IvParameterSpec(nonce);
    }
}
