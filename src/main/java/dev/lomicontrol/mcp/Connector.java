package dev.lomicontrol.mcp;

import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.BrokerClient.Phase;
import dev.lomicontrol.ipc.BrokerClient.State;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Keeps one connection to the broker in the background. Each attempt uses a fresh {@link
 * BrokerClient} (discovery check → enrollment → the admin's approval → mutual TLS); a client is
 * published by {@link #connected()} only once it is connected, so a call never waits behind a
 * pending approval. After {@code app_unavailable} or {@code disconnected} it retries with backoff
 * 1 s → 2 s → … → 10 s, and never starts two attempts less than 1 s apart; after a connection that was
 * up ends while idle, it waits {@link #AFTER_LOSS} first, unless a call needs the connection. After {@code broker_full}
 * (every connection slot of the broker is taken) it tries again every 1-1.5 s, so it takes a slot
 * within about 1.5 s of one freeing, and keeps reporting {@code broker_full} (with the broker's cap and
 * count) until an attempt gets in. A denial by the admin is final for this process (asking again
 * every few seconds would pester the admin).
 *
 * <p>The pairing request carries the label "lomi-control mcp (client version)" when {@code
 * initialize} named the client within the label grace period, and "lomi-control mcp" otherwise.
 */
final class Connector implements AutoCloseable {

    static final Duration MIN_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    /** Longer than the broker's pairing expiry (120 s), which answers a denial itself. */
    static final Duration APPROVAL_TIMEOUT = Duration.ofSeconds(130);

    static final String GENERIC_LABEL = "lomi-control mcp";
    /** How long a waiting call gives a pending pairing request before it answers pairing_required. */
    static final Duration APPROVAL_GRACE = Duration.ofSeconds(3);
    /**
     * After a connection that was up ends while idle (revoked, broker stopped), the next attempt waits this long
     * unless a call needs the connection: a helper that waits for a slot (every 1-1.5 s) takes the freed one first,
     * and this one queues behind it. A loss a call reports is reconnected at once.
     */
    static final Duration AFTER_LOSS = Duration.ofSeconds(3);
    /** Extra random wait after broker_full, so that helpers waiting for slots do not knock in step. */
    static final Duration FULL_JITTER = Duration.ofMillis(500);
    /** Phase changes inside a connection attempt are not signalled; waiters look again this often. */
    private static final Duration POLL = Duration.ofMillis(100);

    private static final int MAX_LABEL = 80;

    private final Optional<Path> discoveryFile;
    private final Optional<String> discoveryKey;
    private final Duration labelGrace;
    private final Object monitor = new Object();
    private volatile @Nullable String label;
    private volatile @Nullable BrokerClient attempt;
    private volatile @Nullable BrokerClient connected;
    private volatile boolean inConnect;
    /** The loop waits out {@link #AFTER_LOSS} after a loss it noticed while idle; a call that needs the connection ends it. */
    private volatile boolean pausedAfterLoss;
    /** A call is waiting for a connection (or reported one lost): the pause after a loss ends at once. */
    private volatile boolean wanted;
    /** Whether the last connection was found closed by the idle look rather than reported lost by a call. */
    private boolean lostWhileIdle;

    private volatile boolean closed;
    private volatile @Nullable State finalState;
    /** The last attempt's answer while the broker is full: reported during the next attempt too. */
    private volatile @Nullable State lastFull;

    private long attemptsFinished;
    private @Nullable Thread thread;

    Connector(Optional<Path> discoveryFile, Optional<String> discoveryKey, Duration labelGrace) {
        this.discoveryFile = discoveryFile;
        this.discoveryKey = discoveryKey;
        this.labelGrace = labelGrace;
        if (discoveryFile.isEmpty() || discoveryKey.isEmpty()) {
            finalState = new State(
                    Phase.APP_UNAVAILABLE,
                    Optional.empty(),
                    Optional.empty(),
                    "this helper was started without "
                            + (discoveryKey.isEmpty() ? "--discovery-key" : "--discovery-file")
                            + "; register the client again with the console");
        }
    }

    /** Starts the background loop (a daemon thread); does nothing when discovery is not configured. */
    void start() {
        if (finalState != null) {
            return;
        }
        thread = new Thread(this::run, "lomi-mcp-connector");
        thread.setDaemon(true);
        thread.start();
    }

    /** Names the client in the label of pairing requests made from now on; the first name offered wins. */
    void offerClientInfo(String name, String version) {
        synchronized (monitor) {
            if (label == null) {
                label = label(name, version);
                monitor.notifyAll();
            }
        }
    }

    static String label(String name, String version) {
        String client = clean(name) + (clean(version).isEmpty() ? "" : " " + clean(version));
        String text = client.isBlank() ? GENERIC_LABEL : GENERIC_LABEL + " (" + client.trim() + ")";
        return text.length() <= MAX_LABEL ? text : text.substring(0, MAX_LABEL - 1) + ")";
    }

    private static String clean(String text) {
        return text == null
                ? ""
                : text.codePoints()
                        .filter(c -> !Character.isISOControl(c) && c < 0x10000)
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                        .toString()
                        .trim();
    }

    Optional<Path> discoveryFile() {
        return discoveryFile;
    }

    /** What status and diagnostics report: the live state of the current attempt or connection. */
    State state() {
        State done = finalState;
        if (done != null) {
            return done;
        }
        BrokerClient current = attempt;
        if (current == null) {
            return new State(Phase.CONNECTING, Optional.empty(), Optional.empty(), "starting");
        }
        State state = current.state();
        State full = lastFull;
        if (full != null && (state.phase() == Phase.CONNECTING || inConnect && state.phase() == Phase.DISCONNECTED)) {
            return full;
        }
        if (inConnect && state.phase() == Phase.DISCONNECTED) {
            return new State(Phase.CONNECTING, Optional.empty(), Optional.empty(), "connecting");
        }
        return state;
    }

    /** The connected client, if any. */
    Optional<BrokerClient> connected() {
        BrokerClient client = connected;
        return client != null && client.state().phase() == Phase.CONNECTED ? Optional.of(client) : Optional.empty();
    }

    /** Whether an attempt is under way right now (its outcome is worth waiting for briefly). */
    boolean isConnecting() {
        return finalState == null && (attempt == null || inConnect || pausedAfterLoss);
    }

    /**
     * Waits up to {@code max} for a connected client. Gives up early when an attempt that finishes
     * after this call began did not connect (an unavailable broker is reported at once) and when the
     * attempt has waited for the admin longer than {@link #APPROVAL_GRACE} (only a human can move it
     * on; an automatic YOLO approval arrives well within the grace).
     */
    Optional<BrokerClient> awaitConnected(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long pairingSince = -1;
        synchronized (monitor) {
            wanted = true;
            monitor.notifyAll();
            long finishedAtStart = attemptsFinished;
            while (connected().isEmpty() && !closed && finalState == null && attemptsFinished == finishedAtStart) {
                long now = System.nanoTime();
                pairingSince = state().phase() != Phase.PAIRING_REQUIRED ? -1 : pairingSince < 0 ? now : pairingSince;
                if (now >= deadline || (pairingSince >= 0 && now - pairingSince >= APPROVAL_GRACE.toNanos())) {
                    break;
                }
                monitor.wait(Math.max(1, Math.min(POLL.toMillis(), (deadline - now) / 1_000_000)));
            }
        }
        return connected();
    }

    /** The bridge reports that {@code client} failed a call: the loop drops it and connects again. */
    void lost(BrokerClient client) {
        synchronized (monitor) {
            wanted = true;
            if (connected == client) {
                connected = null;
            }
            monitor.notifyAll();
        }
    }

    private void run() {
        try {
            awaitLabel();
            int failures = 0;
            long lastStart = System.nanoTime() - MAX_BACKOFF.toNanos();
            while (!closed) {
                pause(lastStart + backoff(failures).toNanos());
                pausedAfterLoss = false;
                wanted = false;
                if (closed) {
                    return;
                }
                lastStart = System.nanoTime();
                State state = attemptOnce();
                if (state.phase() == Phase.BROKER_FULL) {
                    // a slot may free any moment: look again soon, whatever failed before
                    failures = 0;
                    lastStart +=
                            java.util.concurrent.ThreadLocalRandom.current().nextLong(FULL_JITTER.toNanos());
                    continue;
                }
                if (state.phase() == Phase.CONNECTED) {
                    // it was connected and the connection ended (a revoke, a broker stop): found while idle, let a
                    // helper waiting for a slot go first unless a call needs the connection; a call's loss: at once
                    failures = 0;
                    if (lostWhileIdle) {
                        lastStart = System.nanoTime()
                                + AFTER_LOSS.toNanos()
                                - backoff(0).toNanos();
                        pausedAfterLoss = true;
                    }
                    continue;
                }
                failures++;
                if (isFinalDenial(state)) {
                    finalState = state;
                    Diagnostics.warn("the admin denied this client; not asking again until the MCP client restarts");
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The least time between the starts of two attempts after {@code failures} failed ones: 1, 1, 2, 4, 8, 10, 10 … s. */
    static Duration backoff(int failures) {
        long seconds = failures <= 1
                ? MIN_BACKOFF.toSeconds()
                : Math.min(MAX_BACKOFF.toSeconds(), 1L << Math.min(failures - 1, 10));
        return Duration.ofSeconds(seconds);
    }

    /** One connection attempt; when it connects, holds the connection until it is lost. Returns the attempt's result. */
    private State attemptOnce() throws InterruptedException {
        BrokerClient client = new BrokerClient(
                discoveryFile.orElseThrow(), discoveryKey.orElseThrow(), label == null ? GENERIC_LABEL : label);
        inConnect = true;
        attempt = client;
        State state;
        try {
            state = client.connect(APPROVAL_TIMEOUT);
        } finally {
            inConnect = false;
        }
        if (state.phase() != Phase.BROKER_FULL || lastFull == null) {
            Diagnostics.info("broker connection: " + state.phase().wire() + " (" + state.detail() + ")");
        }
        lastFull = state.phase() == Phase.BROKER_FULL ? state : null;
        synchronized (monitor) {
            attemptsFinished++;
            connected = state.phase() == Phase.CONNECTED ? client : null;
            monitor.notifyAll();
        }
        while (true) {
            synchronized (monitor) {
                if (connected != client || client.state().phase() != Phase.CONNECTED || closed) {
                    lostWhileIdle = connected == client && !closed;
                    connected = null;
                    return state;
                }
                monitor.wait(1_000);
            }
            // outside the monitor: a TLS record the look has to answer may wait for a call's write to finish
            client.noticeClose();
        }
    }

    private void awaitLabel() throws InterruptedException {
        long deadline = System.nanoTime() + labelGrace.toNanos();
        synchronized (monitor) {
            while (label == null && !closed && System.nanoTime() < deadline) {
                monitor.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
        }
    }

    private void pause(long untilNanos) throws InterruptedException {
        synchronized (monitor) {
            while (!closed && System.nanoTime() < untilNanos && !(pausedAfterLoss && wanted)) {
                monitor.wait(Math.max(1, (untilNanos - System.nanoTime()) / 1_000_000));
            }
        }
    }

    /** The broker reports a denial as "pairing denied: …"; an expired request is worth asking again. */
    private static boolean isFinalDenial(State state) {
        return state.phase() == Phase.DISCONNECTED
                && state.detail().startsWith("pairing denied")
                && !state.detail().contains("expired");
    }

    /** Stops the loop without blocking; open sockets close with the process. */
    @Override
    public void close() {
        synchronized (monitor) {
            closed = true;
            monitor.notifyAll();
        }
    }
}
