package dev.lomicontrol.broker;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ProcessIdentity;
import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.discovery.RegistrationKey;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.transport.SessionCertificate;
import dev.lomicontrol.transport.UnixSocketServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The control socket: per start a new broker certificate and socket in the private runtime
 * directory, discovery.json re-signed with the persistent registration key, at most 16
 * connections and 4 concurrent handshakes. Stopping revokes every session, closes the socket and
 * removes discovery.json if it still names this instance.
 */
@Component
public class ControlEndpoint implements SmartLifecycle {

    public static final int MAX_CONNECTIONS = 16;
    public static final int MAX_HANDSHAKES = 4;
    public static final String SOCKET = "control.sock";
    public static final String DISCOVERY = "discovery.json";
    public static final String REGISTRATION_KEY = "registration-key.pk8";

    private static final Logger log = LoggerFactory.getLogger(ControlEndpoint.class);

    private final BrokerRuntime runtime;
    private final DataDirectory dataDirectory;
    private final Pairings pairings;
    private final Sessions sessions;
    private final BrokerCalls calls;
    private final Semaphore handshakes = new Semaphore(MAX_HANDSHAKES);
    private volatile @Nullable UnixSocketServer server;

    public ControlEndpoint(
            BrokerRuntime runtime,
            DataDirectory dataDirectory,
            Pairings pairings,
            Sessions sessions,
            BrokerCalls calls) {
        this.runtime = runtime;
        this.dataDirectory = dataDirectory;
        this.pairings = pairings;
        this.sessions = sessions;
        this.calls = calls;
    }

    @Override
    public void start() {
        RegistrationKey key = RegistrationKey.loadOrCreate(dataDirectory.store().resolve(REGISTRATION_KEY));
        SessionCertificate certificate = SessionCertificate.generate(runtime.instanceId() + ".lomi.invalid");
        Path socket = runtime.runtimeDirectory().resolve(SOCKET);
        long uid = ProcessIdentity.uid();
        try {
            server = UnixSocketServer.bind(
                    socket,
                    MAX_CONNECTIONS,
                    channel -> new ControlConnection(
                                    channel,
                                    certificate,
                                    runtime.instanceId(),
                                    pairings,
                                    sessions,
                                    calls,
                                    handshakes,
                                    uid,
                                    runtime::warnings)
                            .serve());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + socket, e);
        }
        Path discovery = dataDirectory.store().resolve(DISCOVERY);
        DiscoveryFile.publish(
                discovery,
                new DiscoveryRecord(runtime.instanceId(), socket.toString(), certificate.sha256(), IpcJson.IPC_VERSION),
                key);
        runtime.controlEndpoint(socket, discovery, key.publicKeyHex());
        log.info(
                "control socket {} (broker certificate {}); discovery {}; pin with --discovery-key {}",
                socket,
                certificate.sha256(),
                discovery,
                key.publicKeyHex());
    }

    @Override
    public void stop() {
        UnixSocketServer running = server;
        server = null;
        if (running == null) {
            return;
        }
        sessions.revokeAll("broker shutdown");
        running.close();
        runtime.discoveryFile().ifPresent(file -> DiscoveryFile.removeIfOwned(file, runtime.instanceId()));
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** Starts after the ledger and services, stops before them. */
    @Override
    public int getPhase() {
        return 100;
    }

    public int openConnections() {
        UnixSocketServer running = server;
        return running == null ? 0 : running.openConnections();
    }
}
