package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A workload in a child JVM ({@link CrashWorkload}, {@link PurgeWorkload}) whose stdout lines are
 * collected while it runs, then killed with SIGKILL at a moment the test seeds.
 */
final class KilledWorkload {

    private final Process child;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private KilledWorkload(Process child) {
        this.child = child;
        this.reader = new Thread(this::readLines);
        reader.start();
    }

    /** Starts {@code main} with {@code args}, its stderr discarded. */
    static KilledWorkload start(Class<?> main, List<String> args) throws IOException {
        return new KilledWorkload(ChildJvm.builder(main, args)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start());
    }

    boolean isAlive() {
        return child.isAlive();
    }

    int exitValue() {
        return child.exitValue();
    }

    /** The lines it printed so far. */
    List<String> lines() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    /** Kills it {@code millis} from now with SIGKILL; answers every line it printed. */
    List<String> killAfter(int millis) throws InterruptedException {
        // intentional, not synchronisation (docs/adr/0011): the seeded moment of the SIGKILL is the point of the test
        Thread.sleep(millis);
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        reader.join();
        return lines();
    }

    private void readLines() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException ignored) {
            // the child died; what was read is what was acknowledged
        }
    }
}
