package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The single writer with group commit: one connection, one transaction at a time. Work items queue
 * up; the writer thread takes what has arrived (up to {@code maxBatch}), runs each inside its own
 * SAVEPOINT of one {@code BEGIN IMMEDIATE} transaction (an item alone in it needs none: its refusal
 * rolls the whole transaction back), and completes every item only after COMMIT returned. A caller that is alone in {@link #submit} while nobody holds the connection runs its item
 * as such a batch itself, on its own thread, by the same rules (ADR 0016). A runtime exception thrown by
 * an item (a {@link LomiException} refusal) rolls back that item alone. A failed commit fails the whole batch with
 * STORAGE_UNAVAILABLE; an I/O error or corruption marks the writer broken until restart (after a
 * failed fsync nothing on disk can be trusted to be what we think it is).
 *
 * <p>This class decides who runs a batch and when (the queue, the writer thread, a caller alone,
 * closing); {@link WriterBatch} is what a batch does on the connection.
 */
public final class Writer implements AutoCloseable {

    /** A unit of work run inside the writer's transaction. */
    @FunctionalInterface
    public interface Work<T> {
        @Nullable
        T run(Connection connection) throws SQLException;
    }

    /**
     * Requests of one kind that the writer runs together: all of them that are in one batch go to one
     * call, in one savepoint, in the order they arrived. That is as good as running them one after
     * another: every request in a batch was submitted before the batch began and none is answered
     * before its commit, so no caller can have seen another's answer.
     */
    @FunctionalInterface
    public interface Group<R, T> {
        /**
         * One outcome per request, in the order given, exactly as if the requests had run one after
         * another in that order. A runtime exception without an SQL cause fails every request of the
         * call and rolls back what the call wrote; an SQL error fails the batch.
         */
        List<T> runAll(Connection connection, List<R> requests) throws SQLException;
    }

    /** The connection and what runs on it; used only with {@link #connectionLock} held. */
    private final WriterBatch batches;

    private final int maxBatch;
    private final BlockingQueue<WriterTask<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closing;

    /** Held by whoever runs a batch on the connection: the writer thread or a caller running alone. */
    private final ReentrantLock connectionLock = new ReentrantLock();

    /** Callers inside {@link #submit} right now. */
    private final AtomicInteger callers = new AtomicInteger();

    /**
     * The last write refused because the store was full or read-only: when, why, and the commit
     * count then (a higher count now means writes have worked again since).
     */
    public record Refusal(java.time.Instant at, String detail, long commitsThen) {}

    public Writer(Connection connection, int maxBatch) {
        this.batches = new WriterBatch(StatementCache.wrap(connection));
        this.maxBatch = maxBatch;
        this.thread = new Thread(this::loop, "ledger-writer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Runs {@code work} durably; returns only after its transaction committed. */
    public <T> T submit(Work<T> work) {
        return submit(work, value -> {});
    }

    /**
     * Runs {@code work} durably and, once its transaction committed and only then, hands its value to
     * {@code committed} on the committing thread before the caller is released ({@code committed} must not
     * block: it is how the ledger tells listeners about a change that is now durable). Not called when
     * the work refused (its savepoint rolled back) or the commit failed.
     */
    public <T> T submit(Work<T> work, java.util.function.Consumer<? super T> committed) {
        return await(new WriterTask<>(work, null, null, committed));
    }

    /**
     * Runs {@code request} durably together with the other requests of {@code group} in the same batch
     * (see {@link Group}); {@code committed} as for {@link #submit(Work, java.util.function.Consumer)}.
     */
    public <R, T> T submit(Group<R, T> group, R request, java.util.function.Consumer<? super T> committed) {
        return await(new WriterTask<>(null, group, request, committed));
    }

    private <T> T await(WriterTask<T> task) {
        String reason = batches.broken();
        if (reason != null) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE,
                    "the ledger writer stopped after a storage fault (" + reason
                            + "); restart the broker so the store is checked again");
        }
        if (closing) {
            throw new LomiException(ErrorCode.APP_CLOSING, "the ledger is closing");
        }
        callers.incrementAndGet();
        try {
            if (!runAlone(task)) {
                queue.add(task);
                // close() may have drained the queue between the closing check above and this add; then
                // nobody would ever take the task. Taken back here, it is refused; if it is gone, the writer
                // thread runs it or close() refused it, so its future completes either way.
                if (closing && queue.remove(task)) {
                    throw new LomiException(ErrorCode.APP_CLOSING, "the ledger is closing");
                }
            }
            return task.future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.OUTCOME_UNKNOWN, "interrupted while waiting for the ledger commit", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            callers.decrementAndGet();
        }
    }

    /**
     * Runs {@code task} as a batch of its own on the calling thread when its caller is the only one
     * in {@link #submit} and nobody holds the connection: a caller that writes one item after another
     * (an agent's tool calls in turn) then pays no hand-over to the writer thread and back — two
     * thread wake-ups, each ~10–30 µs on this VM (docs/BENCHMARKS.md). Everything else about the
     * batch is the writer thread's: the same transaction, savepoint, commit and fault rules, one
     * connection, one transaction at a time. With other callers waiting, their items go to the
     * writer thread, which commits them together. False when the writer thread must take it.
     */
    private boolean runAlone(WriterTask<?> task) {
        if (task.work == CHECKPOINT || callers.get() != 1 || !connectionLock.tryLock()) {
            return false;
        }
        try {
            if (closing || batches.broken() != null || !queue.isEmpty()) {
                return false;
            }
            batches.run(List.of(task));
            batches.checkpointIfWanted();
            return true;
        } finally {
            connectionLock.unlock();
        }
    }

    /** Items waiting for the writer thread right now, also one it took while the connection is busy (tests). */
    public int queued() {
        return queue.size() + takenWaiting;
    }

    /** Items the writer thread took and holds while it waits for the connection. */
    private volatile int takenWaiting;

    /** Durable commits so far (for status and benchmarks). */
    public long commits() {
        return batches.commits();
    }

    public boolean isBroken() {
        return batches.broken() != null;
    }

    /** The last write refused for a full or read-only store, if any since start. */
    public java.util.Optional<Refusal> lastRefusal() {
        return java.util.Optional.ofNullable(batches.lastRefusal());
    }

    @Override
    public void close() {
        closing = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connectionLock.lock(); // a caller running its item alone finishes it first
        try {
            for (WriterTask<?> task; (task = queue.poll()) != null; ) {
                task.future.completeExceptionally(new LomiException(ErrorCode.APP_CLOSING, "the ledger is closing"));
            }
        } finally {
            connectionLock.unlock();
        }
    }

    private void loop() {
        List<WriterTask<?>> batch = new ArrayList<>(maxBatch);
        while (!closing) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            takenWaiting = batch.size();
            connectionLock.lock();
            takenWaiting = 0;
            try {
                runTaken(batch);
            } finally {
                connectionLock.unlock();
            }
            batch.clear();
        }
    }

    /** Runs {@code batch} (its first item taken, more drained here) with the connection held. */
    private void runTaken(List<WriterTask<?>> batch) {
        if (batch.get(0).work == CHECKPOINT) {
            batches.checkpointQuietly();
            batch.get(0).complete();
            return;
        }
        queue.drainTo(batch, maxBatch - 1);
        List<WriterTask<?>> checkpoints = new ArrayList<>();
        batch.removeIf(task -> task.work == CHECKPOINT && checkpoints.add(task));
        batches.run(batch);
        if (!checkpoints.isEmpty()) {
            batches.checkpointQuietly();
            checkpoints.forEach(WriterTask::complete);
        }
        batches.checkpointIfWanted();
    }

    /**
     * Copies the WAL into the database and truncates it, between batches, and returns when done (a
     * purge just freed pages): without it the WAL of a small store never reaches the auto-checkpoint
     * size and keeps the space the deleted rows had. After a commit that failed on a full store the
     * writer does the same by itself, so space freed meanwhile comes back.
     */
    public void checkpoint() {
        submit(CHECKPOINT);
    }

    /** The marker work of {@link #checkpoint()}: run outside any transaction, never batched with other work. */
    private static final Work<Object> CHECKPOINT = c -> null;

    /**
     * The writer's connection when the caller is a work item running on the committing thread (so a
     * library that asks a {@code DataSource} for a connection inside {@link #submit} writes in the
     * item's savepoint), else empty. The connection's transaction belongs to the writer: the caller
     * must not commit, roll back or close it (see {@link LedgerDataSource}).
     */
    java.util.Optional<Connection> boundConnection() {
        return batches.boundConnection();
    }
}
