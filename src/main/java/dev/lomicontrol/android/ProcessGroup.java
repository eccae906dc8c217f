package dev.lomicontrol.android;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Signals to a process group led by a process started under {@code setsid} (its pid is the group's id). */
final class ProcessGroup {

    private ProcessGroup() {}

    /** Sends SIG{@code signal} to every process of group {@code pgid} ({@code kill -s SIGNAL -- -PGID}); a group already gone is fine. */
    static void signal(long pgid, String signal) {
        try {
            Process kill = new ProcessBuilder(List.of("kill", "-s", signal, "--", "-" + pgid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new IllegalStateException("kill could not be run to signal process group " + pgid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether {@code process} exits within {@code wait}. */
    static boolean exited(ProcessHandle process, Duration wait) {
        try {
            process.onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }
}
