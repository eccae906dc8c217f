package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.pairing.AndroidGrant;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the session group ({@code session list|revoke}): no broker runs. */
class SessionCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    Sessions sessions;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Sessions", "session list", "session revoke");
    }

    @Test
    void revokeIsRefusedWithoutConfirmAndLeavesTheSessionAlive() {
        Session session = sessions.open(
                new PairingRequest(
                        "pr-slice",
                        "slice session",
                        "99".repeat(32),
                        4711,
                        clock.instant(),
                        clock.instant().plus(Duration.ofMinutes(2))),
                new Grant(
                        true,
                        Set.of(),
                        Scopes.all(),
                        new AndroidGrant(false, Set.of("Pixel_8", "emulator-5554"), false, Set.of("com.example.app"))),
                () -> {});
        String id = session.id().value();
        assertThat(ok("session list")).contains(id, "slice session", "4711", "of 256 agent connections in use");
        assertThat(ok("session list --json"))
                .startsWith("{")
                .contains(
                        id,
                        "\"androidDevices\":[\"Pixel_8\",\"emulator-5554\"]",
                        "\"androidPackages\":[\"com.example.app\"]");

        assertRefused("session revoke " + id, "repeat with --confirm");
        assertThat(session.isAlive()).isTrue();
        assertThat(ok("session revoke " + id + " --confirm")).contains("revoked session " + id);
        assertThat(session.isAlive()).isFalse();
        assertRefused("session revoke " + id + " --confirm", "TARGET_NOT_FOUND");
        assertRefused("session revoke not-hex --confirm", "sessionId");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("session", "'session' needs one of");
        assertUsage("session revoke", "takes 1 argument");
        assertUsage("session list --json=yes", "is a flag");
    }
}
