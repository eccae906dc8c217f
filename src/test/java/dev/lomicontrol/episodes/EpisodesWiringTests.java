package dev.lomicontrol.episodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** The Spring wiring: bound settings, and a stopping broker closing its episodes as shutdown before the store closes. */
class EpisodesWiringTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(EpisodesProperties.class)
    static class Settings {}

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-12-01T09:00:00Z");
    final SecureRandom random = new SecureRandom();

    @Test
    void theReattachGraceDefaultsToFifteenMinutesAndIsConfigurable() {
        runner().run(context ->
                assertThat(context.getBean(Episodes.class).reattachGrace()).isEqualTo(Duration.ofMinutes(15)));
        runner().withPropertyValues("lomi.episodes.reattach-grace=2m")
                .run(context -> assertThat(context.getBean(Episodes.class).reattachGrace())
                        .isEqualTo(Duration.ofMinutes(2)));
    }

    @Test
    void stoppingTheBrokerClosesEveryEpisodeAsShutdownBeforeTheStoreCloses() {
        runner().run(context ->
                context.getBean(Episodes.class).attach(SessionId.random(random), new ExternalId("thread-1")));

        try (Ledger reopened = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random)) {
            EpisodeBoard board = Episodes.open(reopened, clock, EpisodesProperties.defaults(), random)
                    .board(SessionId.random(random));
            assertThat(board.live()).isEmpty();
            assertThat(board.recentlyClosed()).singleElement().satisfies(e -> {
                assertThat(e.externalId().value()).isEqualTo("thread-1");
                assertThat(e.closeReason()).contains(CloseReason.SHUTDOWN);
                assertThat(e.closeReason().orElseThrow().ending()).isEqualTo("closed");
            });
        }
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withUserConfiguration(Settings.class, EpisodesConfiguration.class)
                .withBean(Clock.class, () -> clock)
                .withBean(
                        Ledger.class,
                        () -> Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random));
    }
}
