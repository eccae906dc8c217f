package dev.lomicontrol.episodes;

import dev.lomicontrol.ledger.Ledger;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring wiring: the board (closed as {@code shutdown} when the context stops, before the ledger
 * closes, because it depends on it) and its scheduled reaper (stopped first).
 */
@Configuration(proxyBeanMethods = false)
public class EpisodesConfiguration {

    @Bean(destroyMethod = "close")
    Episodes episodes(Ledger ledger, Clock clock, EpisodesProperties properties) {
        return Episodes.open(ledger, clock, properties, new SecureRandom());
    }

    @Bean(destroyMethod = "close")
    EpisodeReaper episodeReaper(Episodes episodes, EpisodesProperties properties) {
        return EpisodeReaper.start(episodes, properties.reapInterval());
    }
}
