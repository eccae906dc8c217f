package dev.lomicontrol.git.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.PanelsByKind;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GitPanelsTests {

    private static final PanelsByKind LIVE = new PanelsByKind(Map.of(PanelKind.GIT, new GitPanels()));

    private static Panel panel(PanelKind kind, Optional<String> gitView) {
        return new Panel(
                "p1",
                new WorkspaceId("w1"),
                kind,
                "title",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                ".",
                Optional.empty(),
                gitView);
    }

    @Test
    void aGitPanelShowsItsStoredViewKeysInTheStoredOrder() {
        String stored =
                "{\"relativePath\":\"a/b.txt\",\"repositoryRelative\":\"nested\",\"staged\":true,\"type\":\"diff\"}";

        assertThat(LIVE.view(panel(PanelKind.GIT, Optional.of(stored))))
                .hasValueSatisfying(view -> assertThat(view.toString()).isEqualTo(stored));
    }

    @Test
    void onlyGitPanelsShowAView() {
        assertThat(LIVE.view(panel(PanelKind.CHAT, Optional.of("{\"conversationId\":\"c1\",\"type\":\"chat\"}"))))
                .isEmpty();
        assertThat(LIVE.view(panel(PanelKind.GIT, Optional.empty()))).isEmpty();
        assertThat(LIVE.view(panel(PanelKind.TERMINAL, Optional.empty()))).isEmpty();
    }
}
