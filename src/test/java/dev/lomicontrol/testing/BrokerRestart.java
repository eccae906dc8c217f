package dev.lomicontrol.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A SIGKILL of a running broker child at a seeded moment and the next broker run, started right
 * after the kill (a supervisor would): the crash rounds of {@code proof/crash} and the Android input
 * crash test.
 */
public final class BrokerRestart {

    /** Starts the next broker run. */
    @FunctionalInterface
    public interface Start {
        BrokerChildProcess start() throws Exception;
    }

    private final AtomicBoolean killed = new AtomicBoolean();
    private volatile int exitCode = -1;
    private CompletableFuture<BrokerChildProcess> next = new CompletableFuture<>();

    private BrokerRestart() {}

    /** Kills {@code running} after {@code delayMillis}, then starts the next run with {@code start}. */
    public static BrokerRestart after(BrokerChildProcess running, int delayMillis, Start start) {
        BrokerRestart restart = new BrokerRestart();
        restart.next = CompletableFuture.supplyAsync(() -> {
            try {
                // intentional, not synchronisation (docs/adr/0011): the seeded moment of the SIGKILL
                Thread.sleep(delayMillis);
                restart.exitCode = running.kill();
                restart.killed.set(true);
                return start.start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return restart;
    }

    /** Set once the SIGKILL is sent. */
    public AtomicBoolean killed() {
        return killed;
    }

    /** The killed run's exit status ({@code -1} until the kill). */
    public int exitCode() {
        return exitCode;
    }

    /** The next broker run, once started. */
    public CompletableFuture<BrokerChildProcess> next() {
        return next;
    }
}
