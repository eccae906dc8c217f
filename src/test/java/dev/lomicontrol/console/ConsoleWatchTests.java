package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Which command lines {@code --watch} takes, and the lines a watched layout or episode list prints. */
class ConsoleWatchTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aWatchableListIsWatchedWithItsOptionsButNotWithJsonOrExtraWords() {
        assertThat(ConsoleWatch.wanted(List.of("pairing", "list", "--watch"))).isTrue();
        assertThat(ConsoleWatch.wanted(List.of("decision", "list", "--watch"))).isTrue();
        assertThat(ConsoleWatch.wanted(List.of("workspace", "list", "--watch"))).isTrue();
        assertThat(ConsoleWatch.wanted(List.of("episodes", "list", "--watch"))).isTrue();
        assertThat(ConsoleWatch.wanted(List.of("panel", "list", "--workspace", "ws-1", "--watch")))
                .isTrue();
        assertThat(ConsoleWatch.wanted(List.of("panel", "list", "--watch", "--workspace", "ws-1")))
                .isTrue();

        assertThat(ConsoleWatch.wanted(List.of("panel", "list"))).isFalse();
        assertThat(ConsoleWatch.wanted(List.of("panel", "list", "--json", "--watch")))
                .as("--json is what the watch asks for itself: the broker judges this line (a usage error)")
                .isFalse();
        assertThat(ConsoleWatch.wanted(List.of("pairing", "list", "extra", "--watch")))
                .isFalse();
        assertThat(ConsoleWatch.wanted(List.of("panel", "--watch"))).isFalse();
        assertThat(ConsoleWatch.wanted(List.of("status", "--watch"))).isFalse();
        assertThat(ConsoleWatch.wanted(List.of("session", "list", "--watch"))).isFalse();
    }

    @Test
    void aWatchedPanelIsOneLineKeyedByItsIdWithTheAgentsWordsEscaped() {
        Map<String, String> lines = WatchLines.panels(JSON.readTree("""
                {"panels":[{"workspaceId":"ws-1","panelId":"pnl-1","kind":"terminal",
                "title":"x\\u001b]52;c;aGk=\\u0007\\nfake","ownerSession":"ab","ownerClient":"codex\\u202e",
                "state":"running","terminalSessionId":"t1","inputHolder":"ab","command":"make\\rtest",
                "exitCode":null},
                {"workspaceId":"ws-1","panelId":"pnl-2","kind":"scratch","title":"Untitled","ownerSession":null,
                "ownerClient":null,"state":"ready","terminalSessionId":null,"inputHolder":null,"command":null,
                "exitCode":null}]}
                """));
        assertThat(lines).containsOnlyKeys("pnl-1", "pnl-2");
        assertThat(lines.get("pnl-1"))
                .isEqualTo("panel pnl-1 in ws-1: terminal 'x\\u001b]52;c;aGk=\\u0007\\nfake' owner ab (codex\\u202e),"
                        + " running, input ab, command 'make\\rtest'")
                .doesNotContain("\u001b", "\n", "\r", "\u202e");
        assertThat(lines.get("pnl-2")).isEqualTo("panel pnl-2 in ws-1: scratch 'Untitled' owner -, ready");
    }

    @Test
    void aWatchedEpisodeLineLeavesOutItsLastActivitySoTrafficDoesNotReprintIt() {
        String episode = """
                {"episodes":[{"episodeId":"ep-1","externalId":"thread-7","state":"attached","session":"ab",
                "client":"codex","openedAt":"2026-12-06T10:00:00Z","lastActivity":"%s","attachments":1,
                "detachedSince":null,"closedAt":null,"closeReason":null}]}
                """;
        String early = WatchLines.episodes(JSON.readTree(episode.formatted("2026-12-06T10:00:01Z")))
                .get("ep-1");
        assertThat(early)
                .isEqualTo("episode ep-1 'thread-7' attached by session ab (codex), opened 2026-12-06T10:00:00Z,"
                        + " attachments 1");
        assertThat(WatchLines.episodes(JSON.readTree(episode.formatted("2026-12-06T11:00:00Z")))
                        .get("ep-1"))
                .isEqualTo(early);
    }
}
