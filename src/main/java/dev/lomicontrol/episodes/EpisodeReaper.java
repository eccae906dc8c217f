package dev.lomicontrol.episodes;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls {@link Episodes#reap} every interval on one daemon thread. A failing pass is logged and the
 * next pass tries again; tests call {@code reap()} directly instead.
 */
public final class EpisodeReaper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EpisodeReaper.class);

    private final ScheduledExecutorService executor;

    private EpisodeReaper(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    public static EpisodeReaper start(Episodes episodes, Duration interval) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "episode-reaper");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(() -> reapOnce(episodes), millis, millis, TimeUnit.MILLISECONDS);
        return new EpisodeReaper(executor);
    }

    private static void reapOnce(Episodes episodes) {
        try {
            List<Episode> expired = episodes.reap();
            for (Episode episode : expired) {
                log.info(
                        "episode {} ({}) expired after the reattach grace: interrupted",
                        episode.id(),
                        episode.externalId());
            }
        } catch (RuntimeException e) {
            log.warn("the episode reaper's pass failed; retrying next interval: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
