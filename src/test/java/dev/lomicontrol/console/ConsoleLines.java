package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Console lines run through the real {@link ConsoleExecutor} for a caller whose cwd and home are the
 * test's temp directories; shared by the broker-context tests ({@link ConsoleTestSupport}) and the
 * Spring Shell slices ({@link ConsoleSliceSupport}), which supply the context.
 */
abstract class ConsoleLines {

    @Autowired
    ConsoleExecutor executor;

    @Autowired
    MutableClock clock;

    @TempDir
    Path temp;

    Path cwd;
    Path home;

    @BeforeEach
    void callerDirectories() {
        try {
            cwd = Files.createDirectories(temp.resolve("work"));
            home = Files.createDirectories(temp.resolve("home"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ConsoleResult run(String line) {
        return executor.run(line, new Caller(cwd, home));
    }

    /** A line that must succeed: its output. */
    String ok(String line) {
        ConsoleResult result = run(line);
        assertThat(result.exitCode()).as("%s -> %s", line, result).isEqualTo(ConsoleResult.OK);
        assertThat(result.stderr()).isEmpty();
        return result.stdout();
    }

    /** A line that must be refused with {@code code} (1 refused, 2 usage): its one-line error. */
    String fails(String line, int code) {
        ConsoleResult result = run(line);
        assertThat(result.exitCode()).as("%s -> %s", line, result).isEqualTo(code);
        assertThat(result.stderr()).isNotBlank().doesNotContain("\n");
        return result.stderr();
    }

    /** The runtime's client registration key; a slice context without a control endpoint gets one first. */
    static String registrationKey(BrokerRuntime runtime) {
        if (runtime.registrationKeyHex().isEmpty()) {
            runtime.controlEndpoint(
                    runtime.runtimeDirectory().resolve("control.sock"),
                    runtime.dataDirectory().resolve("agent-control/discovery.json"),
                    "ab".repeat(32));
        }
        return runtime.registrationKeyHex().orElseThrow();
    }
}
