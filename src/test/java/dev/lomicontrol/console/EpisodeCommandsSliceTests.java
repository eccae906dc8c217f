package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.episodes.ExternalId;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Slice test of the episodes group ({@code episodes list}) on the real episode board: no broker and no client run. */
class EpisodeCommandsSliceTests extends ConsoleSliceSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Episodes episodes;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Episodes", "episodes list");
        assertThat(ok("help episodes list")).contains("externalId", "--watch", "interrupted");
    }

    @Test
    void anAttachedThenDetachedThenClosedEpisodeIsListedWithItsStateAndTimes() {
        if (episodes.board().live().isEmpty()
                && episodes.board().recentlyClosed().isEmpty()) {
            assertThat(ok("episodes list")).startsWith("no episodes: a client opens one with lomi_session_attach");
            assertThat(ok("episodes list --json").strip()).isEqualTo("{\"episodes\":[]}");
        }
        SessionId session = SessionId.random(new SecureRandom());
        String external = "thread-\u202eevil-" + System.nanoTime();
        episodes.attach(session, new ExternalId(external));

        String table = ok("episodes list");
        assertThat(table)
                .contains("EPISODE", "EXTERNAL ID", "STATE", "HELD BY", "attached", session.value())
                .as("the client's words are shown escaped (a right-to-left override could reorder the line)")
                .contains("thread-\\u202eevil-")
                .doesNotContain("\u202e");
        JsonNode row =
                JSON.readTree(ok("episodes list --json")).path("episodes").get(0);
        assertThat(row.path("externalId").asString()).isEqualTo(external);
        assertThat(row.path("state").asString()).isEqualTo("attached");
        assertThat(row.path("session").asString()).isEqualTo(session.value());
        assertThat(row.path("client").isNull())
                .as("no live session has that id")
                .isTrue();
        assertThat(row.path("attachments").asInt()).isEqualTo(1);
        assertThat(row.path("closedAt").isNull()).isTrue();

        episodes.sessionEnded(session);
        assertThat(ok("episodes list")).contains("SINCE", "detached 20");
        assertThat(JSON.readTree(ok("episodes list --json"))
                        .at("/episodes/0/detachedSince")
                        .isNull())
                .isFalse();

        episodes.detach(session, java.util.Optional.of(new ExternalId(external)));
        JsonNode closed =
                JSON.readTree(ok("episodes list --json")).path("episodes").get(0);
        assertThat(closed.path("state").asString()).isEqualTo("closed");
        assertThat(closed.path("closeReason").asString()).isEqualTo("closed");
        assertThat(ok("episodes list")).contains("closed 20", " closed");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("episodes list extra", "takes no argument");
        assertUsage("episodes list --json=yes", "--json");
        assertUsage("episodes list --workspace w", "--workspace");
    }
}
