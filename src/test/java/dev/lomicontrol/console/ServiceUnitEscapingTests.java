package dev.lomicontrol.console;

import static dev.lomicontrol.console.ServiceRun.service;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.BrokerChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Security review 2026-12-06, N11: {@code service install} writes paths into {@code ExecStart=} and
 * {@code Environment=} with systemd's escaping ({@code %} specifiers, {@code $} expansion; control
 * characters refused, so a newline cannot add a directive), checked by {@code systemd-analyze
 * verify}; and it warns when the launcher's checkout lies inside a registered project, whose
 * sandboxed shells could rewrite what the unit runs at every restart.
 */
class ServiceUnitEscapingTests {

    @TempDir
    Path temp;

    private Map<String, String> environment(Path launcher) {
        Map<String, String> environment = ServiceRun.environment(temp, launcher);
        environment.put("LOMI_CONTROL_HOME", temp.resolve("data").toString());
        return environment;
    }

    /** A checkout's launcher (an executable script) under {@code home}. */
    private static Path launcherIn(Path home) throws Exception {
        Files.createDirectories(home.resolve("bin"));
        Path launcher = Files.writeString(home.resolve("bin/lomi-control"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }

    @Test
    void percentAndDollarInThePathsReachSystemdLiterally() throws Exception {
        Path launcher = launcherIn(temp.resolve("checkout %h $HOME ${USER}"));
        Map<String, String> environment = environment(launcher);
        environment.put(
                "LOMI_CONTROL_JAVA", temp.resolve("jdk %u $PATH/bin/java").toString());
        ServiceRun installed = service(
                environment, "install", "--data-dir", temp.resolve("data %n $X").toString());
        assertThat(installed.status()).as(installed.toString()).isZero();
        Path unit = temp.resolve("config/systemd/user/lomi-control.service");
        String text = Files.readString(unit);
        assertThat(text)
                .contains("ExecStart=\"" + temp.resolve("checkout %%h $HOME ${USER}") + "/bin/lomi-control\""
                        + " serve --headless --data-dir \"" + temp.resolve("data %%n $$X") + "\"")
                .as("Environment= expands specifiers, not variables")
                .contains("Environment=\"LOMI_CONTROL_JAVA=" + temp.resolve("jdk %%u $PATH/bin/java") + "\"");
        // with %h unescaped systemd would look for the launcher under the home and complain it is missing;
        // it expands $ in the arguments only (a $$ in the executable stays $$: verify then finds no such file)
        ServiceAndModesTests.verifiedBySystemd(unit);
        assertThat(service(environment, "status").out()).contains(unit + " (current)");
    }

    @Test
    void aNewlineOrAnotherControlCharacterIsRefusedAndNoUnitIsWritten() throws Exception {
        Path launcher = launcherIn(temp.resolve("checkout"));
        Map<String, String> environment = environment(launcher);
        ServiceRun injected =
                service(environment, "install", "--data-dir", temp.resolve("d\nExecStartPre=/bin/sh -c evil") + "");
        assertThat(injected.status()).as(injected.toString()).isEqualTo(ConsoleResult.USAGE);
        assertThat(injected.err()).contains("control character (U+000A)");
        assertThat(temp.resolve("config/systemd/user/lomi-control.service")).doesNotExist();

        environment.put("LOMI_CONTROL_JAVA", "/opt/java\t/bin/java");
        ServiceRun tab = service(environment, "install");
        assertThat(tab.status()).as(tab.toString()).isEqualTo(ConsoleResult.USAGE);
        assertThat(tab.err()).contains("control character (U+0009)");
        assertThat(temp.resolve("config/systemd/user/lomi-control.service")).doesNotExist();
    }

    @Test
    void installWarnsWhenTheLaunchersCheckoutLiesInsideARegisteredProject() throws Exception {
        Path project = Files.createDirectories(temp.resolve("work/lomi-dev")).toRealPath();
        Path inside = launcherIn(project.resolve("lomi-control"));
        Path outside = launcherIn(temp.resolve("clone"));
        Path data = temp.resolve("data");
        try (Ledger ledger = Ledger.open(
                data.resolve("agent-control"), LedgerProperties.defaults(), Clock.systemUTC(), new SecureRandom())) {
            new Projects(ledger, Clock.systemUTC()).add(project, Optional.of("lomi-dev"));
        }

        ServiceRun warned = service(environment(inside), "install");
        assertThat(warned.status()).as(warned.toString()).isZero();
        assertThat(warned.out())
                .contains("WARNING: the launcher's home " + project.resolve("lomi-control"))
                .contains("inside the registered project " + project)
                .contains("a separate clone");

        ServiceRun clean = service(environment(outside), "install");
        assertThat(clean.status()).as(clean.toString()).isZero();
        assertThat(clean.out()).doesNotContain("WARNING");
    }

    @Test
    void projectAddAndEveryStatusWarnWhenAProjectHoldsTheBrokersOwnLauncher() throws Exception {
        Path project = Files.createDirectories(temp.resolve("work/lomi-dev")).toRealPath();
        Path launcher = launcherIn(project.resolve("lomi-control"));
        Path other = Files.createDirectories(temp.resolve("work/other")).toRealPath();
        Path data = temp.resolve("broker-data");
        BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.log"))
                .home(Files.createDirectories(temp.resolve("home")))
                .environment("LOMI_CONTROL_LAUNCHER", launcher.toString())
                .start();
        try {
            String warned =
                    BrokerChildProcess.console(data).in(temp).mergingStderr().ok("project", "add", project.toString());
            assertThat(warned)
                    .contains("added project")
                    .contains("WARNING: the launcher's home " + project.resolve("lomi-control"))
                    .contains("inside the registered project " + project);
            assertThat(BrokerChildProcess.console(data).in(temp).mergingStderr().ok("project", "add", other.toString()))
                    .contains("added project")
                    .doesNotContain("WARNING");
        } finally {
            broker.stop();
        }
        BrokerChildProcess restarted = BrokerChildProcess.on(data)
                .log(temp.resolve("broker2.log"))
                .home(temp.resolve("home"))
                .environment("LOMI_CONTROL_LAUNCHER", launcher.toString())
                .start();
        try {
            assertThat(BrokerChildProcess.console(data).in(temp).mergingStderr().ok("status"))
                    .as("after a restart every status warns")
                    .contains("WARNING: the launcher's home " + project.resolve("lomi-control"));
        } finally {
            restarted.stop();
        }
    }
}
