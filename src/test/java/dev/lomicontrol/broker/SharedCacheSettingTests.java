package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.terminal.SandboxPolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * N5 (security review 2026-12-06): {@code lomi.terminal.sandbox.writable-caches} is empty by default
 * (each project has caches of its own), and an admin's list is refused when a shell could then
 * write a tool binary, wrapper, JDK, init script or build setting, a hidden location, or the
 * directory the launcher builds lomi-control from.
 */
class SharedCacheSettingTests {

    static final Path HOME = Path.of("/home/u");
    static final Path BUILD = HOME.resolve(".local/state/lomi-control/build");

    private static SandboxPolicy policy(String... writable) {
        return new TerminalSandboxProperties(true, List.of(writable), List.of(), false, true, List.of())
                .policy(HOME, HOME, BUILD);
    }

    @Test
    void byDefaultNoDirectoryOfTheUserIsWritableFromAShell() {
        assertThat(policy().writableCaches()).isEmpty();
        assertThat(SandboxPolicy.defaults(HOME).writableCaches()).isEmpty();
        assertThat(policy().hidden())
                .as("the launcher's build directory is hidden")
                .contains(BUILD);
    }

    @Test
    void aDirectoryHoldingToolsInitScriptsOrTheLaunchersBuildIsRefused() {
        for (String refused : List.of(
                "~/.m2",
                "~/.m2/wrapper",
                "~/.m2/wrapper/dists",
                "~/.cargo",
                "~/.cargo/bin",
                "~/.gradle",
                "~/.gradle/init.d",
                "~/.gradle/jdks",
                "~/.gradle/gradle.properties",
                "~/.local",
                "~/.local/state",
                "~/.local/state/lomi-control/build/repository",
                "~/.config",
                "~",
                "/home")) {
            assertThatThrownBy(() -> policy(refused))
                    .as(refused)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lomi.terminal.sandbox.writable-caches");
        }
    }

    @Test
    void aNarrowSharedCacheIsTheAdminsExplicitChoice() {
        assertThat(policy("~/.m2/repository", "~/.npm", "~/.cache/pip").writableCaches())
                .containsExactly(HOME.resolve(".m2/repository"), HOME.resolve(".npm"), HOME.resolve(".cache/pip"));
    }
}
