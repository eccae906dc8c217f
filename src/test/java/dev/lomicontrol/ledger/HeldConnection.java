package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Eventually;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A write of its own on a pool thread that holds the ledger's connection until released, so that
 * every write submitted meanwhile queues for the writer thread. Closing releases it (for finally).
 */
final class HeldConnection implements AutoCloseable {

    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Future<?> holder;
    private final Ledger ledger;

    /** Starts the holding write on {@code pool} and returns once it holds the connection. */
    HeldConnection(Ledger ledger, ExecutorService pool) throws InterruptedException {
        this.ledger = ledger;
        holder = pool.submit(() -> ledger.change(c -> {
            holding.countDown();
            try {
                release.await(); // holds the connection until the other callers are queued
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Waits until {@code writes} writes ({@code what}) wait for the writer thread. */
    void awaitQueued(String what, int writes) {
        Eventually.until(
                what,
                Duration.ofSeconds(10),
                () -> ledger.queuedWrites() == writes,
                () -> ledger.queuedWrites() + " queued");
    }

    /** Lets the holding write commit and waits for it. */
    void release() throws Exception {
        release.countDown();
        holder.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        release.countDown();
    }
}
