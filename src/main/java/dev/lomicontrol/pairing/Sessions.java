package dev.lomicontrol.pairing;

import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.Ledger;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live sessions of this broker run. Revocation (admin, YOLO toggle, disconnect, shutdown) ends
 * authority at once — a lock-free flag plus closing the connection — and then settles the
 * session's unfinished ledger work in the background (dispatched → outcome_unknown, never
 * dispatched → cancelled), so a busy ledger cannot delay the revocation itself.
 */
public final class Sessions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sessions.class);

    private final Ledger ledger;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<SessionId, Session> live = new ConcurrentHashMap<>();
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "session-settler");
        thread.setDaemon(true);
        return thread;
    });

    public Sessions(Ledger ledger, Clock clock) {
        this.ledger = ledger;
        this.clock = clock;
    }

    /** Registers an approved, authenticated connection; {@code disconnect} must close it without blocking. */
    public Session open(PairingRequest request, Grant grant, Runnable disconnect) {
        Session session = new Session(SessionId.random(random), request, grant, clock.instant(), disconnect);
        live.put(session.id(), session);
        log.info("session {} opened for '{}' (pid {})", session.id(), request.clientLabel(), request.peerPid());
        return session;
    }

    public List<Session> list() {
        List<Session> out = new ArrayList<>(live.values());
        out.sort((a, b) -> a.connectedAt().compareTo(b.connectedAt()));
        return out;
    }

    public Optional<Session> get(SessionId id) {
        return Optional.ofNullable(live.get(id));
    }

    /** Ends the session's authority now; returns false if it was not live. */
    public boolean revoke(SessionId id, String reason) {
        Session session = live.remove(id);
        if (session == null || !session.revoke(reason)) {
            return false;
        }
        log.info("session {} revoked: {}", id, reason);
        settler.execute(() -> settle(session, reason));
        return true;
    }

    public int revokeAll(String reason) {
        int count = 0;
        for (SessionId id : new ArrayList<>(live.keySet())) {
            count += revoke(id, reason) ? 1 : 0;
        }
        return count;
    }

    @Override
    public void close() {
        revokeAll("broker shutdown");
        settler.shutdown();
        try {
            settler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void settle(Session session, String reason) {
        try {
            int settled =
                    ledger.settleLost(session.id(), "session ended: " + reason).size();
            if (settled > 0) {
                log.info("session {}: settled {} unfinished operations", session.id(), settled);
            }
        } catch (RuntimeException e) {
            log.warn(
                    "session {}: settling unfinished work failed (the next start marks it outcome_unknown): {}",
                    session.id(),
                    e.getMessage());
        }
    }
}
