package dev.lomicontrol.operations;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.pairing.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Calls that wait ({@code waitMs}, issue 20) without polling. A waiting call parks the thread that
 * already serves its connection (the control socket answers one call at a time per connection, on
 * that connection's thread, with at most 16 of them: the broker's connection cap) on one
 * {@link Waiter}; nothing else runs for it until something it watches changes. Waiting therefore
 * adds no thread at all: waiters ≤ connection threads ≤ 16, whatever the number of waiting calls.
 *
 * <p>What wakes a waiter: the ledger's change listener (fired by its writer right after a commit)
 * for the operations and workspaces it watches, a terminal's change listener, or anything else a
 * caller hooks up. Its session's revocation releases it at once with CONTROL_REVOKED. A waiter
 * registers before it reads what it waits for, so a change between the read and the sleep is never
 * missed; a spurious wake only costs one more read.
 */
public final class Waits implements AutoCloseable {

    private final Map<OperationId, Set<Waiter>> byOperation = new ConcurrentHashMap<>();
    private final Map<String, Set<Waiter>> byWorkspace = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Runnable unsubscribe;

    public Waits(Ledger ledger) {
        this.unsubscribe = ledger.onChange(this::changed);
    }

    /**
     * Polls {@code poll} until its value {@code answers}, or {@code wait} ends, and answers the last
     * value polled either way. {@code watch} says what may change the value (the waiter wakes on it
     * and polls again). With a zero wait it polls once. Throws CONTROL_REVOKED when the session loses
     * its authority meanwhile.
     */
    public <T> T polling(
            Session session, Duration wait, Consumer<Waiter> watch, Supplier<T> poll, Predicate<T> answers) {
        T now = poll.get();
        if (answers.test(now) || wait.isZero() || wait.isNegative()) {
            return now;
        }
        long deadline = System.nanoTime() + wait.toNanos();
        try (Waiter waiter = new Waiter(session)) {
            watch.accept(waiter);
            while (true) {
                T value = poll.get();
                if (answers.test(value) || !waiter.sleep(deadline)) {
                    return value;
                }
            }
        }
    }

    /** Calls waiting right now (tests and benchmarks). */
    public int waiting() {
        return waiting.get();
    }

    @Override
    public void close() {
        unsubscribe.run();
    }

    private void changed(Operation operation) {
        wakeAll(byOperation.get(operation.id()));
        operation.workspaceId().ifPresent(workspace -> wakeAll(byWorkspace.get(workspace)));
    }

    private static void wakeAll(@Nullable Set<Waiter> waiters) {
        if (waiters != null) {
            waiters.forEach(Waiter::wake);
        }
    }

    private static <K> Runnable register(Map<K, Set<Waiter>> index, K key, Waiter waiter) {
        index.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(waiter);
        return () -> index.computeIfPresent(key, (k, set) -> {
            set.remove(waiter);
            return set.isEmpty() ? null : set;
        });
    }

    /** One waiting call: woken by what it watches, released by its session's revocation, unregistered on close. */
    public final class Waiter implements AutoCloseable {

        private final Session session;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final List<Runnable> registrations = new ArrayList<>();
        private boolean signalled;
        private boolean revoked;

        private Waiter(Session session) {
            this.session = session;
            waiting.incrementAndGet();
            registrations.add(session.onRevoke(this::revoke));
        }

        /** Wakes on every ledger change of this operation. */
        public Waiter operation(OperationId id) {
            registrations.add(register(byOperation, id, this));
            return this;
        }

        /** Wakes on every ledger change of an operation in this workspace (a new event of its feed). */
        public Waiter workspace(String workspaceId) {
            registrations.add(register(byWorkspace, workspaceId, this));
            return this;
        }

        /** Also ends {@code registration} (e.g. a terminal's change listener that calls {@link #wake}) when the wait ends. */
        public Waiter also(Runnable registration) {
            registrations.add(registration);
            return this;
        }

        /** Something it watches changed: check again. Never blocks for long (any thread may call it). */
        public void wake() {
            lock.lock();
            try {
                signalled = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void revoke() {
            lock.lock();
            try {
                revoked = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** Sleeps until woken (true) or the deadline (false); CONTROL_REVOKED once the session lost its authority. */
        private boolean sleep(long deadline) {
            lock.lock();
            try {
                while (!signalled && !revoked) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(30)));
                }
                if (revoked) {
                    session.requireAlive();
                }
                signalled = false;
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            registrations.forEach(Runnable::run);
            registrations.clear();
            waiting.decrementAndGet();
        }
    }
}
