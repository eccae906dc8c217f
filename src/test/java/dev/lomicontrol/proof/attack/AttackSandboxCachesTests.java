package dev.lomicontrol.proof.attack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.UserDirectories;
import dev.lomicontrol.proof.attack.AttackTerminalSandboxTests.Agent;
import dev.lomicontrol.proof.attack.AttackTerminalSandboxTests.Terminal;
import dev.lomicontrol.terminal.TerminalSandbox;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * N5 (security review 2026-12-06): the user's build-tool caches were writable from every sandboxed
 * shell, so an agent could plant a plugin jar, a Maven wrapper distribution, {@code ~/.cargo/bin/cargo}
 * or a Gradle init script that later runs as the user outside the sandbox, in every project and in
 * lomi-control's own rebuild. Now the user's caches are read-only, each project writes caches of its
 * own (hidden in the broker's data directory, seen by that project's shells only), and the directory
 * the launcher builds from is out of every shell's reach. The real broker, helper and bubblewrap.
 */
class AttackSandboxCachesTests {

    @TempDir
    Path temp;

    @Test
    void aShellCannotPlantToolsInTheUsersCachesAndWhatItCachesStaysInItsProject() throws Exception {
        assertThat(Path.of("/usr/bin/bwrap"))
                .as("bubblewrap is needed for these tests: " + TerminalSandbox.INSTALL)
                .exists();
        Path data = temp.resolve("data");
        Path home = Files.createDirectories(temp.resolve("home"));
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        // what a developer's home holds: a wrapper's Maven, a plugin, rustup's cargo, Gradle's init scripts
        Path mvn = write(home.resolve(".m2/wrapper/dists/apache-maven-3.9.9/bin/mvn"), "#!/bin/sh\n");
        Path plugin = write(home.resolve(".m2/repository/org/apache/maven/plugins/p/1/p-1.jar"), "PK");
        Path cargo = write(home.resolve(".cargo/bin/cargo"), "#!/bin/sh\n");
        Files.createDirectories(home.resolve(".gradle/init.d"));
        Files.createDirectories(home.resolve(".gradle/caches/modules-2"));
        Path state = home.resolve(".local/state");
        // where bin/lomi-control builds from (LauncherBuildTests), after a first build
        Path build = UserDirectories.of(Map.of("HOME", home.toString(), "XDG_STATE_HOME", state.toString()))
                .launcherBuild();
        Files.createDirectories(build.resolve("repository"));
        Path projectA = Files.createDirectories(temp.resolve("project-a")).toRealPath();
        Path projectB = Files.createDirectories(temp.resolve("project-b")).toRealPath();

        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.log"))
                .home(home)
                .tmpdir(tmp)
                .environment("XDG_STATE_HOME", state.toString())
                .environment(env -> env.remove("LOMI_CONTROL_BUILD_HOME"))
                .start();
        try (McpHelperProcess helper = Agent.helper(broker, data, temp.resolve("helper.err"))) {
            for (Path project : List.of(projectA, projectB)) {
                BrokerChildProcess.console(data).in(temp).mergingStderr().ok("project", "add", project.toString());
            }
            Agent agent = Agent.paired(helper, data, temp, projectA, Optional.empty());
            Terminal a = agent.createTerminal();

            for (String attack : List.of(
                    "echo evil > " + mvn,
                    "touch ~/.m2/wrapper/dists/evil",
                    "echo evil > " + plugin,
                    "mkdir -p ~/.m2/repository/org/evil",
                    "echo '<settings/>' > ~/.m2/settings.xml",
                    "echo evil > " + cargo,
                    "echo evil > ~/.gradle/init.d/evil.gradle",
                    "mkdir -p ~/.gradle/jdks/evil",
                    "echo org.gradle.jvmargs=-javaagent:/tmp/x > ~/.gradle/gradle.properties",
                    "mkdir -p " + build.resolve("repository/org/evil"),
                    "echo evil > " + build.resolve("evil"))) {
                agent.assertFails(a, attack, "from project A: " + attack);
            }
            assertThat(mvn).hasContent("#!/bin/sh\n");
            assertThat(plugin).hasContent("PK");
            assertThat(cargo).hasContent("#!/bin/sh\n");
            assertThat(home.resolve(".gradle/init.d")).isEmptyDirectory();
            assertThat(build.resolve("repository")).isEmptyDirectory();

            agent.assertSucceeds(
                    a,
                    "echo from-a > \"$npm_config_cache/marker\" && echo from-a > \"$XDG_CACHE_HOME/marker\""
                            + " && mkdir -p \"$CARGO_HOME/bin\" && echo from-a > \"$CARGO_HOME/bin/cargo\""
                            + " && mkdir -p \"$GRADLE_USER_HOME/init.d\""
                            + " && echo from-a > \"$GRADLE_USER_HOME/init.d/a.gradle\""
                            + " && mkdir -p /run/lomi-project-cache/m2-repository/org/a",
                    "project A's own caches are writable");
            assertThat(agent.run(a, "env > a.env")).isZero();
            assertThat(Files.readString(projectA.resolve("a.env")))
                    .as("the tools are pointed at the project's caches, the user's as a read-only lower layer")
                    .contains(
                            "MAVEN_OPTS=-Dmaven.repo.local=/run/lomi-project-cache/m2-repository -Dmaven.repo.local.tail="
                                    + home.resolve(".m2/repository"),
                            "GRADLE_USER_HOME=/run/lomi-project-cache/gradle",
                            "GRADLE_RO_DEP_CACHE=" + home.resolve(".gradle/caches"),
                            "CARGO_HOME=/run/lomi-project-cache/cargo",
                            "npm_config_cache=/run/lomi-project-cache/npm",
                            "XDG_CACHE_HOME=/run/lomi-project-cache/cache");
            List<Path> caches;
            try (Stream<Path> list = Files.list(data.resolve(TerminalSandbox.PROJECT_CACHES))) {
                caches = list.toList();
            }
            assertThat(caches)
                    .as("one cache directory, in the broker's data directory")
                    .hasSize(1);
            assertThat(caches.get(0).resolve("npm/marker")).hasContent("from-a");

            switchTo(agent, projectB);
            Terminal b = agent.createTerminal();
            agent.assertSucceeds(
                    b,
                    "test ! -e \"$npm_config_cache/marker\" && test ! -e \"$XDG_CACHE_HOME/marker\""
                            + " && test ! -e \"$CARGO_HOME/bin/cargo\""
                            + " && test ! -e \"$GRADLE_USER_HOME/init.d/a.gradle\""
                            + " && test -z \"$(ls -A /run/lomi-project-cache/m2-repository)\"",
                    "project B sees nothing project A cached");
            agent.assertFails(
                    b,
                    "ls -A " + data + " | grep -q .",
                    "no project's caches are reachable through the data directory");
            agent.assertFails(b, "cat " + caches.get(0).resolve("npm/marker"), "nor by their path on the host");
            assertThat(agent.run(b, "echo from-b > \"$npm_config_cache/marker\""))
                    .isZero();
            assertThat(caches.get(0).resolve("npm/marker"))
                    .as("project A's cache is untouched by B")
                    .hasContent("from-a");
        } finally {
            broker.stop();
        }
    }

    /** Points the agent at {@code project}'s default workspace (the flagless approval granted both). */
    private static void switchTo(Agent agent, Path project) throws Exception {
        JsonNode workspaces = agent.ok("lomi_workspace_list", Agent.object());
        for (JsonNode entry : workspaces.path("workspaces")) {
            if (entry.path("projectPath").asString("").equals(project.toString())) {
                agent.workspace = entry.path("workspaceId").asString();
            }
        }
        agent.epoch = agent.ok("lomi_connect", Agent.object().put("workspaceId", agent.workspace))
                .path("retryEpoch")
                .asString();
    }

    private static Path write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
