package dev.lomicontrol.console;

import static dev.lomicontrol.console.ServiceRun.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: {@code service install|uninstall|status} writes a unit {@code systemd-analyze verify}
 * accepts; help and version never start the broker; the broker puts its sockets under
 * {@code $XDG_RUNTIME_DIR}, its log under {@code $XDG_STATE_HOME} and its data under {@code $HOME}.
 */
class ServiceAndModesTests {

    static final Path LAUNCHER = Path.of("bin/lomi-control").toAbsolutePath();

    @TempDir
    Path temp;

    private Map<String, String> environment() {
        return ServiceRun.environment(temp, LAUNCHER);
    }

    @Test
    void installWritesAUnitSystemdAcceptsASecondInstallChangesNothingAndUninstallRemovesIt() throws Exception {
        Map<String, String> environment = environment();
        ServiceRun installed = service(environment, "install");
        assertThat(installed.status()).as(installed.toString()).isZero();
        Path unit = temp.resolve("config/systemd/user/lomi-control.service");
        assertThat(installed.out()).contains("wrote " + unit);
        String text = Files.readString(unit);
        assertThat(text)
                .contains(
                        "ExecStart=" + LAUNCHER + " serve --headless",
                        "Restart=on-failure",
                        "WantedBy=default.target",
                        "Environment=LOMI_CONTROL_JAVA=");
        verifiedBySystemd(unit);

        assertThat(service(environment, "install").status()).isZero();
        assertThat(Files.readString(unit))
                .as("a second install writes the same unit")
                .isEqualTo(text);
        assertThat(service(environment, "status").out()).contains(unit + " (current)");

        ServiceRun removed = service(environment, "uninstall");
        assertThat(removed.out()).contains("removed " + unit);
        assertThat(unit).doesNotExist();
        assertThat(service(environment, "status").out()).contains("not installed");
        assertThat(service(environment, "bogus").status()).isEqualTo(ConsoleResult.USAGE);
        assertThat(service(environment).status()).isEqualTo(ConsoleResult.USAGE);
    }

    @Test
    void withoutXdgConfigHomeTheUnitGoesUnderHomeAndADataDirIsPassedOn() throws Exception {
        Map<String, String> environment = environment();
        environment.remove("XDG_CONFIG_HOME");
        ServiceRun installed = service(
                environment, "install", "--data-dir", temp.resolve("my data").toString());
        assertThat(installed.status()).as(installed.toString()).isZero();
        Path unit = temp.resolve("home/.config/systemd/user/lomi-control.service");
        assertThat(Files.readString(unit)).contains("serve --headless --data-dir \"" + temp.resolve("my data") + "\"");
        verifiedBySystemd(unit);
    }

    @Test
    void helpAndVersionNeverStartTheBrokerAndAMistypedServeIsAUsageError() throws Exception {
        Path data = temp.resolve("data");
        ServiceRun version = child(Map.of("LOMI_CONTROL_HOME", data.toString()), "version");
        assertThat(version.status()).isZero();
        assertThat(version.out().strip()).matches("lomi-control [0-9]+\\.[0-9]+\\.[0-9]+.*");
        assertThat(child(Map.of(), "--version").out()).isEqualTo(version.out());

        ServiceRun serveHelp = child(Map.of("LOMI_CONTROL_HOME", data.toString()), "serve", "--help");
        assertThat(serveHelp.status()).isZero();
        assertThat(serveHelp.out()).contains("usage: lomi-control serve", "--headless");
        ServiceRun typo = child(Map.of("LOMI_CONTROL_HOME", data.toString()), "serve", "--headles");
        assertThat(typo.status()).isEqualTo(2);
        assertThat(typo.err()).contains("unknown argument '--headles'");
        ServiceRun none = child(Map.of("LOMI_CONTROL_HOME", data.toString()));
        assertThat(none.status()).isZero();
        assertThat(none.out())
                .contains("lomi-control serve", "lomi-control console", "lomi-control service", "lomi-control --mcp");
        assertThat(child(Map.of(), "serve", "--data-dir").status()).isEqualTo(2);
        assertThat(data).as("no broker started").doesNotExist();
    }

    @Test
    void theBrokerUsesXdgRuntimeDirForSocketsXdgStateHomeForItsLogAndHomeForItsData() throws Exception {
        Path runtime = Files.createDirectories(
                temp.resolve("runtime"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path home = temp.resolve("home");
        Path state = temp.resolve("state");
        Map<String, String> environment = Map.of(
                "HOME", home.toString(), "XDG_RUNTIME_DIR", runtime.toString(), "XDG_STATE_HOME", state.toString());
        ProcessBuilder builder = ChildJvm.builder(LomiControl.class, List.of("serve", "--headless"));
        builder.environment().keySet().removeIf(name -> name.startsWith("XDG_") || name.equals("LOMI_CONTROL_HOME"));
        builder.environment().putAll(environment);
        Path err = temp.resolve("serve.err");
        Process broker = builder.redirectOutput(temp.resolve("serve.out").toFile())
                .redirectError(err.toFile())
                .start();
        try {
            Path log = state.resolve("lomi-control/broker.log");
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> !broker.isAlive()
                            || Files.exists(log) && Files.readString(log).contains("admin socket"));
            assertThat(broker.isAlive()).as(Files.readString(err)).isTrue();
            Path data = home.resolve(".local/share/lomi-control");
            assertThat(data.resolve("agent-control"))
                    .as("the data directory follows $HOME")
                    .isDirectory();
            try (var sockets = Files.walk(runtime)) {
                assertThat(sockets.filter(path -> path.getFileName().toString().endsWith(".sock"))
                                .toList())
                        .as("sockets under $XDG_RUNTIME_DIR")
                        .isNotEmpty();
            }
            assertThat(Files.readString(log)).contains(runtime.toString());
        } finally {
            broker.destroy();
            if (!broker.waitFor(60, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }
    }

    @Test
    void theRuntimeDirectoryIsPrivateAndFreshUnderItsParent() throws Exception {
        Path parent = Files.createDirectories(temp.resolve("rt"));
        Path first = BrokerRuntime.createRuntimeDirectory(Optional.of(parent));
        Path second = BrokerRuntime.createRuntimeDirectory(Optional.of(parent));
        assertThat(first.getParent()).isEqualTo(parent);
        assertThat(first).isNotEqualTo(second);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first)))
                .isEqualTo("rwx------");
    }

    private ServiceRun child(Map<String, String> environment, String... args) throws Exception {
        ProcessBuilder builder = ChildJvm.builder(LomiControl.class, List.of(args));
        builder.environment().putAll(environment);
        Path out = Files.createTempFile(temp, "mode", ".out");
        Path err = Files.createTempFile(temp, "mode", ".err");
        Process process =
                builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("exits at once: " + String.join(" ", args))
                .isTrue();
        return new ServiceRun(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** {@code systemd-analyze verify}: status 0 and not one complaint about the unit. */
    static void verifiedBySystemd(Path unit) throws Exception {
        Path tool = Path.of("/usr/bin/systemd-analyze");
        assertThat(Files.isExecutable(tool))
                .as("systemd-analyze is missing: apt-get install -y systemd")
                .isTrue();
        Process verify = new ProcessBuilder(tool.toString(), "verify", unit.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(verify.exitValue()).as(output).isZero();
        assertThat(output.lines()
                        .filter(line -> line.contains(unit.getFileName().toString()))
                        .toList())
                .as("systemd's complaints")
                .isEmpty();
    }
}
