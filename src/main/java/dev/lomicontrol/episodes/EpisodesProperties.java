package dev.lomicontrol.episodes;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Episode settings ({@code lomi.episodes.*}; shipped defaults in {@code config/application.properties}).
 *
 * @param reattachGrace how long a detached episode waits for its client to come back before the
 *     reaper closes it as {@code expired} (interrupted); deliberately much longer than a socket's
 *     idle timeout: "is the socket alive" and "is the work over" are two questions
 * @param reapInterval  how often the reaper looks for detached episodes past the grace
 * @param recentClosed  how many closed episodes {@code lomi_episodes} shows (newest first)
 */
@ConfigurationProperties("lomi.episodes")
public record EpisodesProperties(
        @DefaultValue("15m") Duration reattachGrace,
        @DefaultValue("30s") Duration reapInterval,
        @DefaultValue("20") int recentClosed) {

    public EpisodesProperties {
        if (reattachGrace.isNegative() || reattachGrace.isZero()) {
            throw new IllegalArgumentException("lomi.episodes.reattach-grace must be positive");
        }
        if (reapInterval.isNegative() || reapInterval.isZero()) {
            throw new IllegalArgumentException("lomi.episodes.reap-interval must be positive");
        }
        if (recentClosed < 0 || recentClosed > 500) {
            throw new IllegalArgumentException("lomi.episodes.recent-closed must be 0..500");
        }
    }

    public static EpisodesProperties defaults() {
        return new EpisodesProperties(Duration.ofMinutes(15), Duration.ofSeconds(30), 20);
    }

    public EpisodesProperties withReattachGrace(Duration grace) {
        return new EpisodesProperties(grace, reapInterval, recentClosed);
    }
}
