package dev.lomicontrol.episodes;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.Ledger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's execution episodes (SPEC §8), shared by every helper. The board lives in memory;
 * every open, attach and close is durable in the store before the call returns (the write runs
 * under the board lock, so two concurrent attaches of one externalId cannot open two episodes).
 *
 * <p>Lifecycle: {@link #attach} opens or resumes; {@link #touch} (any traffic of the holder) keeps
 * it alive; {@link #sessionEnded} detaches; {@link #detach} closes as {@code closed};
 * {@link #reap} closes episodes detached for longer than the grace as {@code expired}
 * (interrupted); {@link #close} closes all as {@code shutdown}. Episodes whose close was never
 * recorded (the broker was killed) come back detached at {@link #open}, resumable within the grace.
 */
public final class Episodes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Episodes.class);

    private final Ledger store;
    private final EpisodeStore records;
    private final Clock clock;
    private final EpisodesProperties properties;
    private final RandomGenerator random;
    private final Object lock = new Object();
    /** Guarded by {@code lock}; ordered by externalId. */
    private final Map<String, LiveEpisode> byExternalId = new TreeMap<>();
    /** Changed only under {@code lock}; read without it by {@link #touch}. */
    private final Map<SessionId, LiveEpisode> held = new ConcurrentHashMap<>();
    /** Guarded by {@code lock}. */
    private boolean closing;

    private Episodes(Ledger store, Clock clock, EpisodesProperties properties, RandomGenerator random) {
        this.store = store;
        this.records = new EpisodeStore(store);
        this.clock = clock;
        this.properties = properties;
        this.random = random;
    }

    /** Opens the board; episodes left open by an earlier run come back detached since now. */
    public static Episodes open(Ledger store, Clock clock, EpisodesProperties properties, RandomGenerator random) {
        Episodes episodes = new Episodes(store, clock, properties, random);
        Instant now = clock.instant();
        for (LiveEpisode episode : episodes.records.open()) {
            episode.detach(now);
            episodes.byExternalId.put(episode.externalId.value(), episode);
        }
        if (!episodes.byExternalId.isEmpty()) {
            log.info(
                    "{} episodes left open by an earlier run are detached; resumable for {}",
                    episodes.byExternalId.size(),
                    properties.reattachGrace());
        }
        return episodes;
    }

    public Duration reattachGrace() {
        return properties.reattachGrace();
    }

    /**
     * Makes {@code session} the holder of the episode named {@code externalId}: resumes it if open
     * (attached elsewhere or detached; {@code attachments} + 1, {@code openedAt} unchanged) or opens
     * a new one. The session's previous episode under another id is detached. Attaching the id the
     * session already holds changes nothing but its activity.
     */
    public AttachResult attach(SessionId session, ExternalId externalId) {
        synchronized (lock) {
            if (closing) {
                return new AttachResult.Refused(ErrorCode.APP_CLOSING, "the broker is stopping");
            }
            Instant now = clock.instant();
            LiveEpisode current = held.get(session);
            if (current != null && current.externalId.equals(externalId)) {
                current.lastActivity = now;
                return new AttachResult.Attached(current.snapshot(), true, Optional.empty());
            }
            LiveEpisode target = byExternalId.get(externalId.value());
            LiveEpisode attached = target == null ? openNew(externalId, now, current) : resume(target, now, current);
            Optional<Episode> released = Optional.empty();
            if (current != null) {
                current.detach(now);
                held.remove(session);
                released = Optional.of(current.snapshot());
            }
            if (attached.holder != null) {
                held.remove(attached.holder);
            }
            attached.attachTo(session, now);
            held.put(session, attached);
            return new AttachResult.Attached(attached.snapshot(), target != null, released);
        }
    }

    /** Traffic on {@code session}: keeps its episode (if any) alive. Lock-free. */
    public void touch(SessionId session) {
        LiveEpisode episode = held.get(session);
        if (episode != null) {
            episode.lastActivity = clock.instant();
        }
    }

    /** The session's connection is gone: its episode is detached (not closed) and stays resumable. */
    public Optional<Episode> sessionEnded(SessionId session) {
        synchronized (lock) {
            LiveEpisode episode = held.remove(session);
            if (episode == null || closing) {
                return Optional.empty();
            }
            episode.detach(clock.instant());
            try {
                store.change(c -> {
                    records.activity(episode.id, episode.lastActivity);
                });
            } catch (RuntimeException e) {
                log.warn("episode {}: recording the last activity at detach failed: {}", episode.id, e.getMessage());
            }
            return Optional.of(episode.snapshot());
        }
    }

    /**
     * Closes an episode deliberately (reason {@code closed}). Without {@code externalId} it is the
     * caller's own; a named episode attached to another session is not the caller's to close and
     * gets the same TARGET_NOT_FOUND as an unknown one. A detached episode may be closed by name.
     */
    public DetachResult detach(SessionId caller, Optional<ExternalId> externalId) {
        synchronized (lock) {
            if (closing) {
                return new DetachResult.Refused(ErrorCode.APP_CLOSING, "the broker is stopping");
            }
            LiveEpisode episode =
                    externalId.isPresent() ? byExternalId.get(externalId.get().value()) : held.get(caller);
            if (episode == null || (episode.holder != null && !episode.holder.equals(caller))) {
                return new DetachResult.Refused(
                        ErrorCode.TARGET_NOT_FOUND,
                        externalId.isPresent()
                                ? "no open episode " + externalId.get() + " of this session"
                                : "this session holds no episode; name one with externalId");
            }
            return new DetachResult.Closed(
                    closeAll(List.of(episode), CloseReason.CLOSED).get(0));
        }
    }

    /** Closes every episode detached for longer than the grace as {@code expired}; returns them. */
    public List<Episode> reap() {
        synchronized (lock) {
            if (closing) {
                return List.of();
            }
            Instant now = clock.instant();
            List<LiveEpisode> expired = byExternalId.values().stream()
                    .filter(e -> e.detachedLongerThan(properties.reattachGrace(), now))
                    .toList();
            return expired.isEmpty() ? List.of() : closeAll(expired, CloseReason.EXPIRED);
        }
    }

    /** What {@code caller} sees: live episodes, recently closed ones (from the store) and its own. */
    public EpisodeBoard board(SessionId caller) {
        List<Episode> live;
        Optional<Episode> mine;
        synchronized (lock) {
            live = byExternalId.values().stream().map(LiveEpisode::snapshot).toList();
            mine = Optional.ofNullable(held.get(caller)).map(LiveEpisode::snapshot);
        }
        return new EpisodeBoard(live, records.recentlyClosed(properties.recentClosed()), mine);
    }

    /** What the admin sees ({@code episodes list}): live episodes and recently closed ones; no caller, so no own episode. */
    public EpisodeBoard board() {
        List<Episode> live;
        synchronized (lock) {
            live = byExternalId.values().stream().map(LiveEpisode::snapshot).toList();
        }
        return new EpisodeBoard(live, records.recentlyClosed(properties.recentClosed()), Optional.empty());
    }

    /** Server stop: closes every open episode as {@code shutdown}; later attaches are refused. */
    public List<Episode> shutdown() {
        synchronized (lock) {
            if (closing) {
                return List.of();
            }
            closing = true;
            List<LiveEpisode> open = new ArrayList<>(byExternalId.values());
            try {
                return open.isEmpty() ? List.of() : closeAll(open, CloseReason.SHUTDOWN);
            } catch (RuntimeException e) {
                log.warn(
                        "recording {} episodes as shut down failed (the next start brings them back detached): {}",
                        open.size(),
                        e.getMessage());
                byExternalId.clear();
                held.clear();
                return List.of();
            }
        }
    }

    @Override
    public void close() {
        List<Episode> closed = shutdown();
        if (!closed.isEmpty()) {
            log.info("closed {} episodes at shutdown", closed.size());
        }
    }

    private LiveEpisode openNew(ExternalId externalId, Instant now, @Nullable LiveEpisode released) {
        LiveEpisode fresh = new LiveEpisode(EpisodeId.random(random), externalId, now, 1, now);
        store.change(c -> {
            records.insert(fresh);
            recordRelease(released);
        });
        byExternalId.put(externalId.value(), fresh);
        return fresh;
    }

    private LiveEpisode resume(LiveEpisode episode, Instant now, @Nullable LiveEpisode released) {
        int attachments = episode.attachments + 1;
        store.change(c -> {
            records.attached(episode.id, attachments, now);
            recordRelease(released);
        });
        episode.attachments = attachments;
        return episode;
    }

    private void recordRelease(@Nullable LiveEpisode released) {
        if (released != null) {
            records.activity(released.id, released.lastActivity);
        }
    }

    /** Records the closes in one durable write, then drops the episodes from the board. Under the lock. */
    private List<Episode> closeAll(List<LiveEpisode> episodes, CloseReason reason) {
        Instant now = clock.instant();
        List<Episode> closed = episodes.stream().map(e -> e.closed(reason, now)).toList();
        store.change(c -> {
            for (Episode episode : closed) {
                records.close(episode);
            }
        });
        for (LiveEpisode episode : episodes) {
            byExternalId.remove(episode.externalId.value());
            if (episode.holder != null) {
                held.remove(episode.holder);
            }
        }
        return closed;
    }
}
