package dev.lomicontrol.broker;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ProcessIdentity;
import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.discovery.RegistrationKey;
import dev.lomicontrol.ipc.BrokerFull;
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
 * directory, discovery.json re-signed with the persistent registration key, at most
 * {@code lomi.control.max-connections} agent connections (one more is answered {@code broker_full}
 * before TLS, and the refusal is logged) and 4 concurrent handshakes (more wait their turn).
 * Stopping revokes every session, closes the socket and removes discovery.json if it still names
 * this instance.
 */
@Component
public class ControlEndpoint implements SmartLifecycle {

    public static final int MAX_HANDSHAKES = 4;
    /** {@code status} warns from this share of the connection cap. */
    public static final double WARN_SHARE = 0.8;
    /** At most one refusal log line per this period; the lines between are counted in the next one. */
    static final java.time.Duration REFUSAL_LOG_PERIOD = java.time.Duration.ofSeconds(10);

    public static final String SOCKET = "control.sock";
    public static final String DISCOVERY = "discovery.json";
    public static final String REGISTRATION_KEY = "registration-key.pk8";

    private static final Logger log = LoggerFactory.getLogger(ControlEndpoint.class);

    private final BrokerRuntime runtime;
    private final DataDirectory dataDirectory;
    private final Pairings pairings;
    private final Sessions sessions;
    private final BrokerCalls calls;
    private final ControlProperties properties;
    private final java.util.concurrent.atomic.AtomicLong lastRefusalLog = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong unloggedRefusals =
            new java.util.concurrent.atomic.AtomicLong();
    private final Semaphore handshakes = new Semaphore(MAX_HANDSHAKES);
    private volatile @Nullable UnixSocketServer server;

    public ControlEndpoint(
            BrokerRuntime runtime,
            DataDirectory dataDirectory,
            Pairings pairings,
            Sessions sessions,
            BrokerCalls calls,
            ControlProperties properties) {
        this.properties = properties;
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
        pairings.setMaxPending(properties.maxPendingPairings());
        try {
            server = UnixSocketServer.bind(
                    socket,
                    properties.maxConnections(),
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
                            .serve(),
                    this::refusal);
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

    /** Agent connections held now: pairing, handshaking or connected. */
    public int openConnections() {
        UnixSocketServer running = server;
        return running == null ? 0 : running.openConnections();
    }

    public int maxConnections() {
        return properties.maxConnections();
    }

    /** Connections answered {@code broker_full} since the start. */
    public long refusedConnections() {
        UnixSocketServer running = server;
        return running == null ? 0 : running.refusedConnections();
    }

    /** The warning {@code status} shows with {@code open} of {@code max} connections taken: from {@link #WARN_SHARE}. */
    public static java.util.Optional<String> capacityWarning(int open, int max) {
        if (open < Math.ceil(max * WARN_SHARE)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(open + " of " + max + " agent connections are in use"
                + (open >= max ? ": new agents are refused with broker_full" : " (80 % or more)")
                + "; 'session list' shows who holds them; raise " + BrokerFull.SETTING + " to allow more");
    }

    /** The event loop's answer to a connection over the cap: logged (at most every 10 s), then sent. */
    private byte[] refusal(int open, int max) {
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        long more = unloggedRefusals.incrementAndGet();
        if ((last == 0 || now - last >= REFUSAL_LOG_PERIOD.toNanos()) && lastRefusalLog.compareAndSet(last, now)) {
            unloggedRefusals.addAndGet(-more);
            log.warn(
                    "refused {} agent connection(s) with broker_full: {} of {} connections are in use ({}); "
                            + "'session list' shows who holds them",
                    more,
                    open,
                    max,
                    BrokerFull.SETTING);
        }
        return IpcJson.write(BrokerFull.of(max, open));
    }
}
