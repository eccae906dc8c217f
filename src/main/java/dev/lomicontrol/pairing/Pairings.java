package dev.lomicontrol.pairing;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Pending pairing requests: at most {@link #maxPending()} ({@code lomi.control.max-pending-pairings},
 * {@value #DEFAULT_MAX_PENDING} unless set), each expiring after two minutes. The
 * admin approves one by id (optionally narrowing projects and scopes) or denies it; with YOLO on,
 * new requests are approved at once with the full grant.
 */
public final class Pairings {

    public static final int DEFAULT_MAX_PENDING = 64;
    public static final Duration EXPIRY = Duration.ofSeconds(120);

    private final Clock clock;
    private final RandomGenerator random;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private volatile boolean yolo;
    private volatile int maxPending = DEFAULT_MAX_PENDING;
    private final java.util.List<java.util.function.Consumer<PairingRequest>> watchers =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    public Pairings(Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
    }

    /** A request waiting for the admin; {@link #decision()} completes on approve, deny or expiry. */
    public static final class Pending {
        private final PairingRequest request;
        private final CompletableFuture<Decision> decision = new CompletableFuture<>();

        Pending(PairingRequest request) {
            this.request = request;
        }

        public PairingRequest request() {
            return request;
        }

        public CompletableFuture<Decision> decision() {
            return decision;
        }
    }

    public int maxPending() {
        return maxPending;
    }

    /** Sets the cap on pending requests (the broker's {@code lomi.control.max-pending-pairings}); at least 1. */
    public void setMaxPending(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("the pending pairing cap must be at least 1");
        }
        maxPending = max;
    }

    /** Records a request, or refuses with RESOURCE_EXHAUSTED when {@link #maxPending()} are already pending. */
    public synchronized Pending submit(String clientLabel, String certificateSha256, long peerPid) {
        expire();
        int max = maxPending;
        if (pending.size() >= max) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    max + " pairing requests are already pending (lomi.control.max-pending-pairings=" + max
                            + "); the client asks again by itself once the admin approved or denied some");
        }
        Instant now = clock.instant();
        PairingRequest request = new PairingRequest(
                "pr-" + Ids.randomHex(random, 6), clientLabel, certificateSha256, peerPid, now, now.plus(EXPIRY));
        Pending entry = new Pending(request);
        if (yolo) {
            entry.decision.complete(new Decision.Approved(Grant.full()));
        } else {
            pending.put(request.id(), entry);
            watchers.forEach(watcher -> watcher.accept(request));
        }
        return entry;
    }

    /** Calls {@code watcher} with every request that waits for the admin (not those YOLO approves), as it arrives. */
    public void watch(java.util.function.Consumer<PairingRequest> watcher) {
        watchers.add(watcher);
    }

    public synchronized List<PairingRequest> pending() {
        expire();
        List<PairingRequest> out = new ArrayList<>();
        pending.values().forEach(p -> out.add(p.request));
        out.sort(Comparator.comparing(PairingRequest::createdAt));
        return out;
    }

    /**
     * Approves a pending request. Without projects the grant covers the projects that exist now
     * ({@code currentProjects}; SPEC §3.5: not later ones); without scopes it holds the full scope
     * set ({@link Scopes#all()}). {@code resolveProject} maps an id or name to a project
     * (TARGET_NOT_FOUND otherwise).
     */
    public synchronized Grant approve(
            String requestId,
            Optional<List<String>> projects,
            Optional<List<String>> scopes,
            Function<String, Optional<ProjectId>> resolveProject,
            java.util.function.Supplier<Set<ProjectId>> currentProjects) {
        return approve(requestId, projects, scopes, List.of(), List.of(), resolveProject, currentProjects);
    }

    /**
     * As above, the grant also naming Android devices (adb serials or AVD names) and packages, checked
     * against its scopes by {@link AndroidGrant#select} (INVALID_ARGUMENT; the request stays pending).
     * Without scopes (the full grant, every android.* scope in it) it reaches every device and package
     * unless devices or packages are named ({@link AndroidGrant#fullGrant}).
     */
    public synchronized Grant approve(
            String requestId,
            Optional<List<String>> projects,
            Optional<List<String>> scopes,
            List<String> androidDevices,
            List<String> androidPackages,
            Function<String, Optional<ProjectId>> resolveProject,
            java.util.function.Supplier<Set<ProjectId>> currentProjects) {
        Pending entry = take(requestId);
        Grant grant;
        try {
            Set<String> granted = scopes.map(Scopes::validate).orElseGet(Scopes::all);
            grant = new Grant(
                    false,
                    projects.isEmpty() ? currentProjects.get() : resolve(projects.get(), resolveProject),
                    granted,
                    scopes.isEmpty()
                            ? AndroidGrant.fullGrant(androidDevices, androidPackages)
                            : AndroidGrant.select(granted, androidDevices, androidPackages));
        } catch (LomiException e) {
            pending.put(requestId, entry);
            throw e;
        }
        entry.decision.complete(new Decision.Approved(grant));
        return grant;
    }

    public synchronized PairingRequest deny(String requestId) {
        Pending entry = take(requestId);
        entry.decision.complete(new Decision.Denied("the admin denied the pairing request"));
        return entry.request;
    }

    /** Forgets a request whose client went away. */
    public synchronized void withdraw(String requestId) {
        pending.remove(requestId);
    }

    public boolean yolo() {
        return yolo;
    }

    /** Turns automatic approval on or off; turning it on approves everything pending. */
    public synchronized void setYolo(boolean on) {
        yolo = on;
        if (on) {
            pending.values().forEach(p -> p.decision.complete(new Decision.Approved(Grant.full())));
            pending.clear();
        }
    }

    private Pending take(String requestId) {
        expire();
        Pending entry = pending.remove(requestId);
        if (entry == null) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no pending pairing request " + requestId + " (it may have expired)");
        }
        return entry;
    }

    private static Set<ProjectId> resolve(List<String> names, Function<String, Optional<ProjectId>> resolveProject) {
        if (names.isEmpty() || names.size() > 16) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a grant names 1-16 projects");
        }
        Set<ProjectId> ids = new java.util.LinkedHashSet<>();
        for (String name : names) {
            ids.add(resolveProject
                    .apply(name)
                    .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + name)));
        }
        return ids;
    }

    private void expire() {
        Instant now = clock.instant();
        pending.values().removeIf(p -> {
            boolean expired = !now.isBefore(p.request.expiresAt());
            if (expired) {
                p.decision.complete(
                        new Decision.Denied("the pairing request expired after " + EXPIRY.toSeconds() + " s"));
            }
            return expired;
        });
    }
}
