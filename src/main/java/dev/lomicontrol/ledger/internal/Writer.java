package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteException;

/**
 * The single writer with group commit: one connection, one transaction at a time. Work items queue
 * up; the writer thread takes what has arrived (up to {@code maxBatch}), runs each inside its own
 * SAVEPOINT of one {@code BEGIN IMMEDIATE} transaction (an item alone in it needs none: its refusal
 * rolls the whole transaction back), and completes every item only after COMMIT returned. A caller that is alone in {@link #submit} while nobody holds the connection runs its item
 * as such a batch itself, on its own thread, by the same rules (ADR 0016). A runtime exception thrown by
 * an item (a {@link LomiException} refusal) rolls back that item alone. A failed commit fails the whole batch with
 * STORAGE_UNAVAILABLE; an I/O error or corruption marks the writer broken until restart (after a
 * failed fsync nothing on disk can be trusted to be what we think it is).
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

    private static final Logger log = LoggerFactory.getLogger(Writer.class);

    private final Connection connection;
    private final int maxBatch;
    private final BlockingQueue<Task<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final AtomicLong commits = new AtomicLong();
    private volatile @Nullable String broken;
    private volatile boolean closing;
    private volatile @Nullable Refusal lastRefusal;
    private volatile long lastWarning = System.nanoTime() - WARNING_INTERVAL_NANOS;
    /**
     * The thread running the current work item (the writer thread, or a caller running its item
     * alone), null between items; {@link #inWork} is true while it runs. Only that thread ever finds
     * itself here, so only it acts on {@link #inWork}.
     */
    private volatile @Nullable Thread owner;

    private boolean inWork;

    /** Held by whoever runs a batch on the connection: the writer thread or a caller running alone. */
    private final ReentrantLock connectionLock = new ReentrantLock();

    /** Callers inside {@link #submit} right now. */
    private final AtomicInteger callers = new AtomicInteger();

    /** How often a refused write is logged at most while the store stays full or read-only. */
    private static final long WARNING_INTERVAL_NANOS = 30_000_000_000L;

    /**
     * The last write refused because the store was full or read-only: when, why, and the commit
     * count then (a higher count now means writes have worked again since).
     */
    public record Refusal(java.time.Instant at, String detail, long commitsThen) {}

    public Writer(Connection connection, int maxBatch) {
        this.connection = StatementCache.wrap(connection);
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
        return await(new Task<>(work, null, null, committed));
    }

    /**
     * Runs {@code request} durably together with the other requests of {@code group} in the same batch
     * (see {@link Group}); {@code committed} as for {@link #submit(Work, java.util.function.Consumer)}.
     */
    public <R, T> T submit(Group<R, T> group, R request, java.util.function.Consumer<? super T> committed) {
        return await(new Task<>(null, group, request, committed));
    }

    private <T> T await(Task<T> task) {
        String reason = broken;
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
    private boolean runAlone(Task<?> task) {
        if (task.work == CHECKPOINT || callers.get() != 1 || !connectionLock.tryLock()) {
            return false;
        }
        try {
            if (closing || broken != null || !queue.isEmpty()) {
                return false;
            }
            runBatch(List.of(task));
            checkpointIfWanted();
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
        return commits.get();
    }

    public boolean isBroken() {
        return broken != null;
    }

    /** The last write refused for a full or read-only store, if any since start. */
    public java.util.Optional<Refusal> lastRefusal() {
        return java.util.Optional.ofNullable(lastRefusal);
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
            for (Task<?> task; (task = queue.poll()) != null; ) {
                task.future.completeExceptionally(new LomiException(ErrorCode.APP_CLOSING, "the ledger is closing"));
            }
        } finally {
            connectionLock.unlock();
        }
    }

    private void loop() {
        List<Task<?>> batch = new ArrayList<>(maxBatch);
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
    private void runTaken(List<Task<?>> batch) {
        if (batch.get(0).work == CHECKPOINT) {
            checkpointQuietly();
            batch.get(0).complete();
            return;
        }
        queue.drainTo(batch, maxBatch - 1);
        List<Task<?>> checkpoints = new ArrayList<>();
        batch.removeIf(task -> task.work == CHECKPOINT && checkpoints.add(task));
        runBatch(batch);
        if (!checkpoints.isEmpty()) {
            checkpointQuietly();
            checkpoints.forEach(Task::complete);
        }
        checkpointIfWanted();
    }

    private void checkpointIfWanted() {
        if (checkpointWanted) {
            checkpointWanted = false;
            checkpointQuietly();
        }
    }

    private volatile boolean checkpointWanted;

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

    /** {@code PRAGMA wal_checkpoint(TRUNCATE)} outside any transaction; a busy or failing checkpoint is harmless and only logged. */
    private void checkpointQuietly() {
        try (java.sql.Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            log.debug("ledger: checkpoint not done: {}", e.toString());
        }
    }

    private void runBatch(List<Task<?>> batch) {
        if (broken != null) {
            failAll(
                    batch,
                    new LomiException(
                            ErrorCode.STORAGE_UNAVAILABLE,
                            "the ledger writer stopped after a storage fault (" + broken + ")"));
            return;
        }
        try {
            execute("BEGIN IMMEDIATE");
        } catch (SQLException e) {
            failAll(batch, storageFault("cannot start a write transaction", e));
            return;
        }
        List<List<Task<?>>> units = units(batch);
        // a unit alone in its transaction needs no savepoint: its refusal rolls the transaction back
        boolean savepoint = units.size() > 1;
        boolean refusedAlone = false;
        for (List<Task<?>> unit : units) {
            try {
                refusedAlone = unit.get(0).group == null
                        ? runInSavepoint(unit.get(0), savepoint)
                        : runGroupInSavepoint(unit, savepoint);
            } catch (SQLException e) {
                rollbackQuietly();
                failAll(batch, storageFault("write failed", e));
                return;
            }
        }
        if (refusedAlone) {
            batch.forEach(Task::complete);
            return;
        }
        try {
            execute("COMMIT");
            commits.incrementAndGet();
        } catch (SQLException e) {
            rollbackQuietly();
            failAll(batch, storageFault("commit failed; the effect is blocked", e));
            checkpointWanted = true;
            return;
        }
        for (Task<?> task : batch) {
            task.committed();
        }
        for (Task<?> task : batch) {
            task.complete();
        }
    }

    /** The batch in the order it runs: each plain item alone, a group's requests together where its first one is. */
    private static List<List<Task<?>>> units(List<Task<?>> batch) {
        List<List<Task<?>>> units = new ArrayList<>(batch.size());
        Map<Group<?, ?>, List<Task<?>>> groups = new IdentityHashMap<>();
        for (Task<?> task : batch) {
            Group<?, ?> group = task.group;
            if (group == null) {
                units.add(List.of(task));
                continue;
            }
            List<Task<?>> members = groups.get(group);
            if (members == null) {
                members = new ArrayList<>();
                groups.put(group, members);
                units.add(members);
            }
            members.add(task);
        }
        return units;
    }

    /**
     * Runs the requests of one group (every task of {@code members} has it) in a savepoint, or without
     * one when the unit is alone in the transaction; true when it refused alone and rolled the
     * transaction back.
     */
    @SuppressWarnings("unchecked")
    private boolean runGroupInSavepoint(List<Task<?>> members, boolean savepoint) throws SQLException {
        Group<Object, Object> group = (Group<Object, Object>) Objects.requireNonNull(members.get(0).group);
        List<Object> requests = new ArrayList<>(members.size());
        for (Task<?> task : members) {
            requests.add(task.request);
        }
        begin(savepoint);
        try {
            List<Object> values = runBound(c -> group.runAll(c, requests));
            if (values == null || values.size() != members.size()) {
                throw new IllegalStateException(
                        "a writer group answered " + (values == null ? "nothing" : values.size()) + " outcomes for "
                                + members.size() + " requests");
            }
            for (int i = 0; i < members.size(); i++) {
                ((Task<Object>) members.get(i)).value = values.get(i);
            }
            release(savepoint);
            return false;
        } catch (RuntimeException e) {
            return refuse(members, e, savepoint);
        }
    }

    /** As {@link #runGroupInSavepoint} for a plain item. */
    private <T> boolean runInSavepoint(Task<T> task, boolean savepoint) throws SQLException {
        begin(savepoint);
        try {
            task.value = runBound(Objects.requireNonNull(task.work, "a plain item has work"));
            release(savepoint);
            return false;
        } catch (RuntimeException e) {
            return refuse(List.of(task), e, savepoint);
        }
    }

    /**
     * What a unit's runtime exception means: an SQL error under it fails the batch (thrown on); anything
     * else refuses the unit's {@code tasks} and rolls back what they wrote (see {@link #rollBack}).
     */
    private boolean refuse(List<? extends Task<?>> tasks, RuntimeException e, boolean savepoint) throws SQLException {
        SQLException sql = sqlCause(e);
        if (sql != null) {
            throw sql;
        }
        for (Task<?> task : tasks) {
            task.error = e;
        }
        return rollBack(savepoint);
    }

    private void begin(boolean savepoint) throws SQLException {
        if (savepoint) {
            execute("SAVEPOINT item");
        }
    }

    private void release(boolean savepoint) throws SQLException {
        if (savepoint) {
            execute("RELEASE item");
        }
    }

    /** Undoes a refused unit: back to its savepoint, or the whole transaction when it ran alone (true). */
    private boolean rollBack(boolean savepoint) throws SQLException {
        if (!savepoint) {
            execute("ROLLBACK");
            return true;
        }
        execute("ROLLBACK TO item");
        execute("RELEASE item");
        return false;
    }

    /**
     * The SQL error under a runtime exception that a library (Spring Data JDBC) wrapped it in, so an
     * SQL failure is a storage fault of the batch whichever way it was raised; null for a refusal.
     */
    private static @Nullable SQLException sqlCause(RuntimeException e) {
        if (e instanceof LomiException) {
            return null;
        }
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof SQLException) {
                return (SQLException) cause;
            }
        }
        return null;
    }

    private <T> @Nullable T runBound(Work<T> work) throws SQLException {
        owner = Thread.currentThread();
        inWork = true;
        try {
            return work.run(connection);
        } finally {
            inWork = false;
            owner = null;
        }
    }

    /**
     * The writer's connection when the caller is a work item running on the committing thread (so a
     * library that asks a {@code DataSource} for a connection inside {@link #submit} writes in the
     * item's savepoint), else empty. The connection's transaction belongs to the writer: the caller
     * must not commit, roll back or close it (see {@link LedgerDataSource}).
     */
    java.util.Optional<Connection> boundConnection() {
        return Thread.currentThread() == owner && inWork
                ? java.util.Optional.of(connection)
                : java.util.Optional.empty();
    }

    private LomiException storageFault(String what, SQLException e) {
        int base = e instanceof SQLiteException
                ? ((SQLiteException) e).getResultCode().code & 0xff
                : e.getErrorCode() & 0xff;
        String detail;
        switch (base) {
            case 13:
                detail = "the disk or the store's size limit is full";
                refused(detail, "free space on the data directory's file system");
                break;
            case 8:
                detail = "the store is read-only";
                refused(detail, "make the data directory writable again (remount it read-write, fix permissions)");
                break;
            case 10:
            case 11:
            case 26:
                detail = "I/O error or corruption";
                broken = what + ": " + e.getMessage();
                log.error("ledger writer stopped: {}", broken, e);
                break;
            default:
                detail = "SQLite error";
        }
        return new LomiException(ErrorCode.STORAGE_UNAVAILABLE, what + " (" + detail + "): " + e.getMessage(), e);
    }

    /** Remembers the refusal for the admin's status and logs it, at most every 30 s while it lasts. */
    private void refused(String detail, String action) {
        lastRefusal = new Refusal(java.time.Instant.now(), detail, commits.get());
        long now = System.nanoTime();
        if (now - lastWarning >= WARNING_INTERVAL_NANOS) {
            lastWarning = now;
            log.warn(
                    "ledger: a write was refused because {}; agents' changes are blocked until you {} (no restart needed)",
                    detail,
                    action);
        }
    }

    /**
     * Transaction control runs as statements compiled once (the statement cache): parsing them again
     * for every batch cost more than running them. sqlite-jdbc resets a statement when its update
     * returns or throws, so none is left half-executed in the cache; one that failed is evicted.
     */
    private void execute(String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.executeUpdate();
        }
    }

    private void rollbackQuietly() {
        try {
            execute("ROLLBACK");
        } catch (SQLException ignored) {
            // SQLite may already have rolled back (e.g. after SQLITE_FULL)
        }
    }

    private static void failAll(List<Task<?>> batch, LomiException error) {
        for (Task<?> task : batch) {
            task.future.completeExceptionally(error);
        }
    }

    private static final class Task<T> {
        /** What a plain item runs; null for a request of a group. */
        final @Nullable Work<T> work;

        /** The group a request belongs to; null for a plain item. */
        final @Nullable Group<?, T> group;

        final @Nullable Object request;
        final java.util.function.Consumer<? super T> afterCommit;
        final CompletableFuture<T> future = new CompletableFuture<>();

        @Nullable
        T value;

        @Nullable
        RuntimeException error;

        Task(
                @Nullable Work<T> work,
                @Nullable Group<?, T> group,
                @Nullable Object request,
                java.util.function.Consumer<? super T> afterCommit) {
            this.work = work;
            this.group = group;
            this.request = request;
            this.afterCommit = afterCommit;
        }

        /** Tells the after-commit hook of an item that did not refuse; a failing hook never fails the committed work. */
        void committed() {
            if (error != null) {
                return;
            }
            try {
                afterCommit.accept(value);
            } catch (RuntimeException e) {
                log.warn("ledger: an after-commit listener failed: {}", e.toString());
            }
        }

        void complete() {
            if (error != null) {
                future.completeExceptionally(error);
            } else {
                future.complete(value);
            }
        }
    }
}
