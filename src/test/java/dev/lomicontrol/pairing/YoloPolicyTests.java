package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The YOLO policy on a real ledger: what a helper sees that re-enrolls while a toggle revokes its session. */
class YoloPolicyTests {

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-12-01T10:00:00Z");

    @Test
    void turningYoloOffStopsAutoApprovalBeforeTheFirstSessionIsRevoked() {
        try (Ledger ledger = Ledger.open(
                        temp.resolve("agent-control"), LedgerProperties.defaults(), clock, new SecureRandom());
                Sessions sessions = new Sessions(ledger, clock)) {
            Pairings pairings = new Pairings(clock, new SecureRandom());
            YoloPolicy yolo = new YoloPolicy(ledger, pairings, sessions, clock);
            yolo.set(true);
            AtomicReference<Pairings.Pending> reenrolled = new AtomicReference<>();
            // the revoked helper reconnects at once, from inside the revocation (the tightest window there is)
            Instant now = clock.instant();
            sessions.open(
                    new PairingRequest("pr-1", "claude", "ab".repeat(32), 42, now, now.plusSeconds(120)),
                    Grant.full(),
                    () -> reenrolled.set(pairings.submit("claude", "cd".repeat(32), 42)));

            assertThat(yolo.set(false)).isEqualTo(1);

            assertThat(reenrolled.get())
                    .as("the helper re-enrolled during the revocation")
                    .isNotNull();
            assertThat(reenrolled.get().decision())
                    .as("F6: not auto-approved with the full grant")
                    .isNotDone();
            assertThat(pairings.pending())
                    .extracting(PairingRequest::id)
                    .containsExactly(reenrolled.get().request().id());
        }
    }
}
