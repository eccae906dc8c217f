package dev.lomicontrol.pairing;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.SessionId;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * One approved, connected client. Authority is a single volatile flag checked without locks, so
 * revocation takes effect at once even while the ledger or a resource is busy.
 */
public final class Session {

    private final SessionId id;
    private final PairingRequest request;
    private volatile Grant grant;
    private final Instant connectedAt;
    private final Runnable disconnect;
    private final AtomicReference<String> revoked = new AtomicReference<>();
    private final Set<Runnable> whenRevoked = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Session(SessionId id, PairingRequest request, Grant grant, Instant connectedAt, Runnable disconnect) {
        this.id = id;
        this.request = request;
        this.grant = grant;
        this.connectedAt = connectedAt;
        this.disconnect = disconnect;
    }

    public SessionId id() {
        return id;
    }

    public String clientLabel() {
        return request.clientLabel();
    }

    public long peerPid() {
        return request.peerPid();
    }

    public String certificateSha256() {
        return request.certificateSha256();
    }

    public Grant grant() {
        return grant;
    }

    /** Adds a project the admin approved for this session ({@code lomi_project_open}); the grant's scopes and Android devices stay as they were. */
    public synchronized void extendGrant(ProjectId project) {
        Set<ProjectId> projects = new HashSet<>(grant.projects());
        projects.add(project);
        grant = new Grant(grant.allProjects(), projects, grant.scopes(), grant.android());
    }

    public Instant connectedAt() {
        return connectedAt;
    }

    public boolean isAlive() {
        return revoked.get() == null;
    }

    /** Why authority ended, or null while alive. */
    public @Nullable String revokedReason() {
        return revoked.get();
    }

    /** Refuses with CONTROL_REVOKED once the session lost its authority. */
    public void requireAlive() {
        String reason = revoked.get();
        if (reason != null) {
            throw new LomiException(ErrorCode.CONTROL_REVOKED, "this session's authority ended: " + reason);
        }
    }

    /**
     * Runs {@code action} once when authority ends — at once (on this thread) if it already has.
     * It must not block: it runs on the revoking thread before the connection is closed (it is how a
     * waiting call is released). Returns the handle that unregisters it.
     */
    public Runnable onRevoke(Runnable action) {
        whenRevoked.add(action);
        if (!isAlive() && whenRevoked.remove(action)) {
            action.run();
        }
        return () -> whenRevoked.remove(action);
    }

    /** Ends authority (first caller wins) and closes the connection; returns whether this call revoked it. */
    boolean revoke(String reason) {
        if (!revoked.compareAndSet(null, reason)) {
            return false;
        }
        for (Runnable action : whenRevoked) {
            if (whenRevoked.remove(action)) {
                try {
                    action.run();
                } catch (RuntimeException ignored) {
                    // a release hook never stands in the way of the revocation itself
                }
            }
        }
        disconnect.run();
        return true;
    }
}
