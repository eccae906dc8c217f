package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.nio.file.Files;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Slice test of {@code browser screenshot}: registration, strict parsing, and the refusals that need
 * no Chromium (an unknown panel, a panel of another kind, a browser panel whose browser is gone).
 * The picture itself is {@code BrowserScreenshotConsoleTests}'.
 */
class BrowserScreenshotsSliceTests extends ConsoleSliceSupport {

    @Autowired
    Projects projects;

    @Autowired
    Layout layout;

    @Test
    void theCommandIsRegisteredWithHelp() {
        assertGroupHelp("Browser", "browser screenshot");
        assertThat(ok("help browser screenshot")).contains("--out", "--force", "0600");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("browser screenshot", "takes 1 argument");
        assertUsage("browser screenshot pnl-1 pnl-2", "takes 1 argument");
        assertUsage("browser screenshot pnl-1 --out", "--out needs a value");
        assertUsage("browser screenshot pnl-1 --width 3", "unknown option --width");
    }

    @Test
    void unknownPanelsOtherKindsAndClosedBrowsersAreRefused() throws Exception {
        Files.createDirectories(cwd.resolve("shots"));
        ok("project add shots --name slice-shots");
        Project project = projects.find("slice-shots").orElseThrow();
        Panel editor = panel(project, PanelKind.EDITOR);
        Panel browser = panel(project, PanelKind.BROWSER);

        assertRefused("browser screenshot pnl-nowhere", "TARGET_NOT_FOUND", "no panel pnl-nowhere");
        assertRefused("browser screenshot " + editor.id(), "TARGET_NOT_FOUND", "not a browser");
        assertRefused("browser screenshot " + browser.id(), "TARGET_NOT_FOUND", "shows no live browser");
        assertThat(cwd.resolve(browser.id() + ".png")).doesNotExist();
    }

    private Panel panel(Project project, PanelKind kind) {
        return layout.change(
                OptionalLong.empty(),
                edit -> edit.addPanel(
                        project.workspaces().get(0).id(),
                        kind,
                        kind.name().toLowerCase(java.util.Locale.ROOT),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        "."));
    }
}
