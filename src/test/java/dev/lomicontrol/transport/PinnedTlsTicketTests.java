package dev.lomicontrol.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import org.junit.jupiter.api.Test;

/**
 * F7 (security review 2026-12-01), SPEC §3.6 "no session tickets": the broker's TLS server sends
 * nothing after the handshake. The broker and helper engines of {@link PinnedTls} shake hands in
 * memory; every byte the server produces once the client has sent its Finished would be a
 * NewSessionTicket (TLS 1.3 has nothing else to send there).
 */
class PinnedTlsTicketTests {

    @Test
    void theServerSendsNoSessionTicketAfterTheHandshake() throws Exception {
        SessionCertificate broker = SessionCertificate.generate("broker.lomi.invalid");
        SessionCertificate helper = SessionCertificate.generate("helper.lomi.invalid");
        SSLEngine server = PinnedTls.server(broker, helper.sha256()).newEngine();
        SSLEngine client = PinnedTls.client(helper, broker.sha256()).newEngine();
        int size = Math.max(
                        server.getSession().getPacketBufferSize(),
                        client.getSession().getPacketBufferSize())
                * 4;
        ByteBuffer toServer = ByteBuffer.allocate(size);
        ByteBuffer toClient = ByteBuffer.allocate(size);
        ByteBuffer sink = ByteBuffer.allocate(size);
        client.beginHandshake();
        server.beginHandshake();
        boolean clientFinished = false;
        long afterClientFinished = 0;
        for (int round = 0; round < 200; round++) {
            SSLEngineResult c = step(client, toClient, toServer, sink);
            clientFinished |= c.getHandshakeStatus() == HandshakeStatus.FINISHED;
            int before = toClient.position();
            step(server, toServer, toClient, sink);
            if (clientFinished) {
                afterClientFinished += toClient.position() - before;
            }
            if (clientFinished
                    && idle(client)
                    && idle(server)
                    && toServer.position() == 0
                    && toClient.position() == 0) {
                break;
            }
        }
        assertThat(clientFinished).as("the handshake completed").isTrue();
        assertThat(client.getSession().getProtocol()).isEqualTo("TLSv1.3");
        assertThat(afterClientFinished)
                .as("bytes the server sent after the client's Finished (a NewSessionTicket)")
                .isZero();
    }

    private static boolean idle(SSLEngine engine) {
        return engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
    }

    /** One wrap and one unwrap of {@code engine}: reads what arrived in {@code in}, writes into {@code out}. */
    private static SSLEngineResult step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer sink)
            throws Exception {
        SSLEngineResult last = engine.wrap(ByteBuffer.allocate(0), out);
        runTasks(engine);
        SSLEngineResult wrapped = last;
        in.flip();
        while (in.hasRemaining()) {
            sink.clear();
            last = engine.unwrap(in, sink);
            runTasks(engine);
            if (last.getHandshakeStatus() == HandshakeStatus.FINISHED
                    || wrapped.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                wrapped = last.getHandshakeStatus() == HandshakeStatus.FINISHED ? last : wrapped;
            }
            if (last.getStatus() != SSLEngineResult.Status.OK || last.bytesConsumed() == 0) {
                break;
            }
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
                SSLEngineResult more = engine.wrap(ByteBuffer.allocate(0), out);
                runTasks(engine);
                if (more.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                    wrapped = more;
                }
            }
        }
        in.compact();
        return wrapped.getHandshakeStatus() == HandshakeStatus.FINISHED ? wrapped : last;
    }

    private static void runTasks(SSLEngine engine) {
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
            task.run();
        }
    }
}
