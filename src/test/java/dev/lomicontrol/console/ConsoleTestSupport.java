package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.BrokerApplication;
import dev.lomicontrol.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.annotation.DirtiesContext;

/**
 * One real broker context (every bean, a fresh data directory, a clock the tests move, the admin
 * socket on) per test class ({@link DirtiesContext} after each class: no class sees another's
 * receipts or clock, whatever the order); lines run through the real
 * {@link ConsoleExecutor} for a caller whose cwd and home are this test's temp directories.
 */
@SpringBootTest(classes = {BrokerApplication.class, ConsoleTestSupport.TestClock.class},
        properties = {"lomi.data-dir=${java.io.tmpdir}/lomi-console-tests-${random.uuid}", "spring.main.allow-bean-definition-overriding=true"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ConsoleTestSupport {

    @TestConfiguration
    static class TestClock {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Clock.systemUTC().instant());
        }
    }

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

    /** Runs a line that must succeed and returns its output. */
    String ok(String line) {
        ConsoleResult result = run(line);
        assertThat(result.exitCode()).as("%s -> %s", line, result).isZero();
        assertThat(result.stderr()).isEmpty();
        return result.stdout();
    }

    /** Runs a line that must fail with {@code code} and returns its one-line error. */
    String fails(String line, int code) {
        ConsoleResult result = run(line);
        assertThat(result.exitCode()).as("%s -> %s", line, result).isEqualTo(code);
        assertThat(result.stderr()).isNotBlank().doesNotContain("\n");
        return result.stderr();
    }
}
